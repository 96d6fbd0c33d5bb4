// Chapter 12 tests that need no GPU: the CPU reference, the variant table, and the
// block-size checks that every launcher makes before it touches the GPU.
#include <catch2/catch.hpp>

#include <cctype>
#include <climits>
#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hb/error.h"
#include "hb/random.h"
#include "reduction.h"
#include "reference.h"

namespace {

// "10a" -> (10, 'a'); "7" -> (7, ' ').
std::pair<int, char> split_id(const std::string& id) {
  std::size_t i = 0;
  while (i < id.size() && std::isdigit(static_cast<unsigned char>(id[i]))) ++i;
  return {std::stoi(id.substr(0, i)), i < id.size() ? id[i] : ' '};
}

}  // namespace

TEST_CASE("the CPU reference sums int32 exactly in 64 bits") {
  const std::vector<int> big(1000, INT_MAX);
  CHECK(ch12::cpu_sum(big.data(), big.size()) == 1000LL * INT_MAX);
  const std::vector<int> small(1000, INT_MIN);
  CHECK(ch12::cpu_sum(small.data(), small.size()) == 1000LL * INT_MIN);
  const std::vector<int> mixed = {1, -2, 3, -4, 5};
  CHECK(ch12::cpu_sum(mixed.data(), mixed.size()) == 3);
  CHECK(ch12::cpu_sum(mixed.data(), 0) == 0);
}

TEST_CASE("the wrapped CPU reference behaves like 32-bit two's complement addition") {
  const std::vector<int> v = {INT_MAX, 1};
  CHECK(ch12::cpu_sum_wrapped(v.data(), v.size()) == INT_MIN);
  const std::vector<int> w = {INT_MIN, -1};
  CHECK(ch12::cpu_sum_wrapped(w.data(), w.size()) == INT_MAX);
  const auto data = ch12::make_input(100000, 7);
  CHECK(ch12::cpu_sum_wrapped(data.data(), data.size()) ==
        static_cast<long long>(static_cast<int>(
            static_cast<unsigned>(ch12::cpu_sum(data.data(), data.size()) & 0xffffffffLL))));
}

TEST_CASE("the CPU reference counts the elements a predicate selects") {
  const std::vector<int> v = {-3, -1, 0, 1, 2, 3, 4};
  CHECK(ch12::cpu_count_if(v.data(), v.size(), ch12::IsPositive{}) == 4);
  CHECK(ch12::cpu_count_if(v.data(), v.size(), ch12::IsOdd{}) == 4);
  const std::vector<float> f = {-0.5f, 0.0f, 0.25f};
  CHECK(ch12::cpu_count_if(f.data(), f.size(), ch12::IsPositive{}) == 1);
  CHECK(ch12::cpu_expected(ch12::Result::CountPositive, v.data(), v.size()) == 4);
  CHECK(ch12::cpu_expected(ch12::Result::Sum64, v.data(), v.size()) == 6);
}

TEST_CASE("typed CPU reductions compute sums and squares and extremes") {
  const std::vector<int> i = {3, -7, 2, 10};
  CHECK(ch12::cpu_reduce<ch12::Sum<int>>(i.data(), i.size()).sum == 8);
  const auto sq = ch12::cpu_reduce<ch12::SumSquares<int>>(i.data(), i.size());
  CHECK(sq.sum == 8);
  CHECK(sq.sumsq == 9 + 49 + 4 + 100);
  CHECK(ch12::cpu_reduce<ch12::Min<int>>(i.data(), i.size()).value == -7);
  CHECK(ch12::cpu_reduce<ch12::Max<int>>(i.data(), i.size()).value == 10);
  // The identities: what an empty input reduces to.
  CHECK(ch12::cpu_reduce<ch12::Min<int>>(i.data(), 0).value == INT_MAX);
  CHECK(ch12::cpu_reduce<ch12::Max<float>>(static_cast<const float*>(nullptr), 0).value < -1e38f);
  const std::vector<float> f = {0.5f, -0.25f, 2.0f};
  const auto fs = ch12::cpu_reduce<ch12::SumSquares<float>>(f.data(), f.size());
  CHECK(fs.sum == 2.25);
  CHECK(fs.sumsq == 0.25 + 0.0625 + 4.0);
  CHECK(ch12::cpu_reduce<ch12::Min<double>>(static_cast<const double*>(nullptr), 0).value > 1e308);
}

TEST_CASE("float sums of the test data are exact in double so the GPU must match exactly") {
  // uniform_float in [-1, 1) gives multiples of 2^-23; 2^27 of them sum to < 2^27 in
  // magnitude, which needs at most 27 + 23 = 50 bits of a double's 53.
  const auto f = hb::uniform_vector<float>(1 << 16, 3, -1.0f, 1.0f);
  for (float x : f) REQUIRE(static_cast<double>(x) * 8388608.0 == std::floor(static_cast<double>(x) * 8388608.0));
  const std::vector<float> rev(f.rbegin(), f.rend());
  CHECK(ch12::cpu_reduce<ch12::Sum<float>>(f.data(), f.size()).sum ==
        ch12::cpu_reduce<ch12::Sum<float>>(rev.data(), rev.size()).sum);
}

