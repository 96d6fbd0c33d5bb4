// Chapter 11: the CPU reference, the tolerances, the host-side logic of the pipelines (ranges,
// transfer bound, options, reports) and, tagged [gpu], every pipeline strategy end to end.
//
// How we compare. Every GPU result here is compared with hb::compare_relative against the
// exact result computed in double (saxpy_exact), within tolerance_vs_exact(): twice the
// worst-case rounding of *any* float evaluation of alpha * x + y, fused (FMA, what nvcc emits)
// or not. We do not use ULPs: when alpha * x and y nearly cancel, the unfused result can be
// many ULPs of the (tiny) result away from the exact value while being perfectly correct, so
// the bound has to be absolute in |alpha x|, which compare_relative's atol expresses.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>
#include <utility>
#include <vector>

#include "hb/bench.h"
#include "hb/compare.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/random.h"
#include "hb/testing.h"
#include "pipeline.h"
#include "streaming.h"

namespace {

constexpr std::uint64_t kSeed = 1111;

// Parses the words after the program name.
std::optional<ch11::StreamingOptions> parse(const ch11::ProgramSpec& spec,
                                            std::vector<const char*> words) {
  words.insert(words.begin(), spec.program.c_str());
  return ch11::parse_options(spec, static_cast<int>(words.size()), words.data());
}

ch11::ProgramSpec driver_spec() {
  ch11::ProgramSpec s{"streaming", "test"};
  s.max_streams_flag = true;
  s.chunk_flag = true;
  return s;
}

// The exact reference and the comparison every GPU test uses.
hb::CompareResult compare_exact_saxpy(const float* got, const std::vector<float>& x,
                                      const std::vector<float>& y, float alpha) {
  std::vector<double> want(x.size());
  ch11::saxpy_exact(want.data(), x.data(), y.data(), x.size(), alpha);
  const auto tol = ch11::tolerance_vs_exact(alpha, ch11::max_abs(x.data(), x.size()));
  return hb::compare_relative(got, want.data(), want.size(), tol.rtol, tol.atol, "outputs");
}

}  // namespace

// ---------------------------------------------------------------- CPU reference, tolerances

TEST_CASE("the CPU reference computes alpha times x plus y element by element") {
  const std::vector<float> x = {1.0f, -0.5f, 0.25f, 0.0f}, y = {3.0f, 1.0f, -1.0f, 7.0f};
  std::vector<float> out(5, -99.0f);
  ch11::saxpy_cpu(out.data(), x.data(), y.data(), 4, 2.0f);
  CHECK(out == std::vector<float>{5.0f, 0.0f, -0.5f, 7.0f, -99.0f});
  ch11::saxpy_cpu(out.data(), x.data(), y.data(), 0, 2.0f);  // n == 0 writes nothing
  CHECK(out[0] == 5.0f);
}

TEST_CASE(
    "fused and unfused float results stay within the documented tolerance of the exact result") {
  const std::size_t n = 100003;
  for (const float alpha : {2.0f, -3.5f, 0.0f, 1e-3f}) {
    INFO("seed " << kSeed << ", alpha " << alpha);
    const auto x = hb::uniform_vector<float>(n, kSeed, -1.0f, 1.0f);
    const auto y = hb::uniform_vector<float>(n, kSeed + 1, -1.0f, 1.0f);
    std::vector<float> unfused(n), fused(n);
    ch11::saxpy_cpu(unfused.data(), x.data(), y.data(), n, alpha);
    for (std::size_t i = 0; i < n; ++i) fused[i] = std::fma(alpha, x[i], y[i]);
    CHECK(compare_exact_saxpy(unfused.data(), x, y, alpha).ok);
    CHECK(compare_exact_saxpy(fused.data(), x, y, alpha).ok);
    // And the GPU-against-CPU tolerance the programs use accepts fused against unfused.
    const auto tol = ch11::tolerance_vs_cpu(alpha, ch11::max_abs(x.data(), n));
    CHECK(hb::compare_relative(fused.data(), unfused.data(), n, tol.rtol, tol.atol).ok);
  }
}

