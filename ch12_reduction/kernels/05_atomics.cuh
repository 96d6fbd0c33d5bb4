/// \file
/// \brief Chapter 12, variant 5: global atomics (listing 12.7).
/* [changed]
Compared with variant 4: no shared memory, no partials and no ticket (listing 12.7). Every
thread adds its grid-stride share of the input and then adds that sum to the output with one
global `atomicAdd`, "fire and forget". The output must be zero before the kernel starts, and the
kernel cannot do that itself (its blocks cannot agree on who goes first), so the launcher clears
it with `cudaMemsetAsync` first: two operations per call. Any block size works.
[changed] */
/* [notes]
All atomics go to one address, where the L2 cache applies them one after another: with as many
threads as fit on the GPU, that is a few hundred thousand atomics per call. The block-size sweep
shows what they cost; variant 11b keeps the atomics but sends one per block.
[notes] */
#pragma once

#include "reduction.h"

namespace ch12 {

// [reduction5-kernel]
/// Listing 12.7: each thread adds its share of in to out with a global atomic.
__global__ void reduction5_kernel(long long* out, const int* in, std::size_t n) {
  long long sum = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(blockDim.x) * gridDim.x) {
    sum += in[i];
  }
  // 64-bit atomicAdd exists for unsigned long long; two's-complement addition gives the
  // same bits for signed values.
  atomicAdd(reinterpret_cast<unsigned long long*>(out), static_cast<unsigned long long>(sum));
}

void reduce5_atomics(const int* in, std::size_t n, long long* out, int threads,
                     Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 5", BlockRule::Any, threads);
  HB_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(long long), stream));
  reduction5_kernel<<<grid_stride_blocks(n, threads, scratch), threads, 0, stream>>>(out, in, n);
  HB_CHECK_LAUNCH();
}
// [reduction5-kernel]

}  // namespace ch12
