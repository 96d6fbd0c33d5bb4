/// \file
/// \brief Histograms, variant 4: shared-memory bins per block, merged at the end.
/* [changed]
Compared with variant 3: each block counts into its own 256 bins in shared memory with
shared-memory atomics, which the SM executes itself, without a trip to L2; a block of threads
loops over the input (a grid-stride loop, as many blocks as fit on the GPU at once), and only at
the end adds its 256 counts to the global bins, one atomicAdd per bin and block. Contention for
one address now involves the threads of one block, not of the whole GPU, and the global atomics
drop from one per byte to 256 per block. This is privatization, the standard cure for the post's
method 1.
[changed] */
#pragma once

#include "common.h"

namespace histo {

// [histogram-shared-kernel]
/// Grid-stride loop, one byte per thread and step, counted with shared-memory atomics.
__global__ void histogram_shared_kernel(const std::uint8_t* in, std::size_t n,
                                        std::uint32_t* bins) {
  __shared__ std::uint32_t block_bins[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) block_bins[b] = 0;
  __syncthreads();

  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride)
    atomicAdd(&block_bins[in[i]], 1u);
  __syncthreads();

  merge_block(block_bins, bins);
}
// [histogram-shared-kernel]

/// Variant 4's launcher (the chapter's Launcher signature).
void histogram_shared_privatized(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                                 Workspace& ws, cudaStream_t stream) {
  ws.require(d_in, n);
  zero_bins(d_bins, stream);
  if (n == 0) return;
  const int threads = 256;
  const int blocks = ws.grid(reinterpret_cast<const void*>(&histogram_shared_kernel), threads, 0,
                             ceil_div(n, threads));
  histogram_shared_kernel<<<blocks, threads, 0, stream>>>(d_in, n, d_bins);
  HB_CHECK_LAUNCH();
}

}  // namespace histo
