// Where scan variant 10's time goes (a trial, not a variant): variant 10's kernel with parts of
// its step taken out, moved or done differently, each timed against the device copy in the
// same run, at one size, in alternating rounds; then thread 0's cycles per step in each phase.
//
//   ring_limits [--log2 28] [--rounds 3] [--iters 20]
//
// Forms (rows of the output, each timed in every round, in this order; "checked" forms are
// compared with the CPU's scan before the timing, the others time a step with a part left out
// and give wrong sums):
//   v10, v11       scan variants 10 and 11 through their entry functions (checked)
//   full           the kernel below with every part in: variant 10's step (checked)
//   no_look        no look-back: every tile's prefix is 0, no status word read or written
//   no_sum         no look-back and no counting pass ahead
//   copy_ring      the ring and the stores only, each thread storing its rows as they came in
//                  (checked: the output is the input)
//   early_poll     warp 0 sends its poll, scans its part, then waits for the answers (checked)
//   early_refill   the slot refilled once every warp has read it (named barrier), before the
//                  look-back ends (checked)
//   early_both     both (checked)
//   top_poll       the poll sent at the top of the step, before the counting pass (checked)
//   top_poll_defer that, and each tile's rows stored one step late (checked)
//   defer          the rows stored one step late, after the next poll is sent (checked)
//   lagged         the look-back one step behind: polled after the counting pass, read at the
//                  top of the next step, the rows held in registers until then (checked)
//   lagged_anchor  that, anchored at the block's own last tile (checked)
//   lagged_refresh that, with the silent predecessors asked again at the top of the next step
//                  and the answers read after its counting pass (checked)
//   publish        no look-back, but every status word written as in variant 10
//   fake_look      variant 10's publishing and the same loads, of a window 512 tiles further
//                  back (long published): the poll's round trip without waiting for anyone
//   fake_near      the same, of the real window, read once and never waited for
//   anchor_only    variant 11's look-back in this kernel (checked)
//   memcpy         cudaMemcpyAsync device to device of the same bytes (the chapter's copy)
//   copy_v4        a grid-stride kernel, eight 16-byte loads in flight per thread, then stores
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "hb/error.h"
#include "hb/memory.h"
#include "hb/timing.h"
#include "kernels/device/11_anchored_lookback.cuh"
#include "scan.h"

