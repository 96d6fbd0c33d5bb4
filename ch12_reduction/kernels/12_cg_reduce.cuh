/// \file
/// \brief Chapter 12, variant 12: cooperative groups' cg::reduce, int4 loads, single pass.
/* [changed]
Compared with variant 11b: back to variant 11a's kernel, with its hand-written warp and block
reductions written with cooperative groups, the CUDA Toolkit's library for naming groups of
threads (the book predates it). The block is a `cg::thread_block`, its warps are tiles of 32
threads from `cg::tiled_partition<32>`, and each tile adds its values with one call,
`cg::reduce(tile, v, cg::plus<long long>())`; `block.sync()` replaces `__syncthreads()`. The
tile says which threads take part, so there is no mask to get wrong, and the library picks the
instructions for the type and the GPU: for our 64-bit sums that is the same butterfly of
shuffles as variant 9's loop. Loads, grid and ticket are 11a's, so the two should run at the
same speed. Block sizes are powers of two from 32 to 1024.
[changed] */
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "11a_vectorized.cuh"

namespace ch12 {

namespace cg = cooperative_groups;

// [reduction12-block]
/// The sum of \p v over the block, in thread 0: each tile of 32 threads reduces with
/// cg::reduce, and the first tile reduces the tiles' sums.
template <int kThreads>
__device__ __forceinline__ long long cg_block_sum(const cg::thread_block& block, long long v) {
  __shared__ long long tile_sums[kThreads / 32];
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  v = cg::reduce(tile, v, cg::plus<long long>());
  if (tile.thread_rank() == 0) tile_sums[tile.meta_group_rank()] = v;
  block.sync();
  v = 0;
  if (tile.meta_group_rank() == 0) {
    if (tile.thread_rank() < tile.meta_group_size()) v = tile_sums[tile.thread_rank()];
    v = cg::reduce(tile, v, cg::plus<long long>());
  }
  block.sync();  // tile_sums may be written again by the next call
  return v;
}
// [reduction12-block]

// [reduction12-kernel]
/// Variant 11a's single pass with the block sums of cg_block_sum.
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    reduction12_kernel(const int* in, std::size_t n, long long* out, long long* partial,
                       unsigned* retirement_count) {
  const cg::thread_block block = cg::this_thread_block();
  const long long sum = cg_block_sum<kThreads>(block, vectorized_thread_sum<kThreads>(in, n));
  if (gridDim.x == 1) {
    if (block.thread_rank() == 0) *out = sum;
    return;
  }
  __shared__ bool last_block;
  if (block.thread_rank() == 0) {
    partial[blockIdx.x] = sum;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*retirement_count);
    last_block = ticket.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  block.sync();
  if (last_block) {
    long long total = 0;
    for (unsigned b = block.thread_rank(); b < gridDim.x; b += kThreads) total += partial[b];
    total = cg_block_sum<kThreads>(block, total);
    if (block.thread_rank() == 0) {
      *out = total;
      *retirement_count = 0;
    }
  }
}
// [reduction12-kernel]

template <int kThreads>
void reduction12_template(const int* in, std::size_t n, long long* out, Scratch& scratch,
                          cudaStream_t stream) {
  static int per_sm = 0;
  const int blocks = vectorized_blocks(reduction12_kernel<kThreads>, kThreads, n, scratch, per_sm);
  reduction12_kernel<kThreads><<<blocks, kThreads, 0, stream>>>(
      in, n, out, scratch.partials_a<long long>(blocks), scratch.ticket());
  HB_CHECK_LAUNCH();
}

void reduce12_cg_reduce(const int* in, std::size_t n, long long* out, int threads,
                        Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 12", BlockRule::PowerOfTwoFrom32, threads);
  hb::with_power_of_two<32, 1024>(
      threads, [&](auto t) { reduction12_template<t.value>(in, n, out, scratch, stream); });
}

}  // namespace ch12
