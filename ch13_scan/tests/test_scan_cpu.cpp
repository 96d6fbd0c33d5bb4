// Chapter 13 tests that need no GPU: the CPU scans and compaction, the data and the checks,
// the circuits of section 13.3 and their figures, the variant tables and their agreement with
// the kernel folders, and the block-size checks that every launcher makes before it touches
// the GPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "circuits/scan_models.h"
#include "circuits/scan_networks.h"
#include "float_bound.h"
#include "hb/error.h"
#include "hb/random.h"
#include "hb/testing.h"
#include "scan.h"

namespace {

std::string read_text(const std::string& relative) {
  return hb::read_text_file(std::string(CH13_SOURCE_DIR) + "/" + relative);
}

// "5c" -> (5, 'c'); "6" -> (6, ' ').
std::pair<int, char> split_id(const std::string& id) {
  std::size_t i = 0;
  while (i < id.size() && std::isdigit(static_cast<unsigned char>(id[i]))) ++i;
  return {std::stoi(id.substr(0, i)), i < id.size() ? id[i] : ' '};
}

// Calls f(table, files) for each of the four tables, with the id:program pairs CMake read off
// its folder of kernels (and the CPU reference's row, whose 00a_cpu.h is no kernel file).
template <typename F>
void for_each_table(F f) {
  f(ch13::warp_variants(), CH13_WARP_FILES);
  f(ch13::block_variants(), CH13_BLOCK_FILES);
  f(ch13::scan_variants(), CH13_SCAN_FILES);
  f(ch13::compact_variants(), CH13_COMPACT_FILES);
}

}  // namespace

// ---------------------------------------------------------------------------------------
// The CPU reference (variant 0a).

TEST_CASE("the CPU scans compute listings 13.1 and 13.2") {
  const std::vector<int> in = {3, 1, 7, 0, 4, 1, 6, 3};
  std::vector<int> out(in.size());
  CHECK(ch13::cpu_inclusive_scan(out.data(), in.data(), in.size()) == 25);
  CHECK(out == std::vector<int>{3, 4, 11, 11, 15, 16, 22, 25});
  CHECK(ch13::cpu_exclusive_scan(out.data(), in.data(), in.size()) == 25);
  CHECK(out == std::vector<int>{0, 3, 4, 11, 11, 15, 16, 22});
  // Inclusive and exclusive differ by the input (figure 13.1).
  std::vector<int> inc(in.size()), exc(in.size());
  ch13::cpu_scan(inc.data(), in.data(), in.size(), ch13::ScanKind::Inclusive);
  ch13::cpu_scan(exc.data(), in.data(), in.size(), ch13::ScanKind::Exclusive);
  for (std::size_t i = 0; i < in.size(); ++i) CHECK(inc[i] - exc[i] == in[i]);
}

TEST_CASE("the CPU scans work in place") {
  for (auto kind : {ch13::ScanKind::Inclusive, ch13::ScanKind::Exclusive}) {
    INFO(ch13::kind_name(kind));
    const std::vector<int> in = ch13::make_ints(10007, 5);
    std::vector<int> apart(in.size());
    const int total = ch13::cpu_scan(apart.data(), in.data(), in.size(), kind);
    std::vector<int> inplace = in;
    CHECK(ch13::cpu_scan(inplace.data(), inplace.data(), inplace.size(), kind) == total);
    CHECK(inplace == apart);
    const std::vector<float> f = ch13::make_floats(1001, 5, ch13::FloatData::Uniform);
    std::vector<float> fa(f.size()), fi = f;
    ch13::cpu_scan(fa.data(), f.data(), f.size(), kind);
    ch13::cpu_scan(fi.data(), fi.data(), fi.size(), kind);
    CHECK(fi == fa);
  }
}

TEST_CASE("the CPU scans of an empty array return zero and write nothing") {
  int out = 42;
  const int in = 7;
  CHECK(ch13::cpu_inclusive_scan(&out, &in, 0) == 0);
  CHECK(ch13::cpu_exclusive_scan(&out, &in, 0) == 0);
  CHECK(out == 42);
}

TEST_CASE("the segmented CPU scan restarts at every segment") {
  const std::vector<int> in(10, 1);
  std::vector<int> out(in.size());
  ch13::cpu_segmented_scan(out.data(), in.data(), in.size(), 4, ch13::ScanKind::Inclusive);
  CHECK(out == std::vector<int>{1, 2, 3, 4, 1, 2, 3, 4, 1, 2});
  ch13::cpu_segmented_scan(out.data(), in.data(), in.size(), 4, ch13::ScanKind::Exclusive);
  CHECK(out == std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3, 0, 1});
}

