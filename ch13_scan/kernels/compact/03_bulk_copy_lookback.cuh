/// \file
/// \brief Chapter 13, compaction variant 3: single pass, one tile per block, staged by bulk copy (beyond the text).
/* [changed]
Compared with variant 2: scan variant 7's tiles. Every block compacts one tile, which reaches
shared memory in one bulk copy; the threads count the tile's odd elements (the aggregate of the
look-back) in a first pass over shared memory. In the second pass each warp compacts its own
part of the tile in place, row by row: the odd elements of a row go to the front of the warp's
part, below anything it has not read yet. Then each warp copies its run of odd elements to the
output, after those of the warps before it and of the tiles before the tile. No registers hold
the tile while it is in flight and no second staging area is needed, so six blocks of 256
threads share an SM. The block size must be a power of two from 32 to 1024.
[changed] */
#pragma once

#include "../device/07_bulk_copy_lookback.cuh"

namespace ch13 {

// [compact3-passes]
/// How many of a vector's four elements are odd: what a vector adds to a compaction's
/// staged_tile_totals.
struct OddCount {
  __device__ __forceinline__ int operator()(const int4& q) const {
    return IsOdd{}(q.x) + IsOdd{}(q.y) + IsOdd{}(q.z) + IsOdd{}(q.w);
  }
};

/// The second pass of the compaction: compacts the warp's part of the staged tile in place.
/// The odd elements of rows 0 .. g land below the end of row g, so writing them never touches
/// a row the warp has yet to read; the lanes read row g completely (__syncwarp) before any of
/// them writes.
/// \param part the warp's part of the tile (kItems x 32 elements)
/// \return how many of the part's elements were odd (they are now its first ones)
template <int kItems = kBulkItems>
__device__ __forceinline__ int compact_staged_part(int* part) {
  constexpr int kRows = kItems / 4;
  const int4* rows = reinterpret_cast<const int4*>(part) + lane_id();
  int kept = 0;  // odd elements of the rows before this one
#pragma unroll
  for (int g = 0; g < kRows; ++g) {
    const int4 q = rows[32 * g];
    const int mine = OddCount{}(q);
    const int lanes = warp_scan_shuffle(mine);  // rows interleave (see scan variant 7)
    int at = kept + lanes - mine;
    kept += __shfl_sync(kFullMask, lanes, 31);
    __syncwarp();
    if (IsOdd{}(q.x)) part[at++] = q.x;
    if (IsOdd{}(q.y)) part[at++] = q.y;
    if (IsOdd{}(q.z)) part[at++] = q.z;
    if (IsOdd{}(q.w)) part[at++] = q.w;
  }
  __syncwarp();
  return kept;
}
// [compact3-passes]

// [compact3-kernel]
/// Single-pass compaction of the odd elements with one tile per block, staged in shared
/// memory (the layout of scan variant 7).
/// \tparam kThreads the block size
/// \tparam kVectorized whether \p in is 16-byte aligned
/// \param in n values
/// \param out room for the odd elements
/// \param n how many
/// \param count how many were odd (written by the block of the last tile)
/// \param status one status word per tile
/// \param counter the tile counter
/// \param tiles ceil(n / (kThreads kBulkItems)), the grid size
template <int kThreads, bool kVectorized>
__global__ void __launch_bounds__(kThreads)
    compact3_kernel(const int* in, int* out, std::size_t n, int* count,
                    unsigned long long* status, unsigned long long* counter, unsigned tiles) {
  constexpr unsigned kTile = unsigned(kThreads) * kBulkItems;
  __shared__ std::uint64_t landed;
  __shared__ unsigned long long ticket;
  __shared__ int warp_totals[kThreads / 32];
  __shared__ int tile_prefix;
  int* staged = dynamic_shared<int>();
  const unsigned lane = lane_id();
  const unsigned warp = threadIdx.x / 32;

  const BulkTile tile = stage_tile<int, kVectorized>(in, n, kTile, tiles, counter, staged,
                                                     &landed, &ticket);  // zeros are even
  int* part = staged + warp * (32 * kBulkItems);  // this warp's part of the tile

  // First pass: how many odd elements the tile and the warps before ours hold.
  int warp_base, aggregate;
  staged_tile_totals<int, kThreads>(reinterpret_cast<const int4*>(part) + lane, warp_totals,
                                    OddCount{}, warp_base, aggregate);
  if (warp == 0) {
    const int prefix = lookback_tile_prefix<int, false>(status, tile.index, tile.epoch, aggregate);
    if (lane == 0) tile_prefix = prefix;
  }

  // Second pass: compact the warp's part in place (warp 0 after its look-back), then copy it
  // out, after the odd elements of the warps and tiles before it.
  const int kept = compact_staged_part(part);
  __syncthreads();  // tile_prefix
  int* to = out + tile_prefix + warp_base;
  for (int i = static_cast<int>(lane); i < kept; i += 32) to[i] = part[i];
  if (tile.index == tiles - 1 && threadIdx.x == 0) *count = tile_prefix + aggregate;
}
// [compact3-kernel]

template <int kThreads>
void compact3_launch(const int* in, int* out, std::size_t n, int* count, Scratch& scratch,
                     cudaStream_t stream) {
  if (n == 0) {
    HB_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(int), stream));
    return;
  }
  constexpr std::size_t kTile = std::size_t(kThreads) * kBulkItems;
  if (n > 0x7fffffff) throw std::logic_error("compact3: more than 2^31 - 1 elements");
  const std::size_t tiles = ceil_div(n, kTile);
  unsigned long long* status = scratch.lookback_status(tiles, stream);
  const unsigned t = static_cast<unsigned>(tiles);
  const std::size_t bytes = kTile * sizeof(int);
  if (aligned16(in)) {
    allow_tile_shared_memory<compact3_kernel<kThreads, true>>(bytes);
    compact3_kernel<kThreads, true><<<t, kThreads, bytes, stream>>>(
        in, out, n, count, status, scratch.lookback_counter(), t);
  } else {
    allow_tile_shared_memory<compact3_kernel<kThreads, false>>(bytes);
    compact3_kernel<kThreads, false><<<t, kThreads, bytes, stream>>>(
        in, out, n, count, status, scratch.lookback_counter(), t);
  }
  HB_CHECK_LAUNCH();
}

void compact3_bulk_copy_lookback(const int* in, int* out, std::size_t n, int* count, int threads,
                                 Scratch& scratch, cudaStream_t stream) {
  require_threads("compaction variant 3", BlockRule::PowerOfTwoFrom32, threads);
  require_shared_memory("compaction variant 3", kBulkTileBytesPerThread, threads);
  hb::with_power_of_two<32, 1024>(threads, [&](auto block) {
    compact3_launch<decltype(block)::value>(in, out, n, count, scratch, stream);
  });
}

}  // namespace ch13
