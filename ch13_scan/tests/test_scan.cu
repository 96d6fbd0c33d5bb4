// Chapter 13 GPU tests, generated over the tables: every scan of every level and every
// compaction against the CPU, on the sizes where scans break, inclusive and exclusive, int
// (exact) and float (exact for inputs that sum exactly, within the documented bound for
// rounded ones), into poisoned outputs with a guard element; in place; on pointers that are
// not 16-byte aligned; and 100 back-to-back calls of the variants that share the look-back
// state.
//
// Each variant is its own run of a test case (Catch2's GENERATE over its table), so a new row
// is tested without an edit here, and what a test needs to know about a variant (the elements
// of its tiles, whether it shares the look-back state, its alternate form) is a field of its
// row. Under compute-sanitizer (HB_UNDER_SANITIZER=1) sizes above 2^20 are left out and fewer
// block sizes and calls are tried, but every variant and every edge case still runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "circuits/scan_models.h"
#include "float_bound.h"
#include "harness.h"
#include "hb/capability.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/random.h"
#include "hb/testing.h"
#include "kernels/device/05a_two_level.cuh"
#include "kernels/device/09_tile_from_n.cuh"
#include "scan.h"

namespace {

using ch13::ScanKind;
constexpr ScanKind kKinds[] = {ScanKind::Inclusive, ScanKind::Exclusive};
constexpr std::size_t kMiB = std::size_t(1) << 20;

template <typename T>
hb::DeviceBuffer<T> to_device(const std::vector<T>& host) {
  hb::DeviceBuffer<T> d(host.size());
  if (!host.empty()) hb::copy_to_device(d.data(), host.data(), d.bytes());
  return d;
}

template <typename T>
std::vector<T> from_device(const T* d, std::size_t n, cudaStream_t stream) {
  std::vector<T> h(n);
  hb::copy_to_host(h.data(), d, n, stream);
  return h;
}

const char* type_name(int) { return "int"; }
const char* type_name(float) { return "float"; }

// The rows of a table that run on the GPU (not the CPU reference), one run of a test case each.
template <typename Row>
Catch::Generators::GeneratorWrapper<Row> gpu_rows(const std::vector<Row>& table) {
  return Catch::Generators::filter([](const Row& v) { return !v.is_cpu(); },
                                   Catch::Generators::from_range(table));
}

// The sizes where a scan breaks, and why each is here.
std::vector<std::size_t> edge_sizes() {
  std::vector<std::size_t> sizes = {
      0,                 // nothing to scan: nothing may be written
      1,                 // one element, its own prefix
      31, 32, 33,        // one lane short of a warp, a warp, one lane into the next warp
      1023, 1024, 1025,  // the same around the largest block
      1000003,           // a prime: no tile divides it, so the last tile is partly full
  };
  if (!hb::under_sanitizer()) {
    sizes.push_back(kMiB + 5);                    // more tiles than blocks fit on the GPU at once
    sizes.push_back((std::size_t(1) << 24) + 3);  // larger than the L2 cache
    sizes.push_back(std::size_t(1) << 26);        // the programs' default
  }
  return sizes;
}

// Block sizes to try: the default first, then the smallest and the odd multiple of 32 (96) the
// rules allow, and the largest; fewer for large inputs and under the sanitizer (time).
template <typename Row>
std::vector<int> block_sizes(const Row& v, std::size_t n) {
  if (v.default_threads() == 0) return {0};  // CUB picks its own
  const int first = v.default_threads_here();
  std::vector<int> want;
  if (hb::under_sanitizer()) {
    want = {first, 32};
  } else if (n > kMiB) {
    want = {first, 1024, 512};
  } else {
    want = {first, 32, 64, 96, 128, 512, 1024};
  }
  const std::size_t most = hb::under_sanitizer() && n > (std::size_t(1) << 16) ? 1
                           : hb::under_sanitizer() || n > kMiB                 ? 2
                                                                              : want.size();
  std::vector<int> out;
  for (int t : want) {
    if (out.size() == most) break;
    if (v.accepts_threads_here(t) && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

// The edge sizes, and those around the variant's own tiles of t elements (a block's share):
// t - 1, t and t + 1 (the last tile partly full, exactly full, one element into a new tile),
// the same around 2t (the second tile) and around t^2 (where a recursive scan needs a second
// level of tile totals); up to \p most, and only the first few tiles above 2^20.
template <typename Row>
std::set<std::size_t> sizes_for(const Row& v, std::size_t most) {
  const std::vector<std::size_t> edges = edge_sizes();
  std::set<std::size_t> sizes(edges.begin(), edges.end());
  for (int t : block_sizes(v, 0)) {
    if (t == 0) break;  // CUB's tiles are its own business
    const std::size_t tile = v.segment(t);
    for (std::size_t k : {tile, 2 * tile, tile * tile})
      for (std::size_t n : {k - 1, k, k + 1})
        if (n <= most && (n <= 4 * tile || n <= kMiB)) sizes.insert(n);
  }
  return sizes;
}

// One input and its CPU scans, both kinds.
template <typename T>
struct Expected {
  std::vector<T> in;
  std::map<ScanKind, std::vector<ch13::Wide<T>>> scan;
  std::map<ScanKind, std::vector<double>> scale;  // float: the scans of |x|
  explicit Expected(std::vector<T> input) : in(std::move(input)) {
    for (ScanKind kind : kKinds) {
      scan[kind] = ch13::reference_scan(in, kind);
      if constexpr (std::is_same_v<T, float>) scale[kind] = ch13::reference_abs_scan(in, kind);
    }
  }
  // Whether got matches the first got.size() expected elements: exactly, or within the bound.
  hb::CompareResult compare(const std::vector<T>& got, ScanKind kind, bool exact) const {
    if constexpr (std::is_same_v<T, int>) {
      return ch13::compare_scan(got.data(), scan.at(kind).data(), got.size());
    } else {
      return ch13::compare_scan(got.data(), scan.at(kind).data(), got.size(), scale.at(kind).data(),
                                exact ? 0.0 : ch13::float_scan_gamma(got.size()));
    }
  }
};

// Runs device scan \p v on each of \p sizes (prefixes of the input) with each of its block
// sizes, both kinds, into a poisoned output with a guard element after the last, and compares
// with the CPU.
template <typename T>
void check_scan(const ch13::ScanVariant& v, const Expected<T>& expected,
                const std::set<std::size_t>& sizes, bool exact) {
  const hb::DeviceBuffer<T> d_in = to_device(expected.in);
  ch13::Scratch scratch(expected.in.size());
  hb::Stream stream;
  hb::DeviceBuffer<T> out(expected.in.size() + 1);
  for (std::size_t n : sizes) {
    for (int t : block_sizes(v, n)) {
      for (ScanKind kind : kKinds) {
        INFO(v.label() << " (" << v.title << "), " << type_name(T{}) << ", " << ch13::kind_name(kind)
                       << ", n = " << n << ", threads = " << t);
        hb::poison(out.data(), (n + 1) * sizeof(T), 0xA5, stream);
        v.launch.template get<T>()(d_in.data(), out.data(), n, kind, t, scratch, stream);
        std::vector<T> got = from_device(out.data(), n + 1, stream);
        INFO("the element after the last one must stay untouched");
        CHECK(hb::is_poisoned(got[n]));
        got.pop_back();
        const hb::CompareResult r = expected.compare(got, kind, exact);
        INFO(r.report);
        CHECK(r.ok);
      }
    }
  }
}

// Runs a warp- or block-level launcher on the first n elements, \p reps scans in a row, into a
// poisoned output with a guard element, and compares with the CPU's segmented scan.
template <typename T>
void check_segments(ch13::SegmentLauncher<T> launch, const std::string& label,
                    const std::vector<T>& host, const T* d_in, hb::DeviceBuffer<T>& out,
                    std::size_t n, std::size_t segment, int threads, ScanKind kind, int reps,
                    cudaStream_t stream) {
  INFO(label << ", " << type_name(T{}) << ", " << ch13::kind_name(kind) << ", n = " << n
             << ", threads = " << threads << ", reps = " << reps);
  hb::poison(out.data(), (n + 1) * sizeof(T), 0xA5, stream);
  launch(d_in, out.data(), n, kind, threads, reps, stream);
  const std::vector<T> got = from_device(out.data(), n + 1, stream);
  CHECK(hb::is_poisoned(got[n]));
  std::vector<ch13::Wide<T>> want(host.begin(), host.begin() + n);
  for (int r = 0; r < reps; ++r) ch13::cpu_segmented_scan(want.data(), want.data(), n, segment, kind);
  std::size_t bad = 0, first = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<ch13::Wide<T>>(got[i]) != want[i] && bad++ == 0) first = i;
  }
  INFO(bad << " wrong, the first at " << first);
  CHECK(bad == 0);
}

// Every segment launcher of row \p v (int and float) with each of \p threads on each of \p
// sizes (a function of the segment), both kinds.
template <typename Row, typename Sizes>
void check_segment_row(const Row& v, const std::vector<int>& threads, Sizes sizes_of) {
  const std::size_t big = hb::under_sanitizer() ? 100003 : 1000003;  // a prime: a partial last segment
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const auto ints = ch13::make_ints(big, seed);
  const auto floats = ch13::make_floats(big, seed + 1, ch13::FloatData::Grid);
  const auto d_ints = to_device(ints);
  const auto d_floats = to_device(floats);
  hb::DeviceBuffer<int> out_int(big + 1);
  hb::DeviceBuffer<float> out_float(big + 1);
  hb::Stream stream;
  for (int t : threads) {
    if (!v.accepts_threads(t)) continue;
    const std::size_t segment = v.segment(t);
    for (std::size_t n : sizes_of(segment, big)) {
      for (ScanKind kind : kKinds) {
        check_segments(v.launch.for_int, v.label(), ints, d_ints.data(), out_int, n, segment, t, kind,
                       1, stream);
        check_segments(v.launch.for_float, v.label(), floats, d_floats.data(), out_float, n, segment,
                       t, kind, 1, stream);
      }
    }
  }
}

}  // namespace

TEST_CASE("the two-level split covers n with whole tiles and at most the cap of subarrays") {
  for (std::size_t n : {std::size_t(257), std::size_t(1000003), std::size_t(1) << 28}) {
    for (std::size_t b : {std::size_t(32), std::size_t(256), std::size_t(1024)}) {
      for (std::size_t cap : {std::size_t(1), std::size_t(7), std::size_t(1056), std::size_t(4224)}) {
        INFO("n = " << n << ", block " << b << ", cap " << cap);
        const ch13::TwoLevelSplit s = ch13::two_level_split(n, b, cap);
        CHECK(s.count >= 1);
        CHECK(s.count <= cap);
        CHECK(s.per_partial % b == 0);
        CHECK(s.count * s.per_partial >= n);
        CHECK((s.count - 1) * s.per_partial < n);
      }
    }
  }
}

TEST_CASE("the models behind figures 13.12 and 13.15 index shared memory as the kernels do") {
  // The kernels' own host-callable index functions against the CPU models the figures are
  // drawn from (circuits/scan_models.cpp), for every block size the warp-based scans take.
  CHECK(ch13::kWarpPartials == 16 + 32);
  for (int threads = 32; threads <= 1024; threads += 32) {
    INFO(threads << " threads");
    CHECK(ch13::scan_shared_memory<int, true>(threads) ==
          ch13::padded_words(threads) * int(sizeof(int)));
    CHECK(ch13::scan_shared_memory<int, false>(threads) == threads * int(sizeof(int)));
    for (int tid = 0; tid < threads; ++tid) {
      CHECK(ch13::scan_shared_index<true>(tid) == ch13::padded_slot(tid));
      CHECK(ch13::scan_shared_index<false>(tid) == tid);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Device-wide scans.

TEST_CASE("every device scan matches the CPU exactly for int on the edge sizes", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed << " (replay with HB_TEST_SEED)");
  static const Expected<int> expected(ch13::make_ints(edge_sizes().back(), seed));
  const ch13::ScanVariant v = GENERATE(gpu_rows(ch13::scan_variants()));
  check_scan(v, expected, sizes_for(v, expected.in.size()), true);
}

TEST_CASE("every device scan matches the CPU exactly for float inputs that sum exactly", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed << " (replay with HB_TEST_SEED)");
  static const Expected<float> expected(
      ch13::make_floats(edge_sizes().back(), seed + 1, ch13::FloatData::Grid));
  const ch13::ScanVariant v = GENERATE(gpu_rows(ch13::scan_variants()));
  check_scan(v, expected, sizes_for(v, expected.in.size()), true);
}

TEST_CASE("every device scan stays within the documented bound for rounded float inputs", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed << " (replay with HB_TEST_SEED)");
  // Empty, one element, past a warp, past a block, a prime; then larger ones, where the serial
  // parts of the bound (tile carries, look-backs) grow.
  std::set<std::size_t> sizes = {0, 1, 33, 1025, 100003};
  if (!hb::under_sanitizer()) sizes.insert({kMiB + 5, (std::size_t(1) << 24) + 3});
  static const Expected<float> expected(
      ch13::make_floats(*sizes.rbegin(), seed + 2, ch13::FloatData::Uniform));
  const ch13::ScanVariant v = GENERATE(gpu_rows(ch13::scan_variants()));
  check_scan(v, expected, sizes, false);
}

TEST_CASE("every device scan works in place", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  // One element, less than a tile of the single-pass variants, several tiles, and enough for
  // a second level of tile totals.
  const std::vector<std::size_t> ns = {1, 1000, 100003,
                                      std::size_t(hb::under_sanitizer() ? 300007 : 5000011)};
  static const Expected<int> expected(ch13::make_ints(ns.back(), seed));
  const ch13::ScanVariant v = GENERATE(gpu_rows(ch13::scan_variants()));
  ch13::Scratch scratch(ns.back());
  hb::Stream stream;
  hb::DeviceBuffer<int> data(ns.back());
  for (std::size_t n : ns) {
    for (ScanKind kind : kKinds) {
      INFO(v.label() << ", " << ch13::kind_name(kind) << ", n = " << n);
      hb::copy_to_device(data.data(), expected.in.data(), n * sizeof(int));
      v.launch.for_int(data.data(), data.data(), n, kind, v.default_threads_here(), scratch,
                       stream);
      const auto r = expected.compare(from_device(data.data(), n, stream), kind, true);
      INFO(r.report);
      CHECK(r.ok);
    }
  }
}

TEST_CASE("every device scan accepts pointers that are not 16-byte aligned", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const std::size_t big = hb::under_sanitizer() ? 100003 : kMiB + 7;
  static const std::vector<int> host = ch13::make_ints(big + 8, seed);
  const ch13::ScanVariant v = GENERATE(gpu_rows(ch13::scan_variants()));
  const auto d_in = to_device(host);
  ch13::Scratch scratch(host.size());
  hb::Stream stream;
  hb::DeviceBuffer<int> out(host.size() + 8);
  // Poisoned once: the comparison below finds any element a scan did not write, and
  // compute-sanitizer's initcheck does not count what the bulk-copy engine writes (variant
  // 8's tiles leave shared memory that way) as initialized.
  hb::poison(out.data(), out.size() * sizeof(int), 0x7f, stream);
  for (std::size_t in_offset = 0; in_offset < 4; ++in_offset) {
    for (std::size_t out_offset : {std::size_t(0), std::size_t(3)}) {
      // Less than one vector, one vector and one more, a few tiles, many tiles.
      for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(5), std::size_t(4097), big}) {
        const std::vector<int> slice(host.begin() + in_offset, host.begin() + in_offset + n);
        for (ScanKind kind : kKinds) {
          INFO(v.label() << ", input offset " << in_offset << ", output offset " << out_offset
                         << ", n = " << n << ", " << ch13::kind_name(kind));
          v.launch.for_int(d_in.data() + in_offset, out.data() + out_offset, n, kind, 128, scratch, stream);
          const auto want = ch13::reference_scan(slice, kind);
          const auto r = ch13::compare_scan(from_device(out.data() + out_offset, n, stream).data(),
                                            want.data(), n);
          INFO(r.report);
          CHECK(r.ok);
        }
      }
    }
  }
}