TEST_CASE("the CPU compaction keeps the odd elements in order and works in place") {
  std::vector<int> in = {-3, -2, 0, 1, 4, 5, 7, INT_MIN, INT_MAX, 8};
  std::vector<int> out(in.size(), 99);
  const std::size_t count = ch13::cpu_compact(out.data(), in.data(), in.size(), ch13::IsOdd{});
  REQUIRE(count == 5);
  CHECK(std::vector<int>(out.begin(), out.begin() + 5) == std::vector<int>{-3, 1, 5, 7, INT_MAX});
  CHECK(out[5] == 99);
  CHECK(ch13::cpu_compact(in.data(), in.data(), in.size(), ch13::IsOdd{}) == 5);
  CHECK(std::vector<int>(in.begin(), in.begin() + 5) == std::vector<int>{-3, 1, 5, 7, INT_MAX});
  CHECK(ch13::reference_compact(ch13::make_ints(1000, 1), 1000).size() > 400);
}

// ---------------------------------------------------------------------------------------
// Data and checks.

TEST_CASE("integer inputs keep every prefix sum far inside int32") {
  const std::size_t n = std::size_t(1) << 22;
  const auto in = ch13::make_ints(n, 20261122);
  long long lo = 0, hi = 0;
  for (int x : in) {
    REQUIRE(x >= -1000);
    REQUIRE(x <= 1000);
  }
  for (long long p : ch13::reference_scan(in, ch13::ScanKind::Inclusive)) {
    lo = std::min(lo, p);
    hi = std::max(hi, p);
  }
  CHECK(hi < (1LL << 24));
  CHECK(lo > -(1LL << 24));
}

TEST_CASE("grid float inputs scan exactly in float in any order") {
  const std::size_t n = std::size_t(1) << 20;
  const auto f = ch13::make_floats(n, 3, ch13::FloatData::Grid);
  for (float x : f) REQUIRE(x * 256.0f == std::floor(x * 256.0f));
  std::vector<float> forward(n);
  ch13::cpu_inclusive_scan(forward.data(), f.data(), n);
  const auto want = ch13::reference_scan(f, ch13::ScanKind::Inclusive);
  CHECK(ch13::compare_scan(forward.data(), want.data(), n).ok);
  // Pairwise (tree) order gives the same floats.
  std::vector<float> tree(f);
  for (std::size_t d = 1; d < n; d *= 2)
    for (std::size_t i = n; i-- > d;) tree[i] += tree[i - d];  // Hillis-Steele in place, right to left
  CHECK(ch13::compare_scan(tree.data(), want.data(), n).ok);
}

TEST_CASE("grid float inputs of the default seed keep every range sum below 2^16 up to 2^28 elements") {
  // Every partial sum of a scan is the sum of a contiguous range, that is the difference of
  // two prefix sums; below 2^16 it has at most 24 significant bits at a resolution of 2^-8.
  const std::uint64_t seed = 20261122;  // the programs' default (hb::CommonOptions)
  for (std::uint64_t s : {seed, seed + 1}) {  // the tests' float inputs use seed + 1 too
    long long prefix = 0, lo = 0, hi = 0;  // in units of 2^-8
    for (std::size_t i = 0; i < (std::size_t(1) << 28); ++i) {
      prefix += hb::uniform_int(s, i, -255, 255);
      lo = std::min(lo, prefix);
      hi = std::max(hi, prefix);
    }
    INFO("seed " << s << ": prefix sums between " << lo / 256.0 << " and " << hi / 256.0);
    CHECK((hi - lo) < (1LL << 24));
  }
}

TEST_CASE("the float bound grows with n and accepts rounding but not a missing element") {
  CHECK(ch13::float_scan_gamma(1 << 20) > ch13::float_scan_gamma(1 << 10));
  CHECK(ch13::float_scan_gamma(1) > 0.0);
  CHECK(ch13::float_scan_gamma(std::size_t(1) << 26) < 0.02);
  const std::size_t n = 100000;
  const auto f = ch13::make_floats(n, 9, ch13::FloatData::Uniform);
  std::vector<float> got(n);
  ch13::cpu_inclusive_scan(got.data(), f.data(), n);  // float sums: rounded
  const auto want = ch13::reference_scan(f, ch13::ScanKind::Inclusive);
  const auto scale = ch13::reference_abs_scan(f, ch13::ScanKind::Inclusive);
  const double gamma = ch13::float_scan_gamma(n);
  CHECK(ch13::compare_scan(got.data(), want.data(), n, scale.data(), gamma).ok);
  // Dropping one element early shifts every later prefix by it: far outside the bound there.
  std::vector<float> shifted(n);
  std::vector<float> missing = f;
  missing[10] = 0.0f;
  ch13::cpu_inclusive_scan(shifted.data(), missing.data(), n);
  const auto r = ch13::compare_scan(shifted.data(), want.data(), 200, scale.data(), gamma);
  CHECK_FALSE(r.ok);
  CHECK(r.report.find("[10]") != std::string::npos);
  CHECK(ch13::compare_scan(shifted.data(), want.data(), n).mismatches > 0);
}

