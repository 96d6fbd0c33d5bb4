// Seeded generators: reproducible, in range, and not constant.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "hb/random.h"

TEST_CASE("the same seed gives the same data and another seed different data", "[random]") {
  const auto a = hb::uniform_vector<float>(1000, 7);
  const auto b = hb::uniform_vector<float>(1000, 7);
  const auto c = hb::uniform_vector<float>(1000, 8);
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("element i depends only on the seed and i", "[random]") {
  const auto big = hb::uniform_vector<float>(100, 3);
  const auto small = hb::uniform_vector<float>(10, 3);
  CHECK(std::equal(small.begin(), small.end(), big.begin()));
}

TEST_CASE("uniform floats stay between lo and hi and spread over the range", "[random]") {
  const auto v = hb::uniform_vector<float>(100000, 11, -2.0f, 3.0f);
  const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
  CHECK(*mn >= -2.0f);
  CHECK(*mx < 3.0f);
  CHECK(*mn < -1.99f);
  CHECK(*mx > 2.99f);
  double mean = 0;
  for (float x : v) mean += x;
  mean /= double(v.size());
  CHECK(mean == Approx(0.5).margin(0.03));
}

TEST_CASE("uniform doubles stay between lo and hi", "[random]") {
  const auto v = hb::uniform_vector<double>(10000, 5, 10.0, 20.0);
  for (double x : v) {
    REQUIRE(x >= 10.0);
    REQUIRE(x < 20.0);
  }
}

TEST_CASE("uniform ints hit every value of a small closed range", "[random]") {
  const auto v = hb::uniform_vector<int>(10000, 9, -3, 3);
  const std::set<int> seen(v.begin(), v.end());
  CHECK(seen == std::set<int>{-3, -2, -1, 0, 1, 2, 3});
}

TEST_CASE("uniform bytes cover all 256 values", "[random]") {
  const auto v = hb::uniform_vector<std::uint8_t>(1 << 16, 1);
  const std::set<int> seen(v.begin(), v.end());
  CHECK(seen.size() == 256);
}
