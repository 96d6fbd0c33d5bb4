/// \file
/// \brief Chapter 12, variant 10d: log step in shared memory (blog 2, int32 wraps).
/* [changed]
Compared with variant 10c: the same halving steps, but each block first copies its elements into
shared memory and does every step there (the second blog post's parallel_shared_reduce_kernel).
Global memory is read once per element and written once per block. Together with 10c this
measures the blog's prediction that the global-memory version needs three times the bandwidth.
[changed] */
#pragma once

#include "10a_neighbored.cuh"

namespace ch12 {

// [reduction10d-kernel]
/// The second blog post's parallel_shared_reduce_kernel: one element per thread, staged in
/// shared memory, then variant 1's halving order.
template <typename Out>
__global__ void reduction10d_kernel(const int* in, std::size_t n, Out* out, int* /*work*/) {
  unsigned* s = dynamic_shared<unsigned>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;
  s[tid] = i < n ? static_cast<unsigned>(in[i]) : 0u;
  __syncthreads();
  for (unsigned active = blockDim.x / 2; active > 0; active >>= 1) {
    if (tid < active) s[tid] += s[tid + active];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = static_cast<Out>(static_cast<int>(s[0]));
}
// [reduction10d-kernel]

void reduce10d_shared_memory(const int* in, std::size_t n, long long* out, int threads,
                             Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 10d", BlockRule::PowerOfTwoFrom32, threads);
  relaunch_until_one_block(reduction10d_kernel<int>, reduction10d_kernel<long long>, in, n, out,
                           threads, threads * sizeof(int), nullptr, scratch, stream);
}

}  // namespace ch12
