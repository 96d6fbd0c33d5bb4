// Comparisons: they must fail on a single wrong element, report where, and accept rounding.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "hb/compare.h"

TEST_CASE("compare_exact passes equal arrays and names the first and last mismatches", "[compare]") {
  std::vector<int> want(100), got(100);
  for (int i = 0; i < 100; ++i) want[i] = got[i] = i * 3;
  CHECK(hb::compare_exact(got.data(), want.data(), got.size()).ok);

  for (int i : {2, 10, 20, 30, 40, 50, 60, 70, 80, 90, 97, 99}) got[i] += 1;
  const auto r = hb::compare_exact(got.data(), want.data(), got.size(), "ints");
  CHECK_FALSE(r.ok);
  CHECK(r.mismatches == 12);
  CHECK(r.report.find("12 of 100 ints") != std::string::npos);
  CHECK(r.report.find("[2] got 7, want 6") != std::string::npos);
  CHECK(r.report.find("[99] got 298, want 297") != std::string::npos);
  CHECK(r.report.find("...") != std::string::npos);
  CHECK(r.report.find("[50]") == std::string::npos);  // middle ones are elided
}

TEST_CASE("an empty comparison passes", "[compare]") {
  CHECK(hb::compare_exact<int, int>(nullptr, nullptr, 0).ok);
}

TEST_CASE("ulp_distance counts representable floats between two values", "[compare]") {
  CHECK(hb::ulp_distance(1.0f, 1.0f) == 0);
  CHECK(hb::ulp_distance(1.0f, std::nextafter(1.0f, 2.0f)) == 1);
  CHECK(hb::ulp_distance(-0.0f, 0.0f) == 0);
  const float tiny = std::numeric_limits<float>::denorm_min();
  CHECK(hb::ulp_distance(-tiny, tiny) == 2);
  CHECK(hb::ulp_distance(1.0, std::nextafter(std::nextafter(1.0, 2.0), 2.0)) == 2);
  CHECK(hb::ulp_distance(NAN, 1.0f) > 1000000);
}

TEST_CASE("compare_ulp accepts rounding and rejects NaN", "[compare]") {
  std::vector<float> want{1.0f, 2.0f, 3.0f};
  std::vector<float> got{std::nextafter(1.0f, 2.0f), 2.0f, 3.0f};
  CHECK(hb::compare_ulp(got.data(), want.data(), 3, 1).ok);
  CHECK_FALSE(hb::compare_ulp(got.data(), want.data(), 3, 0).ok);
  got[2] = NAN;
  CHECK_FALSE(hb::compare_ulp(got.data(), want.data(), 3, 1000).ok);
}

TEST_CASE("compare_relative checks floats against a double reference", "[compare]") {
  std::vector<double> want{1000.0, -0.5, 0.0};
  std::vector<float> got{1000.001f, -0.5f, 1e-9f};
  CHECK(hb::compare_relative(got.data(), want.data(), 3, 1e-5, 1e-8).ok);
  got[0] = 1000.1f;
  const auto r = hb::compare_relative(got.data(), want.data(), 3, 1e-5, 1e-8);
  CHECK_FALSE(r.ok);
  CHECK(r.mismatches == 1);
  CHECK(r.max_error == Approx(1e-4).epsilon(0.05));
  got[0] = NAN;
  CHECK_FALSE(hb::compare_relative(got.data(), want.data(), 3, 1.0, 1.0).ok);
}
