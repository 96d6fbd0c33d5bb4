/// \file
/// \brief Chapter 12, variant 4: single pass, last block adds the partials (listings 12.5, 12.6).
/* [changed]
Compared with variant 3: one kernel launch instead of two (listings 12.5 and 12.6). Every block
writes its partial sum, makes it visible to the whole GPU with a memory fence and takes a ticket
from a global counter with `atomicAdd`; the block that draws the last ticket knows all partials
are written and adds them itself. That block also resets the counter to zero, so the next call
(often the very next launch) starts clean.
[changed] */
/* [notes]
The book fences only on the writing side. In today's memory model a fence pairs with a fence:
the last block must also fence after it has seen the last ticket and before it reads the
partials, or it may read stale values. We add that fence. The counter lives in the caller's
Scratch instead of a `__device__` global, so that two reductions running at the same time in
different streams do not share it.
[notes] */
#pragma once

#include "reduction.h"

namespace ch12 {

// [reduction4-log-step]
/// Listing 12.5: the unrolled log-step reduction of variant 3 as a device function, so that
/// the kernel can use it twice. Thread 0 writes the block's sum to out.
template <unsigned kThreads>
__device__ void reduction4_log_step_shared(long long* out, long long* partials) {
  const unsigned tid = threadIdx.x;
  if (kThreads >= 1024) {
    if (tid < 512) partials[tid] += partials[tid + 512];
    __syncthreads();
  }
  if (kThreads >= 512) {
    if (tid < 256) partials[tid] += partials[tid + 256];
    __syncthreads();
  }
  if (kThreads >= 256) {
    if (tid < 128) partials[tid] += partials[tid + 128];
    __syncthreads();
  }
  if (kThreads >= 128) {
    if (tid < 64) partials[tid] += partials[tid + 64];
    __syncthreads();
  }
  constexpr unsigned kMask = kThreads >= 32 ? 0xffffffffu : (1u << (kThreads % 32)) - 1u;
  if (tid < 32) {
    if (kThreads >= 64) partials[tid] += partials[tid + 32];
    __syncwarp(kMask);
    if (kThreads >= 32 && tid < 16) partials[tid] += partials[tid + 16];
    __syncwarp(kMask);
    if (kThreads >= 16 && tid < 8) partials[tid] += partials[tid + 8];
    __syncwarp(kMask);
    if (kThreads >= 8 && tid < 4) partials[tid] += partials[tid + 4];
    __syncwarp(kMask);
    if (kThreads >= 4 && tid < 2) partials[tid] += partials[tid + 2];
    __syncwarp(kMask);
    if (kThreads >= 2 && tid < 1) partials[tid] += partials[tid + 1];
    if (tid == 0) *out = partials[0];
  }
}
// [reduction4-log-step]

// [reduction4-kernel]
/// Listing 12.6: a single-pass reduction. The last block to finish adds the partial sums.
template <unsigned kThreads>
__global__ void __launch_bounds__(kThreads)
    reduction4_kernel(long long* out, long long* partial, const int* in, std::size_t n,
                      unsigned* retirement_count) {
  long long* partials = dynamic_shared<long long>();
  const unsigned tid = threadIdx.x;
  long long sum = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * kThreads + tid; i < n;
       i += std::size_t(kThreads) * gridDim.x) {
    sum += in[i];
  }
  partials[tid] = sum;
  __syncthreads();

  if (gridDim.x == 1) {
    reduction4_log_step_shared<kThreads>(out, partials);
    return;
  }
  reduction4_log_step_shared<kThreads>(&partial[blockIdx.x], partials);

  __shared__ bool last_block;
  // Thread 0 wrote this block's partial; the fence makes it visible to every block before
  // the ticket that announces it.
  __threadfence();
  if (tid == 0) {
    const unsigned ticket = atomicAdd(retirement_count, 1u);
    // The acquiring half of the pair (not in the book): the partials we are about to read
    // were published before their tickets.
    __threadfence();
    last_block = (ticket == gridDim.x - 1);
  }
  __syncthreads();

  if (last_block) {
    long long total = 0;
    for (std::size_t i = tid; i < gridDim.x; i += kThreads) total += partial[i];
    partials[tid] = total;
    __syncthreads();
    reduction4_log_step_shared<kThreads>(out, partials);
    if (tid == 0) *retirement_count = 0;
  }
}
// [reduction4-kernel]

template <unsigned kThreads>
void reduction4_template(const int* in, std::size_t n, long long* out, Scratch& scratch,
                         cudaStream_t stream) {
  const int blocks = grid_stride_blocks(n, kThreads, scratch);
  long long* partial = scratch.partials_a<long long>(blocks);
  reduction4_kernel<kThreads><<<blocks, kThreads, kThreads * sizeof(long long), stream>>>(
      out, partial, in, n, scratch.ticket());
  HB_CHECK_LAUNCH();
}

/// One launch; the block size picks one of eleven instantiations, as in variant 3.
void reduce4_single_pass(const int* in, std::size_t n, long long* out, int threads,
                         Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 4", BlockRule::PowerOfTwo, threads);
  hb::with_power_of_two<1, 1024>(
      threads, [&](auto t) { reduction4_template<t.value>(in, n, out, scratch, stream); });
}

}  // namespace ch12
