// The parts of hb/bench.h that need no GPU: the failure list, the check column, the poison
// test, and the two sweeps over a table of variants, run on rows whose measurements are made up.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "hb/bench.h"
#include "hb/error.h"
#include "hb/memory.h"

namespace {

// A row that reports rate = threads / 32 + n (so 1024 threads is its best), or fails at 64.
hb::SweepRow made_up(const std::string& id, bool reference, bool fail_at_64) {
  hb::SweepRow row;
  row.id = id;
  row.title = "variant " + id;
  row.label = "variant " + id;
  row.reference = reference;
  row.default_threads = reference ? 0 : 256;
  row.accepts = [](int t) { return t >= 64; };
  row.measure = [fail_at_64](int t, std::size_t n) {
    hb::Sample s;
    s.median_ms = 1.0;
    s.rates = {t / 32.0 + double(n), 2.0};
    s.ok = !(fail_at_64 && t == 64);
    s.failure = s.ok ? "" : "wrong";
    return s;
  };
  return row;
}

}  // namespace

TEST_CASE("a failure list is silent when empty and names the first few failures") {
  hb::Failures f;
  CHECK_NOTHROW(f.throw_if_any());
  for (const char* what : {"a", "b", "c", "d"}) f.add(what);
  CHECK_FALSE(f.empty());
  CHECK_THROWS_AS(f.throw_if_any(), hb::CheckFailed);
  CHECK_THROWS_WITH(f.throw_if_any(), "4 configuration(s) differ from the CPU: a; b; c");
  CHECK_THROWS_WITH(f.throw_if_any(1), "4 configuration(s) differ from the CPU: a");
}

TEST_CASE("the check column says skipped, exact or FAIL") {
  CHECK(std::string(hb::check_text(true, true)) == "exact");
  CHECK(std::string(hb::check_text(false, true)) == "FAIL");
  CHECK(std::string(hb::check_text(false, false)) == "skipped");
}

TEST_CASE("a value is poisoned only while every byte holds the pattern") {
  unsigned v = 0xA5A5A5A5u;
  CHECK(hb::is_poisoned(v));
  CHECK_FALSE(hb::is_poisoned(v, 0x11));
  v = 0xA5A5A5A4u;
  CHECK_FALSE(hb::is_poisoned(v));
  const double d = 0.0;
  CHECK(hb::is_poisoned(d, 0x00));
}

TEST_CASE("the block-size sweep measures each accepted block size and finds the best") {
  hb::Failures failures;
  const std::vector<hb::SweepRow> rows = {made_up("0", true, false), made_up("1", false, false),
                                          made_up("2", false, true)};
  std::vector<std::size_t> ceiling_sizes;
  const hb::SweepUnits units{{"GB/s", "G/s"}, "copy", 0, [&](std::size_t n) {
                               ceiling_sizes.push_back(n);
                               return 64.0;
                             }};
  const hb::BlockSweep s = hb::block_size_sweep(rows, 0, units, failures);
  CHECK(ceiling_sizes == std::vector<std::size_t>{0});  // measured once, at the sweep's n
  CHECK(s.ceiling == 64.0);
  const auto& r = s.report;
  REQUIRE(r.columns().size() == 2 + 6 + 5);
  CHECK(r.columns()[2] == "32 GB/s");
  CHECK(r.columns()[8] == "best GB/s");
  CHECK(r.columns()[11] == "% of copy");
  REQUIRE(r.rows().size() == 3);
  // The reference is measured once, with its default block size (rate 0 / 32 + 0 = 0).
  CHECK(r.rows()[0][2] == "-");
  CHECK(r.rows()[0][9] == "-");
  // Row 1: not at 32 threads, best at 1024 (rate 32).
  CHECK(r.rows()[1][2] == "-");
  CHECK(r.rows()[1][7] == "32.0");
  CHECK(r.rows()[1][9] == "1024");
  CHECK(r.rows()[1][11] == "50.0");
  CHECK(r.rows()[1][12] == "exact");
  CHECK(r.rows()[2][12] == "FAIL");
  CHECK(s.best_threads == std::vector<int>{0, 1024, 1024});
  CHECK_THROWS_WITH(failures.throw_if_any(), "1 configuration(s) differ from the CPU: variant 2, 64 threads: wrong");
}

