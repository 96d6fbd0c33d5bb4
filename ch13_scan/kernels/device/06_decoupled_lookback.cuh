/// \file
/// \brief Chapter 13, scan variant 6: single pass, decoupled look-back (beyond the text).
/* [changed]
Compared with variant 5c: one pass over the data, beyond the text: the decoupled look-back of
Merrill and Garland (2016). As many blocks as fit on the GPU take tiles, one after another, from
a global counter. A block loads its tile with 16-byte loads (16 elements per thread), scans it
in registers with warp shuffles, and publishes the tile's total in a status word. Its first warp
then looks back over the status words of the tiles before it, 32 at a time: a predecessor that
has published its inclusive prefix ends the look-back, one that has published only its total is
added and the look-back goes on. The block publishes the tile's inclusive prefix and writes the
tile: 2N global memory accesses, the minimum, in a single launch. The block size must be a power
of two from 32 to 1024.
[changed] */
///
/// Three details make it correct and fast:
/// - **Tiles in the order they are asked for.** Blocks do not scan tile blockIdx.x: a block
///   takes a ticket from a counter, and asks for its next ticket while the loads of its
///   current tile are in flight, so that the atomic's latency hides behind them. A block
///   waits only for tiles with smaller tickets, and the smallest unfinished tile is always
///   being scanned by a running block (a block holds at most its current tile and a larger
///   next one), so the look-back never waits for a block the GPU has not scheduled, which
///   could deadlock. That is all the forward progress we assume. The grid is as large as the
///   occupancy API says fits at once; no block is launched per tile.
/// - **One 64-bit word per tile.** Value (32 bits) and flag (32 bits) are written and read
///   together by single 64-bit atomic accesses (`cuda::atomic_ref`, relaxed order, device
///   scope), so no reader can see a flag without its value, and no fence is needed.
/// - **Epochs instead of clearing.** The flag holds the number of the launch (the epoch)
///   that wrote it; a status word from an earlier launch reads as "not yet published". The
///   epoch lives in the high half of the tile counter, so one atomic hands a block its tile
///   and the current epoch. Every block takes tickets until it draws one past the last tile,
///   so a launch hands out exactly tiles + blocks tickets; the block that draws the last one
///   resets the tile index to 0 and advances the epoch for the next launch. No memset between
///   launches, which also keeps back-to-back launches (and CUDA graph replays) correct. The
///   host clears the status words once every 2^31 - 2 launches, before an epoch could repeat.
#pragma once

#include <algorithm>

#include <cuda/atomic>

#include "../block/05_shuffle.cuh"

namespace ch13 {

// [scan6-policy]
/// Tuning of variant 6 and compaction variant 2, as data. Each thread handles
/// kLookbackItems = 16 elements as four 16-byte vectors; a warp's four loads each cover 512
/// consecutive bytes. CUB's own tuning for 4-byte scans on sm_90 (cub/device/dispatch/
/// tuning/tuning_scan.cuh) is 128 threads x 24 items, with a delay of several hundred ns
/// between polls of a status word; the block-size sweep (`scan --variant 6`) measures ours.
struct LookbackPolicy {
  static constexpr int kGroups = kLookbackItems / 4;  ///< 16-byte vectors per thread
  static constexpr unsigned kFirstSleepNs = 32;      ///< back-off while a predecessor is silent
  static constexpr unsigned kMaxSleepNs = 512;
};
// [scan6-policy]

/// The 16-byte vector of four T.
template <typename T>
struct Vec4;
template <>
struct Vec4<int> {
  using type = int4;
};
template <>
struct Vec4<float> {
  using type = float4;
};

// [scan6-load]
/// A thread's kGroups vectors of four elements, vector g at in[first + 128 g, ... + 4). For
/// a whole tile (\p whole, the same for the whole block) and aligned data these are kGroups
/// 16-byte loads issued back to back; the last tile, or unaligned data, loads element by
/// element, with zeros past \p n.
/// \param in the input
/// \param first index of the thread's first element
/// \param n elements in the input
/// \param whole whether the block's tile lies entirely below n
/// \param v the elements
template <typename T, bool kVectorized, int kGroups>
__device__ __forceinline__ void load_tile(const T* in, std::size_t first, std::size_t n, bool whole,
                                          T (&v)[kGroups][4]) {
  using V = typename Vec4<T>::type;
  if (kVectorized && whole) {
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
      const V q = *reinterpret_cast<const V*>(in + first + 128 * g);
      v[g][0] = q.x;
      v[g][1] = q.y;
      v[g][2] = q.z;
      v[g][3] = q.w;
    }
  } else {
#pragma unroll
    for (int g = 0; g < kGroups; ++g)
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const std::size_t i = first + 128 * g + j;
        v[g][j] = i < n ? in[i] : T(0);
      }
  }
}

