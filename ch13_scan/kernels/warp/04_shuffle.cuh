/// \file
/// \brief Chapter 13, warp variant 4: __shfl_up_sync (listing 13.17).
/* [changed]
Compared with variant 3: registers instead of shared memory (section 13.5.3, listing 13.17).
`__shfl_up_sync(mask, v, d)` returns the v of the lane d places down; each of the five steps is
one shuffle and an add for the lanes at or above d. No shared memory and no `__syncwarp()`. The
book's `__shfl_up` without a mask no longer exists.
[changed] */
#pragma once

#include "../common.h"

namespace ch13 {

// [warp4-scan]
/// Listing 13.17 in C++: the inclusive scan of \p x over the lanes of a warp, in registers.
/// \tparam kLevels scan steps: 5 scans all 32 lanes, fewer scan the first 2^kLevels lanes
///         (the second level of listing 13.18 needs only log2(warps) steps)
/// \param x this lane's value
/// \return this lane's inclusive prefix
/// \pre all 32 lanes of the warp call it.
template <int kLevels = 5, typename T>
__device__ __forceinline__ T warp_scan_shuffle(T x) {
  const unsigned lane = lane_id();
#pragma unroll
  for (int level = 0; level < kLevels; ++level) {
    const int offset = 1 << level;
    const T neighbor = __shfl_up_sync(kFullMask, x, offset);
    if (lane >= offset) x += neighbor;
  }
  return x;
}
// [warp4-scan]

/// The exclusive prefix from the inclusive one: lane i takes lane i-1's, lane 0 the identity.
/// \param inclusive this lane's inclusive prefix
/// \pre all 32 lanes of the warp call it.
template <typename T>
__device__ __forceinline__ T warp_exclusive_from_inclusive(T inclusive) {
  const T left = __shfl_up_sync(kFullMask, inclusive, 1);
  return lane_id() > 0 ? left : T(0);
}

/// The warp-level test kernel of variant 4.
/// \param in n values
/// \param out n results
/// \param n how many
/// \param kind inclusive or exclusive
/// \param reps scans in a row
/// \pre blockDim.x is a multiple of 32.
template <typename T>
__global__ void warp4_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  T x = i < n ? in[i] : T(0);
  for (int r = 0; r < reps; ++r) {
    const T inclusive = warp_scan_shuffle(x);
    x = kind == ScanKind::Inclusive ? inclusive : warp_exclusive_from_inclusive(inclusive);
  }
  if (i < n) out[i] = x;
}

template <typename T>
void warp4_shuffle(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                   cudaStream_t stream) {
  require_threads("warp variant 4", BlockRule::MultipleOf32, threads);
  launch_per_tile(warp4_kernel<T>, n, threads, threads, 0, stream, in, out, n, kind, reps);
}

}  // namespace ch13
