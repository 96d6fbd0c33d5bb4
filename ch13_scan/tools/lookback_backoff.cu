// A trial, not a variant: does a short sleep before warp 0 asks a silent predecessor again
// help scan variant 11 and compaction 6? (Each re-poll reads a status word another block is
// writing.) Every form is variant 11's (or compaction 6's) kernel with a LookBack object that
// differs only in the wait before a re-poll; all are checked exact first, then timed against
// cudaMemcpy of the same bytes in alternating rounds.
//
//   lookback_backoff [--log2 28] [--rounds 3] [--iters 20]
//
// Forms: v10, v11 (the variants' entries); s<N>: sleep N ns before every re-poll; f<N>: sleep
// N ns before the first re-poll of a look-back only; x32: 32 ns doubling to 512 (variant 6's
// back-off); c5, c6: compactions 5 and 6; c6s<N>: compaction 6 with s<N>; memcpy.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "hb/error.h"
#include "hb/memory.h"
#include "hb/timing.h"
#include "kernels/compact/06_anchored_lookback.cuh"
#include "kernels/device/11_anchored_lookback.cuh"
#include "scan.h"

namespace ch13 {

/// finish_look_back() with a configurable wait before each re-poll (or the first only).
template <int kSleepNs, bool kFirstOnly, bool kDouble, typename T, int kDepth, typename Window>
__device__ T finish_waiting(unsigned long long* status, unsigned tile, unsigned epoch,
                            T aggregate, Window& w, bool publish) {
  const unsigned lane = lane_id();
  if (tile == 0) return T(0);
  T prefix = T(0);
  unsigned sleep_ns = kSleepNs;
  bool slept = false;
  while (true) {
    while (true) {
      bool all = true;
#pragma unroll
      for (int r = 0; r < kDepth; ++r) all = all && w.ready(r, epoch);
      if (__all_sync(kFullMask, all)) break;
      if (kSleepNs > 0 && !(kFirstOnly && slept)) {
        __nanosleep(sleep_ns);
        slept = true;
        if (kDouble && sleep_ns < 512) sleep_ns *= 2;
      }
#pragma unroll
      for (int r = 0; r < kDepth; ++r)
        if (!w.ready(r, epoch)) w.poll(status, epoch, r);
    }
    T sum = T(0);
    bool found = false;
#pragma unroll
    for (int r = 0; r < kDepth; ++r) {
      if (found) break;
      const unsigned inclusive_lanes = __ballot_sync(kFullMask, status_inclusive(w.word[r]));
      const unsigned last = inclusive_lanes != 0 ? __ffs(inclusive_lanes) - 1 : 31;
      if (lane <= last) sum += status_value<T>(w.word[r]);
      found = inclusive_lanes != 0;
    }
    prefix += warp_sum(sum);
    if (found) break;
    w.window -= 32 * kDepth;
    w.poll_all(status, epoch);
  }
  if (publish && lane == 0)
    StatusRef(status[tile]).store(make_status(prefix + aggregate, epoch, true),
                                  cuda::memory_order_relaxed);
  return prefix;
}

template <int kSleepNs, bool kFirstOnly, bool kDouble>
struct Waiting {
  template <typename T>
  struct Anchored {
    AnchoredWindow<T, kLookbackDepth> w{};
    __device__ void start(unsigned long long* status, unsigned tile, unsigned epoch) {
      w.window = static_cast<long long>(tile) - 1;
      w.poll_all(status, epoch);
    }
    __device__ T finish(unsigned long long* status, unsigned tile, unsigned epoch, T aggregate) {
      const bool publish = w.anchor < 0 || gridDim.x > 32u * kLookbackDepth;
      const T prefix = finish_waiting<kSleepNs, kFirstOnly, kDouble, T, kLookbackDepth>(
          status, tile, epoch, aggregate, w, publish);
      w.anchor = tile;
      w.anchor_inclusive = prefix + aggregate;
      return prefix;
    }
  };
};

template <int kSleepNs, bool kFirstOnly = false, bool kDouble = false>
void scan_waiting(const int* in, int* out, std::size_t n, Scratch& s, cudaStream_t st) {
  scan_early_refill<Waiting<kSleepNs, kFirstOnly, kDouble>::template Anchored>(
      "trial", in, out, n, ScanKind::Inclusive, 0, s, st);
}

template <int kSleepNs>
void compact_waiting(const int* in, int* out, std::size_t n, int* count, Scratch& s,
                     cudaStream_t st) {
  compact_lane_runs<Waiting<kSleepNs, false, false>::template Anchored>("trial", in, out, n,
                                                                        count, 512, s, st);
}

}  // namespace ch13

