/// \file
/// \brief Chapter 13, compaction variant 5: each lane compacts a run of consecutive elements (beyond the text).
/* [changed]
Compared with variant 4: a lane's share of a tile is a run of 36 consecutive elements, not
one 16-byte vector of each of the warp's nine rows. The order of the odd elements is then the
order of the lanes, so the warp scan of the lanes' counts, made once per tile in the counting
pass, tells every lane where its odd elements go; variant 4 needs one warp scan per row. A lane
reads its run into registers and, after every lane of the warp has read, stores its odd
elements one after the other, in place. The runs are 144 bytes apart, an odd number of 16-byte
vectors, so a quarter warp's 16-byte loads fall on different banks. Two smaller changes: warp
0 sends the first poll of a tile's look-back at the start of the step and reads the answers
only after it has counted the next tile and compacted its part, and every lane keeps four
loads in flight while it copies its warp's odd elements out. The ring is variant 4's. The block
size must be a power of two from 32 to 512.
[changed] */
#pragma once

#include "../device/10_early_refill.cuh"
#include "04_bulk_copy_ring.cuh"

namespace ch13 {

// [compact5-passes]
/// How many of the \p kItems consecutive elements at \p run are odd.
template <int kItems>
__device__ __forceinline__ int odd_in_run(const int* run) {
  const int4* v = reinterpret_cast<const int4*>(run);
  int odd = 0;
#pragma unroll
  for (int r = 0; r < kItems / 4; ++r) odd += OddCount{}(v[r]);
  return odd;
}

/// Compacts the warp's part of a staged tile in place: every lane reads its run of \p kItems
/// elements, then (__syncwarp) stores its odd ones from \p lane_base on, the odd elements of
/// the lanes before it. A lane's odd elements land below the end of its own run, and all runs
/// have been read before any lane writes.
template <int kItems>
__device__ __forceinline__ void compact_lane_run(int* part, int lane_base) {
  const int4* run = reinterpret_cast<const int4*>(part + lane_id() * kItems);
  int4 v[kItems / 4];
#pragma unroll
  for (int r = 0; r < kItems / 4; ++r) v[r] = run[r];
  __syncwarp();
  int* at = part + lane_base;
#pragma unroll
  for (int r = 0; r < kItems / 4; ++r) {
    if (IsOdd{}(v[r].x)) *at++ = v[r].x;
    if (IsOdd{}(v[r].y)) *at++ = v[r].y;
    if (IsOdd{}(v[r].z)) *at++ = v[r].z;
    if (IsOdd{}(v[r].w)) *at++ = v[r].w;
  }
  __syncwarp();
}

/// Copies the warp's \p kept compacted elements from \p part to \p to, four loads per lane
/// in flight before their stores.
__device__ __forceinline__ void copy_out(int* to, const int* part, int kept) {
  constexpr int kUnroll = 4;
  for (int i = static_cast<int>(lane_id()); i < kept; i += 32 * kUnroll) {
    int v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (i + 32 * u < kept) v[u] = part[i + 32 * u];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (i + 32 * u < kept) to[i + 32 * u] = v[u];
  }
}

/// What the counting pass learns of a tile, kept until the tile is compacted.
struct RunCounts {
  int lane_base = 0;  ///< odd elements of the lanes before this one in its warp
  int kept = 0;       ///< odd elements of the warp's part
  int warp_base = 0;  ///< odd elements of the warps before this one
  int aggregate = 0;  ///< odd elements of the tile
};

/// The counting pass over the warp's \p part of a staged tile \p t: every lane counts the odd
/// elements of its run, the warp scans the counts, the block adds up the warps' totals
/// (\p warp_totals), and thread 0 publishes the tile's aggregate.
template <int kThreads, int kItems>
__device__ __forceinline__ RunCounts count_runs(const int* part, int* warp_totals,
                                                unsigned long long* status, const RingTile& t) {
  RunCounts c;
  const int mine = odd_in_run<kItems>(part + lane_id() * kItems);
  const int lanes = warp_scan_shuffle(mine);
  c.lane_base = lanes - mine;
  c.kept = __shfl_sync(kFullMask, lanes, 31);
  tile_totals<int, kThreads>(c.kept, warp_totals, c.warp_base, c.aggregate);
  if (threadIdx.x == 0) publish_aggregate(status, t.index, t.epoch, c.aggregate);
  return c;
}
// [compact5-passes]

// [compact5-kernel]
/// Variant 4's kernel with the passes above: the counting pass of tile j + 1 also scans the
/// lanes' counts, and the compaction of tile j needs no scan. \p LookBack is warp 0's
/// look-back (scan variant 10's NearestInclusive; variant 6 passes scan variant 11's).
template <int kThreads, int kStages, bool kVectorized, template <typename> class LookBack>
__global__ void __launch_bounds__(kThreads)
    compact5_kernel(const int* in, int* out, std::size_t n, int* count,
                    unsigned long long* status, unsigned long long* counter, unsigned tiles) {
  constexpr int kItems = kLaneRunItems;
  constexpr unsigned kTile = unsigned(kThreads) * kItems;
  __shared__ std::uint64_t landed[kStages];
  __shared__ unsigned long long slot_tickets[kStages];
  __shared__ int warp_totals[kThreads / 32];
  __shared__ int tile_prefix[2];  // by step parity: step j + 1 writes before all read step j's
  const unsigned lane = lane_id();
  const unsigned warp = threadIdx.x / 32;
  const bool producer = threadIdx.x == kThreads - 1;
  TileRing<int, kStages, kVectorized> ring{dynamic_shared<int>(), landed, slot_tickets, kTile,
                                           tiles, tiles + gridDim.x};
  const auto part_of = [&](unsigned j) { return ring.tile(j) + warp * (32 * kItems); };
  const auto count_tile = [&](unsigned j, const RingTile& t) {
    return count_runs<kThreads, kItems>(part_of(j), warp_totals, status, t);
  };

  LookBack<int> look;  // warp 0's
  if (producer) ring.start(in, n, counter);
  __syncthreads();
  RingTile current = stage_ring_tile(ring, 0, in, n);  // zeros are even
  RunCounts counts;                                     // of the current tile
  if (current.valid) counts = count_tile(0, current);
  __syncthreads();  // every thread has read tile 0's totals before tile 1's are written

  for (unsigned j = 0; current.valid; ++j) {
    // Warp 0's first poll of the look-back for tile j is in flight while it counts tile j + 1
    // and compacts tile j.
    if (warp == 0) look.start(status, current.index, current.epoch);
    const RingTile ahead = stage_ring_tile(ring, j + 1, in, n);
    RunCounts ahead_counts;
    if (ahead.valid) ahead_counts = count_tile(j + 1, ahead);
    if (producer && j > 0) ring.refill(j - 1, in, n, counter);  // step j - 1 is over
    int* part = part_of(j);
    compact_lane_run<kItems>(part, counts.lane_base);
    if (warp == 0) {
      const int prefix = look.finish(status, current.index, current.epoch, counts.aggregate);
      if (lane == 0) tile_prefix[j & 1] = prefix;
    }
    fence_tile_for_copy_engine();  // a later bulk copy into this slot comes after our writes
    __syncthreads();               // tile_prefix
    const int prefix = tile_prefix[j & 1];
    int* to = out + prefix + counts.warp_base;
    copy_out(to, part, counts.kept);
    if (current.index == tiles - 1 && threadIdx.x == 0) *count = prefix + counts.aggregate;
    if (producer) ring.draw_ahead(counter);
    current = ahead;
    counts = ahead_counts;
  }
}
// [compact5-kernel]

/// Variant 5's entry, and variant 6's with its own \p LookBack; \p name names the variant in
/// errors.
template <template <typename> class LookBack>
void compact_lane_runs(const char* name, const int* in, int* out, std::size_t n, int* count,
                       int threads, Scratch& scratch, cudaStream_t stream) {
  require_threads(name, BlockRule::PowerOfTwo32To512, threads);
  require_shared_memory(name, kLaneRunBytesPerThread, threads);
  hb::with_power_of_two<32, 512>(threads, [&](auto block) {
    constexpr int kThreads = decltype(block)::value;
    launch_compact_ring<kThreads, kLaneRunItems, kLaneRunBytesPerThread,
                        compact5_kernel<kThreads, kLaneRunStages, true, LookBack>,
                        compact5_kernel<kThreads, kLaneRunStages, false, LookBack>>(
        in, out, n, count, scratch, stream);
  });
}

inline void compact5_lane_runs(const int* in, int* out, std::size_t n, int* count, int threads,
                               Scratch& scratch, cudaStream_t stream) {
  compact_lane_runs<NearestInclusive>("compaction variant 5", in, out, n, count, threads, scratch,
                                      stream);
}

}  // namespace ch13
