/// \file
/// \brief Chapter 12, variant 9: warp shuffles, single pass (section 12.8).
/* [changed]
Compared with variant 8b: the warp-level idea of the ballot carries over from bits to values
(section 12.8). `__shfl_xor_sync(mask, v, k)` hands each lane the value of the lane whose index
differs in bit k; five such butterfly steps (k = 16, 8, 4, 2, 1) leave the warp's sum in every
lane, from registers, with no shared memory and no barrier. A block then needs shared memory
only for one value per warp and two barriers. We use this block reduction in variant 4's
single-pass structure; the ticket is taken with `cuda::atomic_ref::fetch_add` in acquire-release
order, the modern spelling of variant 4's pair of fences. The block size must be a multiple of
32.
[changed] */
#pragma once

#include <cuda/atomic>

#include "reduction.h"

namespace ch12 {

// [reduction9-warp]
/// The sum of v over the 32 lanes of the warp, in every lane (butterfly reduction,
/// figure 12.2). The book's `__shfl_xor` without a mask no longer exists.
__device__ __forceinline__ long long warp_reduce_sum(long long v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

/// The sum of v over the block, valid in thread 0. Each warp reduces with shuffles, lane 0
/// of each warp leaves the warp's sum in shared memory, and warp 0 reduces those.
__device__ __forceinline__ long long block_reduce_sum(long long v) {
  __shared__ long long warp_sums[32];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  v = warp_reduce_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  v = 0;
  if (warp == 0) {
    if (lane < blockDim.x / 32) v = warp_sums[lane];
    v = warp_reduce_sum(v);
  }
  __syncthreads();  // warp_sums may be written again by the next call
  return v;
}
// [reduction9-warp]

// [reduction9-kernel]
/// Single pass with shuffles: each block reduces its grid-stride share, and the block that
/// takes the last ticket adds the blocks' partial sums and resets the counter.
__global__ void reduction9_kernel(long long* out, long long* partial, const int* in,
                                  std::size_t n, unsigned* retirement_count) {
  long long sum = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(blockDim.x) * gridDim.x) {
    sum += in[i];
  }
  sum = block_reduce_sum(sum);
  if (gridDim.x == 1) {
    if (threadIdx.x == 0) *out = sum;
    return;
  }

  __shared__ bool last_block;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = sum;
    // Release: our partial is visible before our ticket. Acquire: if ours is the last
    // ticket, every other block's partial is visible to us (and, after the barrier below,
    // to every thread of this block).
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*retirement_count);
    last_block = ticket.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();
  if (last_block) {
    long long total = 0;
    for (std::size_t i = threadIdx.x; i < gridDim.x; i += blockDim.x) total += partial[i];
    total = block_reduce_sum(total);
    if (threadIdx.x == 0) {
      *out = total;
      *retirement_count = 0;
    }
  }
}
// [reduction9-kernel]

void reduce9_shuffle(const int* in, std::size_t n, long long* out, int threads,
                     Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 9", BlockRule::MultipleOf32, threads);
  const int blocks = grid_stride_blocks(n, threads, scratch);
  reduction9_kernel<<<blocks, threads, 0, stream>>>(out, scratch.partials_a<long long>(blocks),
                                                    in, n, scratch.ticket());
  HB_CHECK_LAUNCH();
}

}  // namespace ch12