int main(int argc, char** argv) {
  using namespace ch13;
  int log2 = 28, rounds = 3, iters = 20;
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string k = argv[a];
    const int v = std::atoi(argv[a + 1]);
    if (k == "--log2" && v >= 10 && v <= 30) log2 = v;
    else if (k == "--rounds" && v >= 1) rounds = v;
    else if (k == "--iters" && v >= 1) iters = v;
    else { std::fprintf(stderr, "lookback_backoff: bad option %s %s\n", argv[a], argv[a + 1]); return 2; }
  }
  if (argc % 2 == 0) { std::fprintf(stderr, "lookback_backoff: options come in pairs\n"); return 2; }
  const std::size_t n = std::size_t(1) << log2;
  std::vector<int> host(n), expect(n), got(n), kept;
  unsigned x = 12345;
  for (auto& v : host) { x = x * 1664525u + 1013904223u; v = int(x >> 24) - 128; }
  long long run = 0;
  for (std::size_t i = 0; i < n; ++i) {
    run += host[i];
    expect[i] = int(static_cast<unsigned>(run));
    if (host[i] & 1) kept.push_back(host[i]);
  }
  hb::DeviceBuffer<int> in(n), out(n), count(1);
  HB_CUDA_CHECK(cudaMemcpy(in.data(), host.data(), n * 4, cudaMemcpyHostToDevice));
  Scratch scratch(n);
  hb::Stream stream;
  using Fn = std::function<void(cudaStream_t)>;
  struct Row { std::string name; Fn fn; bool compaction; };
  int* c = count.data();
  const std::vector<Row> rows = {
      {"v10", [&](cudaStream_t s) { scan10_early_refill<int>(in.data(), out.data(), n, ScanKind::Inclusive, 0, scratch, s); }, false},
      {"v11", [&](cudaStream_t s) { scan11_anchored_lookback<int>(in.data(), out.data(), n, ScanKind::Inclusive, 0, scratch, s); }, false},
      {"s0", [&](cudaStream_t s) { scan_waiting<0>(in.data(), out.data(), n, scratch, s); }, false},
      {"s20", [&](cudaStream_t s) { scan_waiting<20>(in.data(), out.data(), n, scratch, s); }, false},
      {"s50", [&](cudaStream_t s) { scan_waiting<50>(in.data(), out.data(), n, scratch, s); }, false},
      {"s100", [&](cudaStream_t s) { scan_waiting<100>(in.data(), out.data(), n, scratch, s); }, false},
      {"s200", [&](cudaStream_t s) { scan_waiting<200>(in.data(), out.data(), n, scratch, s); }, false},
      {"s400", [&](cudaStream_t s) { scan_waiting<400>(in.data(), out.data(), n, scratch, s); }, false},
      {"f100", [&](cudaStream_t s) { scan_waiting<100, true>(in.data(), out.data(), n, scratch, s); }, false},
      {"f300", [&](cudaStream_t s) { scan_waiting<300, true>(in.data(), out.data(), n, scratch, s); }, false},
      {"x32", [&](cudaStream_t s) { scan_waiting<32, false, true>(in.data(), out.data(), n, scratch, s); }, false},
      {"c5", [&](cudaStream_t s) { compact5_lane_runs(in.data(), out.data(), n, c, 512, scratch, s); }, true},
      {"c6", [&](cudaStream_t s) { compact6_anchored_lookback(in.data(), out.data(), n, c, 512, scratch, s); }, true},
      {"c6s50", [&](cudaStream_t s) { compact_waiting<50>(in.data(), out.data(), n, c, scratch, s); }, true},
      {"c6s100", [&](cudaStream_t s) { compact_waiting<100>(in.data(), out.data(), n, c, scratch, s); }, true},
      {"c6s200", [&](cudaStream_t s) { compact_waiting<200>(in.data(), out.data(), n, c, scratch, s); }, true},
      {"memcpy", [&](cudaStream_t s) { HB_CUDA_CHECK(cudaMemcpyAsync(out.data(), in.data(), n * 4, cudaMemcpyDeviceToDevice, s)); }, false},
  };
  bool ok = true;
  for (std::size_t k = 0; k + 1 < rows.size(); ++k) {
    HB_CUDA_CHECK(cudaMemset(out.data(), 0xff, n * 4));
    HB_CUDA_CHECK(cudaDeviceSynchronize());
    rows[k].fn(stream.get());
    HB_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    bool good;
    if (rows[k].compaction) {
      int m = 0;
      HB_CUDA_CHECK(cudaMemcpy(&m, c, 4, cudaMemcpyDeviceToHost));
      got.assign(kept.size(), 0);
      if (m == int(kept.size()))
        HB_CUDA_CHECK(cudaMemcpy(got.data(), out.data(), kept.size() * 4, cudaMemcpyDeviceToHost));
      good = m == int(kept.size()) && got == kept;
    } else {
      HB_CUDA_CHECK(cudaMemcpy(got.data(), out.data(), n * 4, cudaMemcpyDeviceToHost));
      good = got == expect;
    }
    std::printf("# check %s: %s\n", rows[k].name.c_str(), good ? "exact" : "MISMATCH");
    ok = ok && good;
  }
  cudaDeviceProp p{};
  int dev = 0;
  HB_CUDA_CHECK(cudaGetDevice(&dev));
  HB_CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  std::printf("# gpu: %s, n = 2^%d int32, %d rounds of %d timed iterations (median) after 2\n",
              p.name, log2, rounds, iters);
  std::printf("round,form,ms,%% of memcpy (scan: 2N bytes; compaction: the bytes it moves)\n");
  const double kept_share = double(kept.size()) / n;
  for (int r = 1; r <= rounds; ++r) {
    std::vector<double> ms;
    for (const Row& row : rows) ms.push_back(hb::time_events(row.fn, stream.get(), 2, iters).median_ms);
    const double copy_ms = ms.back();  // copies 2N bytes
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const double bytes_share = rows[k].compaction ? (1.0 + kept_share) / 2.0 : 1.0;
      std::printf("%d,%s,%.4f,%.1f\n", r, rows[k].name.c_str(), ms[k],
                  100.0 * copy_ms * bytes_share / ms[k]);
    }
  }
  return ok ? 0 : 1;
}
