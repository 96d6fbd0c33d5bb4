/// \file
/// \brief Chapter 13, warp variant 2: shared memory, zero-padded (listing 13.14).
/* [changed]
Compared with variant 1: zero padding (section 13.5.1, listing 13.14). 16 zeros precede each
warp's values in shared memory, so every lane can read 1 to 16 places to its left, and the lanes
near 0 add zeros: the lane test and its divergence go away.
[changed] */
#pragma once

#include "../common.h"

namespace ch13 {

// [warp2-scan]
/// Listing 13.14: the inclusive warp scan over a zero-padded layout. No lane tests: a lane
/// that reaches past lane 0 reads one of the 16 zeros in front of the warp's values.
/// \param s this lane's slot; the 16 slots before lane 0's slot hold zeros
/// \return this lane's inclusive prefix (also left in *s)
/// \pre all 32 lanes of the warp call it, and every lane's value is in its slot.
template <typename T>
__device__ __forceinline__ T warp_scan_zero_padded(T* s) {
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const T neighbor = s[-offset];
    __syncwarp();
    s[0] += neighbor;
    __syncwarp();
  }
  return s[0];
}
// [warp2-scan]

// [warp2-index]
/// Figure 13.15: warp w's 32 values start at 49 w + 16, after 16 zeros; 49 words per warp
/// are 16 zeros, 32 values and one spare word (the book's numbers).
/// \param tid the thread's index in the block
__host__ __device__ constexpr int zero_padded_index(int tid) { return 49 * (tid / 32) + 16 + tid % 32; }
/// Shared memory of a zero-padded block of \p threads threads (a multiple of 32).
/// \param threads the block size
template <typename T>
__host__ __device__ constexpr int zero_padded_bytes(int threads) {
  return 49 * (threads / 32) * static_cast<int>(sizeof(T));
}
// [warp2-index]

/// The warp-level test kernel of variant 2.
/// \param in n values
/// \param out n results
/// \param n how many
/// \param kind inclusive or exclusive (lane i reads the slot before its own: a zero for lane 0)
/// \param reps scans in a row
/// \pre blockDim.x is a multiple of 32; dynamic shared memory holds zero_padded_bytes().
template <typename T>
__global__ void warp2_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  T* s = dynamic_shared<T>() + zero_padded_index(threadIdx.x);
  if (lane_id() < 16) s[-16] = T(0);  // the warp's padding
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  T x = i < n ? in[i] : T(0);
  for (int r = 0; r < reps; ++r) {
    *s = x;
    __syncwarp();
    const T inclusive = warp_scan_zero_padded(s);
    const T exclusive = s[-1];
    __syncwarp();
    x = kind == ScanKind::Inclusive ? inclusive : exclusive;
  }
  if (i < n) out[i] = x;
}

template <typename T>
void warp2_zero_padded(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                       cudaStream_t stream) {
  require_threads("warp variant 2", BlockRule::MultipleOf32, threads);
  launch_per_tile(warp2_kernel<T>, n, threads, threads, zero_padded_bytes<T>(threads), stream, in,
                  out, n, kind, reps);
}

}  // namespace ch13