TEST_CASE("the tolerance catches an element off by a millionth and NaN poison") {
  const std::size_t n = 1000;
  const auto x = hb::uniform_vector<float>(n, kSeed, -1.0f, 1.0f);
  const auto y = hb::uniform_vector<float>(n, kSeed + 1, -1.0f, 1.0f);
  std::vector<float> got(n);
  ch11::saxpy_cpu(got.data(), x.data(), y.data(), n, 2.0f);
  const std::vector<double> want(got.begin(), got.end());
  // For alpha = 2 and |x| < 1 the tolerance is below 6e-7 for every |want| < 3.
  const auto tol = ch11::tolerance_vs_exact(2.0f, 1.0f);
  CHECK(hb::compare_relative(got.data(), want.data(), n, tol.rtol, tol.atol).ok);
  got[17] += 1e-6f;
  CHECK_FALSE(hb::compare_relative(got.data(), want.data(), n, tol.rtol, tol.atol).ok);
  got[17] = static_cast<float>(want[17]);
  got[999] = std::numeric_limits<float>::quiet_NaN();
  const auto r = hb::compare_relative(got.data(), want.data(), n, tol.rtol, tol.atol);
  CHECK(r.mismatches == 1);
  CHECK(r.report.find("[999]") != std::string::npos);
}

TEST_CASE("max_abs finds the largest magnitude and treats NaN as infinite") {
  const std::vector<float> v = {0.5f, -3.0f, 2.0f};
  CHECK(ch11::max_abs(v.data(), 3) == 3.0f);
  CHECK(ch11::max_abs(v.data(), 0) == 0.0f);
  const std::vector<float> nan = {1.0f, std::numeric_limits<float>::quiet_NaN()};
  CHECK(std::isinf(ch11::max_abs(nan.data(), 2)));
}

// ---------------------------------------------------------------- host logic of the pipelines

TEST_CASE("split_range gives every element to exactly one part for any size and part count") {
  for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(7),
                              std::size_t(8), std::size_t(9), std::size_t((1 << 20) + 7)}) {
    for (int parts = 1; parts <= 9; ++parts) {
      INFO("n " << n << ", parts " << parts);
      std::size_t next = 0, smallest = n, largest = 0;
      for (int i = 0; i < parts; ++i) {
        const ch11::Range r = ch11::split_range(n, parts, i);
        REQUIRE(r.begin == next);
        REQUIRE(r.end >= r.begin);
        next = r.end;
        smallest = std::min(smallest, r.size());
        largest = std::max(largest, r.size());
      }
      CHECK(next == n);
      CHECK(largest - smallest <= 1);
    }
  }
  CHECK_THROWS_AS(ch11::split_range(10, 0, 0), std::invalid_argument);
  CHECK_THROWS_AS(ch11::split_range(10, 3, 3), std::invalid_argument);
}

TEST_CASE("pipeline_chunks covers every element once, with chunks halving towards the end") {
  constexpr std::size_t M = std::size_t(1) << 20, K = std::size_t(1) << 10;
  // The shape at the book's size: 31 whole chunks of 4M, then 2M, 1M, 512K, 256K, 256K.
  const auto book = ch11::pipeline_chunks(128 * M, 4 * M);
  REQUIRE(book.size() == 36);
  CHECK(book[30].size() == 4 * M);
  const std::vector<std::size_t> tail = {2 * M, M, 512 * K, 256 * K, 256 * K};
  for (std::size_t i = 0; i < tail.size(); ++i) CHECK(book[31 + i].size() == tail[i]);
  for (const std::size_t n : {std::size_t(1), std::size_t(7), 256 * K, 256 * K + 1, M - 1,
                              3 * M + 5, 128 * M + 3}) {
    for (const std::size_t chunk : {std::size_t(1), std::size_t(1000), 256 * K, M, 4 * M,
                                    3 * M}) {
      if (chunk < 256 * K && n > 4 * M) continue;  // 10^5 chunks and more: nothing new
      INFO("n " << n << ", chunk " << chunk);
      const auto ranges = ch11::pipeline_chunks(n, chunk);
      std::size_t next = 0;
      for (const ch11::Range& r : ranges) {
        REQUIRE(r.begin == next);
        REQUIRE(r.size() >= 1);
        REQUIRE(r.size() <= chunk);
        next = r.end;
      }
      CHECK(next == n);
      // The last chunk is the smallest chunk (or the array, or chunk, if they are smaller).
      CHECK(ranges.back().size() == std::min({n, chunk, ch11::kSmallestChunk}));
      // For chunks of smallest times a power of two, neighbours differ at most twofold.
      if (chunk == M || chunk == 4 * M) {
        for (std::size_t i = 1; i + 1 < ranges.size(); ++i)
          CHECK(ranges[i].size() <= 2 * ranges[i + 1].size());
      }
    }
  }
  CHECK(ch11::pipeline_chunks(0, M).empty());
  CHECK_THROWS_AS(ch11::pipeline_chunks(10, 0), std::invalid_argument);
  CHECK_THROWS_AS(ch11::pipeline_chunks(10, 4, 0), std::invalid_argument);
}