TEST_CASE("integer comparisons report the first and last mismatches") {
  std::vector<int> got(1000, 0);
  const std::vector<long long> want(1000, 0);
  for (int i : {3, 500, 501, 502, 503, 504, 505, 506, 507, 508, 990, 999}) got[i] = i;
  const auto r = ch13::compare_scan(got.data(), want.data(), got.size());
  CHECK_FALSE(r.ok);
  CHECK(r.mismatches == 12);
  CHECK(r.report.find("[504]") == std::string::npos);  // the middle is left out
  CHECK(r.report.find("[3] got 3, want 0") != std::string::npos);
  CHECK(r.report.find("[999]") != std::string::npos);
  CHECK(r.report.find("...") != std::string::npos);
  CHECK(ch13::compare_scan(got.data(), want.data(), 3).ok);
}

// ---------------------------------------------------------------------------------------
// The circuits of section 13.3.

TEST_CASE("every circuit computes a scan at every power-of-two width up to 256") {
  for (int n = 1; n <= 256; n *= 2) {
    for (const ch13::Network& net :
         {ch13::serial_network(n), ch13::brent_kung_network(n), ch13::sklansky_network(n),
          ch13::kogge_stone_network(n)}) {
      INFO(net.title << " with " << n << " inputs");
      const ch13::NetworkStats s = ch13::analyze(net);
      CHECK(s.is_scan);
      CHECK(s.error.empty());
    }
    INFO("Blelloch with " << n << " inputs");
    CHECK(ch13::blelloch_stats(n).is_scan);
  }
  CHECK(ch13::analyze(ch13::serial_network(13)).is_scan);  // the serial one takes any width
}

TEST_CASE("circuit depths and operation counts for 8 and 16 inputs match the known formulas") {
  struct Want {
    ch13::Network net;
    int depth, ops, fanout;
  };
  const std::vector<Want> want = {
      {ch13::serial_network(8), 7, 7, 2},       {ch13::serial_network(16), 15, 15, 2},
      {ch13::brent_kung_network(8), 5, 11, 2},  {ch13::brent_kung_network(16), 7, 26, 2},
      {ch13::sklansky_network(8), 3, 12, 5},    {ch13::sklansky_network(16), 4, 32, 9},
      {ch13::kogge_stone_network(8), 3, 17, 2}, {ch13::kogge_stone_network(16), 4, 49, 2},
  };
  for (const Want& w : want) {
    INFO(w.net.title << " with " << w.net.n << " inputs");
    const ch13::NetworkStats s = ch13::analyze(w.net);
    CHECK(s.depth == w.depth);
    CHECK(s.ops == w.ops);
    CHECK(s.max_fanout == w.fanout);
  }
  // The formulas of the complexity table, for every width up to 1024.
  for (int n = 2, k = 1; n <= 1024; n *= 2, ++k) {
    INFO("n = " << n);
    CHECK(ch13::analyze(ch13::brent_kung_network(n)).ops == 2 * n - 2 - k);
    CHECK(ch13::analyze(ch13::brent_kung_network(n)).depth == 2 * k - 1);
    CHECK(ch13::analyze(ch13::sklansky_network(n)).ops == n / 2 * k);
    CHECK(ch13::analyze(ch13::sklansky_network(n)).max_fanout == n / 2 + 1);
    CHECK(ch13::analyze(ch13::kogge_stone_network(n)).ops == n * k - n + 1);
    CHECK(ch13::analyze(ch13::kogge_stone_network(n)).depth == k);
    CHECK(ch13::blelloch_stats(n).ops == 2 * (n - 1));
    CHECK(ch13::blelloch_stats(n).steps == 2 * k);
  }
}

TEST_CASE("the naive scan does a reduction per output: log2 n steps but n(n-1)/2 additions") {
  for (int n = 1; n <= 300; ++n) {
    INFO("n = " << n);
    const ch13::AlgorithmStats a = ch13::naive_stats(n);
    CHECK(a.is_scan);
    CHECK(a.ops == n * (n - 1) / 2);
    int log2n = 0;
    while ((1 << log2n) < n) ++log2n;
    CHECK(a.steps == log2n);
  }
}

TEST_CASE("a circuit that adds ranges that do not meet is not a scan") {
  ch13::Network broken = ch13::kogge_stone_network(8);
  broken.ops.back().source -= 1;  // the last operation reaches one wire too far
  const ch13::NetworkStats s = ch13::analyze(broken);
  CHECK_FALSE(s.is_scan);
  CHECK(s.error.find("not adjacent") != std::string::npos);
  ch13::Network short_of_ops = ch13::brent_kung_network(8);
  short_of_ops.ops.pop_back();
  CHECK_FALSE(ch13::analyze(short_of_ops).is_scan);
  const ch13::Network twice{"twice", "twice", 3, {{1, 1, 0}, {1, 2, 1}, {1, 2, 0}}};
  CHECK(ch13::analyze(twice).error.find("written twice") != std::string::npos);
}

