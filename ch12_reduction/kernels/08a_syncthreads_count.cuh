/// \file
/// \brief Chapter 12, variant 8a: count of x > 0 with __syncthreads_count (section 12.7).
/* [changed]
Compared with variant 7: the inputs are predicates, true or false, and the reduction counts the
true ones (section 12.7). A predicate needs one bit, and the hardware reduces one bit per thread
across a whole block in one instruction: `__syncthreads_count(p)` is a barrier that returns to
every thread how many threads of the block passed a non-zero p. The block steps through the
input one tile of blockDim.x elements at a time, thread 0 keeps the running count, and variant
1's second pass adds the blocks' counts. No shared memory of our own; any block size works. The
table's row counts the positive inputs.
[changed] */
#pragma once

#include "01_two_pass.cuh"
#include "07_reduction_ops.h"

namespace ch12 {

// [reduction8a-kernel]
/// Counts the elements of in for which pred holds; one count per block.
template <typename T, typename Pred>
__global__ void reduction8a_kernel(long long* out, const T* in, std::size_t n, Pred pred) {
  long long count = 0;
  // The loop runs over tiles, the same number of times in every thread of the block, because
  // every thread must reach each __syncthreads_count.
  const std::size_t stride = std::size_t(blockDim.x) * gridDim.x;
  for (std::size_t tile = std::size_t(blockIdx.x) * blockDim.x; tile < n; tile += stride) {
    const std::size_t i = tile + threadIdx.x;
    count += __syncthreads_count(i < n && pred(in[i]));
  }
  if (threadIdx.x == 0) out[blockIdx.x] = count;
}
// [reduction8a-kernel]

template <typename T, typename Pred>
void count8a_syncthreads_count(const T* in, std::size_t n, long long* out, int threads,
                               Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 8a", BlockRule::Any, threads);
  const int blocks = grid_stride_blocks(n, threads, scratch);
  long long* partial = scratch.partials_a<long long>(blocks);
  reduction8a_kernel<<<blocks, threads, 0, stream>>>(partial, in, n, Pred{});
  HB_CHECK_LAUNCH();
  // Variant 1's kernel adds the counts; it wants a power-of-two block.
  reduction1_kernel<long long><<<1, 256, 256 * sizeof(long long), stream>>>(out, partial, blocks);
  HB_CHECK_LAUNCH();
}

void reduce8a_syncthreads_count(const int* in, std::size_t n, long long* out, int threads,
                                Scratch& scratch, cudaStream_t stream) {
  count8a_syncthreads_count<int, IsPositive>(in, n, out, threads, scratch, stream);
}

template void count8a_syncthreads_count<int, IsPositive>(const int*, std::size_t, long long*, int,
                                                         Scratch&, cudaStream_t);
template void count8a_syncthreads_count<int, IsOdd>(const int*, std::size_t, long long*, int,
                                                    Scratch&, cudaStream_t);
template void count8a_syncthreads_count<float, IsPositive>(const float*, std::size_t, long long*,
                                                           int, Scratch&, cudaStream_t);

}  // namespace ch12