/// Stores what load_tile loaded, to the same places (only those below \p n).
/// \param out the output
/// \param first index of the thread's first element
/// \param n elements in the output
/// \param whole whether the block's tile lies entirely below n
/// \param y the elements
template <typename T, bool kVectorized, int kGroups>
__device__ __forceinline__ void store_tile(T* out, std::size_t first, std::size_t n, bool whole,
                                           const T (&y)[kGroups][4]) {
  using V = typename Vec4<T>::type;
  if (kVectorized && whole) {
    // __stwb is st.global.wb.v4, the plain store spelled out: with an assignment the compiler
    // wrote row 0 as four 4-byte stores.
#pragma unroll
    for (int g = 0; g < kGroups; ++g)
      __stwb(reinterpret_cast<V*>(out + first + 128 * g), V{y[g][0], y[g][1], y[g][2], y[g][3]});
  } else {
#pragma unroll
    for (int g = 0; g < kGroups; ++g)
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const std::size_t i = first + 128 * g + j;
        if (i < n) out[i] = y[g][j];
      }
  }
}
// [scan6-load]

// [scan6-status]
/// A tile's status word: the value's 32 bits in the high half; in the low half the epoch
/// shifted left by one, plus 1 if the value is the tile's inclusive prefix (0: only its
/// aggregate, the sum of its own elements).
template <typename T>
__device__ __forceinline__ unsigned long long make_status(T value, unsigned epoch, bool inclusive) {
  static_assert(sizeof(T) == 4, "status words hold 4-byte values");
  unsigned bits;
  memcpy(&bits, &value, 4);
  return (static_cast<unsigned long long>(bits) << 32) | (epoch << 1) | (inclusive ? 1u : 0u);
}
/// The value of a status word.
template <typename T>
__device__ __forceinline__ T status_value(unsigned long long word) {
  const unsigned bits = static_cast<unsigned>(word >> 32);
  T value;
  memcpy(&value, &bits, 4);
  return value;
}
/// The epoch of a status word (0 for the words the host cleared).
__device__ __forceinline__ unsigned status_epoch(unsigned long long word) {
  return static_cast<unsigned>(word) >> 1;
}
/// Whether a status word holds an inclusive prefix.
__device__ __forceinline__ bool status_inclusive(unsigned long long word) { return (word & 1) != 0; }

using StatusRef = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
// [scan6-status]

// [scan6-ticket]
/// The atomic half of take_ticket(): the next ticket of the counter.
/// \param counter the look-back counter of the Scratch
__device__ __forceinline__ unsigned long long draw_ticket(unsigned long long* counter) {
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*counter).fetch_add(
      1, cuda::memory_order_relaxed);
}

/// The other half: if \p ticket is the last of the launch's \p tickets, sets the counter to
/// ticket 0 of the next epoch. Variant 8 calls it later than draw_ticket(), so that the
/// atomic's latency hides behind other work.
__device__ __forceinline__ void close_epoch_after(unsigned long long* counter,
                                                  unsigned long long ticket, unsigned tickets) {
  if (static_cast<unsigned>(ticket) == tickets - 1) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*counter).store(
        ((ticket >> 32) + 1) << 32, cuda::memory_order_relaxed);
  }
}

/// Takes a ticket: the low half is a tile (tiles and above: no work left), the high half the
/// launch's epoch. A launch hands out a known number of tickets, \p tickets: here tiles +
/// blocks (every block's last one is past the last tile), in variant 7 one per block. The
/// block that takes the last ticket sets the counter to ticket 0 of the next epoch. Called by
/// one thread of the block.
/// \param counter the look-back counter of the Scratch
/// \param tickets tickets this launch hands out
__device__ __forceinline__ unsigned long long take_ticket(unsigned long long* counter,
                                                          unsigned tickets) {
  const unsigned long long ticket = draw_ticket(counter);
  close_epoch_after(counter, ticket, tickets);
  return ticket;
}
// [scan6-ticket]