TEST_CASE("the spine of the 16-input Brent-Kung circuit is its up-sweep") {
  const ch13::Network net = ch13::brent_kung_network(16);
  const std::vector<bool> spine = ch13::spine_ops(net);
  int count = 0;
  for (std::size_t k = 0; k < net.ops.size(); ++k) {
    if (!spine[k]) continue;
    ++count;
    CHECK(net.ops[k].level <= 4);  // no operation of the down-sweep
  }
  CHECK(count == 15);
  const std::vector<bool> left = ch13::left_half_ops(ch13::sklansky_network(16));
  CHECK(std::count(left.begin(), left.end(), true) == 12);  // the 8-input Sklansky circuit
}

// ---------------------------------------------------------------------------------------
// The models of the kernels behind figures 13.1 to 13.5 and 13.12 to 13.15.

namespace {

std::vector<long long> one_to(int n) {
  std::vector<long long> x(n);
  for (int i = 0; i < n; ++i) x[i] = i + 1;
  return x;
}

}  // namespace

TEST_CASE("the models follow the lines of their kernels") {
  std::vector<ch13::Model> models = {ch13::blelloch_model(8), ch13::scan_block_model(128),
                                     ch13::scan_then_fan_model(1000, 128),
                                     ch13::reduce_then_scan_model(1000, 128),
                                     ch13::padded_layout_model()};
  for (const ch13::Model& m : models) {
    REQUIRE_FALSE(m.sources.empty());
    for (const ch13::SourceLines& src : m.sources) {
      const std::string text = read_text(src.file);
      for (const std::string& line : src.lines) {
        INFO(src.file << ": " << line);
        CHECK(hb::has_line(text, line));
      }
    }
  }
}

TEST_CASE("figure 13.1: the exclusive scan is the inclusive one shifted and the two differ by the input") {
  // The CPU scans of listings 13.1 and 13.2 on the figures' example, 1 to 8.
  const std::vector<long long> x = one_to(8);
  std::vector<long long> inc(8), exc(8);
  CHECK(ch13::cpu_inclusive_scan(inc.data(), x.data(), 8) == 36);
  CHECK(ch13::cpu_exclusive_scan(exc.data(), x.data(), 8) == 36);
  CHECK(inc == std::vector<long long>{1, 3, 6, 10, 15, 21, 28, 36});
  CHECK(exc.front() == 0);
  for (int i = 0; i < 8; ++i) CHECK(inc[i] - exc[i] == x[i]);
  for (int i = 1; i < 8; ++i) CHECK(exc[i] == inc[i - 1]);
}

TEST_CASE("Blelloch's sweeps as block variant 2 indexes them give the exclusive scan without races") {
  for (int n = 1; n <= 4096; n *= 2) {
    INFO(n << " elements");
    const ch13::BlellochModel m = ch13::blelloch_model(n);
    const ch13::ModelCheck c = ch13::check_blelloch(m);
    CHECK(c.ok);
    CHECK(c.error.empty());
    CHECK(m.threads == n / 2);
  }
  // A step that reads an element another thread of the same step writes is a race.
  ch13::BlellochModel racy = ch13::blelloch_model(8);
  racy.up.insert(racy.up.begin() + 1, ch13::SweepOp{1, 9, 1, 2, 1});
  CHECK(ch13::check_blelloch(racy).error.find("two threads") != std::string::npos);
  // Pairs that do not meet are not a scan.
  ch13::BlellochModel wrong = ch13::blelloch_model(8);
  wrong.down.back().left -= 1;
  CHECK_FALSE(ch13::check_blelloch(wrong).ok);
}

