/// \file
/// \brief Chapter 13, compaction variant 6: kept elements leave from registers, each slot refilled once read (beyond the text).
/* [changed]
Compared with variant 5: scan variant 10's change. Once a warp has compacted its part of a tile
in place, its lanes read the kept elements back into registers, 32 apart as they will be
stored; the block synchronizes once, and the producer refills the slot at once with the tile
three steps ahead; the lanes store from their registers when the prefix has come. In variant 5
the slot stays taken until the lanes have copied the kept elements out, which waits for the
prefix, and the producer refills it only in the next step, after the next tile has been
counted. The passes, the look-back and the ring's shape are variant 5's.
[changed] */
#pragma once

#include "05_lane_runs.cuh"

namespace ch13 {

// [compact6-kernel]
/// Reads the warp's \p kept compacted elements at \p part into registers: element
/// lane + 32 u into kept_rows[u].
template <int kItems>
__device__ __forceinline__ void read_kept(const int* part, int kept, int (&kept_rows)[kItems]) {
  const int lane = static_cast<int>(lane_id());
#pragma unroll
  for (int u = 0; u < kItems; ++u) {
    if (32 * u >= kept) break;  // the same for the whole warp
    if (lane + 32 * u < kept) kept_rows[u] = part[lane + 32 * u];
  }
}

/// Variant 5's steps with the slot refilled before the prefix is known: one barrier per step,
/// after which the producer refills tile j's slot with the ticket drawn at the top of the step
/// and the lanes store the kept elements from their registers.
template <int kThreads, int kStages, bool kVectorized>
__global__ void __launch_bounds__(kThreads, 1)
    compact6_kernel(const int* in, int* out, std::size_t n, int* count,
                    unsigned long long* status, unsigned long long* counter, unsigned tiles) {
  constexpr int kItems = kLaneRunItems;
  constexpr unsigned kTile = unsigned(kThreads) * kItems;
  __shared__ std::uint64_t landed[kStages];
  __shared__ unsigned long long slot_tickets[kStages];
  __shared__ int warp_totals[kThreads / 32];
  __shared__ int tile_prefix[2];  // by step parity: step j + 1 writes while step j's is read
  const unsigned lane = lane_id();
  const unsigned warp = threadIdx.x / 32;
  const bool producer = threadIdx.x == kThreads - 1;
  TileRing<int, kStages, kVectorized> ring{dynamic_shared<int>(), landed, slot_tickets, kTile,
                                           tiles, tiles + gridDim.x};
  const auto part_of = [&](unsigned j) { return ring.tile(j) + warp * (32 * kItems); };

  if (producer) ring.start(in, n, counter);
  __syncthreads();
  RingTile current = stage_ring_tile(ring, 0, in, n);  // zeros are even
  RunCounts counts;                                     // of the current tile
  if (current.valid) counts = count_runs<kThreads, kItems>(part_of(0), warp_totals, status, current);
  __syncthreads();  // every thread has read tile 0's totals before tile 1's are written

  for (unsigned j = 0; current.valid; ++j) {
    if (producer) ring.draw_ahead(counter);
    StatusWindow<int, kLookbackDepth> predecessors{static_cast<long long>(current.index) - 1, {}};
    if (warp == 0) predecessors.poll_all(status, current.epoch);
    const RingTile ahead = stage_ring_tile(ring, j + 1, in, n);
    RunCounts ahead_counts;
    if (ahead.valid)
      ahead_counts = count_runs<kThreads, kItems>(part_of(j + 1), warp_totals, status, ahead);
    int* part = part_of(j);
    compact_lane_run<kItems>(part, counts.lane_base);
    int kept_rows[kItems];
    read_kept<kItems>(part, counts.kept, kept_rows);
    if (warp == 0) {
      const int prefix = finish_look_back<int, false, kLookbackDepth>(
          status, current.index, current.epoch, counts.aggregate, predecessors);
      if (lane == 0) tile_prefix[j & 1] = prefix;
    }
    fence_tile_for_copy_engine();  // our writes to the slot before the copy engine's next one
    __syncthreads();               // tile j is read: its slot and the prefix are ready
    if (producer) ring.refill(j, in, n, counter);

    const int prefix = tile_prefix[j & 1];
    int* to = out + prefix + counts.warp_base + lane;
#pragma unroll
    for (int u = 0; u < kItems; ++u) {
      if (32 * u >= counts.kept) break;
      if (int(lane) + 32 * u < counts.kept) to[32 * u] = kept_rows[u];
    }
    if (current.index == tiles - 1 && threadIdx.x == 0) *count = prefix + counts.aggregate;
    current = ahead;
    counts = ahead_counts;
  }
}
// [compact6-kernel]

void compact6_early_refill(const int* in, int* out, std::size_t n, int* count, int threads,
                           Scratch& scratch, cudaStream_t stream) {
  require_threads("compaction variant 6", BlockRule::PowerOfTwo32To512, threads);
  require_shared_memory("compaction variant 6", kLaneRunBytesPerThread, threads);
  hb::with_power_of_two<32, 512>(threads, [&](auto block) {
    constexpr int kThreads = decltype(block)::value;
    launch_compact_ring<kThreads, kLaneRunItems, kLaneRunBytesPerThread,
                        compact6_kernel<kThreads, kLaneRunStages, true>,
                        compact6_kernel<kThreads, kLaneRunStages, false>>(in, out, n, count,
                                                                          scratch, stream);
  });
}

}  // namespace ch13