// [scan6-lookback]
/// The first half of lookback_tile_prefix() (below), for one thread: publishes the tile's
/// aggregate (for tile 0, its inclusive prefix). Variant 8 publishes it a step before it looks
/// back.
template <typename T>
__device__ __forceinline__ void publish_aggregate(unsigned long long* status, unsigned tile,
                                                  unsigned epoch, T aggregate) {
  StatusRef(status[tile]).store(make_status(aggregate, epoch, tile == 0),
                                cuda::memory_order_relaxed);
}

/// One poll's window of kDepth x 32 predecessors: lane l's row r is tile window - 32 r - l.
/// Predecessors past tile 0 read as an inclusive identity; they never count (tile 0 is
/// nearer).
template <typename T, int kDepth>
struct StatusWindow {
  long long window;                 ///< the nearest predecessor of the window
  unsigned long long word[kDepth];  ///< the status words, as last loaded

  /// Loads row \p r's status words; they are in flight until a lane reads them.
  __device__ __forceinline__ void poll(unsigned long long* status, unsigned epoch, int r) {
    const long long predecessor = window - 32 * r - lane_id();
    word[r] = predecessor < 0 ? make_status(T(0), epoch, true)
                              : StatusRef(status[predecessor]).load(cuda::memory_order_relaxed);
  }
  /// Loads every row.
  __device__ __forceinline__ void poll_all(unsigned long long* status, unsigned epoch) {
#pragma unroll
    for (int r = 0; r < kDepth; ++r) poll(status, epoch, r);
  }
  /// Whether row \p r's predecessor has published in this epoch.
  __device__ __forceinline__ bool ready(int r, unsigned epoch) const {
    return status_epoch(word[r]) == epoch;
  }
};