namespace ch13 {

enum class Form { Full, NoLook, NoSum, CopyRing, EarlyPoll, EarlyRefill, EarlyBoth, TopPoll, TopPollDefer, Defer, Publish, FakeLook, FakeNear, AnchorOnly };

/// Named barrier 1 of the block: the warps that only arrive, and the warp that waits.
__device__ __forceinline__ void slot_read_arrive(int threads) {
  asm volatile("bar.arrive 1, %0;" ::"r"(threads) : "memory");
}
__device__ __forceinline__ void slot_read_wait(int threads) {
  asm volatile("bar.sync 1, %0;" ::"r"(threads) : "memory");
}

/// Per-block sums of thread 0's cycles in each phase of a step, and counts (kInstr forms).
__device__ unsigned long long g_stats[8];

/// A look-back window anchored at the block's previous tile: predecessors at or below the
/// anchor read as the anchor's inclusive prefix (the block computed it itself), so only the
/// aggregates between the two tiles are needed from memory.
template <typename T, int kDepth>
struct TrialAnchoredWindow {
  long long window;
  long long anchor;  // -1: none
  T anchor_inclusive;
  unsigned long long word[kDepth];
  __device__ __forceinline__ void poll(unsigned long long* status, unsigned epoch, int r) {
    const long long p = window - 32 * r - lane_id();
    if (p < 0) word[r] = make_status(T(0), epoch, true);
    else if (p == anchor) word[r] = make_status(anchor_inclusive, epoch, true);
    else if (p < anchor) word[r] = make_status(T(0), epoch, true);
    else word[r] = StatusRef(status[p]).load(cuda::memory_order_relaxed);
  }
  __device__ __forceinline__ void poll_all(unsigned long long* status, unsigned epoch) {
#pragma unroll
    for (int r = 0; r < kDepth; ++r) poll(status, epoch, r);
  }
  __device__ __forceinline__ bool ready(int r, unsigned epoch) const {
    return status_epoch(word[r]) == epoch;
  }
};

/// finish_look_back() over an TrialAnchoredWindow; counts the polls that found a predecessor
/// silent in *repolls.
template <typename T, int kDepth>
__device__ T finish_anchored(unsigned long long* status, unsigned tile, unsigned epoch,
                             T aggregate, TrialAnchoredWindow<T, kDepth>& w, unsigned& repolls,
                             bool publish = true) {
  const unsigned lane = lane_id();
  if (tile == 0) return T(0);
  T prefix = T(0);
  unsigned repolls_this = 0;
  while (true) {
    while (true) {
      bool all = true;
#pragma unroll
      for (int r = 0; r < kDepth; ++r) all = all && w.ready(r, epoch);
      if (__all_sync(kFullMask, all)) break;
      if (repolls_this == 0) {
        // The nearest silent predecessor and how many are silent.
        long long nearest = 1 << 30;
        unsigned silent = 0;
#pragma unroll
        for (int r = 0; r < kDepth; ++r)
          if (!w.ready(r, epoch)) {
            nearest = min(nearest, (long long)tile - (w.window - 32 * r - lane));
            ++silent;
          }
        for (int o = 16; o > 0; o /= 2) {
          nearest = min(nearest, __shfl_xor_sync(kFullMask, nearest, o));
          silent += __shfl_xor_sync(kFullMask, silent, o);
        }
        if (lane == 0) {
          atomicAdd(&g_stats[2], (unsigned long long)nearest);
          atomicAdd(&g_stats[3], (unsigned long long)silent);
        }
      }
      ++repolls;
      ++repolls_this;
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

template <Form kForm, bool kInstr = false, int kThreads = 512, int kStages = kRingStages>
__global__ void __launch_bounds__(kThreads, 1)
    trial_kernel(const int* in, int* out, std::size_t n, ScanKind kind,
                 unsigned long long* status, unsigned long long* counter, unsigned tiles) {
  using T = int;
  using V = int4;
  constexpr bool kEarlyPoll = kForm == Form::EarlyPoll || kForm == Form::EarlyBoth;
  constexpr bool kEarlyRefill = kForm == Form::EarlyRefill || kForm == Form::EarlyBoth;
  constexpr bool kTopPoll = kForm == Form::TopPoll || kForm == Form::TopPollDefer;
  constexpr bool kDefer = kForm == Form::TopPollDefer || kForm == Form::Defer;
  constexpr bool kAnchorOnly = kForm == Form::AnchorOnly;
  constexpr bool kLook = kForm == Form::Full || kAnchorOnly || kEarlyPoll || kEarlyRefill || kTopPoll || kDefer;
  constexpr bool kFake = kForm == Form::FakeLook || kForm == Form::FakeNear;
  constexpr bool kSum = kLook || kForm == Form::NoLook || kForm == Form::Publish || kFake;
  constexpr bool kPublish = kLook || kForm == Form::Publish || kFake;
  constexpr int kItems = kEarlyRefillItems;
  constexpr unsigned kTile = unsigned(kThreads) * kItems;
  __shared__ std::uint64_t landed[kStages];
  __shared__ unsigned long long slot_tickets[kStages];
  __shared__ T warp_totals[kThreads / 32];
  __shared__ T tile_prefix[2];
  const unsigned lane = lane_id();
  const unsigned warp = threadIdx.x / 32;
  const bool producer = threadIdx.x == kThreads - 1;
  TileRing<T, kStages, true> ring{dynamic_shared<T>(), landed, slot_tickets, kTile, tiles,
                                  tiles + gridDim.x};
  const auto rows_of = [&](unsigned j) {
    return reinterpret_cast<const V*>(ring.tile(j)) + warp * (8 * kItems) + lane;
  };
  const auto sum_tile = [&](unsigned j, const RingTile& t, T& warp_base, T& aggregate) {
    if constexpr (kSum) {
      staged_tile_totals<T, kThreads, kItems>(rows_of(j), warp_totals, VectorSum{}, warp_base,
                                              aggregate);
      if (kPublish && threadIdx.x == 0) publish_aggregate(status, t.index, t.epoch, aggregate);
    }
  };
  if (producer) ring.start(in, n, counter);
  __syncthreads();
  RingTile current = stage_ring_tile(ring, 0, in, n);
  T base = 0, aggregate = 0;
  if (current.valid) sum_tile(0, current, base, aggregate);
  __syncthreads();
  V held[kItems / 4];  // (kDefer) the previous tile's rows, stored one step late
  T held_prefix = 0;
  std::size_t held_at = 0;
  bool held_whole = true, holding = false;
  const auto store_rows = [&](const V (&r)[kItems / 4], T p, std::size_t at, bool whole) {
#pragma unroll
    for (int g = 0; g < kItems / 4; ++g) {
      const V q = r[g];
      store_row<T, true>(out, at + 128 * g, n, whole, {q.x + p, q.y + p, q.z + p, q.w + p});
    }
  };
  unsigned long long acc[8] = {};
  long long tick = clock64();
  const auto lap = [&](int k) {
    if constexpr (kInstr) {
      const long long now = clock64();
      acc[k] += now - tick;
      tick = now;
    }
  };
  TrialAnchoredWindow<T, kLookbackDepth> aw{-1, -1, 0, {}};
  for (unsigned j = 0; current.valid; ++j) {
    lap(7);
    if (producer) ring.draw_ahead(counter);
    StatusWindow<T, kLookbackDepth> w{static_cast<long long>(current.index) - 1, {}};
    if (kTopPoll && warp == 0) w.poll_all(status, current.epoch);
    const RingTile ahead = stage_ring_tile(ring, j + 1, in, n);
    lap(0);
    T ahead_base = 0, ahead_aggregate = 0;
    if (ahead.valid) sum_tile(j + 1, ahead, ahead_base, ahead_aggregate);
    lap(1);
    if constexpr (kForm == Form::Defer) {
      if (warp == 0) w.poll_all(status, current.epoch);
    }
    if constexpr (kDefer) {
      if (holding) store_rows(held, held_prefix, held_at, held_whole);
    }
    if constexpr (kTopPoll || kForm == Form::Defer) {
      if (warp == 0) {
        const T prefix =
            finish_look_back<T, false, kLookbackDepth>(status, current.index, current.epoch,
                                                       aggregate, w);
        if (lane == 0) tile_prefix[j & 1] = prefix;
      }
    } else if constexpr (kLook) {
      if (warp == 0) {
        if constexpr (kEarlyPoll) {
          w.poll_all(status, current.epoch);  // in flight while the warp scans
        } else if constexpr (kAnchorOnly) {
          // Only aggregates are published (and tile 0's, and each block's first tile's,
          // inclusive prefix): the block's own previous tile is its anchor.
          aw.window = static_cast<long long>(current.index) - 1;
          aw.poll_all(status, current.epoch);
          unsigned repolls = 0;
          const T prefix = finish_anchored<T, kLookbackDepth>(
              status, current.index, current.epoch, aggregate, aw, repolls, aw.anchor < 0);
          if constexpr (kInstr) {
            acc[5] += repolls > 0;
            acc[6] += 1;
          }
          aw.anchor = current.index;
          aw.anchor_inclusive = prefix + aggregate;
          if (lane == 0) tile_prefix[j & 1] = prefix;
        } else if constexpr (!kEarlyRefill) {
          w.poll_all(status, current.epoch);
          if constexpr (kInstr) {
            bool all = true;
#pragma unroll
            for (int r = 0; r < kLookbackDepth; ++r) all = all && w.ready(r, current.epoch);
            if (!__all_sync(kFullMask, all)) acc[5] += 1;
            acc[6] += 1;
          }
          const T prefix = finish_look_back<T, false, kLookbackDepth>(status, current.index,
                                                                      current.epoch, aggregate, w);
          if (lane == 0) tile_prefix[j & 1] = prefix;
        }
      }
    } else if constexpr (kFake) {
      // The same loads, of a window 512 tiles further back (published long ago): the poll's
      // latency without waiting for any predecessor. (Wrong prefixes; timing only.)
      if (warp == 0) {
        // FakeNear: the real window, read once, never waited for.
        StatusWindow<T, kLookbackDepth> f{
            static_cast<long long>(current.index) - (kForm == Form::FakeNear ? 1 : 513), {}};
        f.poll_all(status, current.epoch);
        T sum = 0;
#pragma unroll
        for (int r = 0; r < kLookbackDepth; ++r) sum += status_value<T>(f.word[r]) & 1;
        sum = warp_sum(sum);
        if (lane == 0) {
          tile_prefix[j & 1] = sum;
          StatusRef(status[current.index]).store(make_status(sum + aggregate, current.epoch, true),
                                                 cuda::memory_order_relaxed);
        }
      }
    } else {
      if (threadIdx.x == 0) {
        tile_prefix[j & 1] = 0;
        if constexpr (kForm == Form::Publish)
          StatusRef(status[current.index]).store(make_status(aggregate, current.epoch, true),
                                                 cuda::memory_order_relaxed);
      }
    }
    lap(2);
    V rows[kItems / 4];
    if constexpr (kForm == Form::CopyRing) {
#pragma unroll
      for (int g = 0; g < kItems / 4; ++g) rows[g] = rows_of(j)[32 * g];
    } else {
      scan_staged_rows<kItems>(rows_of(j), base, kind, [&](int g, const T(&y)[4]) {
        rows[g] = V{y[0], y[1], y[2], y[3]};
      });
    }
    fence_tile_for_copy_engine();
    if constexpr (kEarlyRefill) {
      // The slot is free once every warp has read it: the producer refills it before the
      // look-back ends.
      if (warp == kThreads / 32 - 1) {
        slot_read_wait(kThreads);
        if (producer) ring.refill(j, in, n, counter);
      } else {
        slot_read_arrive(kThreads);
      }
    }
    if constexpr (kEarlyPoll || kEarlyRefill) {
      if (warp == 0) {
        if constexpr (!kEarlyPoll) w.poll_all(status, current.epoch);
        const T prefix =
            finish_look_back<T, false, kLookbackDepth>(status, current.index, current.epoch,
                                                       aggregate, w);
        if (lane == 0) tile_prefix[j & 1] = prefix;
      }
    }
    lap(3);
    __syncthreads();
    lap(4);
    if (!kEarlyRefill && producer) ring.refill(j, in, n, counter);
    const T prefix = tile_prefix[j & 1];
    const std::size_t mine = std::size_t(current.index) * kTile + warp * (32 * kItems) + lane * 4;
    if constexpr (kDefer) {
#pragma unroll
      for (int g = 0; g < kItems / 4; ++g) held[g] = rows[g];
      held_prefix = prefix;
      held_at = mine;
      held_whole = current.whole;
      holding = true;
    } else {
      store_rows(rows, prefix, mine, current.whole);
    }
    current = ahead;
    base = ahead_base;
    aggregate = ahead_aggregate;
  }
  if (kDefer && holding) store_rows(held, held_prefix, held_at, held_whole);
  if (kInstr && threadIdx.x == 0)
    for (int k = 0; k < 8; ++k) atomicAdd(&g_stats[k], acc[k]);
}

template <Form kForm, bool kInstr = false>
void trial_launch(const int* in, int* out, std::size_t n, Scratch& scratch, cudaStream_t s) {
  launch_scan_ring<int, 512, kEarlyRefillItems, kEarlyRefillBytesPerThread,
                   trial_kernel<kForm, kInstr>, trial_kernel<kForm, kInstr>>(in, out, n, ScanKind::Inclusive,
                                                            scratch, s);
}


/// Variant 10 with its look-back one step behind: the poll for tile j goes out after the
/// counting pass of step j and is read at the top of step j + 1, when its loads are back;
/// tile j's rows wait in registers for their prefix and leave in step j + 1.
template <bool kAnchor, bool kRefresh = false, int kThreads = 512, int kStages = kRingStages>
__global__ void __launch_bounds__(kThreads, 1)
    lagged_kernel(const int* in, int* out, std::size_t n, ScanKind kind,
                  unsigned long long* status, unsigned long long* counter, unsigned tiles) {
  using T = int;
  using V = int4;
  constexpr int kItems = kEarlyRefillItems;
  constexpr unsigned kTile = unsigned(kThreads) * kItems;
  __shared__ std::uint64_t landed[kStages];
  __shared__ unsigned long long slot_tickets[kStages];
  __shared__ T warp_totals[kThreads / 32];
  __shared__ T tile_prefix[2];
  const unsigned lane = lane_id();
  const unsigned warp = threadIdx.x / 32;
  const bool producer = threadIdx.x == kThreads - 1;
  TileRing<T, kStages, true> ring{dynamic_shared<T>(), landed, slot_tickets, kTile, tiles,
                                  tiles + gridDim.x};
  const auto rows_of = [&](unsigned j) {
    return reinterpret_cast<const V*>(ring.tile(j)) + warp * (8 * kItems) + lane;
  };
  const auto sum_tile = [&](unsigned j, const RingTile& t, T& warp_base, T& aggregate) {
    staged_tile_totals<T, kThreads, kItems>(rows_of(j), warp_totals, VectorSum{}, warp_base,
                                            aggregate);
    if (threadIdx.x == 0) publish_aggregate(status, t.index, t.epoch, aggregate);
  };
  unsigned repolls = 0, lookbacks = 0;
  if (producer) ring.start(in, n, counter);
  __syncthreads();
  RingTile current = stage_ring_tile(ring, 0, in, n);
  T base = 0, aggregate = 0;
  if (current.valid) sum_tile(0, current, base, aggregate);
  __syncthreads();
  TrialAnchoredWindow<T, kLookbackDepth> w{-1, -1, 0, {}};
  RingTile held{0, 0, false, false, 0};  // the tile whose rows wait for their prefix
  T held_aggregate = 0;
  V rows[kItems / 4];
  // Warp 0: the prefix of the held tile, from the poll made a step ago.
  const auto finish_held = [&](unsigned parity) {
    if (warp == 0 && held.valid) {
      const T prefix = finish_anchored<T, kLookbackDepth>(status, held.index, held.epoch,
                                                          held_aggregate, w, repolls);
      ++lookbacks;
      if (lane == 0) tile_prefix[parity] = prefix;
      w.anchor = kAnchor ? (long long)held.index : -1;
      w.anchor_inclusive = prefix + held_aggregate;
    }
  };
  const auto store_held = [&](unsigned parity) {
    if (!held.valid) return;
    const T p = tile_prefix[parity];
    const std::size_t at = std::size_t(held.index) * kTile + warp * (32 * kItems) + lane * 4;
#pragma unroll
    for (int g = 0; g < kItems / 4; ++g) {
      const V q = rows[g];
      store_row<T, true>(out, at + 128 * g, n, held.whole, {q.x + p, q.y + p, q.z + p, q.w + p});
    }
  };
  for (unsigned j = 0; current.valid; ++j) {
    if (producer) ring.draw_ahead(counter);
    if constexpr (kRefresh) {
      // Ask again, without waiting, for the predecessors the last poll found silent.
      if (warp == 0 && held.valid) {
#pragma unroll
        for (int r = 0; r < kLookbackDepth; ++r)
          if (!w.ready(r, held.epoch)) w.poll(status, held.epoch, r);
      }
    } else {
      finish_held((j + 1) & 1);  // the held tile is tile j - 1
    }
    const RingTile ahead = stage_ring_tile(ring, j + 1, in, n);
    T ahead_base = 0, ahead_aggregate = 0;
    if (ahead.valid) sum_tile(j + 1, ahead, ahead_base, ahead_aggregate);
    else __syncthreads();  // tile_prefix of the held tile is visible
    if constexpr (kRefresh) {
      finish_held((j + 1) & 1);
      if (warp == 0) {
        w.window = static_cast<long long>(current.index) - 1;
        w.poll_all(status, current.epoch);
      }
      __syncthreads();  // the held tile's prefix is visible
    } else if (warp == 0) {
      w.window = static_cast<long long>(current.index) - 1;
      w.poll_all(status, current.epoch);  // read at the top of the next step
    }
    store_held((j + 1) & 1);
    scan_staged_rows<kItems>(rows_of(j), base, kind, [&](int g, const T(&y)[4]) {
      rows[g] = V{y[0], y[1], y[2], y[3]};
    });
    held = current;
    held_aggregate = aggregate;
    fence_tile_for_copy_engine();
    __syncthreads();
    if (producer) ring.refill(j, in, n, counter);
    current = ahead;
    base = ahead_base;
    aggregate = ahead_aggregate;
  }
  finish_held(0);
  __syncthreads();
  store_held(0);
  if (threadIdx.x == 0) {
    atomicAdd(&g_stats[5], repolls);
    atomicAdd(&g_stats[6], lookbacks);
  }
}

template <bool kAnchor, bool kRefresh = false>
void lagged_launch(const int* in, int* out, std::size_t n, Scratch& scratch, cudaStream_t s) {
  launch_scan_ring<int, 512, kEarlyRefillItems, kEarlyRefillBytesPerThread,
                   lagged_kernel<kAnchor, kRefresh>, lagged_kernel<kAnchor, kRefresh>>(in, out, n,
                                                                   ScanKind::Inclusive, scratch, s);
}

__global__ void copy_v4_kernel(const int4* __restrict__ in, int4* __restrict__ out,
                               std::size_t n16) {
  constexpr int kInFlight = 8;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (kInFlight - 1) * stride < n16; i += kInFlight * stride) {
    int4 v[kInFlight];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) v[k] = in[i + k * stride];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) out[i + k * stride] = v[k];
  }
  for (; i < n16; i += stride) out[i] = in[i];
}

}  // namespace ch13

