/// \file
/// \brief Histograms, variant 2: GPU naive: bins[b]++ on global memory (a race, a lesson).
/* [changed]
Compared with variant 1: the loop of the serial histogram is spread over one GPU thread per
byte, and each thread increments its bin in global memory with a plain `++`, as in the post's
`naive_histo`. The increment is a read, an add and a write: two threads that read the same bin
at the same time both write back the old count plus one, and one increment is lost. Its run
reports how many counts went missing; its check never calls it correct.
[changed] */
#pragma once

#include "common.h"

namespace histo {

// [histogram-naive-kernel]
/// One thread per byte; the race on `bins[b]` is the point of the lesson.
__global__ void histogram_naive_kernel(const std::uint8_t* in, std::size_t n,
                                       std::uint32_t* bins) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) bins[in[i]]++;  // read, add, write: not atomic
}
// [histogram-naive-kernel]

/// Variant 2's launcher (the chapter's Launcher signature).
void histogram_naive(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                     Workspace& ws, cudaStream_t stream) {
  ws.require(d_in, n);
  zero_bins(d_bins, stream);
  if (n == 0) return;
  const int threads = 256;
  histogram_naive_kernel<<<unsigned(ceil_div(n, threads)), threads, 0, stream>>>(d_in, n, d_bins);
  HB_CHECK_LAUNCH();
}

}  // namespace histo
