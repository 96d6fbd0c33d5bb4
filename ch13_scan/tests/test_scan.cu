// Chapter 13 GPU tests: every scan of every level and every compaction against the CPU, on
// the sizes where scans break (empty, one element, around a warp, around a tile, a prime,
// large), inclusive and exclusive, int (exact) and float (exact for inputs that sum exactly,
// within the documented bound for rounded ones), with poisoned outputs and a guard element;
// in place; on pointers that are not 16-byte aligned; and 100 back-to-back calls of the
// single-pass kernels, whose tile counter and status words carry over between calls.
//
// Under compute-sanitizer (HB_UNDER_SANITIZER=1) sizes above 2^20 are skipped and fewer
// block sizes and calls are tried, but every variant and every edge case still runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "hb/capability.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/random.h"
#include "hb/testing.h"
#include "kernels/device/05a_two_level.cuh"
#include "reference.h"
#include "scan.h"

namespace {

using ch13::ScanKind;
constexpr unsigned char kPoisonByte = 0xA5;
constexpr ScanKind kKinds[] = {ScanKind::Inclusive, ScanKind::Exclusive};

template <typename T>
bool is_poison(const T& v) {
  T p;
  std::memset(&p, kPoisonByte, sizeof p);
  return std::memcmp(&v, &p, sizeof v) == 0;
}

template <typename T>
hb::DeviceBuffer<T> to_device(const std::vector<T>& host) {
  hb::DeviceBuffer<T> d(host.size());
  if (!host.empty())
    hb::copy_to_device(d.data(), host.data(), d.bytes());
  return d;
}

template <typename T>
std::vector<T> from_device(const T* d, std::size_t n, cudaStream_t stream) {
  std::vector<T> h(n);
  if (n > 0)
    HB_CUDA_CHECK(cudaMemcpyAsync(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return h;
}

std::size_t large_size() { return std::size_t(1) << 26; }

// The edge sizes around a warp and a block of 1024: 0, 1, 31, 32, 33, 1023,
// 1024, 1025, the prime 1000003, 2^20 + 5, 2^24 + 3 and 2^26 (the last three not under the
// sanitizer).
std::vector<std::size_t> standard_sizes() {
  std::vector<std::size_t> s = hb::standard_sizes(1024, large_size());
  if (!hb::under_sanitizer()) {
    s.push_back((std::size_t(1) << 20) + 5);
    s.push_back((std::size_t(1) << 24) + 3);
  }
  std::sort(s.begin(), s.end());
  return s;
}

// Elements one block covers (a tile) with blocks of `threads` threads, 0 for CUB.
std::size_t tile_of(const ch13::ScanVariant& v, int threads) {
  return v.default_threads() == 0 ? 0 : v.segment(threads);
}

// Block sizes to try: the default and the interesting ones the rule allows; fewer for large
// inputs and under the sanitizer.
template <typename Row>
std::vector<int> block_sizes(const Row& v, std::size_t n) {
  if (v.default_threads() == 0) return {0};
  std::vector<int> want;
  if (hb::under_sanitizer()) {
    want = {v.default_threads(), 32};
  } else if (n > (std::size_t(1) << 20)) {
    want = {v.default_threads(), 1024, 512};
  } else {
    want = {v.default_threads(), 32, 64, 96, 128, 512, 1024};
  }
  // Under the sanitizer, sizes above 2^16 run with the default block size only (time).
  const std::size_t most = hb::under_sanitizer() && n > (std::size_t(1) << 16) ? 1
                           : hb::under_sanitizer() || n > (std::size_t(1) << 20) ? 2
                                                                                : want.size();
  std::vector<int> out;
  for (int t : want) {
    if (out.size() == most) break;
    if (v.accepts_threads_here(t) && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

// Runs a device scan into a poisoned output with one guard element and returns the n
// results; the guard must stay poisoned.
template <typename T>
struct ScanRunner {
  ScanRunner(ch13::Scratch& s, std::size_t max_n) : scratch(s), out(max_n + 1) {}
  ch13::Scratch& scratch;
  hb::Stream stream;
  hb::DeviceBuffer<T> out;

  std::vector<T> run(ch13::ScanLauncher<T> launch, const T* d_in, std::size_t n, ScanKind kind,
                     int threads) {
    hb::poison(out.data(), (n + 1) * sizeof(T), kPoisonByte, stream);
    launch(d_in, out.data(), n, kind, threads, scratch, stream);
    std::vector<T> h = from_device(out.data(), n + 1, stream);
    INFO("the element after the last one must stay untouched");
    CHECK(is_poison(h[n]));
    h.pop_back();
    return h;
  }
};

// The CPU scans of one input, both kinds, computed once; prefixes serve every size.
template <typename T>
struct Expected {
  using Wide = std::conditional_t<std::is_same_v<T, int>, long long, double>;
  std::map<ScanKind, std::vector<Wide>> scan;
  std::map<ScanKind, std::vector<double>> scale;  // float: the scans of |x|
  explicit Expected(const std::vector<T>& in) {
    for (ScanKind kind : kKinds) {
      scan[kind] = ch13::reference_scan(in, kind);
      if constexpr (std::is_same_v<T, float>) scale[kind] = ch13::reference_abs_scan(in, kind);
    }
  }
  // Whether got matches the first n expected elements: exactly, or within the float bound.
  hb::CompareResult compare(const std::vector<T>& got, ScanKind kind, bool exact) const {
    if constexpr (std::is_same_v<T, int>) {
      return ch13::compare_scan(got.data(), scan.at(kind).data(), got.size());
    } else {
      return ch13::compare_scan(got.data(), scan.at(kind).data(), scale.at(kind).data(), got.size(),
                                exact ? 0.0 : ch13::float_scan_gamma(got.size()));
    }
  }
};

// Every GPU scan variant on the sizes \p ns (and around each variant's tiles), both kinds.
template <typename T>
void check_every_scan(const std::vector<T>& host, std::vector<std::size_t> ns, bool exact) {
  const hb::DeviceBuffer<T> d_in = to_device(host);
  const Expected<T> expected(host);
  ch13::Scratch scratch(host.size());
  ScanRunner<T> runner(scratch, host.size());
  for (const auto& v : ch13::scan_variants()) {
    if (v.is_cpu()) continue;
    std::set<std::size_t> sizes(ns.begin(), ns.end());
    for (int t : block_sizes(v, 0)) {
      const std::size_t tile = tile_of(v, t);
      if (tile == 0) continue;
      for (std::size_t k : {tile, 2 * tile, tile * tile})
        for (std::size_t n : {k - 1, k, k + 1})
          if (n <= host.size() && (n <= 4 * tile || n <= (std::size_t(1) << 20))) sizes.insert(n);
    }
    for (std::size_t n : sizes) {
      for (int t : block_sizes(v, n)) {
        for (ScanKind kind : kKinds) {
          INFO(v.label() << " (" << v.title << "), " << (std::is_same_v<T, int> ? "int" : "float")
                         << ", " << ch13::kind_name(kind) << ", n = " << n << ", threads = " << t);
          const std::vector<T> got = runner.run(v.launch.template get<T>(), d_in.data(), n, kind, t);
          const hb::CompareResult r = expected.compare(got, kind, exact);
          INFO(r.report);
          CHECK(r.ok);
        }
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

TEST_CASE("every device scan matches the CPU exactly for int on the standard sizes", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed << " (replay with HB_TEST_SEED)");
  const auto ns = standard_sizes();
  check_every_scan(ch13::make_ints(ns.back(), seed), ns, true);
}

TEST_CASE("every device scan matches the CPU exactly for float inputs that sum exactly", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed << " (replay with HB_TEST_SEED)");
  const auto ns = standard_sizes();
  check_every_scan(ch13::make_floats(ns.back(), seed + 1, ch13::FloatData::Grid), ns, true);
}

TEST_CASE("every device scan stays within the documented bound for rounded float inputs", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed << " (replay with HB_TEST_SEED)");
  std::vector<std::size_t> ns = {0, 1, 33, 1025, 100003};
  if (!hb::under_sanitizer()) {
    ns.push_back((std::size_t(1) << 20) + 5);
    ns.push_back((std::size_t(1) << 24) + 3);
  }
  check_every_scan(ch13::make_floats(ns.back(), seed + 2, ch13::FloatData::Uniform), ns, false);
}

TEST_CASE("every device scan works in place", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const std::vector<std::size_t> ns = {1, 1000, 100003,
                                      std::size_t(hb::under_sanitizer() ? 300007 : 5000011)};
  const auto host = ch13::make_ints(ns.back(), seed);
  const Expected<int> expected(host);
  ch13::Scratch scratch(host.size());
  hb::Stream stream;
  hb::DeviceBuffer<int> data(host.size());
  for (const auto& v : ch13::scan_variants()) {
    if (v.is_cpu()) continue;
    for (std::size_t n : ns) {
      for (ScanKind kind : kKinds) {
        INFO(v.label() << ", " << ch13::kind_name(kind) << ", n = " << n);
        hb::copy_to_device(data.data(), host.data(), n * sizeof(int));
        v.launch.for_int(data.data(), data.data(), n, kind, v.default_threads(), scratch, stream);
        const auto r = expected.compare(from_device(data.data(), n, stream), kind, true);
        INFO(r.report);
        CHECK(r.ok);
      }
    }
  }
}

TEST_CASE("the single-pass kernels give the right answers in 100 back-to-back calls of changing size", "[gpu]") {
  // Scans 6 and 7 and compactions 2 and 3 share one tile counter and one array of status
  // words, and hand out different numbers of tickets per launch (tiles + blocks, or one per
  // block). Calls are enqueued without synchronizing, with grids of different sizes (a large
  // call leaves many status words of its epoch behind for a later small one to ignore), each
  // into its own output. Then again with the epochs restarted every 7 calls.
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const bool small = hb::under_sanitizer();
  const std::vector<std::size_t> ns = small ? std::vector<std::size_t>{70001, 33, 4099, 1, 16385}
                                            : std::vector<std::size_t>{1000003, 33, 4099, 1, 65536,
                                                                       (std::size_t(1) << 20) - 5};
  const std::size_t max_n = *std::max_element(ns.begin(), ns.end());
  const auto ints = ch13::make_ints(max_n, seed);
  const auto floats = ch13::make_floats(max_n, seed + 1, ch13::FloatData::Grid);
  const auto d_ints = to_device(ints);
  const auto d_floats = to_device(floats);
  const Expected<int> want_int(ints);
  const Expected<float> want_float(floats);
  const int calls = small ? 12 : 100;
  // Call i does kind i % 6: int scans (inclusive), float scans (exclusive), compactions.
  enum class Call { IntScan6, FloatScan7, Compact2, IntScan7, FloatScan6, Compact3 };
  const auto call_of = [](int i) { return static_cast<Call>(i % 6); };
  const auto is_float = [](Call c) { return c == Call::FloatScan6 || c == Call::FloatScan7; };
  const auto is_compaction = [](Call c) { return c == Call::Compact2 || c == Call::Compact3; };
  for (std::uint32_t period : {(1u << 31) - 2, 7u}) {
    INFO("epochs restarted every " << period << " calls");
    ch13::Scratch scratch(max_n);
    scratch.set_epoch_period(period);
    hb::Stream stream;
    // Every output is allocated (and the counts cleared) before the first call, so that
    // nothing between the calls synchronizes.
    std::vector<hb::DeviceBuffer<int>> int_out;
    std::vector<hb::DeviceBuffer<float>> float_out;
    for (int i = 0; i < calls; ++i) {
      if (is_float(call_of(i))) {
        float_out.emplace_back(ns[i % ns.size()] + 1);
      } else {
        int_out.emplace_back(ns[i % ns.size()] + 1);
      }
    }
    hb::DeviceBuffer<int> counts(calls);
    HB_CUDA_CHECK(cudaMemset(counts.data(), 0, counts.bytes()));
    HB_CUDA_CHECK(cudaDeviceSynchronize());
    std::size_t next_int = 0, next_float = 0;
    for (int i = 0; i < calls; ++i) {
      const std::size_t n = ns[i % ns.size()];
      const int threads = (i / 6) % 2 == 0 ? 256 : 64;
      switch (call_of(i)) {
        case Call::IntScan6:
          ch13::find_scan_variant("6").launch.for_int(d_ints.data(), int_out[next_int++].data(), n,
                                         ScanKind::Inclusive, threads, scratch, stream);
          break;
        case Call::IntScan7:
          ch13::find_scan_variant("7").launch.for_int(d_ints.data(), int_out[next_int++].data(), n,
                                         ScanKind::Inclusive, threads, scratch, stream);
          break;
        case Call::FloatScan6:
          ch13::find_scan_variant("6").launch.for_float(d_floats.data(), float_out[next_float++].data(), n,
                                         ScanKind::Exclusive, threads, scratch, stream);
          break;
        case Call::FloatScan7:
          ch13::find_scan_variant("7").launch.for_float(d_floats.data(), float_out[next_float++].data(), n,
                                         ScanKind::Exclusive, threads, scratch, stream);
          break;
        case Call::Compact2:
          ch13::find_compact_variant("2").launch(d_ints.data(), int_out[next_int++].data(), n,
                                            counts.data() + i, threads, scratch, stream);
          break;
        case Call::Compact3:
          ch13::find_compact_variant("3").launch(d_ints.data(), int_out[next_int++].data(), n,
                                            counts.data() + i, threads, scratch, stream);
          break;
      }
    }
    const std::vector<int> count = from_device(counts.data(), calls, stream);
    next_int = 0;
    next_float = 0;
    for (int i = 0; i < calls; ++i) {
      const std::size_t n = ns[i % ns.size()];
      const Call c = call_of(i);
      INFO("call " << i << " (" << (is_compaction(c) ? "compaction" : is_float(c) ? "float exclusive scan" : "int scan")
                   << ", kind " << int(c) << "), n = " << n);
      if (is_float(c)) {
        const auto r = want_float.compare(from_device(float_out[next_float++].data(), n, stream),
                                          ScanKind::Exclusive, true);
        INFO(r.report);
        CHECK(r.ok);
      } else if (!is_compaction(c)) {
        const auto r = want_int.compare(from_device(int_out[next_int++].data(), n, stream),
                                        ScanKind::Inclusive, true);
        INFO(r.report);
        CHECK(r.ok);
      } else {
        const std::vector<int> want = ch13::reference_compact(ints, n);
        REQUIRE(count[i] == static_cast<int>(want.size()));
        const auto got = from_device(int_out[next_int++].data(), want.size(), stream);
        CHECK(got == want);
      }
    }
  }
}

TEST_CASE("the single-pass kernels and CUB accept pointers that are not 16-byte aligned", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const std::size_t big = hb::under_sanitizer() ? 100003 : (std::size_t(1) << 20) + 7;
  const auto host = ch13::make_ints(big + 8, seed);
  const auto d_in = to_device(host);
  ch13::Scratch scratch(host.size());
  hb::Stream stream;
  hb::DeviceBuffer<int> out(host.size() + 8);
  hb::DeviceBuffer<int> count(1);
  for (std::size_t in_offset = 0; in_offset < 4; ++in_offset) {
    for (std::size_t out_offset : {std::size_t(0), std::size_t(3)}) {
      for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(5), std::size_t(4097), big}) {
        const std::vector<int> slice(host.begin() + in_offset, host.begin() + in_offset + n);
        for (const char* id : {"0b", "6", "7"}) {
          const auto& v = ch13::find_scan_variant(id);
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
        for (const char* id : {"0b", "1", "2", "3"}) {
          const auto& v = ch13::find_compact_variant(id);
          INFO(v.label() << ", input offset " << in_offset << ", output offset " << out_offset
                         << ", n = " << n);
          v.launch(d_in.data() + in_offset, out.data() + out_offset, n, count.data(), 128, scratch,
                   stream);
          const auto want = ch13::reference_compact(slice, n);
          const int got_count = from_device(count.data(), 1, stream)[0];
          REQUIRE(got_count == static_cast<int>(want.size()));
          CHECK(from_device(out.data() + out_offset, got_count, stream) == want);
        }
      }
    }
  }
}

namespace {

// A warp- or block-level variant under a given name, with its launcher for T.
struct SegmentCase {
  std::string label;
  ch13::SegmentLauncher<int> launch_int;
  ch13::SegmentLauncher<float> launch_float;
};

std::vector<SegmentCase> warp_cases() {
  std::vector<SegmentCase> c;
  for (const auto& v : ch13::with_alternates(ch13::warp_variants()))
    c.push_back({v.label(), v.launch.for_int, v.launch.for_float});
  return c;
}

// Runs a segment launcher on the first n elements and compares with the CPU's segmented scan
// (repeated reps times).
template <typename T>
void check_segments(ch13::SegmentLauncher<T> launch, const std::string& label,
                    const std::vector<T>& host, const T* d_in, hb::DeviceBuffer<T>& out,
                    std::size_t n, std::size_t segment, int threads, ScanKind kind, int reps,
                    cudaStream_t stream) {
  INFO(label << ", " << (std::is_same_v<T, int> ? "int" : "float") << ", "
             << ch13::kind_name(kind) << ", n = " << n << ", threads = " << threads
             << ", reps = " << reps);
  hb::poison(out.data(), (n + 1) * sizeof(T), kPoisonByte, stream);
  launch(d_in, out.data(), n, kind, threads, reps, stream);
  const std::vector<T> got = from_device(out.data(), n + 1, stream);
  CHECK(is_poison(got[n]));
  using Wide = std::conditional_t<std::is_same_v<T, int>, long long, double>;
  std::vector<Wide> want(host.begin(), host.begin() + n);
  for (int r = 0; r < reps; ++r)
    ch13::cpu_segmented_scan(want.data(), want.data(), n, segment, kind);
  std::size_t bad = 0, first = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<Wide>(got[i]) != want[i]) {
      if (bad++ == 0) first = i;
    }
  }
  INFO(bad << " wrong, the first at " << first);
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("every warp scan matches the CPU for every count of lanes in the last warp", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const std::size_t big = hb::under_sanitizer() ? 100003 : 1000003;
  const auto ints = ch13::make_ints(big, seed);
  const auto floats = ch13::make_floats(big, seed + 1, ch13::FloatData::Grid);
  const auto d_ints = to_device(ints);
  const auto d_floats = to_device(floats);
  hb::DeviceBuffer<int> out_int(big + 1);
  hb::DeviceBuffer<float> out_float(big + 1);
  hb::Stream stream;
  std::vector<std::size_t> ns;
  for (std::size_t n = 0; n <= 33; ++n) ns.push_back(n);  // every lane count of the last warp
  if (!hb::under_sanitizer())
    for (std::size_t n = 34; n <= 96; ++n) ns.push_back(n);  // ... behind one and two full warps
  for (std::size_t n : {std::size_t(63), std::size_t(64), std::size_t(65), big}) ns.push_back(n);
  const std::vector<int> threads = hb::under_sanitizer() ? std::vector<int>{64} : std::vector<int>{32, 96, 256, 1024};
  for (const SegmentCase& c : warp_cases()) {
    for (int t : threads) {
      for (std::size_t n : ns) {
        for (ScanKind kind : kKinds) {
          check_segments(c.launch_int, c.label, ints, d_ints.data(), out_int, n, 32, t, kind, 1, stream);
          check_segments(c.launch_float, c.label, floats, d_floats.data(), out_float, n, 32, t, kind, 1,
                         stream);
        }
      }
    }
  }
}

TEST_CASE("every block scan matches the CPU on every block size it accepts", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const std::size_t big = hb::under_sanitizer() ? 100003 : 1000003;
  const auto ints = ch13::make_ints(big, seed);
  const auto floats = ch13::make_floats(big, seed + 1, ch13::FloatData::Grid);
  const auto d_ints = to_device(ints);
  const auto d_floats = to_device(floats);
  hb::DeviceBuffer<int> out_int(big + 1);
  hb::DeviceBuffer<float> out_float(big + 1);
  hb::Stream stream;
  const std::vector<int> threads = hb::under_sanitizer() ? std::vector<int>{32, 256, 96}
                                                         : std::vector<int>{32, 64, 96, 128, 256, 512, 992, 1024};
  for (const auto& v : ch13::block_variants()) {
    for (int t : threads) {
      if (!v.accepts_threads(t)) continue;
      const std::size_t tile = v.segment(t);
      for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(31), std::size_t(33), tile - 1,
                            tile, tile + 1, 3 * tile + 17, big}) {
        for (ScanKind kind : kKinds) {
          check_segments(v.launch.for_int, v.label(), ints, d_ints.data(), out_int, n, tile, t, kind, 1, stream);
          check_segments(v.launch.for_float, v.label(), floats, d_floats.data(), out_float, n, tile, t, kind,
                         1, stream);
        }
      }
    }
  }
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
  for (const SegmentCase& c : warp_cases())
    for (ScanKind kind : kKinds)
      check_segments(c.launch_int, c.label, small, d_in.data(), out, n, 32, 128, kind, 3, stream);
  for (const auto& v : ch13::block_variants())
    for (ScanKind kind : kKinds)
      check_segments(v.launch.for_int, v.label(), small, d_in.data(), out, n, v.segment(128), 128, kind, 3,
                     stream);
}

TEST_CASE("every compaction selects exactly the odd elements of random and all-odd and none-odd data", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const auto ns = standard_sizes();
  const std::size_t max_n = ns.back();
  std::map<std::string, std::vector<int>> inputs;
  inputs["random"] = ch13::make_ints(max_n, seed);
  std::vector<int> odd(max_n), even(max_n);
  for (std::size_t i = 0; i < max_n; ++i) {
    odd[i] = 2 * static_cast<int>(i % 1000003) - 1000001;  // all odd, negative ones too
    even[i] = 2 * static_cast<int>(i % 1000003);
  }
  inputs["all odd"] = std::move(odd);
  inputs["none odd"] = std::move(even);
  ch13::Scratch scratch(max_n);
  hb::Stream stream;
  hb::DeviceBuffer<int> out(max_n + 1);
  hb::DeviceBuffer<int> count(1);
  for (const auto& [what, host] : inputs) {
    const auto d_in = to_device(host);
    for (const auto& v : ch13::compact_variants()) {
      if (v.is_cpu()) continue;
      std::set<std::size_t> sizes(ns.begin(), ns.end());
      for (int t : block_sizes(v, 0)) {
        if (v.default_threads() == 0) break;  // CUB's tiles are its own business
        const std::size_t tile = v.segment(t);
        for (std::size_t k : {tile - 1, tile, tile + 1, 2 * tile + 1}) sizes.insert(k);
      }
      for (std::size_t n : sizes) {
        const std::vector<int> want = ch13::reference_compact(host, n);
        for (int t : block_sizes(v, n)) {
          INFO(v.label() << ", " << what << " data, n = " << n << ", threads = " << t);
          hb::poison(out.data(), (n + 1) * sizeof(int), kPoisonByte, stream);
          hb::poison(count.data(), sizeof(int), kPoisonByte, stream);
          v.launch(d_in.data(), out.data(), n, count.data(), t, scratch, stream);
          const int got_count = from_device(count.data(), 1, stream)[0];
          REQUIRE(got_count == static_cast<int>(want.size()));
          const std::vector<int> got = from_device(out.data(), want.size() + 1, stream);
          CHECK(std::equal(want.begin(), want.end(), got.begin()));
          INFO("the element after the last selected one must stay untouched");
          CHECK(is_poison(got.back()));
        }
      }
    }
  }
}

TEST_CASE("the benches measure and check every variant", "[gpu]") {
  hb::select_device(0);
  const std::size_t n = 5003;
  for (ScanKind kind : kKinds) {
    ch13::ScanBench<int> ints(n, kind, hb::test_seed(), 2, true);
    ch13::ScanBench<float> floats(n, kind, hb::test_seed(), 2, true);
    for (const auto& v : ch13::scan_variants()) {
      for (const ch13::Measurement& m : {ints.measure(v, v.default_threads(), n), floats.measure(v, v.default_threads(), n)}) {
        INFO(v.label() << ", " << ch13::kind_name(kind));
        INFO(m.failure);
        CHECK(m.ok);
        CHECK(m.median_ms > 0.0);
        // The harness counts each element read once and written once: 8 bytes per element.
        CHECK(m.gbs * m.median_ms * 1e6 == Approx(8.0 * double(n)).epsilon(1e-9));
      }
    }
  }
  ch13::CompactBench compact(n, hb::test_seed(), 2, true);
  for (const auto& v : ch13::compact_variants()) {
    INFO(v.label());
    const ch13::Measurement m = compact.measure(v, v.default_threads(), n);
    INFO(m.failure);
    CHECK(m.ok);
    CHECK(m.selected > n / 3);
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
  const ch13::ScanVariant& scan = ch13::find_scan_variant("7");
  const ch13::CompactVariant& compact = ch13::find_compact_variant("3");
  for (int t = 32; t <= 1024; t *= 2) {
    const bool fits = std::size_t(ch13::kBulkTileBytesPerThread) * t + 1024 <= limit;
    INFO(t << " threads");
    CHECK(scan.accepts_threads_here(t) == fits);
    CHECK(compact.accepts_threads_here(t) == fits);
    if (fits) {
      CHECK_NOTHROW(scan.launch.for_int(data.data(), out.data(), n, ScanKind::Inclusive, t, scratch, stream));
      CHECK_NOTHROW(compact.launch(data.data(), out.data(), n, count.data(), t, scratch, stream));
    } else {
      CHECK_THROWS_AS(scan.launch.for_int(data.data(), out.data(), n, ScanKind::Inclusive, t, scratch, stream),
                      hb::UsageError);
      CHECK_THROWS_WITH(compact.launch(data.data(), out.data(), n, count.data(), t, scratch, stream),
                        Catch::Contains("KiB of shared memory per block"));
    }
  }
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
}
