/// \file
/// \brief Chapter 13, block variant 1: Hillis-Steele, double-buffered (scan post).
/* [changed]
Compared with variant 0: the Hillis-Steele scan of a block in shared memory with two buffers
(the scan post): one step per doubling of the distance, 8 for 256 threads; in each, every thread
reads from one buffer and writes the other, so no thread overwrites a value another still has to
read, and one barrier per step suffices.
[changed] */
#pragma once

#include "../common.h"

namespace ch13 {

// [block1-scan]
/// The step-efficient block scan (Hillis and Steele; the Kogge-Stone circuit of figure
/// 13.11 over a whole block) with double-buffered shared memory. In step s every thread at
/// or above s adds the value s places to its left; reads come from one buffer, writes go to
/// the other, and the two swap roles after the step's barrier.
/// \param x this thread's value
/// \param buffers 2 blockDim.x elements of shared memory
/// \return this thread's inclusive and exclusive prefix and the block's total
/// \pre every thread of the block calls it.
template <typename T>
__device__ BlockScanResult<T> block_scan_hillis_steele(T x, T* buffers) {
  const unsigned tid = threadIdx.x;
  const unsigned size = blockDim.x;
  T* read = buffers;
  T* write = buffers + size;
  read[tid] = x;
  __syncthreads();
  for (unsigned stride = 1; stride < size; stride *= 2) {
    T v = read[tid];
    if (tid >= stride) v += read[tid - stride];
    write[tid] = v;
    __syncthreads();
    T* swap = read;
    read = write;
    write = swap;
  }
  const BlockScanResult<T> result{read[tid], tid > 0 ? read[tid - 1] : T(0), read[size - 1]};
  __syncthreads();  // everyone has read before the buffers are used again
  return result;
}
// [block1-scan]

/// The block-level test kernel of variant 1.
/// \param in n values
/// \param out n results
/// \param n how many
/// \param kind inclusive or exclusive
/// \param reps scans in a row
/// \pre dynamic shared memory holds 2 blockDim.x elements.
template <typename T>
__global__ void block1_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  T* buffers = dynamic_shared<T>();
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  T x = i < n ? in[i] : T(0);
  for (int r = 0; r < reps; ++r) {
    const BlockScanResult<T> s = block_scan_hillis_steele(x, buffers);
    x = kind == ScanKind::Inclusive ? s.inclusive : s.exclusive;
  }
  if (i < n) out[i] = x;
}

template <typename T>
void block1_hillis_steele(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                          cudaStream_t stream) {
  require_threads("block variant 1", BlockRule::MultipleOf32, threads);
  launch_per_tile(block1_kernel<T>, n, threads, threads, 2 * threads * sizeof(T), stream, in, out,
                  n, kind, reps);
}

}  // namespace ch13
