/// \file
/// \brief Chapter 13, block variant 5: warp shuffles (listing 13.18).
/* [changed]
Compared with variant 4: the block scan built on warp shuffles (listing 13.18): each warp scans
its values in registers with listing 13.17's predicated shuffle, one warp scans the warps'
totals the same way, and shared memory holds only 32 totals.
[changed] */
#pragma once

#include "../warp/05_shuffle_ptx.cuh"

namespace ch13 {

// [block5-scan]
/// Listing 13.18 (scanBlockShuffle): the scan of one value per thread over the block. Each
/// warp scans with listing 13.17's shuffles (warp variant 5), lane 31 leaves the warp's
/// total in shared memory, warp 0 scans the totals the same way, and each warp adds the
/// totals of the warps before it. The book
/// let lanes past the last warp read uninitialized shared memory (harmless for the result,
/// but not for initcheck); they read the identity here.
/// \param x this thread's value
/// \param warp_totals 32 elements of shared memory
/// \return this thread's inclusive and exclusive prefix and the block's total
/// \pre blockDim.x is a multiple of 32; every thread of the block calls it.
template <typename T>
__device__ BlockScanResult<T> scan_block_shuffle(T x, T* warp_totals) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  const unsigned warps = blockDim.x / 32;
  const T inclusive = warp_scan_ptx(x);
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    const T t = lane < warps ? warp_totals[lane] : T(0);
    warp_totals[lane] = warp_scan_ptx(t);
  }
  __syncthreads();
  const T base = warp > 0 ? warp_totals[warp - 1] : T(0);
  const BlockScanResult<T> result{base + inclusive, base + warp_exclusive_from_inclusive(inclusive),
                                  warp_totals[warps - 1]};
  __syncthreads();  // everyone has read before warp_totals is written again
  return result;
}
// [block5-scan]

/// The block-level test kernel of variant 5.
/// \param in n values
/// \param out n results
/// \param n how many
/// \param kind inclusive or exclusive
/// \param reps scans in a row
/// \pre blockDim.x is a multiple of 32.
template <typename T>
__global__ void block5_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  __shared__ T warp_totals[32];
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  T x = i < n ? in[i] : T(0);
  for (int r = 0; r < reps; ++r) {
    const BlockScanResult<T> s = scan_block_shuffle(x, warp_totals);
    x = kind == ScanKind::Inclusive ? s.inclusive : s.exclusive;
  }
  if (i < n) out[i] = x;
}

template <typename T>
void block5_shuffle(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                    cudaStream_t stream) {
  require_threads("block variant 5", BlockRule::MultipleOf32, threads);
  launch_per_tile(block5_kernel<T>, n, threads, threads, 0, stream, in, out, n, kind, reps);
}

}  // namespace ch13
