/// \file
/// \brief Histograms, variant 7: method 2: a private histogram per thread, then a reduction.
/* [changed]
Compared with variant 6: no atomics at all while counting. Every thread owns 256 counters that
no other thread touches (an array in the thread's local memory, as in the post), so the plain
`++` of variant 2 is safe again. The price is the merge: with T threads there are T histograms,
256 T counters, to add up. The first kernel writes each thread's counters to global memory,
bin-major (`partials[b * T + t]`, so a warp's stores are coalesced); the second is chapter 12's
reduction, one block per bin: a grid-stride sum per thread, warp shuffles, then one warp over
the warps' sums, and one plain store per bin. We cap T so that each thread counts at least 1
KiB: the partials then take at most as many bytes as the input (written once, and read once by
the reduction). Local memory is per thread but lives in L1 and L2: the counters of a warp's 32
lanes for 32 different bins are 32 different cache lines, so each `++` is a scattered
read-modify-write that waits for the one before it.
[changed] */
#pragma once

#include "common.h"

namespace histo {

/// Threads per block of variant 7's counting kernel.
constexpr int kPerThreadBlock = 128;
/// Each thread of variant 7 counts at least this many 16-byte vectors.
constexpr std::size_t kPerThreadMinVectors = 64;

// [histogram-per-thread-count]
/// Each thread counts its grid-stride share of the input into a private array, then stores it
/// into column t of the bin-major partials.
__global__ void __launch_bounds__(kPerThreadBlock)
    histogram_per_thread_count_kernel(VectorInput in, std::uint32_t* partials) {
  std::uint32_t counts[kBins];  // dynamically indexed: the compiler puts it in local memory
  for (int b = 0; b < kBins; ++b) counts[b] = 0;

  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t t = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  for (std::size_t i = t; i < in.count; i += threads)
    for_each_byte(in.vectors[i], [&](std::uint32_t b) { ++counts[b]; });
  if (t < std::size_t(in.tail_bytes)) ++counts[in.tail[t]];

  for (int b = 0; b < kBins; ++b) partials[b * threads + t] = counts[b];
}
// [histogram-per-thread-count]

// [histogram-per-thread-reduce]
/// Block b adds row b of the partials (chapter 12: grid-stride sums, then warp shuffles) and
/// writes bin b.
__global__ void histogram_per_thread_reduce_kernel(const std::uint32_t* partials,
                                                   std::size_t threads, std::uint32_t* bins) {
  const uint4* row = reinterpret_cast<const uint4*>(partials + blockIdx.x * threads);
  std::uint32_t sum = 0;
  for (std::size_t i = threadIdx.x; i < threads / 4; i += blockDim.x) {
    const uint4 v = row[i];
    sum += v.x + v.y + v.z + v.w;
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset);

  __shared__ std::uint32_t warp_sums[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < int(blockDim.x / 32) ? warp_sums[lane] : 0;
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset);
    if (lane == 0) bins[blockIdx.x] = sum;
  }
}
// [histogram-per-thread-reduce]

/// Variant 7's launcher (the chapter's Launcher signature).
void histogram_per_thread(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                          Workspace& ws, cudaStream_t stream) {
  ws.require(d_in, n);
  if (n == 0) {
    zero_bins(d_bins, stream);
    return;
  }
  const VectorInput in = split_input(d_in, n);
  int blocks = ws.grid(reinterpret_cast<const void*>(&histogram_per_thread_count_kernel),
                       kPerThreadBlock, 0,
                       ceil_div(in.count, kPerThreadBlock * kPerThreadMinVectors));
  blocks = int(std::min<std::size_t>(blocks, ws.max_partial_threads() / kPerThreadBlock));
  const std::size_t threads = std::size_t(blocks) * kPerThreadBlock;
  std::uint32_t* partials = ws.partials(threads);
  histogram_per_thread_count_kernel<<<blocks, kPerThreadBlock, 0, stream>>>(in, partials);
  HB_CHECK_LAUNCH();
  histogram_per_thread_reduce_kernel<<<kBins, 256, 0, stream>>>(partials, threads, d_bins);
  HB_CHECK_LAUNCH();
}

}  // namespace histo