TEST_CASE("figures 13.2 to 13.5: the sweeps of 1 to 8, the complexity post's example") {
  const ch13::BlellochModel m = ch13::blelloch_model(8);
  const auto rows = ch13::blelloch_rows(m, one_to(8));
  REQUIRE(rows.size() == 1 + 3 + 1 + 3);
  CHECK(rows[1] == std::vector<long long>{1, 3, 3, 7, 5, 11, 7, 15});
  CHECK(rows[2] == std::vector<long long>{1, 3, 3, 10, 5, 11, 7, 26});
  CHECK(rows[3] == std::vector<long long>{1, 3, 3, 10, 5, 11, 7, 36});
  CHECK(rows[4].back() == 0);
  CHECK(rows.back() == std::vector<long long>{0, 1, 3, 6, 10, 15, 21, 28});
  // The complexity post's down-sweep rule: out1 = in2, out2 = in1 + in2, e.g. 11, 10 -> 10, 21.
  bool example = false;
  for (std::size_t r = 5; r < rows.size(); ++r) {
    for (const ch13::SweepOp& op : m.down) {
      if (op.step != static_cast<int>(r) - 4) continue;
      const long long in1 = rows[r - 1][op.left], in2 = rows[r - 1][op.right];
      CHECK(rows[r][op.left] == in2);
      CHECK(rows[r][op.right] == in1 + in2);
      example = example ||
                (in1 == 11 && in2 == 10 && rows[r][op.left] == 10 && rows[r][op.right] == 21);
    }
  }
  CHECK(example);
  // The tree: every node sums its children, the root is the total, every input is one leaf; the
  // down-sweep hands every node the sum of the inputs before it, and the leaves the scan.
  const auto tree = ch13::blelloch_tree(m, one_to(8));
  REQUIRE(tree.size() == 8 + 7);
  CHECK(tree.back().up == 36);
  CHECK(tree.back().span == ch13::Span{0, 7});
  std::vector<int> used(tree.size(), 0);
  for (const ch13::TreeNode& t : tree) {
    long long before = 0;
    for (int i = 0; i < t.span.lo; ++i) before += i + 1;
    CHECK(t.down == before);
    if (t.left < 0) continue;
    CHECK(t.up == tree[t.left].up + tree[t.right].up);
    ++used[t.left];
    ++used[t.right];
  }
  for (std::size_t k = 0; k + 1 < tree.size(); ++k) CHECK(used[k] == 1);
  // What the complexity post says falls from the reduce into the down-sweep, level by level: the
  // root, then the left children, 36; 10; 3, 11; 1, 3, 5, 7.
  std::map<int, std::vector<long long>> by_width;
  for (const ch13::TreeNode& t : tree) {
    const int width = t.span.hi - t.span.lo + 1;
    const bool left_child = std::any_of(tree.begin(), tree.end(), [&](const ch13::TreeNode& p) {
      return p.left >= 0 && &tree[p.left] == &t;
    });
    if (width == 8 || left_child) by_width[width].push_back(t.up);
  }
  CHECK(by_width[8] == std::vector<long long>{36});
  CHECK(by_width[4] == std::vector<long long>{10});
  CHECK(by_width[2] == std::vector<long long>{3, 11});
  CHECK(by_width[1] == std::vector<long long>{1, 3, 5, 7});
}

TEST_CASE("Blelloch's strided indexing puts up to 16 words in one bank at 256 threads") {
  const auto banks = ch13::blelloch_banks(256);
  REQUIRE(banks.size() == 18);
  std::vector<int> ways, passes;
  int warps = 0, total = 0;
  for (const ch13::BankStep& b : banks) {
    ways.push_back(b.ways);
    warps += b.warps;
    total += b.passes;
  }
  CHECK(ways == std::vector<int>{2, 4, 8, 16, 16, 8, 4, 2, 1, 1, 2, 4, 8, 16, 16, 8, 4, 2});
  CHECK(warps == 40);   // passes without a conflict: one per warp at work
  CHECK(total == 190);  // passes with them
  // The worst step doubles with the block: a warp of a active lanes at stride 2 offset puts
  // a min(2 offset, 32) / 32 words in one bank.
  const std::map<int, int> worst_want = {{32, 2},   {64, 4},   {128, 8},
                                         {256, 16}, {512, 32}, {1024, 32}};
  for (const auto& [threads, want] : worst_want) {
    INFO(threads << " threads");
    int worst = 0;
    for (const ch13::BankStep& b : ch13::blelloch_banks(threads)) worst = std::max(worst, b.ways);
    CHECK(worst == want);
  }
}

TEST_CASE("figure 13.12: the block scan of listing 13.3 gives every thread its prefix") {
  for (int threads = 32; threads <= 1024; threads += 32) {
    INFO(threads << " threads");
    const ch13::BlockScanModel m = ch13::scan_block_model(threads);
    CHECK(m.error.empty());
    for (int tid = 0; tid < threads; ++tid) {
      CHECK(m.after_warp_scans[tid] == ch13::Span{tid / 32 * 32, tid});
      CHECK(m.result[tid] == ch13::prefix_span(tid));
    }
    for (int w = 0; w < threads / 32; ++w)
      CHECK(m.scanned_totals[16 + w] == ch13::prefix_span(32 * w + 31));
    // The warps' totals start at slot 16.
    for (int slot = 0; slot < 16; ++slot) CHECK(m.totals[slot].empty());
  }
  // Without the lane test a warp scan of unpadded values reads its left neighbor's values.
  std::vector<ch13::Span> s(64);
  for (int i = 0; i < 64; ++i) s[i] = ch13::input_span(i);
  std::string error;
  ch13::warp_scan_model(s, 32, true, &error);
  CHECK(s[32].lo < 32);
}

