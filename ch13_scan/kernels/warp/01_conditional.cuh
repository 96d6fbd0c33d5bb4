/// \file
/// \brief Chapter 13, warp variant 1: shared memory, lane tests (listing 13.13).
/* [changed]
Compared with variant 0: listing 13.13, the warp scan of the Kogge-Stone circuit (figure 13.11)
in shared memory. In five steps each lane adds the value 1, 2, 4, 8 and 16 places to its left,
if its lane is at least that far from lane 0. The book ran the 32 lanes without any
synchronization (warp-synchronous code through a `volatile` pointer); since Volta the lanes of a
warp may run apart, so each step reads, synchronizes with `__syncwarp()`, writes, and
synchronizes again.
[changed] */
#pragma once

#include "../common.h"

namespace ch13 {

// [warp1-scan]
/// Listing 13.13: the inclusive scan of a warp's 32 values, which lie in consecutive
/// shared-memory slots. Each step first reads the neighbor, then (after every lane has
/// read) adds it into its own slot: the book's `sPartials[0] += sPartials[-1]`, split where
/// a lane could otherwise read a slot its neighbor is writing.
/// \param s this lane's slot; lane 0's slot is s[-lane]
/// \return this lane's inclusive prefix (also left in *s)
/// \pre all 32 lanes of the warp call it, and every lane's value is in its slot.
template <typename T>
__device__ __forceinline__ T warp_scan_conditional(T* s) {
  const unsigned lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const T neighbor = lane >= offset ? s[-offset] : T(0);
    __syncwarp();  // every lane has read before any lane writes
    if (lane >= offset) s[0] += neighbor;
    __syncwarp();  // every write is visible before the next step reads
  }
  return s[0];
}
// [warp1-scan]

/// The warp-level test kernel of variant 1.
/// \param in n values
/// \param out n results
/// \param n how many
/// \param kind inclusive or exclusive (lane i reads lane i-1's inclusive prefix)
/// \param reps scans in a row
/// \pre blockDim.x is a multiple of 32; dynamic shared memory holds blockDim.x elements.
template <typename T>
__global__ void warp1_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  T* s = dynamic_shared<T>() + threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  T x = i < n ? in[i] : T(0);
  for (int r = 0; r < reps; ++r) {
    *s = x;
    __syncwarp();
    const T inclusive = warp_scan_conditional(s);
    const T exclusive = lane_id() > 0 ? s[-1] : T(0);
    __syncwarp();  // every lane has read before the next repetition writes
    x = kind == ScanKind::Inclusive ? inclusive : exclusive;
  }
  if (i < n) out[i] = x;
}

template <typename T>
void warp1_conditional(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                       cudaStream_t stream) {
  require_threads("warp variant 1", BlockRule::MultipleOf32, threads);
  launch_per_tile(warp1_kernel<T>, n, threads, threads, threads * sizeof(T), stream, in, out, n,
                  kind, reps);
}

}  // namespace ch13
