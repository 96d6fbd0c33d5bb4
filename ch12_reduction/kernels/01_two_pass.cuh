/// \file
/// \brief Chapter 12, variant 1: two passes, shared-memory log step (listing 12.1).
///
/// We sum into long long so that no int32 sum can overflow. The kernel is a template on the
/// input type only so that the second pass can read the 64-bit partials.
/* [changed]
Compared with variant 0: instead of calling a library we write the reduction ourselves, as in
listing 12.1, which holds both the kernel and the host function that launches it (the text
says listing 12.2 shows the host function; 12.2 is the warp-synchronous kernel of variant 2).
One kernel is launched twice. In the first pass each thread adds the
elements at its index plus multiples of the grid's width (coalesced loads), the block adds its
threads' sums in shared memory in log<sub>2</sub>(`blockDim.x`) halving steps, and writes one partial sum per
block. The second pass runs the same kernel with a single block over those partials. The block
size must be a power of two.
[changed] */
#pragma once

#include "reduction.h"

namespace ch12 {

// [reduction1-kernel]
/// One pass of listing 12.1: block b writes the sum of its grid-stride share of in to
/// out[b].
template <typename T>
__global__ void reduction1_kernel(long long* out, const T* in, std::size_t n) {
  long long* partials = dynamic_shared<long long>();
  const unsigned tid = threadIdx.x;
  long long sum = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid; i < n;
       i += std::size_t(blockDim.x) * gridDim.x) {
    sum += in[i];
  }
  partials[tid] = sum;
  __syncthreads();

  // Log-step reduction in shared memory: the upper half is added to the lower half, and the
  // number of active threads halves each step until partials[0] holds the block's sum.
  for (unsigned active = blockDim.x >> 1; active > 0; active >>= 1) {
    if (tid < active) partials[tid] += partials[tid + active];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partials[0];
}
// [reduction1-kernel]

// [reduction1-launch]
/// Listing 12.1's host function: the first pass with as many blocks as fit on the GPU, the
/// second with one block. The partial sums live in the caller's scratch memory.
void reduce1_two_pass(const int* in, std::size_t n, long long* out, int threads,
                      Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 1", BlockRule::PowerOfTwo, threads);
  const int blocks = grid_stride_blocks(n, threads, scratch);
  long long* partial = scratch.partials_a<long long>(blocks);
  const std::size_t shared = threads * sizeof(long long);
  reduction1_kernel<int><<<blocks, threads, shared, stream>>>(partial, in, n);
  HB_CHECK_LAUNCH();
  reduction1_kernel<long long><<<1, threads, shared, stream>>>(out, partial, blocks);
  HB_CHECK_LAUNCH();
}
// [reduction1-launch]

}  // namespace ch12
