/// \file
/// \brief Chapter 13, block variant 0: CUB BlockScan, the reference.
/* [changed]
Variant 0 is the reference of the block level: CUB's `cub::BlockScan` (its warp-scans
algorithm), checked against the CPU scan of each tile. The block-level test kernel gives each
block one tile of consecutive elements (zeros past the end of the input), scans it, and writes
it back.
[changed] */
#pragma once

#include <cub/block/block_scan.cuh>

#include "../common.h"

namespace ch13 {

// [block0-kernel]
/// The block-level test kernel around `cub::BlockScan`: each block scans its tile of
/// kThreads elements \p reps times.
/// \tparam kThreads the block size
/// \param in n values
/// \param out n results
/// \param n how many
/// \param kind inclusive or exclusive
/// \param reps scans in a row
template <typename T, int kThreads>
__global__ void __launch_bounds__(kThreads)
    block0_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  using BlockScan = cub::BlockScan<T, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename BlockScan::TempStorage temp;
  const std::size_t i = std::size_t(blockIdx.x) * kThreads + threadIdx.x;
  T x = i < n ? in[i] : T(0);
  for (int r = 0; r < reps; ++r) {
    if (kind == ScanKind::Inclusive) {
      BlockScan(temp).InclusiveSum(x, x);
    } else {
      BlockScan(temp).ExclusiveSum(x, x);
    }
    __syncthreads();  // temp is reused by the next repetition
  }
  if (i < n) out[i] = x;
}
// [block0-kernel]

template <typename T, int kThreads>
void block0_launch(const T* in, T* out, std::size_t n, ScanKind kind, int reps, cudaStream_t stream) {
  launch_per_tile(block0_kernel<T, kThreads>, n, kThreads, kThreads, 0, stream, in, out, n, kind, reps);
}

template <typename T>
void block0_cub(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                cudaStream_t stream) {
  switch (threads) {
    case 32: return block0_launch<T, 32>(in, out, n, kind, reps, stream);
    case 64: return block0_launch<T, 64>(in, out, n, kind, reps, stream);
    case 128: return block0_launch<T, 128>(in, out, n, kind, reps, stream);
    case 256: return block0_launch<T, 256>(in, out, n, kind, reps, stream);
    case 512: return block0_launch<T, 512>(in, out, n, kind, reps, stream);
    case 1024: return block0_launch<T, 1024>(in, out, n, kind, reps, stream);
    default: require_threads("block variant 0", BlockRule::PowerOfTwoFrom32, threads);  // throws
  }
}

}  // namespace ch13
