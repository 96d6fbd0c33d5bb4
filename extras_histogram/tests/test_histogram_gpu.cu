// The GPU variants, every one tagged [gpu]: exact against the CPU on every distribution and
// size, poisoned bins, the overflow boundaries of the packed counters, the naive lesson's
// verdict, the harness and the workspace.
//
// Bins are poisoned before every launch, so a bin a variant forgets to write fails the check.
// Data come from the seeded generators (HB_TEST_SEED replays a failure; the seed is printed).
// Under compute-sanitizer the 2^28-byte size is left out (hb::under_sanitizer()); everything
// else runs. The naive lesson races on purpose: its test is tagged [racy], which racecheck
// leaves out (scripts/run_sanitizer.sh); memcheck, synccheck and initcheck still run it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "hb/capability.h"
#include "hb/device.h"
#include "hb/memory.h"
#include "hb/testing.h"
#include "histogram.h"

namespace {

// Our edge sizes (0, 1, 255, 256, 257, 2^20 + 3, 2^28) and the common ones (31, 32, 33, a
// prime), plus the edges of a 16-byte vector (15, 16, 17) and of a tile of 4 vectors per lane.
std::vector<std::size_t> test_sizes() {
  std::vector<std::size_t> sizes = hb::standard_sizes(256, std::size_t(1) << 28);
  for (const std::size_t n : {15, 16, 17, 2047, 2048, 2049, (1 << 20) + 3}) sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// Everything a launch needs, made once for inputs of up to max_n bytes.
struct Bench {
  explicit Bench(std::size_t max_n) : ws(max_n), in(std::max<std::size_t>(max_n, 1)), bins(256) {}
  histo::Workspace ws;
  hb::Stream stream;
  hb::DeviceBuffer<std::uint8_t> in;
  hb::DeviceBuffer<std::uint32_t> bins;

  void load(const std::vector<std::uint8_t>& data) {
    if (!data.empty())
      hb::copy_to_device(in.data(), data.data(), data.size());
  }
  // Poisons the bins with \p poison bytes, runs \p launch on the first n bytes, returns the bins.
  histo::Bins run(histo::Launcher launch, std::size_t n, unsigned char poison = 0xA5) {
    hb::poison(bins.data(), bins.bytes(), poison, stream);
    launch(in.data(), n, bins.data(), ws, stream);
    histo::Bins got{};
    HB_CUDA_CHECK(cudaMemcpyAsync(got.data(), bins.data(), sizeof got, cudaMemcpyDeviceToHost,
                                  stream));
    stream.synchronize();
    return got;
  }
};

histo::Bins cpu(const std::vector<std::uint8_t>& data) {
  histo::Bins b{};
  histo::histogram_cpu_serial(data.data(), data.size(), b.data());
  return b;
}

// Every GPU variant but the lesson, on distribution d, at every test size.
void every_variant_is_exact(histo::Distribution d) {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed << " (HB_TEST_SEED replays)");
  const auto sizes = test_sizes();
  Bench bench(sizes.back());
  for (const std::size_t n : sizes) {
    const auto data = histo::generate(d, n, seed);
    const auto want = cpu(data);
    bench.load(data);
    for (const auto& v : histo::variants()) {
      if (!v.on_gpu() || v.role == histo::Role::Lesson) continue;
      if (!hb::test_runs_here(v.needs, "histogram variant " + std::string(v.id))) continue;
      INFO("variant " << v.id << " " << v.name << ", " << histo::name(d) << ", n = " << n);
      const auto verdict = histo::check_exact(bench.run(v.gpu, n), want);
      INFO(verdict.details);
      CHECK(verdict.exact);
    }
  }
}

}  // namespace

TEST_CASE("every GPU variant counts uniform random bytes exactly at every size", "[gpu]") {
  every_variant_is_exact(histo::Distribution::Uniform);
}

TEST_CASE("every GPU variant counts all-equal bytes exactly at every size", "[gpu]") {
  every_variant_is_exact(histo::Distribution::Equal);
}