/// The second half of lookback_tile_prefix(), for the whole warp, from the window just below
/// the tile, polled once (\p w): waits for the predecessors, adds them up back to the
/// nearest inclusive prefix, publishes the tile's inclusive prefix (unless \p publish is
/// false) and returns the sum of all elements before the tile. \p w is a StatusWindow or a
/// window with the same members (variant 11's).
template <typename T, bool kBackoff, int kDepth, typename Window>
__device__ T finish_look_back(unsigned long long* status, unsigned tile, unsigned epoch,
                              T aggregate, Window& w, bool publish = true) {
  const unsigned lane = lane_id();
  if (tile == 0) return T(0);
  T prefix = T(0);
  unsigned sleep_ns = LookbackPolicy::kFirstSleepNs;
  while (true) {
    while (true) {
      bool all = true;
#pragma unroll
      for (int r = 0; r < kDepth; ++r) all = all && w.ready(r, epoch);
      if (__all_sync(kFullMask, all)) break;
      if (kBackoff) {
        __nanosleep(sleep_ns);
        sleep_ns = sleep_ns < LookbackPolicy::kMaxSleepNs ? 2 * sleep_ns : sleep_ns;
      }
#pragma unroll
      for (int r = 0; r < kDepth; ++r)
        if (!w.ready(r, epoch)) w.poll(status, epoch, r);
    }
    // The nearest inclusive prefix: the first row that has one, its lowest lane.
    T sum = T(0);
    bool found = false;
#pragma unroll
    for (int r = 0; r < kDepth; ++r) {
      if (found) break;  // the same in every lane
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

/// finish_look_back() with the first poll made here.
template <typename T, bool kBackoff, int kDepth>
__device__ T look_back(unsigned long long* status, unsigned tile, unsigned epoch, T aggregate) {
  StatusWindow<T, kDepth> w{static_cast<long long>(tile) - 1, {}};
  w.poll_all(status, epoch);
  return finish_look_back<T, kBackoff, kDepth>(status, tile, epoch, aggregate, w);
}

/// The decoupled look-back, run by one warp per block: publishes the tile's \p aggregate,
/// adds up the predecessors' published values back to the nearest inclusive prefix, and
/// publishes the tile's own inclusive prefix.
///
/// Lane l looks at tile (window - l), so one load per lane covers 32 predecessors. The warp
/// waits (with a short back-off) until all 32 have published something in this epoch,
/// finds the nearest one with an inclusive prefix (the lowest lane whose flag says so),
/// sums the values of the lanes up to and including it, and stops there; if none of the 32
/// had one, it adds all 32 aggregates and moves the window 32 tiles back. Tile 0 publishes
/// its inclusive prefix at once, so every look-back ends. With \p kDepth > 1 (variant 8)
/// each lane loads kDepth words at once: row r of the window is tiles window - 32 r - l, and
/// one round trip to L2 covers 32 kDepth predecessors.
/// \param status the status words of this launch
/// \param tile this block's tile
/// \param epoch this launch's epoch
/// \tparam kBackoff whether the warp sleeps between polls of a silent predecessor (variant 6)
///         or polls again at once (variants 7 and 8)
/// \tparam kDepth status words per lane and poll
/// \param aggregate the sum of this tile's elements
/// \return the sum of all elements before the tile (in every lane)
/// \pre all 32 lanes of one warp call it.
template <typename T, bool kBackoff = true, int kDepth = 1>
__device__ T lookback_tile_prefix(unsigned long long* status, unsigned tile, unsigned epoch,
                                  T aggregate) {
  if (lane_id() == 0) publish_aggregate(status, tile, epoch, aggregate);
  return look_back<T, kBackoff, kDepth>(status, tile, epoch, aggregate);
}
// [scan6-lookback]

// [scan6-kernel]
/// The single-pass scan. Warp w of the block handles kLookbackItems x 32 consecutive
/// elements of a tile as LookbackPolicy::kGroups rows of 128; in row g, lane l holds
/// elements 4l ... 4l + 3 (one 16-byte load per row, the whole warp reads 512 consecutive
/// bytes). The scan inside the block needs no shared memory but one word per warp.
/// \tparam kThreads the block size
/// \tparam kVectorized whether in and out are 16-byte aligned (else 4-byte loads)
/// \param in n values
/// \param out n results (may be \p in)
/// \param n how many
/// \param kind inclusive or exclusive
/// \param status one status word per tile
/// \param counter the tile counter (tile 0 of the current epoch at launch)
/// \param tiles ceil(n / (kThreads kLookbackItems))
template <typename T, int kThreads, bool kVectorized>
__global__ void __launch_bounds__(kThreads)
    scan6_kernel(const T* in, T* out, std::size_t n, ScanKind kind, unsigned long long* status,
                 unsigned long long* counter, unsigned tiles) {
  constexpr int kGroups = LookbackPolicy::kGroups;
  constexpr int kWarps = kThreads / 32;
  constexpr std::size_t kTile = std::size_t(kThreads) * kLookbackItems;
  __shared__ unsigned long long tickets[2];  // this tile's and the next one's
  __shared__ T warp_totals[kWarps];
  __shared__ T tile_prefix;
  const unsigned lane = lane_id();
  const unsigned warp = threadIdx.x / 32;

  if (threadIdx.x == 0) tickets[0] = take_ticket(counter, tiles + gridDim.x);
  __syncthreads();
  for (int current = 0;; current ^= 1) {
    const unsigned long long ticket = tickets[current];
    const unsigned tile = static_cast<unsigned>(ticket);
    if (tile >= tiles) return;  // the same for the whole block
    const unsigned epoch = static_cast<unsigned>(ticket >> 32);
    const std::size_t first = tile * kTile + warp * (32 * kLookbackItems) + lane * 4;
    const bool whole = (tile + 1) * kTile <= n;

    // Load; while the loads are in flight, ask for the next tile.
    T v[kGroups][4];
    load_tile<T, kVectorized>(in, first, n, whole, v);
    if (threadIdx.x == 0) tickets[current ^ 1] = take_ticket(counter, tiles + gridDim.x);

    // Scan each 4-element vector in the thread.
    T row[kGroups];  // then: the inclusive scan over the lanes of the vectors' totals
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
      v[g][1] += v[g][0];
      v[g][2] += v[g][1];
      v[g][3] += v[g][2];
      row[g] = v[g][3];
    }
    // Scan the vector totals across the warp, all rows at once (independent chains of warp
    // variant 5's predicated shuffles).
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2) {
#pragma unroll
      for (int g = 0; g < kGroups; ++g) row[g] = warp_scan_ptx_step(row[g], offset);
    }
    // The rows follow each other: row g starts after the totals of rows 0 .. g-1.
    T row_base[kGroups];
    T warp_total = T(0);
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
      row_base[g] = warp_total;
      warp_total += __shfl_sync(kFullMask, row[g], 31);
    }
    if (lane == 0) warp_totals[warp] = warp_total;
    __syncthreads();
    T warp_base = T(0);
    T aggregate = T(0);
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const T t = warp_totals[w];
      if (w < static_cast<int>(warp)) warp_base += t;
      aggregate += t;
    }

    // The first warp finds the sum of everything before the tile; the others wait.
    if (warp == 0) {
      const T prefix = lookback_tile_prefix(status, tile, epoch, aggregate);
      if (lane == 0) tile_prefix = prefix;
    }
    __syncthreads();

    const T thread_base = tile_prefix + warp_base;
    const bool inclusive = kind == ScanKind::Inclusive;
    T y[kGroups][4];
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
      const T base = thread_base + row_base[g] + warp_exclusive_from_inclusive(row[g]);
      y[g][0] = inclusive ? base + v[g][0] : base;
      y[g][1] = base + (inclusive ? v[g][1] : v[g][0]);
      y[g][2] = base + (inclusive ? v[g][2] : v[g][1]);
      y[g][3] = base + (inclusive ? v[g][3] : v[g][2]);
    }
    store_tile<T, kVectorized>(out, first, n, whole, y);
  }
}
// [scan6-kernel]