TEST_CASE("figures 13.13 and 13.14: the recursive scans, their levels and their 4N and 3N accesses") {
  for (int b : {32, 64, 96, 128, 1024}) {
    const std::size_t bb = b;
    for (std::size_t n : {std::size_t(1), std::size_t(31), bb, bb + 1, std::size_t(1000),
                          std::size_t(4097), bb * bb + 1, std::size_t(100003)}) {
      INFO("n = " << n << ", b = " << b);
      const ch13::DeviceScanModel fan = ch13::scan_then_fan_model(n, b);
      CHECK(fan.error.empty());
      std::size_t above = 0;
      for (std::size_t k = 1; k < fan.levels.size(); ++k) above += fan.levels[k];
      CHECK(above == ch13::recursion_elements(n, b));  // what the launcher reserves in Scratch
      if (n > std::size_t(b)) {
        CHECK(fan.top_reads + fan.top_writes == 4 * n - 2 * b);
      } else {
        CHECK(fan.top_reads + fan.top_writes == 2 * n);
      }
      if ((b & (b - 1)) != 0) continue;
      const ch13::DeviceScanModel rts = ch13::reduce_then_scan_model(n, b);
      CHECK(rts.error.empty());
      CHECK(rts.levels == fan.levels);
      CHECK(rts.top_reads + rts.top_writes == (n > std::size_t(b) ? 3 * n : 2 * n));
    }
  }
  // The text's example: b = 128 and N = 1048576 recurse twice, on 8192 and on 64 elements.
  const ch13::DeviceScanModel book = ch13::scan_then_fan_model(1048576, 128);
  CHECK(book.error.empty());
  CHECK(book.levels == std::vector<std::size_t>{1048576, 8192, 64});
}

TEST_CASE("figure 13.15: the padded layout keeps every warp's reads in its own zeros and values") {
  for (int threads = 32; threads <= 1024; threads += 32) {
    INFO(threads << " threads");
    std::string error;
    const auto words = ch13::padded_layout(threads, 16, ch13::padded_words(threads), &error);
    CHECK(error.empty());
    CHECK(static_cast<int>(words.size()) == 49 * threads / 32);
    for (int w = 0; w < threads / 32; ++w) {
      for (int k = 0; k < 49; ++k) {
        const ch13::PaddedWord& p = words[49 * w + k];
        if (k < 16) CHECK(p.zero_of == 32 * w + k);
        else if (k < 48) CHECK(p.thread == 32 * w + k - 16);
        else CHECK((p.thread < 0 && p.zero_of < 0));
      }
    }
    // The sentence before the figure puts lane 0 at 49 w + 32: that fits the book's allocation
    // (scanSharedMemory: 49 W + 16 words) but not the 49 W words the kernels allocate.
    std::string text_error, book_error;
    ch13::padded_layout(threads, 32, ch13::padded_words(threads), &text_error);
    CHECK(text_error.find("past the") != std::string::npos);
    ch13::padded_layout(threads, 32, ch13::padded_words(threads) + 16, &book_error);
    CHECK(book_error.empty());
  }
  // A layout with too little padding lets a lane read the warp before it.
  std::string error;
  ch13::padded_layout(64, 8, 200, &error);
  CHECK_FALSE(error.empty());
}

TEST_CASE("Hillis-Steele on one buffer depends on the order in which a step's threads run") {
  // The scan post keeps two buffers: each step reads one and writes the other. On one buffer
  // the result depends on which thread of a step goes first: from the right, every thread still
  // reads the value from before the step and the scan is right; from the left, a thread reads
  // a value its neighbor has already updated.
  const ch13::Network ks = ch13::kogge_stone_network(16);
  for (bool from_left : {false, true}) {
    std::vector<ch13::Span> s(16);
    for (int i = 0; i < 16; ++i) s[i] = ch13::input_span(i);
    std::string error;
    std::vector<ch13::NetworkOp> ops = ks.ops;
    if (!from_left) {
      std::stable_sort(ops.begin(), ops.end(),
                       [](const ch13::NetworkOp& a, const ch13::NetworkOp& b) {
                         return a.level != b.level ? a.level < b.level : a.target > b.target;
                       });
    }
    for (const ch13::NetworkOp& op : ops)
      s[op.target] = ch13::join(s[op.source], s[op.target], &error);
    INFO((from_left ? "from the left" : "from the right") << ": " << error);
    CHECK(error.empty() == !from_left);
  }
}

TEST_CASE("the committed figures are what the circuit builders and the models draw") {
  const auto figures = ch13::chapter_figures();
  CHECK(figures.size() == 5 + 9 + 4);
  std::set<std::string> names;
  for (const ch13::Figure& f : figures) CHECK(names.insert(f.name).second);
  INFO("regenerate: scan_networks --figures ch13_scan/circuits/figures");
  const std::string folder = std::string(CH13_SOURCE_DIR) + "/circuits/figures";
  CHECK(hb::figure_faults(figures, folder, read_text("README.md"), "ch13_scan/circuits/figures") ==
        std::vector<std::string>{});
}