TEST_CASE("every GPU variant counts a few hot bins exactly at every size", "[gpu]") {
  every_variant_is_exact(histo::Distribution::Hot);
}

TEST_CASE("every GPU variant counts a sorted ramp exactly at every size", "[gpu]") {
  every_variant_is_exact(histo::Distribution::Ramp);
}

TEST_CASE("every GPU variant counts chapter 15's coin scene exactly at every size", "[gpu]") {
  every_variant_is_exact(histo::Distribution::Scene);
}

TEST_CASE("every GPU variant overwrites poisoned bins even with nothing to count", "[gpu]") {
  hb::select_device(0);
  Bench bench(64);
  std::vector<std::uint8_t> data(64);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = std::uint8_t(255 - 3 * i);
  bench.load(data);
  for (const auto& v : histo::variants()) {
    if (!v.on_gpu() || v.role == histo::Role::Lesson) continue;
    if (!hb::test_runs_here(v.needs, "histogram variant " + std::string(v.id))) continue;
    for (const unsigned char poison : {0x00, 0xA5, 0xFF}) {
      for (const std::size_t n : {0, 1, 17, 64}) {
        INFO("variant " << v.id << " " << v.name << ", poison " << int(poison) << ", n = " << n);
        const std::vector<std::uint8_t> head(data.begin(), data.begin() + n);
        const auto verdict = histo::check_exact(bench.run(v.gpu, n, poison), cpu(head));
        INFO(verdict.details);
        CHECK(verdict.exact);
      }
    }
  }
}

TEST_CASE("packed 8-bit counters stay exact when a lane counts one bin more than 255 times",
          "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  // One block of 8 warps (4 on a GPU that grants a block less shared memory): a lane counts 16
  // bytes per round and merges every 15 rounds (240 bytes). These sizes end just before, at and
  // after a merge, and far beyond: with all-equal bytes and 2^20 + 3 of them, each lane counts
  // one bin 4096 times (8192 in blocks of 4 warps).
  const std::size_t threads = 32 * std::size_t(histo::counter_block_warps(8));
  const std::size_t round = 16 * threads, merge = 15 * round;
  const std::vector<std::size_t> sizes = {merge - 1,     merge,        merge + 1,
                                          merge + round, 2 * merge + 5, (std::size_t(1) << 20) + 3};
  Bench bench(sizes.back());
  for (const int max_blocks : {1, 2, 0}) {
    bench.ws.max_blocks = max_blocks;
    for (const auto d : histo::generated_distributions()) {
      for (const std::size_t n : sizes) {
        INFO(histo::name(d) << ", n = " << n << ", max blocks " << max_blocks);
        const auto data = histo::generate(d, n, seed);
        bench.load(data);
        const auto verdict = histo::check_exact(bench.run(histo::find_variant("8").gpu, n),
                                                cpu(data));
        INFO(verdict.details);
        CHECK(verdict.exact);
      }
    }
  }
}

TEST_CASE("16-bit lane columns stay exact when a lane counts one bin more than 65535 times",
          "[gpu]") {
  hb::select_device(0);
  // Every variant with 16-bit counters (the counter blocks of its row). One block of 4 warps
  // (128 lanes; 2 warps, 64 lanes, on a GPU that grants a block less shared memory), all-equal
  // bytes: each lane counts one bin n / lanes times, across the merges (every 65,472 bytes per
  // lane in variant 13, every 65,408 in variant 16) and past 65,535.
  const std::size_t lanes = 32 * std::size_t(histo::counter_block_warps(4));
  const std::vector<std::size_t> sizes = {lanes * 65472 - 1, lanes * 65472 + 64 * lanes + 1,
                                          lanes * 65536 * 2 + 19};
  Bench bench(sizes.back());
  bench.ws.max_blocks = 1;
  for (const std::uint8_t value : {std::uint8_t(3), std::uint8_t(200)}) {  // both halves
    for (const std::size_t n : sizes) {
      std::vector<std::uint8_t> data(n, value);
      bench.load(data);
      for (const auto& v : histo::variants()) {
        if (!v.on_gpu() || v.needs.shared_bytes != histo::kCounterBlockSharedBytes) continue;
        INFO("variant " << v.id << ", value " << int(value) << ", n = " << n);
        const auto verdict = histo::check_exact(bench.run(v.gpu, n), cpu(data));
        INFO(verdict.details);
        CHECK(verdict.exact);
      }
    }
  }
}

