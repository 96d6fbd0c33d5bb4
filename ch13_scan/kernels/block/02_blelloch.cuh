/// \file
/// \brief Chapter 13, block variant 2: Blelloch up-sweep/down-sweep (13.2, scan post).
/* [changed]
Compared with variant 1: Blelloch's work-efficient up-sweep and down-sweep (section 13.2): each
thread handles two elements, the tree of partial sums is built in place and pushed back down.
About half the additions, but twice the steps and barriers.
[changed] */
#pragma once

#include "../common.h"

namespace ch13 {

// [block2-scan]
/// Blelloch's exclusive scan of the 2 blockDim.x elements at \p s, in place. The up-sweep
/// (figures 13.2, 13.3) adds pairs at growing distances, leaving partial sums at the nodes
/// of a balanced tree; the root is replaced by the identity; the down-sweep (figures 13.4,
/// 13.5) hands each node's value to its left child and the sum of that value and the left
/// child's old value to its right child.
/// \param s 2 blockDim.x elements of shared memory, the block's values
/// \return the block's total (s then holds the exclusive scan)
/// \pre blockDim.x is a power of two; every thread of the block calls it; the values are
///      in s before the call (the first step's barrier makes them visible).
template <typename T>
__device__ T block_scan_blelloch(T* s) {
  const unsigned tid = threadIdx.x;
  const unsigned n = 2 * blockDim.x;
  unsigned offset = 1;
  for (unsigned d = n / 2; d > 0; d /= 2) {  // up-sweep
    __syncthreads();
    if (tid < d) {
      const unsigned left = offset * (2 * tid + 1) - 1;
      const unsigned right = offset * (2 * tid + 2) - 1;
      s[right] += s[left];
    }
    offset *= 2;
  }
  __syncthreads();
  const T total = s[n - 1];
  __syncthreads();  // everyone has read the total before it is cleared
  if (tid == 0) s[n - 1] = T(0);
  for (unsigned d = 1; d < n; d *= 2) {  // down-sweep
    offset /= 2;
    __syncthreads();
    if (tid < d) {
      const unsigned left = offset * (2 * tid + 1) - 1;
      const unsigned right = offset * (2 * tid + 2) - 1;
      const T t = s[left];
      s[left] = s[right];
      s[right] += t;
    }
  }
  __syncthreads();
  return total;
}
// [block2-scan]

/// The block-level test kernel of variant 2: each block scans a tile of 2 blockDim.x
/// elements (thread t loads elements t and t + blockDim.x, coalesced).
/// \param in n values
/// \param out n results
/// \param n how many
/// \param kind inclusive or exclusive
/// \param reps scans in a row
/// \pre blockDim.x is a power of two; dynamic shared memory holds 2 blockDim.x elements.
template <typename T>
__global__ void block2_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  T* s = dynamic_shared<T>();
  const unsigned b = blockDim.x;
  const std::size_t first = std::size_t(blockIdx.x) * 2 * b + threadIdx.x;
  T x0 = first < n ? in[first] : T(0);
  T x1 = first + b < n ? in[first + b] : T(0);
  for (int r = 0; r < reps; ++r) {
    s[threadIdx.x] = x0;
    s[threadIdx.x + b] = x1;
    block_scan_blelloch(s);
    const T e0 = s[threadIdx.x];
    const T e1 = s[threadIdx.x + b];
    __syncthreads();  // everyone has read before the next repetition writes
    x0 = kind == ScanKind::Inclusive ? e0 + x0 : e0;
    x1 = kind == ScanKind::Inclusive ? e1 + x1 : e1;
  }
  if (first < n) out[first] = x0;
  if (first + b < n) out[first + b] = x1;
}

template <typename T>
void block2_blelloch(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                     cudaStream_t stream) {
  require_threads("block variant 2", BlockRule::PowerOfTwoFrom32, threads);
  launch_per_tile(block2_kernel<T>, n, 2 * std::size_t(threads), threads, 2 * threads * sizeof(T),
                  stream, in, out, n, kind, reps);
}

}  // namespace ch13