TEST_CASE("the variants that share the look-back state give the right answers in 100 back-to-back calls of changing size", "[gpu]") {
  // The rows marked shares_lookback share one tile counter and one array of status words, and
  // hand out different numbers of tickets per launch (tiles + blocks, or one per block). Calls
  // are enqueued without synchronizing, with grids of different sizes (a large call leaves
  // many status words of its epoch behind for a later small one to ignore), each into its own
  // output. Then again with the epochs restarted every 7 calls.
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const bool small = hb::under_sanitizer();
  const std::vector<std::size_t> ns = small ? std::vector<std::size_t>{70001, 33, 4099, 1, 16385}
                                            : std::vector<std::size_t>{1000003, 33, 4099, 1, 65536,
                                                                       kMiB - 5};
  const std::size_t max_n = *std::max_element(ns.begin(), ns.end());
  const Expected<int> want_int(ch13::make_ints(max_n, seed));
  const Expected<float> want_float(ch13::make_floats(max_n, seed + 1, ch13::FloatData::Grid));
  const auto d_ints = to_device(want_int.in);
  const auto d_floats = to_device(want_float.in);

  // The calls, in a cycle that mixes kernels, types and ticket counts: scan row k on int
  // (inclusive), scan row k + 1 on float (exclusive), compaction row k.
  struct Call {
    const ch13::ScanVariant* scan = nullptr;  // or a compaction:
    const ch13::CompactVariant* compact = nullptr;
    bool floats = false;
  };
  std::vector<const ch13::ScanVariant*> scans;
  std::vector<const ch13::CompactVariant*> compactions;
  for (const auto& v : ch13::scan_variants())
    if (v.shares_lookback) scans.push_back(&v);
  for (const auto& v : ch13::compact_variants())
    if (v.shares_lookback) compactions.push_back(&v);
  REQUIRE(!scans.empty());
  REQUIRE(!compactions.empty());
  std::vector<Call> cycle;
  for (std::size_t k = 0; k < std::max(scans.size(), compactions.size()); ++k) {
    cycle.push_back({scans[k % scans.size()], nullptr, false});
    cycle.push_back({scans[(k + 1) % scans.size()], nullptr, true});
    cycle.push_back({nullptr, compactions[k % compactions.size()], false});
  }
  const int calls = small ? 12 : 100;
  for (std::uint32_t period : {(1u << 31) - 2, 7u}) {
    INFO("epochs restarted every " << period << " calls");
    ch13::Scratch scratch(max_n);
    scratch.set_epoch_period(period);
    hb::Stream stream;
    // Every output is allocated and poisoned (and the counts cleared) before the first call,
    // so that nothing between the calls synchronizes. The poison also counts as initialized
    // for initcheck, which does not see the bulk copies that write variant 8's results.
    std::vector<hb::DeviceBuffer<int>> int_out;
    std::vector<hb::DeviceBuffer<float>> float_out;
    for (int i = 0; i < calls; ++i) {
      int_out.emplace_back(ns[i % ns.size()] + 1);
      float_out.emplace_back(ns[i % ns.size()] + 1);
      hb::poison(int_out.back().data(), int_out.back().bytes(), 0x7f);
      hb::poison(float_out.back().data(), float_out.back().bytes(), 0x7f);
    }
    hb::DeviceBuffer<int> counts(calls);
    counts.zero();
    HB_CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < calls; ++i) {
      const Call& c = cycle[i % cycle.size()];
      const std::size_t n = ns[i % ns.size()];
      // Every other cycle at 64 threads, else at the default block size (of this GPU).
      const int big =
          c.compact ? c.compact->default_threads_here() : c.scan->default_threads_here();
      const int threads = (i / int(cycle.size())) % 2 == 0 ? big : 64;
      if (c.compact != nullptr) {
        c.compact->launch(d_ints.data(), int_out[i].data(), n, counts.data() + i, threads, scratch, stream);
      } else if (c.floats) {
        c.scan->launch.for_float(d_floats.data(), float_out[i].data(), n, ScanKind::Exclusive, threads,
                                 scratch, stream);
      } else {
        c.scan->launch.for_int(d_ints.data(), int_out[i].data(), n, ScanKind::Inclusive, threads,
                               scratch, stream);
      }
    }
    const std::vector<int> count = from_device(counts.data(), calls, stream);
    for (int i = 0; i < calls; ++i) {
      const Call& c = cycle[i % cycle.size()];
      const std::size_t n = ns[i % ns.size()];
      INFO("call " << i << " (" << (c.compact ? c.compact->label() : c.scan->label())
                   << (c.floats ? ", float exclusive" : "") << "), n = " << n);
      if (c.compact != nullptr) {
        const std::vector<int> want = ch13::reference_compact(want_int.in, n);
        REQUIRE(count[i] == static_cast<int>(want.size()));
        CHECK(from_device(int_out[i].data(), want.size(), stream) == want);
      } else {
        const auto r = c.floats ? want_float.compare(from_device(float_out[i].data(), n, stream),
                                                     ScanKind::Exclusive, true)
                                : want_int.compare(from_device(int_out[i].data(), n, stream),
                                                   ScanKind::Inclusive, true);
        INFO(r.report);
        CHECK(r.ok);
      }
    }
  }
}