TEST_CASE("the driver's chunk sizes are 1M to 32M floats, or the one asked for, none above n") {
  constexpr std::size_t M = std::size_t(1) << 20;
  using V = std::vector<std::size_t>;
  CHECK(ch11::pipeline_chunk_candidates(128 * M, 0) == V{M, 2 * M, 4 * M, 8 * M, 16 * M, 32 * M});
  CHECK(ch11::pipeline_chunk_candidates(128 * M, 3 * M) == V{3 * M});
  CHECK(ch11::pipeline_chunk_candidates(3 * M, 0) == V{M, 2 * M, 3 * M});
  CHECK(ch11::pipeline_chunk_candidates(1000, 0) == V{1000});
  CHECK(ch11::pipeline_chunk_candidates(1000, 5000) == V{1000});
}

TEST_CASE("the transfer bound is set by the slower of the two directions") {
  // n = 125M elements: 1 GB up, 0.5 GB down.
  const std::size_t n = 125000000;
  auto b = ch11::transfer_bound(n, 50.0, 50.0);  // up 20 ms, down 10 ms
  CHECK(b.ms == Approx(20.0));
  CHECK(b.limit == "host->device");
  b = ch11::transfer_bound(n, 50.0, 20.0);  // down 25 ms
  CHECK(b.ms == Approx(25.0));
  CHECK(b.limit == "device->host");
  CHECK(ch11::transfer_bound(0, 1.0, 1.0).ms == 0.0);
  CHECK_THROWS_AS(ch11::transfer_bound(n, 0.0, 50.0), std::invalid_argument);
  CHECK_THROWS_AS(ch11::transfer_bound(n, 50.0, std::nan("")), std::invalid_argument);
}

TEST_CASE("effective GB/s divide decimal bytes by milliseconds, as for the book's 570.22 ms") {
  CHECK(hb::gbs(1e9, 1000.0) == Approx(1.0));
  CHECK(hb::gbs(12.0 * (128 << 20), 570.22) == Approx(2.8245).epsilon(1e-3));
  CHECK(hb::gbs(1e9, 0.0) == 0.0);
}

TEST_CASE("the medians of stage times leave stages that were not timed unknown") {
  std::vector<ch11::StageTimes> runs(3);
  const double wall[] = {3.0, 1.0, 2.0}, events[] = {5.0, 4.0, 6.0};
  for (std::size_t i = 0; i < 3; ++i) {
    runs[i].wall_ms = wall[i];
    runs[i].events_ms = events[i];
  }
  const auto m = ch11::median_times(runs);
  CHECK(m.wall_ms == 2.0);
  CHECK(m.events_ms == 5.0);
  CHECK(std::isnan(m.h2d_ms));
  CHECK(std::isnan(m.kernel_ms));
}

TEST_CASE("the strategy table lists the four programs of the text in order and then ours") {
  const auto& t = ch11::kStrategies;
  REQUIRE(t.size() == 5);
  const char* programs[] = {"stream1_device", "stream2_async", "stream3_streams", "stream4_mapped"};
  for (int i = 0; i < 5; ++i) CHECK(int(t[std::size_t(i)].id) == i + 1);
  for (int i = 0; i < 4; ++i) CHECK(std::string(t[std::size_t(i)].program) == programs[i]);
  CHECK(t[0].host == ch11::HostKind::Pageable);
  CHECK(t[3].host == ch11::HostKind::Mapped);
  CHECK(std::string(t[4].name).find("beyond the text") != std::string::npos);
}

