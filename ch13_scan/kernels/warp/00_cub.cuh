/// \file
/// \brief Chapter 13, warp variant 0: CUB WarpScan, the reference.
/* [changed]
Variant 0 is the reference of the warp level: CUB's `cub::WarpScan`, checked against the CPU
scan of each 32-element segment. The warp-level test kernel gives each warp 32 consecutive
elements (zeros past the end of the input), scans them, and writes them back.
[changed] */
#pragma once

#include <cub/warp/warp_scan.cuh>

#include "../common.h"

namespace ch13 {

// [warp0-kernel]
/// The warp-level test kernel around `cub::WarpScan`: each warp scans its 32 elements
/// \p reps times.
/// \param in n values
/// \param out n results
/// \param n how many
/// \param kind inclusive or exclusive
/// \param reps scans in a row
/// \pre blockDim.x is a multiple of 32 and at most 1024.
template <typename T>
__global__ void warp0_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  using WarpScan = cub::WarpScan<T>;
  __shared__ typename WarpScan::TempStorage temp[32];
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  T x = i < n ? in[i] : T(0);
  for (int r = 0; r < reps; ++r) {
    WarpScan scan(temp[threadIdx.x / 32]);
    if (kind == ScanKind::Inclusive) {
      scan.InclusiveSum(x, x);
    } else {
      scan.ExclusiveSum(x, x);
    }
  }
  if (i < n) out[i] = x;
}
// [warp0-kernel]

template <typename T>
void warp0_cub(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
               cudaStream_t stream) {
  require_threads("warp variant 0", BlockRule::MultipleOf32, threads);
  launch_per_tile(warp0_kernel<T>, n, threads, threads, 0, stream, in, out, n, kind, reps);
}

}  // namespace ch13