int main(int argc, char** argv) {
  using namespace ch13;
  int log2 = 28, rounds = 3, iters = 20;
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string k = argv[a];
    const int v = std::atoi(argv[a + 1]);
    if (k == "--log2" && v >= 20 && v <= 30) log2 = v;
    else if (k == "--rounds" && v >= 1) rounds = v;
    else if (k == "--iters" && v >= 1) iters = v;
    else { std::fprintf(stderr, "ring_limits: bad option %s %s\n", argv[a], argv[a + 1]); return 2; }
  }
  if (argc % 2 == 0) { std::fprintf(stderr, "ring_limits: options come in pairs\n"); return 2; }
  const std::size_t n = std::size_t(1) << log2;
  std::vector<int> host(n), expect(n), got(n);
  unsigned x = 12345;
  for (auto& v : host) { x = x * 1664525u + 1013904223u; v = int(x >> 24) - 128; }
  long long run = 0;
  for (std::size_t i = 0; i < n; ++i) { run += host[i]; expect[i] = int(static_cast<unsigned>(run)); }
  hb::DeviceBuffer<int> in(n), out(n);
  HB_CUDA_CHECK(cudaMemcpy(in.data(), host.data(), n * 4, cudaMemcpyHostToDevice));
  Scratch scratch(n);
  hb::Stream stream;
  const auto check = [&](const char* what) {
    HB_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    HB_CUDA_CHECK(cudaMemcpy(got.data(), out.data(), n * 4, cudaMemcpyDeviceToHost));
    const bool ok = got == expect;
    std::printf("# check %s: %s\n", what, ok ? "exact" : "MISMATCH");
    return ok;
  };
  struct Row { const char* name; std::function<void(cudaStream_t)> fn; };
  int4* o16 = reinterpret_cast<int4*>(out.data());
  const int4* i16 = reinterpret_cast<const int4*>(in.data());
  int dev = 0, sms = 0;
  HB_CUDA_CHECK(cudaGetDevice(&dev));
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const std::vector<Row> rows = {
      {"v10", [&](cudaStream_t s) { scan10_early_refill<int>(in.data(), out.data(), n, ScanKind::Inclusive, 0, scratch, s); }},
      {"v11", [&](cudaStream_t s) { scan11_anchored_lookback<int>(in.data(), out.data(), n, ScanKind::Inclusive, 0, scratch, s); }},
      {"full", [&](cudaStream_t s) { trial_launch<Form::Full>(in.data(), out.data(), n, scratch, s); }},
      {"no_look", [&](cudaStream_t s) { trial_launch<Form::NoLook>(in.data(), out.data(), n, scratch, s); }},
      {"no_sum", [&](cudaStream_t s) { trial_launch<Form::NoSum>(in.data(), out.data(), n, scratch, s); }},
      {"copy_ring", [&](cudaStream_t s) { trial_launch<Form::CopyRing>(in.data(), out.data(), n, scratch, s); }},
      {"early_poll", [&](cudaStream_t s) { trial_launch<Form::EarlyPoll>(in.data(), out.data(), n, scratch, s); }},
      {"early_refill", [&](cudaStream_t s) { trial_launch<Form::EarlyRefill>(in.data(), out.data(), n, scratch, s); }},
      {"early_both", [&](cudaStream_t s) { trial_launch<Form::EarlyBoth>(in.data(), out.data(), n, scratch, s); }},
      {"top_poll", [&](cudaStream_t s) { trial_launch<Form::TopPoll>(in.data(), out.data(), n, scratch, s); }},
      {"top_poll_defer", [&](cudaStream_t s) { trial_launch<Form::TopPollDefer>(in.data(), out.data(), n, scratch, s); }},
      {"defer", [&](cudaStream_t s) { trial_launch<Form::Defer>(in.data(), out.data(), n, scratch, s); }},
      {"lagged", [&](cudaStream_t s) { lagged_launch<false>(in.data(), out.data(), n, scratch, s); }},
      {"lagged_anchor", [&](cudaStream_t s) { lagged_launch<true>(in.data(), out.data(), n, scratch, s); }},
      {"lagged_refresh", [&](cudaStream_t s) { lagged_launch<true, true>(in.data(), out.data(), n, scratch, s); }},
      {"publish", [&](cudaStream_t s) { trial_launch<Form::Publish>(in.data(), out.data(), n, scratch, s); }},
      {"fake_look", [&](cudaStream_t s) { trial_launch<Form::FakeLook>(in.data(), out.data(), n, scratch, s); }},
      {"fake_near", [&](cudaStream_t s) { trial_launch<Form::FakeNear>(in.data(), out.data(), n, scratch, s); }},
      {"anchor_only", [&](cudaStream_t s) { trial_launch<Form::AnchorOnly>(in.data(), out.data(), n, scratch, s); }},
      {"memcpy", [&](cudaStream_t s) { HB_CUDA_CHECK(cudaMemcpyAsync(out.data(), in.data(), n * 4, cudaMemcpyDeviceToDevice, s)); }},
      {"copy_v4", [&](cudaStream_t s) { copy_v4_kernel<<<sms * 4, 512, 0, s>>>(i16, o16, n / 4); HB_CHECK_LAUNCH(); }},
  };
  bool ok = true;
  for (int k = 0; k <= 18; ++k) {
    if ((k >= 3 && k <= 5) || (k >= 15 && k <= 17)) continue;
    HB_CUDA_CHECK(cudaMemset(out.data(), 0xff, n * 4));
    HB_CUDA_CHECK(cudaDeviceSynchronize());
    rows[k].fn(stream.get());
    ok = check(rows[k].name) && ok;
  }
  rows[5].fn(stream.get());
  HB_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  HB_CUDA_CHECK(cudaMemcpy(got.data(), out.data(), n * 4, cudaMemcpyDeviceToHost));
  std::printf("# check copy_ring: %s\n", got == host ? "exact copy" : "MISMATCH");
  ok = ok && got == host;
  cudaDeviceProp p{};
  HB_CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  std::printf("# gpu: %s, n = 2^%d int32, %d rounds of %d timed iterations (median) after 2\n",
              p.name, log2, rounds, iters);
  std::printf("round,form,ms,GB/s (2N bytes),%% of memcpy\n");
  for (int r = 1; r <= rounds; ++r) {
    std::vector<double> ms;
    for (const Row& row : rows) ms.push_back(hb::time_events(row.fn, stream.get(), 2, iters).median_ms);
    const double copy_ms = ms[19];
    for (std::size_t k = 0; k < rows.size(); ++k)
      std::printf("%d,%s,%.4f,%.1f,%.1f\n", r, rows[k].name, ms[k], 2.0 * n * 4 / (ms[k] * 1e6),
                  100.0 * copy_ms / ms[k]);
  }
  // Thread 0's cycles per step in each phase, one launch of each form, clock64 per phase.
  const auto phases = [&](const char* name, auto launch) {
    unsigned long long zero[8] = {}, got8[8];
    HB_CUDA_CHECK(cudaMemcpyToSymbol(g_stats, zero, sizeof zero));
    launch();
    HB_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    HB_CUDA_CHECK(cudaMemcpyFromSymbol(got8, g_stats, sizeof got8));
    const double tiles = double((n + 512 * kEarlyRefillItems - 1) / (512 * kEarlyRefillItems));
    std::printf("%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.3f\n", name, got8[0] / tiles, got8[1] / tiles,
                got8[2] / tiles, got8[3] / tiles, got8[4] / tiles, got8[7] / tiles,
                got8[6] ? double(got8[5]) / got8[6] : 0.0);
    std::printf("#   look-backs %llu, re-polls %llu, first silent: nearest distance sum %llu, "
                "silent words sum %llu\n", got8[6], got8[5], got8[2], got8[3]);
  };
  std::printf("form,wait landed,sum ahead,look-back,scan,barrier,stores and rest,"
              "share of look-backs re-polled (cycles of thread 0 per step)\n");
  for (int r = 0; r < 2; ++r) {
    phases("full", [&] { trial_launch<Form::Full, true>(in.data(), out.data(), n, scratch, stream.get()); });
    phases("no_look", [&] { trial_launch<Form::NoLook, true>(in.data(), out.data(), n, scratch, stream.get()); });
    phases("fake_look", [&] { trial_launch<Form::FakeLook, true>(in.data(), out.data(), n, scratch, stream.get()); });
    phases("anchor_only", [&] { trial_launch<Form::AnchorOnly, true>(in.data(), out.data(), n, scratch, stream.get()); });
    phases("fake_near", [&] { trial_launch<Form::FakeNear, true>(in.data(), out.data(), n, scratch, stream.get()); });
    phases("lagged_refresh", [&] { lagged_launch<true, true>(in.data(), out.data(), n, scratch, stream.get()); });
  }
  return ok ? 0 : 1;
}