TEST_CASE("describe names each strategy with its parameters") {
  CHECK(ch11::describe({ch11::Strategy::Async}) == "async (pinned)");
  CHECK(ch11::describe({ch11::Strategy::Streams, 4, ch11::IssueOrder::DepthFirst}) ==
        "streams, depth-first, 4 streams");
  CHECK(ch11::describe({ch11::Strategy::Streams, 1, ch11::IssueOrder::BreadthFirst}) ==
        "streams, breadth-first, 1 stream");
  CHECK(
      ch11::describe({ch11::Strategy::Pipelined, 1, {}, std::size_t(2) << 20}).find("2M floats") !=
      std::string::npos);
  CHECK(ch11::describe({ch11::Strategy::Pipelined, 1, {}, 1000}).find("1000 floats") !=
        std::string::npos);
}

TEST_CASE("program options read the chapter flags and default to the text's 128M floats") {
  auto o = parse(driver_spec(), {});
  REQUIRE(o);
  CHECK(o->common.n == std::size_t(128) << 20);
  CHECK(o->max_streams == 8);
  CHECK(o->chunk == 0);
  o = parse(driver_spec(), {"--n", "4M", "--alpha", "0.5", "--max-streams", "3", "--chunk", "64K",
                            "--iters", "3", "--csv"});
  REQUIRE(o);
  CHECK(o->common.n == std::size_t(4) << 20);
  CHECK(o->alpha == 0.5f);
  CHECK(o->max_streams == 3);
  CHECK(o->chunk == 65536);
  CHECK(o->common.iters == 3);
  CHECK(o->common.csv);
}

TEST_CASE("program options reject bad sizes and stream counts and alphas and unknown flags") {
  const std::vector<std::vector<const char*>> cases = {
      {"--n", "0"},           {"--n", "-5"},          {"--n", "1T"},
      {"--n", "2G"},          {"--max-streams", "0"}, {"--max-streams", "65"},
      {"--max-streams", "x"}, {"--alpha", "nan"},     {"--alpha", "inf"},
      {"--alpha", "two"},     {"--chunk", "0"},       {"--chunk", "1T"},
      {"--chunk", "-1"},      {"--frobnicate"},       {"stray"}};
  for (const auto& c : cases) {
    INFO("arguments: " << c[0] << (c.size() > 1 ? std::string(" ") + c[1] : std::string()));
    CHECK_THROWS_AS(parse(driver_spec(), c), hb::UsageError);
  }
  // Programs without streams or chunks do not accept those flags.
  const ch11::ProgramSpec plain{"stream1_device", "test"};
  CHECK_THROWS_AS(parse(plain, {"--max-streams", "2"}), hb::UsageError);
  CHECK_THROWS_AS(parse(plain, {"--chunk", "1M"}), hb::UsageError);
}

TEST_CASE("help prints the chapter flags and returns no options") {
  std::ostringstream captured;
  auto* old = std::cout.rdbuf(captured.rdbuf());
  const auto o = parse(driver_spec(), {"--help"});
  std::cout.rdbuf(old);
  CHECK_FALSE(o);
  for (const char* flag : {"--alpha", "--max-streams", "--chunk", "--n", "--iters"})
    CHECK(captured.str().find(flag) != std::string::npos);
}

