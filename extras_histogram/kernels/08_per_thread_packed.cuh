/// \file
/// \brief Histograms, variant 8: method 2 with 8-bit counters packed in shared memory.
/* [changed]
Compared with variant 7: a thread's private histogram no longer lives in local memory but in
shared memory, and it shrinks from 1 KiB to 256 bytes: four 8-bit counters per 32-bit word, so
that a warp's 32 histograms take 8 KiB and 8 warps fit in a block. The words are laid out in
columns, word j of lane l at `cols[j * 32 + l]`: whatever bins the 32 lanes hit, each lane
touches its own bank, so a warp's update is one conflict-free shared-memory access, without
atomics and without contention, for any data. An 8-bit counter holds at most 255, so every 15
rounds of 16 bytes (240 bytes per lane) the warp stops and merges: lane l adds up rows l and l +
32 of all 32 columns (bins 4l..4l+3 and 128+4l..128+4l+3) into eight 32-bit registers and zeroes
them. The merge reads the columns diagonally (lane l reads column (l + s) % 32 at step s), so it
is conflict-free too. This replaces variant 7's reduction over all threads by a reduction over
32 lanes, in shared memory.
[changed] */
#pragma once

#include "common.h"

namespace histo {

/// Warps per block of variant 8 (8 KiB of counters each). A GPU that grants a block less than
/// kCounterBlockSharedBytes (Turing: 64 KiB in all) runs blocks of half as many.
constexpr int kPackedWarps = 8;
/// Words of 8-bit counters per lane: four bins per word.
constexpr int kPackedRows = kBins / 4;
/// Rounds of one 16-byte vector per lane between two merges: 15 x 16 = 240 <= 255.
constexpr int kPackedRoundsPerMerge = 255 / 16;
/// Dynamic shared memory of a block of \p warps warps of variant 8.
constexpr std::size_t packed_shared_bytes(int warps) {
  return std::size_t(warps) * kPackedRows * 32 * sizeof(std::uint32_t);
}
static_assert(packed_shared_bytes(kPackedWarps) + kBins * sizeof(std::uint32_t) ==
                  kCounterBlockSharedBytes,
              "the variant table declares this block's shared memory");

// [histogram-packed-merge]
/// Adds the warp's 8-bit counters into total and zeroes them. Lane l owns rows l and
/// l + 32: total[4h + k] counts bin 4 (l + 32 h) + k.
__device__ __forceinline__ void packed8_merge(std::uint32_t* cols, int lane,
                                              std::uint32_t (&total)[8]) {
  __syncwarp();  // every lane's updates are visible before anyone reads them
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    std::uint32_t* row = cols + (lane + 32 * h) * 32;
    // Two counters of each word in the 16-bit halves of `even`, two in `odd`: 32 x 255 fits.
    std::uint32_t even = 0, odd = 0;
#pragma unroll 8
    for (int s = 0; s < 32; ++s) {
      const int col = (lane + s) % 32;  // diagonal: 32 lanes, 32 different banks
      const std::uint32_t w = row[col];
      row[col] = 0;
      even += w & 0x00FF00FFu;
      odd += (w >> 8) & 0x00FF00FFu;
    }
    total[4 * h + 0] += even & 0xFFFFu;
    total[4 * h + 1] += odd & 0xFFFFu;
    total[4 * h + 2] += even >> 16;
    total[4 * h + 3] += odd >> 16;
  }
  __syncwarp();  // the zeroes are visible before the owners count again
}
// [histogram-packed-merge]

// [histogram-packed-kernel]
/// Warp-uniform rounds of one 16-byte vector per lane into the lane's packed column, a merge
/// every kPackedRoundsPerMerge rounds, then one atomicAdd per bin and block.
template <int Warps>
__global__ void __launch_bounds__(Warps * 32)
    histogram_packed8_kernel(VectorInput in, std::uint32_t* bins) {
  extern __shared__ std::uint32_t packed_columns[];
  __shared__ std::uint32_t block_bins[kBins];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  std::uint32_t* cols = packed_columns + warp * kPackedRows * 32;
  std::uint32_t* mine = cols + lane;  // this lane's column: word j at mine[j * 32]
  for (int j = 0; j < kPackedRows; ++j) mine[j * 32] = 0;
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) block_bins[b] = 0;
  __syncthreads();

  auto count = [&](std::uint32_t b) { mine[(b / 4) * 32] += 1u << (8 * (b % 4)); };
  std::uint32_t total[8] = {};
  // The loop is warp-uniform (`base` is lane 0's vector), so all lanes reach each merge.
  const std::size_t warps = std::size_t(gridDim.x) * Warps;
  int rounds = 0;
  for (std::size_t base = (blockIdx.x * std::size_t(Warps) + warp) * 32; base < in.count;
       base += warps * 32) {
    if (base + lane < in.count) for_each_byte(in.vectors[base + lane], count);
    if (++rounds == kPackedRoundsPerMerge) {
      packed8_merge(cols, lane, total);
      rounds = 0;
    }
  }
  // At most 14 rounds (224 bytes) since the last merge, plus one tail byte: below 255.
  if (blockIdx.x == 0 && warp == 0 && lane < in.tail_bytes) count(in.tail[lane]);
  packed8_merge(cols, lane, total);

#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const int bin = 4 * (lane + 32 * (k / 4)) + k % 4;
    if (total[k] != 0) atomicAdd(&block_bins[bin], total[k]);
  }
  __syncthreads();
  merge_block(block_bins, bins);
}
// [histogram-packed-kernel]

/// Launches `histogram_packed8_kernel<Warps>` on \p n bytes (n > 0).
template <int Warps>
void launch_packed8(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                    Workspace& ws, cudaStream_t stream) {
  const int threads = Warps * 32;
  const VectorInput in = split_input(d_in, n);
  const int blocks =
      ws.grid(reinterpret_cast<const void*>(&histogram_packed8_kernel<Warps>), threads,
              packed_shared_bytes(Warps), ceil_div(in.count, threads));
  histogram_packed8_kernel<Warps><<<blocks, threads, packed_shared_bytes(Warps), stream>>>(
      in, d_bins);
  HB_CHECK_LAUNCH();
}

/// Variant 8's launcher (the chapter's Launcher signature): blocks of kPackedWarps warps, or of
/// half as many where the GPU grants a block less shared memory (counter_block_warps()).
void histogram_per_thread_packed(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                                 Workspace& ws, cudaStream_t stream) {
  ws.require(d_in, n);
  zero_bins(d_bins, stream);
  if (n == 0) return;
  if (counter_block_warps(kPackedWarps) == kPackedWarps)
    launch_packed8<kPackedWarps>(d_in, n, d_bins, ws, stream);
  else
    launch_packed8<kPackedWarps / 2>(d_in, n, d_bins, ws, stream);
}

}  // namespace histo
