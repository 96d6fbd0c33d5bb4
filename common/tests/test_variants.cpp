// The shared pieces of every chapter's variant table: lookup by id, block-size rules, and the
// switch from a run-time block size to a template argument.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "hb/error.h"
#include "hb/variants.h"

namespace {
struct Row {
  const char* id;
  int value;
};
const std::vector<Row> kRows = {{"0", 10}, {"8a", 20}, {"11b", 30}};
}  // namespace

TEST_CASE("a row is found by its id, and an unknown id is a usage error listing the valid ones") {
  CHECK(hb::find_row(kRows, "8a").value == 20);
  CHECK(hb::ids_of(kRows) == "0, 8a, 11b");
  CHECK_THROWS_AS(hb::find_row(kRows, "8"), hb::UsageError);
  CHECK_THROWS_WITH(hb::find_row(kRows, "12", "--scan"),
                    Catch::Contains("--scan '12'") && Catch::Contains("0, 8a, 11b"));
  // A name that a terminal would interpret is shown escaped.
  CHECK_THROWS_WITH(hb::find_row(kRows, "\x1b[2J"), !Catch::Contains("\x1b"));
  CHECK_THROWS_AS(hb::find_row(kRows, ""), hb::UsageError);
}

TEST_CASE("block-size rules accept exactly the sizes they describe") {
  using hb::BlockRule;
  for (int t = -1; t <= 1100; ++t) {
    INFO("threads " << t);
    const bool range = t >= 1 && t <= 1024;
    const bool pow2 = range && (t & (t - 1)) == 0;
    CHECK(hb::accepts(BlockRule::Any, t) == range);
    CHECK(hb::accepts(BlockRule::PowerOfTwo, t) == pow2);
    CHECK(hb::accepts(BlockRule::PowerOfTwoFrom32, t) == (pow2 && t >= 32));
    CHECK(hb::accepts(BlockRule::PowerOfTwo32To512, t) == (pow2 && t >= 32 && t <= 512));
    CHECK(hb::accepts(BlockRule::MultipleOf32, t) == (range && t % 32 == 0));
  }
  CHECK(hb::describe(BlockRule::PowerOfTwo).find("power of two") != std::string::npos);
  CHECK_THROWS_WITH(hb::require_threads("variant 3", BlockRule::PowerOfTwo, 1000),
                    Catch::Contains("variant 3") && Catch::Contains("power of two"));
  CHECK_NOTHROW(hb::require_threads("variant 3", BlockRule::PowerOfTwo, 64));
}

TEST_CASE("a power-of-two block size becomes the template argument of the same value") {
  for (int t = 1; t <= 1024; t *= 2) {
    int seen = 0;
    hb::with_power_of_two<1, 1024>(t, [&](auto c) { seen = decltype(c)::value; });
    CHECK(seen == t);
  }
  int seen = 0;
  hb::with_power_of_two<32, 1024>(32, [&](auto c) { seen = decltype(c)::value; });
  CHECK(seen == 32);
  CHECK_THROWS_AS((hb::with_power_of_two<32, 1024>(16, [](auto) {})), std::logic_error);
  CHECK_THROWS_AS((hb::with_power_of_two<1, 1024>(96, [](auto) {})), std::logic_error);
  CHECK(hb::ceil_div(10, 4) == 3);
  CHECK(hb::ceil_div(0, 4) == 0);
}