TEST_CASE("inputs are reproducible for a seed and carry the CPU reference") {
  const auto a = ch11::make_inputs(1000, 42, 2.0f, true);
  const auto b = ch11::make_inputs(1000, 42, 2.0f, false);
  CHECK(a.x == b.x);
  CHECK(a.y == b.y);
  CHECK(a.x != a.y);
  CHECK(b.reference.empty());
  REQUIRE(a.reference.size() == 1000);
  CHECK(a.reference[10] == 2.0f * a.x[10] + a.y[10]);
  CHECK(a.max_abs_x <= 1.0f);
  CHECK(std::all_of(a.x.begin(), a.x.end(), [](float v) { return v >= -1.0f && v < 1.0f; }));
  CHECK(ch11::compare_output(a.reference.data(), a, 2.0f).ok);
  std::vector<float> out = a.reference;
  out[500] = std::numeric_limits<float>::quiet_NaN();
  const auto r = ch11::compare_output(out.data(), a, 2.0f);
  CHECK_FALSE(r.ok);
  CHECK(ch11::check_text(r) == "FAILED (1 of 1000 outputs)");
  CHECK_THROWS_AS(ch11::require_ok(r, "test"), hb::CheckFailed);
  CHECK(ch11::check_text(std::nullopt) == "skipped (--no-check)");
}

TEST_CASE("the stage report shows only the stages that were timed") {
  ch11::StageTimes t;
  t.events_ms = 2.0;
  t.wall_ms = 4.0;
  auto r = ch11::stage_report(t, 1000000);
  REQUIRE(r.rows().size() == 2);
  CHECK(r.rows()[0][0] == "events");
  CHECK(r.rows()[1][3] == "4.000");
  CHECK(r.rows()[1][4] == "3.00");  // 12 MB in 4 ms
  t.h2d_ms = 1.0;
  t.kernel_ms = 0.1;
  t.d2h_ms = 0.5;
  r = ch11::stage_report(t, 1000000);
  REQUIRE(r.rows().size() == 5);
  CHECK(r.rows()[0][2] == "8.0");  // MB host->device
  CHECK(r.rows()[2][2] == "4.0");  // MB device->host
}

// ---------------------------------------------------------------- every strategy on the GPU

namespace {

// One pipeline of n elements with seeded inputs; check() runs a strategy once from a poisoned
// output and compares with the exact result.
class PipelineCase {
 public:
  PipelineCase(std::size_t n, ch11::HostKind host, int streams = 1)
      : seed_(hb::test_seed(kSeed)),
        x_(hb::uniform_vector<float>(n, seed_, -1.0f, 1.0f)),
        y_(hb::uniform_vector<float>(n, seed_ + 1, -1.0f, 1.0f)),
        p_(n, host, streams) {
    p_.load(x_.data(), y_.data());
  }
  void check(const ch11::StrategyConfig& config) {
    INFO(ch11::describe(config) << ", " << ch11::host_kind_name(p_.host) << ", n " << p_.n
                                << ", seed " << seed_);
    const float alpha = -1.75f;
    p_.poison_output();
    const ch11::StageTimes t = ch11::run_strategy(p_, config, alpha);
    CHECK(t.wall_ms >= 0.0);
    CHECK(t.events_ms >= 0.0);
    const auto r = compare_exact_saxpy(p_.hout.data(), x_, y_, alpha);
    INFO(r.report);
    CHECK(r.ok);
  }

 private:
  std::uint64_t seed_;
  std::vector<float> x_, y_;
  ch11::Pipeline p_;
};

// Odd sizes, the largest one above 2^20 (dropped under the sanitizer, which is slow).
std::vector<std::size_t> odd_sizes() {
  std::vector<std::size_t> s = {0, 1, 7, 1000003, (std::size_t(1) << 20) + 7};
  if (hb::under_sanitizer()) s.pop_back();
  return s;
}

}  // namespace

TEST_CASE("the synchronous pipeline from pageable memory matches the exact result for odd sizes",
          "[gpu]") {
  hb::select_device(0);
  for (const std::size_t n : odd_sizes())
    PipelineCase(n, ch11::HostKind::Pageable).check({ch11::Strategy::Synchronous});
  // It also works from pinned memory, where cudaMemcpy skips the staging copy.
  PipelineCase(1000003, ch11::HostKind::Pinned).check({ch11::Strategy::Synchronous});
}

TEST_CASE("the async pipeline matches the exact result for odd sizes", "[gpu]") {
  hb::select_device(0);
  for (const std::size_t n : odd_sizes())
    PipelineCase(n, ch11::HostKind::Pinned).check({ch11::Strategy::Async});
}

