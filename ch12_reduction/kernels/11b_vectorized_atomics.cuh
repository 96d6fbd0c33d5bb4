/// \file
/// \brief Chapter 12, variant 11b: int4 loads, single pass, one atomic per block.
/* [changed]
Compared with variant 11a: the blocks add their sums into one 64-bit accumulator with a global
atomic (variant 5's idea, but one atomic per block instead of one per thread), so the last block
reads no partials: it only takes the total and leaves the accumulator at zero with one
`atomicExch`. The accumulator lives in the caller's Scratch and is zero between calls, so unlike
variant 5 there is no memset before the kernel: still one launch. The ticket is still needed, to
know when the total is complete.
[changed] */
#pragma once

#include "11a_vectorized.cuh"

namespace ch12 {

// [reduction11b-kernel]
/// Single pass, vectorized loads, one atomic per block into a self-resetting accumulator.
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    reduction11b_kernel(const int* in, std::size_t n, long long* out, long long* accumulator,
                        unsigned* retirement_count) {
  const long long sum = block_reduce_sum(vectorized_thread_sum<kThreads>(in, n));
  if (threadIdx.x != 0) return;
  if (gridDim.x == 1) {
    *out = sum;
    return;
  }
  auto* acc = reinterpret_cast<unsigned long long*>(accumulator);
  atomicAdd(acc, static_cast<unsigned long long>(sum));
  // The release half orders our atomicAdd before our ticket; the acquire half lets the last
  // block see every other block's atomicAdd.
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*retirement_count);
  if (ticket.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1) {
    *out = static_cast<long long>(atomicExch(acc, 0ull));
    *retirement_count = 0;
  }
}
// [reduction11b-kernel]

template <int kThreads>
void reduction11b_template(const int* in, std::size_t n, long long* out, Scratch& scratch,
                           cudaStream_t stream) {
  static int per_sm = 0;
  const int blocks = vectorized_blocks(reduction11b_kernel<kThreads>, kThreads, n, scratch, per_sm);
  reduction11b_kernel<kThreads><<<blocks, kThreads, 0, stream>>>(in, n, out, scratch.accumulator(),
                                                                 scratch.ticket());
  HB_CHECK_LAUNCH();
}

void reduce11b_vectorized_atomics(const int* in, std::size_t n, long long* out, int threads,
                                  Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 11b", BlockRule::PowerOfTwoFrom32, threads);
  hb::with_power_of_two<32, 1024>(
      threads, [&](auto t) { reduction11b_template<t.value>(in, n, out, scratch, stream); });
}

}  // namespace ch12