TEST_CASE("the README shows the complexity table and the bank table") {
  const std::string readme = read_text("README.md");
  INFO("complexity table (scan_networks --markdown):\n" << ch13::complexity_table_markdown());
  CHECK(readme.find(ch13::complexity_table_markdown()) != std::string::npos);
  INFO("bank table (scan_networks --markdown):\n" << ch13::bank_table_markdown(256));
  CHECK(readme.find(ch13::bank_table_markdown(256)) != std::string::npos);
}

// ---------------------------------------------------------------------------------------
// The variant tables.

TEST_CASE("every row of each table is a file of its kernels folder, in the same order") {
  for_each_table([](const auto& table, const char* files) {
    std::vector<std::string> listed;
    std::istringstream in(files);
    for (std::string pair; in >> pair;) listed.push_back(pair);
    std::vector<std::string> rows;
    for (const auto& v : table) rows.push_back(std::string(v.id) + ":" + v.program());
    CHECK(rows == listed);
  });
}

TEST_CASE("every variant has a name, a title and a block size it accepts") {
  for_each_table([](const auto& table, const char*) {
    std::set<std::string> ids, names;
    for (const auto& v : table) {
      INFO(v.label());
      CHECK(std::string(v.title).size() > 10);
      CHECK(std::regex_match(std::string(v.name), std::regex("[a-z0-9_]+")));
      CHECK(ids.insert(v.id).second);
      CHECK(names.insert(v.name).second);
      if (v.default_threads() > 0) CHECK(v.accepts_threads(v.default_threads()));
      CHECK(v.is_cpu() == !static_cast<bool>(v.launch));
    }
  });
}

TEST_CASE("variant ids follow the order of the text") {
  for_each_table([](const auto& table, const char*) {
    for (std::size_t i = 1; i < table.size(); ++i) {
      INFO(table[i - 1].label() << " before " << table[i].id);
      const auto a = split_id(table[i - 1].id);
      const auto b = split_id(table[i].id);
      const bool next_number = b.first == a.first + 1 && (b.second == ' ' || b.second == 'a');
      const bool next_letter = b.first == a.first && a.second != ' ' && b.second == a.second + 1;
      CHECK((next_number || next_letter));
    }
    CHECK(std::string(table.front().name) == (table.front().is_cpu() ? "cpu" : "cub"));
  });
  CHECK(ch13::scan_variants().front().is_cpu());
  CHECK(ch13::find_scan_variant("0b").is_library());
  CHECK(ch13::compact_variants().front().is_cpu());
  CHECK(ch13::find_compact_variant("0b").is_library());
}

namespace {

// Block sizes no variant takes, and sizes only some take: none or negative, less than a warp,
// a warp and one more, multiples of 32 that are not powers of two, no multiple of 32, more
// than a block may have.
const std::vector<int> kBadThreads = {-5, 0, 1, 16, 31, 33, 48, 96, 100, 1000, 1023, 1025, 2048};

// Checks that \p call(t) throws a usage error for every size of kBadThreads that row \p v does
// not accept: the launcher checks before it touches the GPU (the Scratch is empty).
template <typename Row, typename Call>
void rejects_bad_threads(const Row& v, Call call) {
  for (int t : kBadThreads) {
    if (v.accepts_threads(t)) continue;
    INFO(v.label() << ", threads " << t);
    CHECK_THROWS_AS(call(t), hb::UsageError);
  }
}

// The rows of a table that run on the GPU and take a block size, one run of a test case each.
template <typename Row>
Catch::Generators::GeneratorWrapper<Row> rows_with_threads(const std::vector<Row>& table) {
  return Catch::Generators::filter([](const Row& v) { return v.default_threads() > 0; },
                                   Catch::Generators::from_range(table));
}

}  // namespace

TEST_CASE("every device scan rejects a block size it does not take before touching the GPU") {
  const ch13::ScanVariant v = GENERATE(rows_with_threads(ch13::scan_variants()));
  ch13::Scratch empty;  // no device memory: a launcher that got past its check would fail
  rejects_bad_threads(v, [&](int t) {
    v.launch.for_int(nullptr, nullptr, 1000, ch13::ScanKind::Inclusive, t, empty, nullptr);
  });
  rejects_bad_threads(v, [&](int t) {
    v.launch.for_float(nullptr, nullptr, 1000, ch13::ScanKind::Exclusive, t, empty, nullptr);
  });
}

TEST_CASE("every compaction rejects a block size it does not take before touching the GPU") {
  const ch13::CompactVariant v = GENERATE(rows_with_threads(ch13::compact_variants()));
  ch13::Scratch empty;
  rejects_bad_threads(v, [&](int t) { v.launch(nullptr, nullptr, 1000, nullptr, t, empty, nullptr); });
}

