/// \file
/// \brief Histograms, variant 16: variant 13's columns, each count's address and increment made
///        by byte permutes.
/* [changed]
Compared with variant 15: back to variant 13, whose speed does not depend on the data, and we
cut the instructions it spends per byte. Variant 13's SASS takes, for each byte besides the
atomic, a shift and a mask to take the byte out of its word, an add for the lane's column, and
a test and a select for the half of the counter. Here the counters are laid out so that the byte
itself is most of its counter's address:
- the word that holds bins 2r and 2r + 1 for lane l of warp w is at byte 512 r + 128 w + 4 l of
  the block's counters; for a byte b (row r = b / 2) that is 256 x ((b & 0xFE) | (w >> 1)) +
  128 (w & 1) + 4 l: the byte with its lowest bit replaced by w >> 1, above a byte that belongs
  to the lane;
- the low half of the word counts both bins and the high half bin 2r + 1 alone, so the increment
  is 1 + ((b & 1) << 16), and the merge recovers bin 2r as the low half minus the high half.

For each word of four bytes, one mask makes the four row bytes and one the four odd bits; then
for each byte one `__byte_perm` (the PRMT instruction, which picks any four of the eight bytes
of two registers) sets the row byte above the lane's byte to make the address, a second sets
the odd bit in the high half of the increment, and the atomic counts. The lanes' columns keep
their own banks, the atomic still returns nothing, and the merge reads the same diagonals, in
rows of 128 words. Tiles are eight 16-byte vectors per lane instead of four: twice the bytes in
flight per warp, which this kernel, with fewer instructions to hide the loads behind, needs.

The rows interleave the four warps of a block, so the layout needs the block's whole 64 KiB:
where the GPU grants a block less (Turing), this variant runs variant 13's two-warp blocks.
[changed] */
#pragma once

#include "13_lane_columns_atomic.cuh"

namespace histo {

/// Warps per block of variants 16 and 17: their rows interleave four warps.
constexpr int kPermuteWarps = 4;
/// Words per row of their counters: the 32 lanes of each of the four warps.
constexpr int kPermuteRowWords = 32 * kPermuteWarps;
/// Vectors per lane and tile of variants 16 and 17.
constexpr int kPermuteTileVectors = 8;
/// Tiles between two merges: since the last merge a lane has counted at most
/// (kPermuteTilesPerMerge - 1) tiles, then the rest (at most one tile's worth) and one tail
/// byte: 510 x 128 + 128 + 1 = 65,409 <= 65,535 counts in a low half.
constexpr int kPermuteTilesPerMerge = 511;
static_assert(kPermuteTilesPerMerge * 16 * kPermuteTileVectors + 1 <= 65535,
              "a 16-bit counter could overflow between two merges");
static_assert(kColumnRows * kPermuteRowWords * sizeof(std::uint32_t) ==
                  column_shared_bytes(kPermuteWarps),
              "variant 16 keeps variant 13's 64 KiB of counters per block");

// [histogram-permute-update]
/// One lane's view of the block's counters: its word for byte value b is at byte offset
/// 256 x ((b & 0xFE) | (warp >> 1)) + lane_byte.
struct PermuteColumns {
  std::uint8_t* counters;   ///< the block's counters (shared memory)
  std::uint32_t lane_byte;  ///< 128 (warp & 1) + 4 lane: below 256
  std::uint32_t pair_bits;  ///< warp >> 1 in bit 0 of each of the four bytes

  /// Counts the four bytes of w.
  __device__ __forceinline__ void word(std::uint32_t w) const {
    const std::uint32_t rows = (w & 0xFEFEFEFEu) | pair_bits;  // byte k: (b_k & 0xFE) | (warp >> 1)
    const std::uint32_t odd = w & 0x01010101u;                  // byte k: b_k & 1
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      // Bytes [lane_byte, row byte k, 0, 0] (lowest first): the counter's byte offset.
      const std::uint32_t at = __byte_perm(rows, lane_byte, 0x5504u | (k << 4));
      // Bytes [1, 0, b_k & 1, 0]: one more in the low half, and in the high half if b_k is odd.
      const std::uint32_t inc = __byte_perm(odd, 1u, 0x5054u | (k << 8));
      atomicAdd(reinterpret_cast<std::uint32_t*>(counters + at), inc);
    }
  }
  /// Counts the byte value b alone (a tail byte).
  __device__ __forceinline__ void byte(std::uint32_t b) const {
    const std::uint32_t at = (((b & 0xFEu) | (pair_bits & 1u)) << 8) | lane_byte;
    atomicAdd(reinterpret_cast<std::uint32_t*>(counters + at), 1u + ((b & 1u) << 16));
  }
  /// Counts the 16 bytes of v.
  __device__ __forceinline__ void vector(const uint4& v) const {
    word(v.x);
    word(v.y);
    word(v.z);
    word(v.w);
  }
};
// [histogram-permute-update]

