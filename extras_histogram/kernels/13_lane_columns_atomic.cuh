/// \file
/// \brief Histograms, variant 13: a 16-bit column per lane, fire-and-forget atomics.
/* [changed]
Compared with variant 12: we give up sharing bins between lanes altogether and go back to
variant 8's idea, one private histogram per lane in its own bank, so that no distribution of the
data can make two lanes of a warp collide. Three things change from variant 8. The counters are
16 bits wide (two per word: bin b in row b % 128, the high half when b >= 128), so the warp
merges once every 65,472 bytes per lane instead of every 240, and a warp's columns take 16 KiB.
The input comes in variant 11's tiles (four 16-byte vectors per lane, the next tile in flight).
And each update is `atomicAdd` on the lane's own word: no other lane ever touches that word
while counting, so the atomic is not there for correctness; it makes the update one instruction
that the thread issues and forgets, where a load, an add and a store would make the thread wait
for the load.
[changed] */
#pragma once

#include "11_warp_private.cuh"

namespace histo {

/// Warps per block of variants 13 and 14 (16 KiB of counters each). A GPU that grants a block
/// less than kCounterBlockSharedBytes (Turing: 64 KiB in all) runs blocks of half as many.
constexpr int kColumnWarps = 4;
/// Words of 16-bit counters per lane: bin b in row b % 128, half b / 128.
constexpr int kColumnRows = kBins / 2;
/// Tiles between two merges. Since the last merge a lane has counted at most
/// (kColumnTilesPerMerge - 1) tiles, then the rest (at most one tile's worth) and one tail
/// byte: 1022 x 64 + 64 + 1 = 65,473 <= 65,535.
constexpr int kColumnTilesPerMerge = 1023;
static_assert((kColumnTilesPerMerge - 1) * 16 * kTileVectors + 16 * kTileVectors + 1 <= 65535,
              "a 16-bit counter could overflow between two merges");
/// Dynamic shared memory of a block of \p warps warps of variants 13, 14, 16 and 17.
constexpr std::size_t column_shared_bytes(int warps) {
  return std::size_t(warps) * kColumnRows * 32 * sizeof(std::uint32_t);
}
static_assert(column_shared_bytes(kColumnWarps) + kBins * sizeof(std::uint32_t) ==
                  kCounterBlockSharedBytes,
              "the variant table declares this block's shared memory");

// [histogram-columns-merge]
/// Adds the warp's 16-bit counters (row r at cols + RowWords r) into total and zeroes them.
/// Lane l owns rows l + 32 j (j < 4): total[j] sums their low halves, total[4 + j] their high
/// halves (in this variant's layout, bins l + 32 j and 128 + l + 32 j).
template <int RowWords = 32>
__device__ __forceinline__ void columns16_merge(std::uint32_t* cols, int lane,
                                                std::uint32_t (&total)[8]) {
  __syncwarp();
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    std::uint32_t* row = cols + (lane + 32 * j) * RowWords;
    std::uint32_t low = 0, high = 0;
#pragma unroll 8
    for (int s = 0; s < 32; ++s) {
      const int col = (lane + s) % 32;  // diagonal: conflict-free
      const std::uint32_t w = row[col];
      row[col] = 0;
      low += w & 0xFFFFu;
      high += w >> 16;
    }
    total[j] += low;
    total[4 + j] += high;
  }
  __syncwarp();
}
// [histogram-columns-merge]

// [histogram-columns-atomic-update]
/// Variant 13's update: one fire-and-forget shared atomic on the lane's own word.
struct AtomicColumnUpdate {
  /// Counts byte value b in the column starting at mine.
  __device__ __forceinline__ static void byte(std::uint32_t* mine, std::uint32_t b) {
    atomicAdd(&mine[(b % kColumnRows) * 32], b < kColumnRows ? 1u : 0x10000u);
  }
  /// Counts the 16 bytes of v.
  __device__ __forceinline__ static void vector(std::uint32_t* mine, const uint4& v) {
    for_each_byte(v, [&](std::uint32_t b) { byte(mine, b); });
  }
};
// [histogram-columns-atomic-update]