TEST_CASE("the naive lesson is flagged when it loses counts and never reported correct",
          "[gpu][racy]") {
  hb::select_device(0);
  const std::size_t n = std::size_t(1) << 20;
  Bench bench(n);
  // All-equal bytes: a million threads increment one bin, the worst race there is.
  for (const auto d : {histo::Distribution::Equal, histo::Distribution::Hot}) {
    INFO(histo::name(d));
    const auto data = histo::generate(d, n, 7);
    bench.load(data);
    const auto got = bench.run(histo::find_variant("2").gpu, n);
    const auto verdict = histo::check_lesson(got, cpu(data));
    INFO(verdict.text);
    CHECK_FALSE(verdict.exact);
    // A lost update loses counts and never invents them: no bin above the CPU's.
    const auto want = cpu(data);
    for (int b = 0; b < 256; ++b) REQUIRE(got[b] <= want[b]);
    CHECK(verdict.plausible);
    // On a million increments of one bin the race is not subtle.
    if (d == histo::Distribution::Equal) CHECK(verdict.lost > 0);
    // The harness reports the same: the lesson is never exact, and passes only as a lost update.
    histo::ProgramOptions opt;
    opt.common.n = n;
    opt.common.seed = 7;
    const histo::DataSet set = histo::make_data_set(d, opt, true);
    const auto m = histo::measure(histo::find_variant("2"), set, bench.ws, bench.bins.data(),
                                  bench.stream, 2, true);
    CHECK_FALSE(m.verdict.exact);
    CHECK(m.verdict.plausible);
    CHECK(histo::passes(histo::find_variant("2"), m));
  }
}

TEST_CASE("the harness measures and checks every variant on a small input", "[gpu]") {
  hb::select_device(0);
  histo::ProgramOptions opt;
  opt.common.n = (std::size_t(1) << 16) + 5;
  opt.common.seed = hb::test_seed();
  histo::Workspace ws(opt.common.n);
  hb::Stream stream;
  hb::DeviceBuffer<std::uint32_t> bins(256);
  for (const auto d : histo::generated_distributions()) {
    const histo::DataSet data = histo::make_data_set(d, opt, true);
    for (const auto& v : histo::variants()) {
      if (v.role == histo::Role::Lesson) continue;  // racy: its own test, tagged [racy]
      if (!hb::test_runs_here(v.needs, "histogram variant " + std::string(v.id))) continue;
      INFO("variant " << v.id << " " << v.name << ", " << histo::name(d));
      const auto m = histo::measure(v, data, ws, bins.data(), stream, 2, true);
      CHECK(m.checked);
      CHECK(m.verdict.exact);
      CHECK(histo::passes(v, m));
      CHECK(m.median_ms > 0);
      CHECK(m.gbs > 0);
    }
  }
}

TEST_CASE("the workspace refuses inputs it was not made for", "[gpu]") {
  hb::select_device(0);
  histo::Workspace ws(1000);
  hb::DeviceBuffer<std::uint8_t> in(1024);
  CHECK_NOTHROW(ws.require(in.data(), 1000));
  CHECK_THROWS_AS(ws.require(in.data(), 1001), std::logic_error);
  CHECK_THROWS_AS(ws.require(in.data() + 1, 10), std::logic_error);
  CHECK_THROWS_AS(histo::find_variant("10").gpu(in.data(), 1001, nullptr, ws, nullptr), std::logic_error);
  // CUB's temporary storage for the largest input is enough for every smaller one.
  const std::size_t big = std::size_t(1) << 28;
  for (const std::size_t n : test_sizes())
    if (n <= big) CHECK(histo::cub_temp_bytes(n) <= histo::cub_temp_bytes(big));
}