TEST_CASE(
    "the streams pipeline matches in both issue orders for 1 to 9 streams and sizes below the "
    "stream count",
    "[gpu]") {
  hb::select_device(0);
  for (const std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(5), std::size_t(1000003)}) {
    PipelineCase c(n, ch11::HostKind::Pinned, 9);
    for (const auto order : {ch11::IssueOrder::BreadthFirst, ch11::IssueOrder::DepthFirst})
      for (int k = 1; k <= 9; ++k) c.check({ch11::Strategy::Streams, k, order});
  }
}

TEST_CASE("the mapped pipeline matches the exact result for odd sizes", "[gpu]") {
  hb::select_device(0);
  for (const std::size_t n : odd_sizes())
    PipelineCase(n, ch11::HostKind::Mapped).check({ch11::Strategy::Mapped});
}

TEST_CASE("the pipelined strategy matches for chunk sizes that do not divide the size", "[gpu]") {
  hb::select_device(0);
  // Tiny chunks only on tiny arrays: every chunk costs five API calls.
  const std::vector<std::pair<std::size_t, std::vector<std::size_t>>> cases = {
      {0, {1, 65539}},
      {7, {1, 3, 7, 8}},
      {1000003, {65539, 999983, std::size_t(1) << 20, std::size_t(4) << 20}},
      {(std::size_t(5) << 20) + 3, {std::size_t(1) << 20}}};  // whole chunks, then halving ones
  for (const auto& [n, chunks] : cases) {
    PipelineCase c(n, ch11::HostKind::Pinned);
    for (const std::size_t chunk : chunks) c.check({ch11::Strategy::Pipelined, 1, {}, chunk});
  }
}

TEST_CASE("strategies refuse host memory they cannot use", "[gpu]") {
  hb::select_device(0);
  ch11::Pipeline pageable(16, ch11::HostKind::Pageable, 1);
  CHECK_THROWS_AS(ch11::run_async(pageable, 1.0f), std::invalid_argument);
  CHECK_THROWS_AS(ch11::run_streams(pageable, 1.0f, 2, ch11::IssueOrder::BreadthFirst),
                  std::invalid_argument);
  CHECK_THROWS_AS(ch11::run_pipelined(pageable, 1.0f, 4), std::invalid_argument);
  CHECK_THROWS_AS(ch11::run_mapped(pageable, 1.0f), std::invalid_argument);
  ch11::Pipeline mapped(16, ch11::HostKind::Mapped, 1);
  CHECK_THROWS_AS(ch11::run_synchronous(mapped, 1.0f), std::invalid_argument);
  ch11::Pipeline pinned(16, ch11::HostKind::Pinned, 2);
  CHECK_THROWS_AS(ch11::run_streams(pinned, 1.0f, 4, ch11::IssueOrder::BreadthFirst),
                  std::invalid_argument);
  CHECK_THROWS_AS(ch11::run_pipelined(pinned, 1.0f, 0), std::invalid_argument);
}

TEST_CASE("stage times of the sequential pipelines are positive and add up to the total", "[gpu]") {
  hb::select_device(0);
  const std::size_t n = std::size_t(1) << 20;
  const auto x = hb::uniform_vector<float>(n, kSeed, -1.0f, 1.0f);
  for (const auto host : {ch11::HostKind::Pageable, ch11::HostKind::Pinned}) {
    ch11::Pipeline p(n, host, 1);
    p.load(x.data(), x.data());
    const auto strategy =
        host == ch11::HostKind::Pageable ? ch11::Strategy::Synchronous : ch11::Strategy::Async;
    const ch11::StageTimes t = ch11::measure_strategy(p, {strategy}, 1.0f, 1, 3);
    INFO(ch11::host_kind_name(host));
    CHECK(t.h2d_ms > 0.0);
    CHECK(t.kernel_ms > 0.0);
    CHECK(t.d2h_ms > 0.0);
    // Medians of sums need not be sums of medians; a few percent apart at most.
    CHECK(t.h2d_ms + t.kernel_ms + t.d2h_ms == Approx(t.events_ms).epsilon(0.25));
    CHECK(t.wall_ms > 0.5 * t.events_ms);
  }
}
