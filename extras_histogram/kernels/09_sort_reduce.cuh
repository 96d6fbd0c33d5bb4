/// \file
/// \brief Histograms, variant 9: method 3: sort the bytes, then reduce by key (CUB).
/* [changed]
Compared with variant 8: no histogram is kept while reading the input at all. The bytes are
sorted (CUB's radix sort, one 8-bit digit), which puts equal values next to each other; then a
reduction by key with every value 1 counts each run of equal keys (CUB's run-length encoding,
which is exactly that reduction); a last small kernel writes each run's count to the bin of its
key and zero to the bins no key reached. The sort moves the data several times (a pass to count
the digits, then a pass that reads every byte and writes it to its sorted place), and the
run-length pass reads it once more, so the method moves three to four times the bytes of a
single-pass histogram. It does not depend on the data, though, and it works for any number of
bins: it is how a histogram is made when the keys are too many for shared memory. CUB's
temporary storage and the sorted copy come from the Workspace, allocated before any timing.
[changed] */
#pragma once

#include <cub/cub.cuh>

#include "common.h"

namespace histo {

// [histogram-sort-scatter]
/// One block of kBins threads: zeroes the bins, then writes run i's count to bin keys[i].
__global__ void histogram_scatter_runs_kernel(const std::uint8_t* keys,
                                              const std::uint32_t* counts, const int* runs,
                                              std::uint32_t* bins) {
  const int b = threadIdx.x;
  bins[b] = 0;
  __syncthreads();  // orders the zeroes before the counts (a block's global writes)
  if (b < *runs) bins[keys[b]] = counts[b];
}
// [histogram-sort-scatter]

// [histogram-sort-reduce]
/// Variant 9's launcher (the chapter's Launcher signature).
void histogram_sort_reduce(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                           Workspace& ws, cudaStream_t stream) {
  ws.require(d_in, n);
  if (n == 0) {
    zero_bins(d_bins, stream);
    return;
  }
  const int count = int(n);  // n <= kMaxBytes = 2^30
  std::size_t bytes = 0;
  HB_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, d_in, ws.sorted(), count, 0, 8,
                                               stream));
  ws.require_cub(bytes, "cub::DeviceRadixSort::SortKeys");
  HB_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(ws.cub_storage(), bytes, d_in, ws.sorted(), count,
                                               0, 8, stream));
  bytes = 0;
  HB_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, bytes, ws.sorted(), ws.run_keys(),
                                                   ws.run_counts(), ws.run_count(), count,
                                                   stream));
  ws.require_cub(bytes, "cub::DeviceRunLengthEncode::Encode");
  HB_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(ws.cub_storage(), bytes, ws.sorted(),
                                                   ws.run_keys(), ws.run_counts(),
                                                   ws.run_count(), count, stream));
  histogram_scatter_runs_kernel<<<1, kBins, 0, stream>>>(ws.run_keys(), ws.run_counts(),
                                                         ws.run_count(), d_bins);
  HB_CHECK_LAUNCH();
}
// [histogram-sort-reduce]

}  // namespace histo