TEST_CASE("a variant that picks its own block size is measured once, and is not the reference") {
  hb::Failures failures;
  std::vector<hb::SweepRow> rows = {made_up("0", true, false), made_up("1", false, false)};
  rows[1].picks_own = true;
  rows[1].default_threads = 0;
  std::vector<int> measured;  // the block sizes row 1 was asked for
  const auto rate = rows[1].measure;
  rows[1].measure = [&measured, rate](int t, std::size_t n) {
    measured.push_back(t);
    hb::Sample s = rate(t, n);
    s.rates = {2.0, 2.0};
    return s;
  };
  // The reference's rate is 0 / 32 + 4 = 4, so row 1's 2.0 is 50% of it.
  const hb::BlockSweep s = hb::block_size_sweep(rows, 4, {{"GB/s", "G/s"}, "", 0, {}}, failures);
  CHECK(measured == std::vector<int>{0});
  CHECK(s.report.rows()[1][2] == "-");
  CHECK(s.report.rows()[1][8] == "2.0");
  CHECK(s.report.rows()[1][9] == "-");
  CHECK(s.report.rows()[1][10] == "50.0");
  CHECK(s.best_threads == std::vector<int>{0, 0});
  const hb::Report r = hb::size_sweep(rows, s.best_threads, 10, 10, {{"GB/s", "G/s"}, "", 0, {}},
                                      failures);
  CHECK(r.rows()[1][4] == "-");
  CHECK(measured == std::vector<int>{0, 0});
  CHECK(failures.empty());
}

TEST_CASE("the ceiling is compared with the rate the units name, of the best block size") {
  hb::Failures failures;
  const std::vector<hb::SweepRow> rows = {made_up("0", true, false), made_up("1", false, false)};
  // Rate 1 is 2.0 at every block size: 25% of a ceiling of 8.
  const hb::BlockSweep s = hb::block_size_sweep(
      rows, 0, {{"GB/s", "G/s"}, "read-only", 1, [](std::size_t) { return 8.0; }}, failures);
  CHECK(s.report.columns()[11] == "% of read-only");
  CHECK(s.report.rows()[1][11] == "25.0");
  const hb::BlockSweep none = hb::block_size_sweep(rows, 0, {{"GB/s"}, "", 0, {}}, failures);
  CHECK(none.report.columns().size() == 2 + 6 + 4);
  CHECK(none.ceiling == 0.0);
}

TEST_CASE("the size sweep runs every row at its block size for each power of two") {
  hb::Failures failures;
  const std::vector<hb::SweepRow> rows = {made_up("0", true, false), made_up("1", false, true)};
  const hb::Report r = hb::size_sweep(rows, {0, 64}, 10, 11, {{"GB/s", "G/s"}, "", 0, {}}, failures);
  CHECK(r.columns() == std::vector<std::string>{"n", "log2 n", "id", "variant", "threads",
                                                "us (median)", "GB/s", "G/s", "x CUB", "check"});
  REQUIRE(r.rows().size() == 4);
  CHECK(r.rows()[0][0] == "1024");
  CHECK(r.rows()[0][4] == "-");
  CHECK(r.rows()[1][4] == "64");
  CHECK(r.rows()[1][5] == "1000.00");
  CHECK(r.rows()[1][8] == "1.00");
  CHECK(r.rows()[3][0] == "2048");
  CHECK(r.rows()[3][9] == "FAIL");
  CHECK_THROWS_WITH(failures.throw_if_any(), Catch::StartsWith("2 configuration(s)") &&
                                                 Catch::Contains("variant 1, n = 1024: wrong"));
}

TEST_CASE("the size sweep measures the ceiling at every size and compares each row with it") {
  hb::Failures failures;
  const std::vector<hb::SweepRow> rows = {made_up("0", true, false), made_up("1", false, false)};
  std::vector<std::size_t> ceiling_sizes;
  const hb::SweepUnits units{{"GB/s", "G/s"}, "copy", 0, [&](std::size_t n) {
                               ceiling_sizes.push_back(n);
                               return 4.0 * double(n);
                             }};
  const hb::Report r = hb::size_sweep(rows, {0, 64}, 10, 11, units, failures);
  CHECK(ceiling_sizes == std::vector<std::size_t>{1024, 2048});  // once per size, not per row
  CHECK(r.columns() == std::vector<std::string>{"n", "log2 n", "id", "variant", "threads",
                                                "us (median)", "GB/s", "G/s", "x CUB",
                                                "copy GB/s", "% of copy", "check"});
  // Row 1 at n = 1024, 64 threads: rate 1024 + 2 = 1026 of a ceiling of 4096.
  CHECK(r.rows()[1][9] == "4096.0");
  CHECK(r.rows()[1][10] == "25.0");
  CHECK(r.rows()[3][9] == "8192.0");
}