// [histogram-columns-kernel]
/// Tiles of 16-byte vectors counted into per-lane columns of 16-bit counters with Update,
/// merged into registers every kColumnTilesPerMerge tiles, then one atomicAdd per bin and block.
template <typename Update, int Warps>
__global__ void __launch_bounds__(Warps * 32)
    histogram_lane_columns_kernel(VectorInput in, std::uint32_t* bins) {
  extern __shared__ std::uint32_t lane_columns[];
  __shared__ std::uint32_t block_bins[kBins];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  std::uint32_t* cols = lane_columns + warp * kColumnRows * 32;
  std::uint32_t* mine = cols + lane;
  for (int j = 0; j < kColumnRows; ++j) mine[j * 32] = 0;
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) block_bins[b] = 0;
  __syncthreads();

  std::uint32_t total[8] = {};
  int tiles = 0;
  const std::size_t warps = std::size_t(gridDim.x) * Warps;
  const std::size_t me = blockIdx.x * std::size_t(Warps) + warp;
  sweep_tiles<kTileVectors>(in, me, warps, [&](const uint4 (&v)[kTileVectors]) {
#pragma unroll
    for (int k = 0; k < kTileVectors; ++k) Update::vector(mine, v[k]);
    if (++tiles == kColumnTilesPerMerge) {
      columns16_merge(cols, lane, total);
      tiles = 0;
    }
  });
  sweep_rest<kTileVectors>(in, me, warps, [&](const uint4& v, bool active) {
    if (active) Update::vector(mine, v);
  });
  if (me == 0 && lane < in.tail_bytes) Update::byte(mine, in.tail[lane]);
  columns16_merge(cols, lane, total);

#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const int bin = lane + 32 * (k % 4) + kColumnRows * (k / 4);
    if (total[k] != 0) atomicAdd(&block_bins[bin], total[k]);
  }
  __syncthreads();
  merge_block(block_bins, bins);
}
// [histogram-columns-kernel]

/// Launches `histogram_lane_columns_kernel<Update, Warps>` on \p n bytes (n > 0).
template <typename Update, int Warps>
void launch_lane_columns(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                         Workspace& ws, cudaStream_t stream) {
  const int threads = Warps * 32;
  const VectorInput in = split_input(d_in, n);
  const int blocks =
      ws.grid(reinterpret_cast<const void*>(&histogram_lane_columns_kernel<Update, Warps>),
              threads, column_shared_bytes(Warps),
              ceil_div(in.count, std::size_t(threads) * kTileVectors));
  histogram_lane_columns_kernel<Update, Warps>
      <<<blocks, threads, column_shared_bytes(Warps), stream>>>(in, d_bins);
  HB_CHECK_LAUNCH();
}

/// Variants 13 and 14: blocks of kColumnWarps warps, or of half as many where the GPU grants a
/// block less shared memory (counter_block_warps()).
template <typename Update>
void launch_lane_columns(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                         Workspace& ws, cudaStream_t stream) {
  ws.require(d_in, n);
  zero_bins(d_bins, stream);
  if (n == 0) return;
  if (counter_block_warps(kColumnWarps) == kColumnWarps)
    launch_lane_columns<Update, kColumnWarps>(d_in, n, d_bins, ws, stream);
  else
    launch_lane_columns<Update, kColumnWarps / 2>(d_in, n, d_bins, ws, stream);
}

/// Variant 13's launcher (the chapter's Launcher signature).
void histogram_lane_columns_atomic(const std::uint8_t* d_in, std::size_t n,
                                   std::uint32_t* d_bins, Workspace& ws, cudaStream_t stream) {
  launch_lane_columns<AtomicColumnUpdate>(d_in, n, d_bins, ws, stream);
}

}  // namespace histo