// [histogram-permute-kernel]
/// Variant 13's kernel on variant 16's layout, tiles of kPermuteTileVectors vectors per lane.
/// With Prefetch > 0 (variant 17) the warps also prefetch into L2 the tiles Prefetch rounds
/// ahead (sweep_tiles).
template <int Prefetch = 0>
__global__ void __launch_bounds__(kPermuteWarps * 32)
    histogram_permute_kernel(VectorInput in, std::uint32_t* bins) {
  extern __shared__ std::uint32_t counters[];  // kColumnRows rows of kPermuteRowWords words
  __shared__ std::uint32_t block_bins[kBins];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const PermuteColumns mine{reinterpret_cast<std::uint8_t*>(counters),
                            std::uint32_t(128 * (warp & 1) + 4 * lane),
                            0x01010101u * std::uint32_t(warp >> 1)};
  std::uint32_t* cols = counters + 32 * warp;  // this warp's row r: cols + kPermuteRowWords r
  for (int r = 0; r < kColumnRows; ++r) cols[r * kPermuteRowWords + lane] = 0;
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) block_bins[b] = 0;
  __syncthreads();

  std::uint32_t total[8] = {};  // total[j]: bins 2r and 2r + 1, total[4 + j]: bin 2r + 1
  int tiles = 0;
  const std::size_t warps = std::size_t(gridDim.x) * kPermuteWarps;
  const std::size_t me = blockIdx.x * std::size_t(kPermuteWarps) + warp;
  constexpr int U = kPermuteTileVectors;
  sweep_tiles<U, Prefetch>(in, me, warps, [&](const uint4 (&v)[U]) {
#pragma unroll
    for (int k = 0; k < U; ++k) mine.vector(v[k]);
    if (++tiles == kPermuteTilesPerMerge) {
      columns16_merge<kPermuteRowWords>(cols, lane, total);
      tiles = 0;
    }
  });
  sweep_rest<U>(in, me, warps, [&](const uint4& v, bool active) {
    if (active) mine.vector(v);
  });
  if (me == 0 && lane < in.tail_bytes) mine.byte(in.tail[lane]);
  columns16_merge<kPermuteRowWords>(cols, lane, total);

#pragma unroll
  for (int j = 0; j < 4; ++j) {  // the lane's rows r = lane + 32 j
    const int r = lane + 32 * j;
    if (total[j] != total[4 + j]) atomicAdd(&block_bins[2 * r], total[j] - total[4 + j]);
    if (total[4 + j] != 0) atomicAdd(&block_bins[2 * r + 1], total[4 + j]);
  }
  __syncthreads();
  merge_block(block_bins, bins);
}
// [histogram-permute-kernel]

/// Launches `histogram_permute_kernel<Prefetch>` on \p n bytes, or variant 13's two-warp blocks
/// where the GPU grants a block less than kCounterBlockSharedBytes (Turing).
template <int Prefetch>
void launch_permute(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                    Workspace& ws, cudaStream_t stream) {
  if (counter_block_warps(kPermuteWarps) != kPermuteWarps) {
    histogram_lane_columns_atomic(d_in, n, d_bins, ws, stream);
    return;
  }
  ws.require(d_in, n);
  zero_bins(d_bins, stream);
  if (n == 0) return;
  const int threads = kPermuteWarps * 32;
  const VectorInput in = split_input(d_in, n);
  const int blocks =
      ws.grid(reinterpret_cast<const void*>(&histogram_permute_kernel<Prefetch>), threads,
              column_shared_bytes(kPermuteWarps),
              ceil_div(in.count, std::size_t(threads) * kPermuteTileVectors));
  histogram_permute_kernel<Prefetch>
      <<<blocks, threads, column_shared_bytes(kPermuteWarps), stream>>>(in, d_bins);
  HB_CHECK_LAUNCH();
}

/// Variant 16's launcher (the chapter's Launcher signature).
void histogram_lane_columns_permute(const std::uint8_t* d_in, std::size_t n,
                                    std::uint32_t* d_bins, Workspace& ws, cudaStream_t stream) {
  launch_permute<0>(d_in, n, d_bins, ws, stream);
}

}  // namespace histo