TEST_CASE("the tiled variants accept exactly the block sizes whose tile fits this GPU's shared memory", "[gpu]") {
  hb::select_device(0);
  const std::size_t limit = hb::shared_per_block_limit();
  INFO("shared memory per block: " << limit << " bytes (" << hb::capability_summary() << ")");
  const std::size_t n = 100003;
  ch13::Scratch scratch(n);
  hb::Stream stream;
  hb::DeviceBuffer<int> data(n), out(n), count(1);
  hb::poison(data.data(), n * sizeof(int), 0x11, stream);  // odd values: every element selected
  int tiled = 0;
  for (int t = 32; t <= 1024; t *= 2) {
    INFO(t << " threads");
    const auto expect = [&](const auto& v, auto call) {
      if (v.tile_bytes_per_thread == 0) return;
      ++tiled;
      INFO(v.label());
      if (!v.accepts_threads(t)) {  // a block size its rule refuses on every GPU
        CHECK_FALSE(v.accepts_threads_here(t));
        CHECK_THROWS_AS(call(), hb::UsageError);
        return;
      }
      const bool fits = std::size_t(v.tile_bytes_per_thread) * t + 1024 <= limit;
      CHECK(v.accepts_threads_here(t) == fits);
      if (fits) {
        CHECK_NOTHROW(call());
      } else {
        CHECK_THROWS_WITH(call(), Catch::Contains("KiB of shared memory per block"));
      }
    };
    for (const auto& v : ch13::scan_variants())
      expect(v, [&] { v.launch.for_int(data.data(), out.data(), n, ScanKind::Inclusive, t, scratch, stream); });
    for (const auto& v : ch13::compact_variants())
      expect(v, [&] { v.launch(data.data(), out.data(), n, count.data(), t, scratch, stream); });
  }
  CHECK(tiled > 0);
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

TEST_CASE("variant 9 takes the largest block whose tiles give every SM one, and 64 threads below") {
  const auto tiles = [](std::size_t n, int threads) {
    return hb::ceil_div(n, std::size_t(threads) * ch13::kBulkItems);
  };
  for (int sms : {1, 28, 132}) {          // a GPU of one SM, a small and a large one
    for (int largest : {64, 128, 512}) {  // Turing's 64 KiB grants 128 threads of ring
      for (std::size_t n = 1; n <= (std::size_t(1) << 30); n = n * 3 + 1) {
        INFO(sms << " SMs, blocks of up to " << largest << " threads, n = " << n);
        const int t = ch13::scan9_threads(n, sms, largest);
        CHECK((t >= 64 && t <= largest && (t & (t - 1)) == 0));
        if (t > 64) CHECK(tiles(n, t) >= std::size_t(sms));       // every SM has a tile
        if (t < largest) CHECK(tiles(n, 2 * t) < std::size_t(sms));  // a larger one leaves SMs idle
      }
    }
  }
  CHECK(ch13::scan9_threads(std::size_t(1) << 28, 132, 512) == 512);
  CHECK(ch13::scan9_threads(1024, 132, 512) == 64);
}

TEST_CASE("the variants that choose their block size match the CPU on both sides of every size where it changes", "[gpu]") {
  hb::select_device(0);
  const ch13::ScanVariant v = GENERATE(Catch::Generators::filter(
      [](const ch13::ScanVariant& row) { return row.picks_own(); },
      Catch::Generators::from_range(ch13::scan_variants())));
  const int sms = hb::Residency::of_current_device().sm_count;
  // The first size at which each block size t above 64 is chosen, the first whose tiles of t
  // threads reach every SM ((sms - 1) whole tiles and one element), and one below and above.
  std::set<std::size_t> sizes;
  for (int t = 128; t <= 512; t *= 2) {
    const std::size_t first = std::size_t(sms - 1) * t * v.items_per_thread + 1;
    if (hb::under_sanitizer() && first > kMiB) continue;
    sizes.insert({first - 1, first, first + 1});
  }
  REQUIRE_FALSE(sizes.empty());
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const Expected<int> expected(ch13::make_ints(*sizes.rbegin(), seed));
  check_scan(v, expected, sizes, true);
}

// ---------------------------------------------------------------------------------------
// Warp and block level.

TEST_CASE("every warp scan matches the CPU for every count of lanes in the last warp", "[gpu]") {
  hb::select_device(0);
  const ch13::WarpVariant v = GENERATE(from_range(ch13::with_alternates(ch13::warp_variants())));
  // A block of one warp, of three (not a power of two), the default and the largest.
  const std::vector<int> threads = hb::under_sanitizer() ? std::vector<int>{64}
                                                         : std::vector<int>{32, 96, 256, 1024};
  check_segment_row(v, threads, [](std::size_t, std::size_t big) {
    std::vector<std::size_t> ns;
    for (std::size_t n = 0; n <= 33; ++n) ns.push_back(n);  // every lane count of the last warp
    if (!hb::under_sanitizer())
      for (std::size_t n = 34; n <= 96; ++n) ns.push_back(n);  // ... behind one and two full warps
    for (std::size_t n : {std::size_t(63), std::size_t(64), std::size_t(65), big}) ns.push_back(n);
    return ns;
  });
}

TEST_CASE("every block scan matches the CPU on every block size it accepts", "[gpu]") {
  hb::select_device(0);
  const ch13::BlockVariant v = GENERATE(from_range(ch13::with_alternates(ch13::block_variants())));
  // Every power of two, an odd multiple of 32 (96) and 992, one warp short of the largest.
  const std::vector<int> threads = hb::under_sanitizer()
                                       ? std::vector<int>{32, 256, 96}
                                       : std::vector<int>{32, 64, 96, 128, 256, 512, 992, 1024};
  check_segment_row(v, threads, [](std::size_t tile, std::size_t big) {
    // Empty, one element, around a warp, around the tile, a few tiles and a partial one.
    return std::vector<std::size_t>{0, 1, 31, 33, tile - 1, tile, tile + 1, 3 * tile + 17, big};
  });
}

TEST_CASE("repeated warp and block scans match repeated CPU scans", "[gpu]") {
  // The synthetic sweeps of the driver scan each segment many times in a row; three
  // repetitions of small integers check that every repetition starts from the last one's
  // output (in registers or shared memory) and stay exact.
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const std::size_t n = 5000;
  std::vector<int> small(n);
  for (std::size_t i = 0; i < n; ++i) small[i] = static_cast<int>(hb::uniform_int(seed, i, -3, 3));
  const auto d_in = to_device(small);
  hb::DeviceBuffer<int> out(n + 1);
  hb::Stream stream;
  const auto check_table = [&](const auto& table) {
    for (const auto& v : ch13::with_alternates(table))
      for (ScanKind kind : kKinds)
        check_segments(v.launch.for_int, v.label(), small, d_in.data(), out, n, v.segment(128), 128,
                       kind, 3, stream);
  };
  check_table(ch13::warp_variants());
  check_table(ch13::block_variants());
}

// ---------------------------------------------------------------------------------------
// Stream compaction.

TEST_CASE("every compaction selects exactly the odd elements of random and all-odd and none-odd data", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const std::size_t max_n = edge_sizes().back();
  static const std::map<std::string, std::vector<int>> inputs = [&] {
    std::map<std::string, std::vector<int>> m;
    m["random"] = ch13::make_ints(max_n, seed);
    std::vector<int> odd(max_n), even(max_n);
    for (std::size_t i = 0; i < max_n; ++i) {
      odd[i] = 2 * static_cast<int>(i % 1000003) - 1000001;  // all odd, negative ones too
      even[i] = 2 * static_cast<int>(i % 1000003);
    }
    m["all odd"] = std::move(odd);
    m["none odd"] = std::move(even);
    return m;
  }();
  const ch13::CompactVariant v = GENERATE(gpu_rows(ch13::compact_variants()));
  ch13::Scratch scratch(max_n);
  hb::Stream stream;
  hb::DeviceBuffer<int> out(max_n + 1);
  hb::DeviceBuffer<int> count(1);
  for (const auto& [what, host] : inputs) {
    const auto d_in = to_device(host);
    for (std::size_t n : sizes_for(v, max_n)) {
      const std::vector<int> want = ch13::reference_compact(host, n);
      for (int t : block_sizes(v, n)) {
        INFO(v.label() << ", " << what << " data, n = " << n << ", threads = " << t);
        hb::poison(out.data(), (n + 1) * sizeof(int), 0xA5, stream);
        hb::poison(count.data(), sizeof(int), 0xA5, stream);
        v.launch(d_in.data(), out.data(), n, count.data(), t, scratch, stream);
        const int got_count = from_device(count.data(), 1, stream)[0];
        REQUIRE(got_count == static_cast<int>(want.size()));
        const std::vector<int> got = from_device(out.data(), want.size() + 1, stream);
        CHECK(std::equal(want.begin(), want.end(), got.begin()));
        INFO("the element after the last selected one must stay untouched");
        CHECK(hb::is_poisoned(got.back()));
      }
    }
  }
}

TEST_CASE("every compaction accepts pointers that are not 16-byte aligned", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const std::size_t big = hb::under_sanitizer() ? 100003 : kMiB + 7;
  static const std::vector<int> host = ch13::make_ints(big + 8, seed);
  const ch13::CompactVariant v = GENERATE(gpu_rows(ch13::compact_variants()));
  const auto d_in = to_device(host);
  ch13::Scratch scratch(host.size());
  hb::Stream stream;
  hb::DeviceBuffer<int> out(host.size() + 8);
  hb::DeviceBuffer<int> count(1);
  for (std::size_t in_offset = 0; in_offset < 4; ++in_offset) {
    for (std::size_t out_offset : {std::size_t(0), std::size_t(3)}) {
      for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(5), std::size_t(4097), big}) {
        const std::vector<int> slice(host.begin() + in_offset, host.begin() + in_offset + n);
        INFO(v.label() << ", input offset " << in_offset << ", output offset " << out_offset
                       << ", n = " << n);
        v.launch(d_in.data() + in_offset, out.data() + out_offset, n, count.data(), 128, scratch, stream);
        const std::vector<int> want = ch13::reference_compact(slice, n);
        const int got_count = from_device(count.data(), 1, stream)[0];
        REQUIRE(got_count == static_cast<int>(want.size()));
        CHECK(from_device(out.data() + out_offset, got_count, stream) == want);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// The benches of the programs.

TEST_CASE("the scan bench measures and checks every scan, int and float, both kinds", "[gpu]") {
  hb::select_device(0);
  const ch13::ScanVariant v = GENERATE(from_range(ch13::scan_variants()));
  const std::size_t n = 5003;
  for (ScanKind kind : kKinds) {
    ch13::ScanBench<int> ints(n, kind, hb::test_seed(), 2, true);
    ch13::ScanBench<float> floats(n, kind, hb::test_seed(), 2, true);
    for (const ch13::Measurement& m :
         {ints.measure(v, v.default_threads_here(), n),
          floats.measure(v, v.default_threads_here(), n)}) {
      INFO(v.label() << ", " << ch13::kind_name(kind) << ": " << m.failure);
      CHECK(m.ok);
      CHECK(m.median_ms > 0.0);
      // The harness counts each element read once and written once: 8 bytes per element.
      CHECK(m.rates[0] * m.median_ms * 1e6 == Approx(8.0 * double(n)).epsilon(1e-9));
    }
  }
}

TEST_CASE("the compaction bench measures and checks every compaction", "[gpu]") {
  hb::select_device(0);
  const ch13::CompactVariant v = GENERATE(from_range(ch13::compact_variants()));
  const std::size_t n = 5003;
  ch13::CompactBench bench(n, hb::test_seed(), 2, true);
  const ch13::Measurement m = bench.measure(v, v.default_threads_here(), n);
  INFO(v.label() << ": " << m.failure);
  CHECK(m.ok);
  CHECK(m.selected > n / 3);
}