// [scan6-launch]
/// Blocks for \p tiles tiles of a kernel: as many as fit on the GPU at once (the occupancy
/// API, asked once per kernel), no more than there are tiles.
/// \param kernel the kernel
/// \param threads its block size
/// \param tiles tiles to scan
/// \param scratch the caller's scratch (for the number of SMs)
/// \param per_sm_cache blocks per SM, 0 until the first call asks the occupancy API
/// \param shared_bytes dynamic shared memory per block (variant 8's tiles)
template <typename Kernel>
unsigned resident_grid(Kernel kernel, int threads, std::size_t tiles, const Scratch& scratch,
                       int& per_sm_cache, std::size_t shared_bytes = 0) {
  if (per_sm_cache <= 0) {
    HB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_cache, kernel, threads,
                                                                shared_bytes));
    per_sm_cache = std::max(per_sm_cache, 1);
  }
  return static_cast<unsigned>(
      std::min<std::size_t>(tiles, std::size_t(per_sm_cache) * scratch.sm_count()));
}

/// One launch: the vectorized kernel when both pointers are 16-byte aligned.
template <typename T, int kThreads>
void scan6_launch(const T* in, T* out, std::size_t n, ScanKind kind, Scratch& scratch,
                  cudaStream_t stream) {
  const std::size_t tiles = ceil_div(n, std::size_t(kThreads) * kLookbackItems);
  if (tiles > 0x7fffffffu) throw std::logic_error("scan6: too many tiles");
  unsigned long long* status = scratch.lookback_status(tiles, stream);
  unsigned long long* counter = scratch.lookback_counter();
  const unsigned t = static_cast<unsigned>(tiles);
  if (aligned16(in) && aligned16(out)) {
    static int per_sm = 0;
    const unsigned grid = resident_grid(scan6_kernel<T, kThreads, true>, kThreads, tiles, scratch, per_sm);
    scan6_kernel<T, kThreads, true><<<grid, kThreads, 0, stream>>>(in, out, n, kind, status, counter, t);
  } else {
    static int per_sm = 0;
    const unsigned grid = resident_grid(scan6_kernel<T, kThreads, false>, kThreads, tiles, scratch, per_sm);
    scan6_kernel<T, kThreads, false><<<grid, kThreads, 0, stream>>>(in, out, n, kind, status, counter, t);
  }
  HB_CHECK_LAUNCH();
}
// [scan6-launch]

template <typename T>
void scan6_decoupled_lookback(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                              Scratch& scratch, cudaStream_t stream) {
  require_threads("scan variant 6", BlockRule::PowerOfTwoFrom32, threads);
  if (n == 0) return;
  hb::with_power_of_two<32, 1024>(threads, [&](auto block) {
    scan6_launch<T, decltype(block)::value>(in, out, n, kind, scratch, stream);
  });
}

}  // namespace ch13
