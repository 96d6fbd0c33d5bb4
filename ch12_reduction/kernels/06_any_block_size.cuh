/// \file
/// \brief Chapter 12, variant 6: any block size (listing 12.8).
/* [changed]
Compared with variant 5: back to two passes and shared memory, but any block size from 1 to 1024
works, not only powers of two (listing 12.8, derived from variant 1). Before the halving loop,
the threads above the largest power of two not exceeding the block size (`floorPow2`) add their
values into the lower part; from there on the loop is variant 1's.
[changed] */
#pragma once

#include "reduction.h"

namespace ch12 {

// [reduction6-kernel]
/// Listing 12.8: variant 1's kernel for any block size.
template <typename T>
__global__ void reduction6_kernel(long long* out, const T* in, std::size_t n) {
  long long* partials = dynamic_shared<long long>();
  const unsigned tid = threadIdx.x;
  long long sum = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid; i < n;
       i += std::size_t(blockDim.x) * gridDim.x) {
    sum += in[i];
  }
  partials[tid] = sum;
  __syncthreads();

  // Start the halving loop at the largest power of two <= blockDim.x. If the block size is
  // not a power of two, first fold the values above that power of two into the range below.
  unsigned floor_pow2 = blockDim.x;
  if (floor_pow2 & (floor_pow2 - 1)) {
    while (floor_pow2 & (floor_pow2 - 1)) floor_pow2 &= floor_pow2 - 1;  // clear lowest set bit
    if (tid >= floor_pow2) partials[tid - floor_pow2] += partials[tid];
    __syncthreads();
  }
  for (unsigned active = floor_pow2 >> 1; active > 0; active >>= 1) {
    if (tid < active) partials[tid] += partials[tid + active];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partials[0];
}
// [reduction6-kernel]

void reduce6_any_block_size(const int* in, std::size_t n, long long* out, int threads,
                            Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 6", BlockRule::Any, threads);
  const int blocks = grid_stride_blocks(n, threads, scratch);
  long long* partial = scratch.partials_a<long long>(blocks);
  const std::size_t shared = threads * sizeof(long long);
  reduction6_kernel<int><<<blocks, threads, shared, stream>>>(partial, in, n);
  HB_CHECK_LAUNCH();
  reduction6_kernel<long long><<<1, threads, shared, stream>>>(out, partial, blocks);
  HB_CHECK_LAUNCH();
}

}  // namespace ch12
