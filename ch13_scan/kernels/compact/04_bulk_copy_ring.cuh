/// \file
/// \brief Chapter 13, compaction variant 4: persistent blocks, a ring of tiles by bulk copy (beyond the text).
/* [changed]
Compared with variant 3: scan variant 8's ring. As many blocks as fit stay on the GPU; each
holds kRingStages tiles in shared memory, and its producer thread keeps the next tiles' bulk copies
in flight while the block counts, looks back, compacts and copies out the current one. The
passes over a tile are variant 3's. The odd elements still leave through the threads' stores:
where they go depends on the look-back and is not 16-byte aligned, which a bulk copy needs. A
tile holds 36 elements per thread, not 32: every tile costs a look-back and two barriers
whatever its size, and a ring of three such tiles still fits the shared memory of an H100 at
512 threads. The block size must be a power of two from 32 to 512.
[changed] */
#pragma once

#include "../device/08_bulk_copy_ring.cuh"
#include "03_bulk_copy_lookback.cuh"

namespace ch13 {

// [compact4-kernel]
/// Single-pass compaction of the odd elements by persistent blocks with a ring of staged
/// tiles: scan variant 8's steps, compaction 3's passes. Step j: count tile j + 1's odd
/// elements and publish them as its aggregate; warp 0 looks back for tile j while the other
/// warps compact their parts of it in place (warp 0 after its look-back); then the tile's odd
/// elements go out.
/// \tparam kThreads the block size
/// \tparam kStages tiles in the ring
/// \tparam kVectorized whether \p in is 16-byte aligned
/// \param in n values
/// \param out room for the odd elements
/// \param n how many
/// \param count how many were odd (written by the block of the last tile)
/// \param status one status word per tile
/// \param counter the tile counter
/// \param tiles ceil(n / (kThreads kCompactRingItems))
template <int kThreads, int kStages, bool kVectorized>
__global__ void __launch_bounds__(kThreads)
    compact4_kernel(const int* in, int* out, std::size_t n, int* count,
                    unsigned long long* status, unsigned long long* counter, unsigned tiles) {
  constexpr unsigned kTile = unsigned(kThreads) * kCompactRingItems;
  __shared__ std::uint64_t landed[kStages];
  __shared__ unsigned long long slot_tickets[kStages];
  __shared__ int warp_totals[kThreads / 32];
  __shared__ int tile_prefix[2];  // by step parity: step j + 1 writes before all read step j's
  const unsigned lane = lane_id();
  const unsigned warp = threadIdx.x / 32;
  const bool producer = threadIdx.x == kThreads - 1;
  TileRing<int, kStages, kVectorized> ring{dynamic_shared<int>(), landed, slot_tickets, kTile,
                                           tiles, tiles + gridDim.x};
  const auto part_of = [&](unsigned j) { return ring.tile(j) + warp * (32 * kCompactRingItems); };
  const auto count_tile = [&](unsigned j, const RingTile& t, int& warp_base, int& aggregate) {
    staged_tile_totals<int, kThreads, kCompactRingItems>(
        reinterpret_cast<const int4*>(part_of(j)) + lane, warp_totals, OddCount{}, warp_base,
        aggregate);
    if (threadIdx.x == 0) publish_aggregate(status, t.index, t.epoch, aggregate);
  };

  if (producer) ring.start(in, n, counter);
  __syncthreads();
  RingTile current = stage_ring_tile(ring, 0, in, n);  // zeros are even
  int base = 0, aggregate = 0;                          // of the current tile
  if (current.valid) count_tile(0, current, base, aggregate);
  __syncthreads();  // every thread has read tile 0's totals before tile 1's are written

  for (unsigned j = 0; current.valid; ++j) {
    const RingTile ahead = stage_ring_tile(ring, j + 1, in, n);
    int ahead_base = 0, ahead_aggregate = 0;
    if (ahead.valid) count_tile(j + 1, ahead, ahead_base, ahead_aggregate);
    if (producer && j > 0) ring.refill(j - 1, in, n, counter);  // step j - 1 is over
    if (warp == 0) {
      const int prefix = look_back<int, false, kLookbackDepth>(status, current.index,
                                                               current.epoch, aggregate);
      if (lane == 0) tile_prefix[j & 1] = prefix;
    }
    int* part = part_of(j);
    const int kept = compact_staged_part<kCompactRingItems>(part);
    fence_tile_for_copy_engine();  // a later bulk copy into this slot comes after our writes
    __syncthreads();               // tile_prefix
    const int prefix = tile_prefix[j & 1];
    int* to = out + prefix + base;
    for (int i = static_cast<int>(lane); i < kept; i += 32) to[i] = part[i];
    if (current.index == tiles - 1 && threadIdx.x == 0) *count = prefix + aggregate;
    if (producer) ring.draw_ahead(counter);
    current = ahead;
    base = ahead_base;
    aggregate = ahead_aggregate;
  }
}
// [compact4-kernel]

/// Launches a compaction with a ring of tiles of \p kItems elements per thread, \p kBytes
/// of shared memory per thread: \p kAligned when \p in is 16-byte aligned, else
/// \p kUnaligned (compactions 4 and 5).
template <int kThreads, int kItems, unsigned kBytes, auto kAligned, auto kUnaligned>
void launch_compact_ring(const int* in, int* out, std::size_t n, int* count, Scratch& scratch,
                         cudaStream_t stream) {
  if (n == 0) {
    HB_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(int), stream));
    return;
  }
  if (n > 0x7fffffff) throw std::logic_error("compaction: more than 2^31 - 1 elements");
  const std::size_t tiles = ceil_div(n, std::size_t(kThreads) * kItems);
  unsigned long long* status = scratch.lookback_status(tiles, stream);
  unsigned long long* counter = scratch.lookback_counter();
  const unsigned t = static_cast<unsigned>(tiles);
  if (aligned16(in)) {
    launch_ring<kAligned, kThreads, kBytes>(tiles, scratch, stream, in, out, n, count, status,
                                            counter, t);
  } else {
    launch_ring<kUnaligned, kThreads, kBytes>(tiles, scratch, stream, in, out, n, count, status,
                                              counter, t);
  }
}

void compact4_bulk_copy_ring(const int* in, int* out, std::size_t n, int* count, int threads,
                             Scratch& scratch, cudaStream_t stream) {
  require_threads("compaction variant 4", BlockRule::PowerOfTwo32To512, threads);
  require_shared_memory("compaction variant 4", kCompactRingBytesPerThread, threads);
  hb::with_power_of_two<32, 512>(threads, [&](auto block) {
    constexpr int kThreads = decltype(block)::value;
    launch_compact_ring<kThreads, kCompactRingItems, kCompactRingBytesPerThread,
                        compact4_kernel<kThreads, kRingStages, true>,
                        compact4_kernel<kThreads, kRingStages, false>>(in, out, n, count,
                                                                       scratch, stream);
  });
}

}  // namespace ch13