TEST_CASE("every warp scan rejects a block size it does not take before touching the GPU") {
  const ch13::WarpVariant v = GENERATE(from_range(ch13::with_alternates(ch13::warp_variants())));
  rejects_bad_threads(v, [&](int t) {
    v.launch.for_int(nullptr, nullptr, 1000, ch13::ScanKind::Inclusive, t, 1, nullptr);
  });
  rejects_bad_threads(v, [&](int t) {
    v.launch.for_float(nullptr, nullptr, 1000, ch13::ScanKind::Exclusive, t, 1, nullptr);
  });
}

TEST_CASE("every block scan rejects a block size it does not take before touching the GPU") {
  const ch13::BlockVariant v = GENERATE(from_range(ch13::with_alternates(ch13::block_variants())));
  rejects_bad_threads(v, [&](int t) {
    v.launch.for_int(nullptr, nullptr, 1000, ch13::ScanKind::Inclusive, t, 1, nullptr);
  });
  rejects_bad_threads(v, [&](int t) {
    v.launch.for_float(nullptr, nullptr, 1000, ch13::ScanKind::Exclusive, t, 1, nullptr);
  });
}

TEST_CASE("a rejected block size names the variant and its rule") {
  ch13::Scratch empty;
  CHECK_THROWS_WITH(ch13::find_scan_variant("6").launch.for_int(nullptr, nullptr, 10, ch13::ScanKind::Inclusive,
                                                               96, empty, nullptr),
                    Catch::Contains("scan variant 6") && Catch::Contains("power of two"));
}

TEST_CASE("unknown variant ids are usage errors that list the valid ones") {
  CHECK(std::string(ch13::find_scan_variant("5c").name) == "two_level_shuffle");
  CHECK_THROWS_AS(ch13::find_scan_variant("12"), hb::UsageError);
  CHECK_THROWS_WITH(ch13::find_scan_variant("5d"), Catch::Contains("0a, 0b, 1"));
  CHECK_THROWS_AS(ch13::find_compact_variant(""), hb::UsageError);
  CHECK_THROWS_WITH(ch13::find_compact_variant("7"), Catch::Contains("compaction"));
}

TEST_CASE("program names and labels are built from the table, the id and the name") {
  CHECK(ch13::find_scan_variant("3").program() == "scan3_scan_then_fan");
  CHECK(ch13::find_scan_variant("5a").label() == "scan variant 5a");
  CHECK(ch13::find_compact_variant("2").program() == "compact2_decoupled_lookback");
  CHECK(ch13::find_compact_variant("2").label() == "compaction variant 2");
  CHECK(ch13::warp_variants()[4].label() == "warp variant 4");
  CHECK(ch13::block_variants()[2].segment(128) == 256);
  CHECK(ch13::warp_variants()[1].segment(128) == 32);
}

TEST_CASE("the recursive variants reserve room for every level") {
  CHECK(ch13::recursion_elements(0, 32) == 0);
  CHECK(ch13::recursion_elements(32, 32) == 0);
  CHECK(ch13::recursion_elements(33, 32) == 2);
  CHECK(ch13::recursion_elements(100, 32) == 4);
  CHECK(ch13::recursion_elements(2000, 32) == 63 + 2);
  CHECK(ch13::recursion_elements(std::size_t(1) << 30, 1024) == (1u << 20) + (1u << 10));
  for (std::size_t n : {std::size_t(1) << 20, (std::size_t(1) << 26) + 5, std::size_t(1) << 30})
    CHECK(ch13::recursion_elements(n, 32) <= n / 31 + 64);  // what Scratch reserves
}

TEST_CASE("only the bulk-copy variants need more than any GPU has, and they say what runs below 9.0") {
  for_each_table([](const auto& table, const char*) {
    for (const auto& v : table) {
      INFO(v.label());
      // A variant that picks its own block size (variant 9) picks one whose ring fits.
      const bool bulk = v.tile_bytes_per_thread > 0 || v.picks_own();
      CHECK(hb::needs_anything(v.needs) == bulk);
      if (!bulk) continue;
      CHECK(v.needs.cc == 90);
      REQUIRE(v.needs.below != nullptr);
      CHECK(std::string(v.needs.below).find("16-byte") != std::string::npos);
      // One staged tile (variant 7, compaction 3) or a ring of them (variant 8, compactions 4, 5).
      if (!v.picks_own()) CHECK(v.tile_bytes_per_thread % (v.items_per_thread * sizeof(int)) == 0);
    }
  });
  CHECK(ch13::find_scan_variant("7").tile_bytes_per_thread == ch13::kBulkTileBytesPerThread);
  CHECK(ch13::find_compact_variant("3").tile_bytes_per_thread == ch13::kBulkTileBytesPerThread);
  CHECK(ch13::find_scan_variant("8").tile_bytes_per_thread ==
        ch13::kRingStages * ch13::kBulkTileBytesPerThread);
  CHECK(ch13::find_compact_variant("4").tile_bytes_per_thread ==
        ch13::kRingStages * ch13::kCompactRingItems * sizeof(int));
}