TEST_CASE("the floating-point tolerance grows with n and with the sum of magnitudes") {
  CHECK(ch12::sum_tolerance<double>(1000, 1.0L) > ch12::sum_tolerance<double>(10, 1.0L));
  CHECK(ch12::sum_tolerance<double>(1000, 100.0L) > ch12::sum_tolerance<double>(1000, 1.0L));
  CHECK(ch12::sum_tolerance<float>(1000, 1.0L) > ch12::sum_tolerance<double>(1000, 1.0L));
  CHECK(ch12::sum_tolerance<double>(0, 0.0L) == 0.0);
  const std::vector<double> d = {1.0, 2.0};
  CHECK(ch12::matches(3.0, 3.0, d.data(), d.size()));
  CHECK_FALSE(ch12::matches(3.001, 3.0, d.data(), d.size()));
}

TEST_CASE("every row of the variant table is a file of kernels/, in the same order") {
  // CMake lists kernels/ as id:program pairs (hb_variant_kernels); the table must match.
  std::vector<std::string> files;
  std::istringstream in(CH12_PROGRAMS);
  for (std::string pair; in >> pair;) files.push_back(pair);
  std::vector<std::string> rows;
  for (const auto& v : ch12::variants()) rows.push_back(std::string(v.id) + ":" + v.program());
  CHECK(rows == files);
}

TEST_CASE("every variant has a name, a title and a block size it accepts") {
  std::set<std::string> names;
  for (const auto& v : ch12::variants()) {
    INFO("variant " << v.id);
    CHECK(std::string(v.title).size() > 10);
    CHECK(names.insert(v.name).second);
    CHECK(v.accepts_threads(v.default_threads));
  }
  CHECK(std::string(ch12::variants().front().id) == "0");
  CHECK(ch12::variants().front().threads == ch12::BlockRule::Library);
}

TEST_CASE("variant ids follow the order of the text") {
  const auto& t = ch12::variants();
  for (std::size_t i = 1; i < t.size(); ++i) {
    INFO(t[i - 1].id << " before " << t[i].id);
    const auto a = split_id(t[i - 1].id);
    const auto b = split_id(t[i].id);
    const bool next_number = b.first == a.first + 1 && (b.second == ' ' || b.second == 'a');
    const bool next_letter = b.first == a.first && a.second != ' ' && b.second == a.second + 1;
    CHECK((next_number || next_letter));
  }
}

TEST_CASE("launchers reject block sizes their variant does not accept before touching the GPU") {
  const ch12::Variant v = GENERATE(from_range(ch12::variants()));
  ch12::Scratch empty;  // no device memory: a launcher that got past its check would fail
  for (int t : {-5, 0, 1, 3, 31, 33, 48, 96, 100, 1000, 1023, 1025, 2048}) {
    if (v.accepts_threads(t)) continue;
    INFO("variant " << v.id << " threads " << t);
    CHECK_THROWS_AS(v.launch(nullptr, 1000, nullptr, t, empty, nullptr), hb::UsageError);
  }
}

TEST_CASE("variant 3 covers every power of two from 1 to 1024 and nothing else") {
  ch12::Scratch empty;
  const auto& v3 = ch12::find_variant("3");
  for (int t = 1; t <= 1024; t *= 2) CHECK(v3.accepts_threads(t));
  CHECK_THROWS_WITH(v3.launch(nullptr, 10, nullptr, 1000, empty, nullptr),
                    Catch::Contains("variant 3") && Catch::Contains("power of two"));
}

TEST_CASE("typed launchers reject bad block sizes too") {
  ch12::Scratch empty;
  CHECK_THROWS_AS((ch12::reduce7_typed<ch12::Sum<float>, float>(nullptr, 10, nullptr, 100, empty, nullptr)),
                  hb::UsageError);
  CHECK_THROWS_AS((ch12::count8a_syncthreads_count<int, ch12::IsOdd>(nullptr, 10, nullptr, 0, empty, nullptr)),
                  hb::UsageError);
  CHECK_THROWS_AS((ch12::count8b_ballot<int, ch12::IsOdd>(nullptr, 10, nullptr, 33, empty, nullptr)),
                  hb::UsageError);
  CHECK_THROWS_AS((ch12::reduce10e_typed<double, double>(nullptr, 10, nullptr, 16, empty, nullptr)),
                  hb::UsageError);
}

TEST_CASE("unknown variant ids are usage errors that list the valid ones") {
  CHECK(std::string(ch12::find_variant("10c").name) == "global_memory");
  CHECK(ch12::find_variant("10f").program() == "reduction10f_recursive");
  CHECK_THROWS_AS(ch12::find_variant("99"), hb::UsageError);
  CHECK_THROWS_WITH(ch12::find_variant("4x"), Catch::Contains("11b"));
  CHECK_THROWS_AS(ch12::find_variant(""), hb::UsageError);
}
