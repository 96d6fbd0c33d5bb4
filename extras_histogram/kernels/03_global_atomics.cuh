/// \file
/// \brief Histograms, variant 3: method 1: one global atomicAdd per byte.
/* [changed]
Compared with variant 2: the `++` becomes `atomicAdd(&bins[b], 1)`, so the read, the add and the
write of one increment happen as one indivisible operation in the L2 cache and no count is lost.
The cost is contention: all increments of one bin queue at one address, so the more bytes share
a bin, the slower it gets; all-equal bytes serialize every increment of the whole input at a
single L2 address.
[changed] */
#pragma once

#include "common.h"

namespace histo {

// [histogram-global-atomics-kernel]
/// One thread per byte, one global atomic per byte.
__global__ void histogram_global_atomics_kernel(const std::uint8_t* in, std::size_t n,
                                                std::uint32_t* bins) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) atomicAdd(&bins[in[i]], 1u);
}
// [histogram-global-atomics-kernel]

/// Variant 3's launcher (the chapter's Launcher signature).
void histogram_global_atomics(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                              Workspace& ws, cudaStream_t stream) {
  ws.require(d_in, n);
  zero_bins(d_bins, stream);
  if (n == 0) return;
  const int threads = 256;
  histogram_global_atomics_kernel<<<unsigned(ceil_div(n, threads)), threads, 0, stream>>>(
      d_in, n, d_bins);
  HB_CHECK_LAUNCH();
}

}  // namespace histo
