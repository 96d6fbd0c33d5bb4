/// \file
/// \brief Chapter 12, variant 10c: log step in global memory (blog 2, int32 wraps).
///
/// Whether the prediction holds on a GPU with a 50 MB L2 cache (the H100 of our measurements) is
/// what the measurement is for: the in-place steps touch data the block has just written, which
/// the L2 still holds.
/* [changed]
Compared with variant 10b: the halving order of variant 1 (thread t adds t + active), but done
in global memory instead of shared memory, like the second blog post's parallel_reduce_kernel.
The first step reads the block's input and writes half as many sums to a work array; every later
step reads and writes that array in place. Counting bytes as the blog does, a block of B
elements reads B + B/2 + B/4 + ... = 2B and writes B/2 + B/4 + ... = B values: 3B accesses
to global memory against B for variant 10d, which stages the block in shared memory, so
the blog predicts three times the traffic. The kernel must not modify its input (the launchers
take `const int*`), hence the separate work array. Sums are int32 with wrap-around, as in 10a.
[changed] */
#pragma once

#include "10a_neighbored.cuh"

namespace ch12 {

// [reduction10c-kernel]
/// The second blog post's parallel_reduce_kernel: a log-step reduction in global memory.
template <typename Out>
__global__ void reduction10c_kernel(const int* in, std::size_t n, Out* out, int* work) {
  const unsigned tid = threadIdx.x;
  const unsigned half = blockDim.x / 2;
  unsigned* w = reinterpret_cast<unsigned*>(work) + std::size_t(blockIdx.x) * half;
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;
  if (tid < half) {
    const unsigned a = i < n ? static_cast<unsigned>(in[i]) : 0u;
    const unsigned b = i + half < n ? static_cast<unsigned>(in[i + half]) : 0u;
    w[tid] = a + b;
  }
  // __syncthreads() also orders global memory between the threads of a block.
  __syncthreads();
  for (unsigned active = half / 2; active > 0; active >>= 1) {
    if (tid < active) w[tid] += w[tid + active];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = static_cast<Out>(static_cast<int>(w[0]));
}
// [reduction10c-kernel]

void reduce10c_global_memory(const int* in, std::size_t n, long long* out, int threads,
                             Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 10c", BlockRule::PowerOfTwoFrom32, threads);
  int* work = scratch.work(std::max<std::size_t>(1, ceil_div(n, threads)) * (threads / 2));
  relaunch_until_one_block(reduction10c_kernel<int>, reduction10c_kernel<long long>, in, n, out,
                           threads, 0, work, scratch, stream);
}

}  // namespace ch12
