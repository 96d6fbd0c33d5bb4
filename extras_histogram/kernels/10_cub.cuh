/// \file
/// \brief Histograms, variant 10: CUB DeviceHistogram::HistogramEven (the library reference).
/* [changed]
Compared with variant 9: we hand the whole problem to the CUDA Toolkit's own histogram, 257
evenly spaced levels 0, 1, ..., 256 for 256 bins of width one. CUB tunes its kernel per
architecture; for one 8-bit channel on sm_90 (CCCL 3.0, `tuning_histogram.cuh`) it runs blocks
of 768 threads, each thread loading 12 samples four at a time, keeps one privatized histogram
per block in shared memory, maps each sample to its bin with the general arithmetic of evenly
spaced levels, counts with shared-memory atomics (its run-length option is off for this case)
and merges the blocks' bins into the output with global atomics, after a kernel of its own has
zeroed them. Every row of the tables is measured against this one ("% of CUB"), on the same
buffer in the same run. Its temporary storage comes from the Workspace.
[changed] */
#pragma once

#include <cub/cub.cuh>

#include "common.h"

namespace histo {

// [histogram-cub]
/// Variant 10's launcher (the chapter's Launcher signature).
void histogram_cub(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins, Workspace& ws,
                   cudaStream_t stream) {
  ws.require(d_in, n);
  if (n == 0) {
    zero_bins(d_bins, stream);
    return;
  }
  std::size_t bytes = 0;
  HB_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, d_in, d_bins, kBins + 1, 0,
                                                    kBins, int(n), stream));
  ws.require_cub(bytes, "cub::DeviceHistogram::HistogramEven");
  HB_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(ws.cub_storage(), bytes, d_in, d_bins,
                                                    kBins + 1, 0, kBins, int(n), stream));
}
// [histogram-cub]

}  // namespace histo
