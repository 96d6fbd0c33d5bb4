/// \file
/// \brief Chapter 12, variant 8b: count of x > 0 with __ballot_sync and __popc (section 12.7).
/* [changed]
Compared with variant 8a: the count happens per warp instead of per block, with no barrier in
the loop. `__ballot_sync(mask, p)` gives every lane a 32-bit word with one bit per lane whose p
is true, and `__popc` counts its bits: a 32-to-1 reduction in two instructions. Each warp walks
its own 32-element tiles; lane 0 keeps the warp's count, the warps of a block add their counts
in shared memory, and variant 1's second pass adds the blocks' counts. The block size must be a
multiple of 32 (whole warps). `__ballot` without `_sync` no longer exists: the mask names the
lanes that take part.
[changed] */
#pragma once

#include "01_two_pass.cuh"
#include "07_reduction_ops.h"

namespace ch12 {

// [reduction8b-kernel]
/// Counts the elements of in for which pred holds, warp by warp; one count per block.
template <typename T, typename Pred>
__global__ void reduction8b_kernel(long long* out, const T* in, std::size_t n, Pred pred) {
  __shared__ long long warp_counts[32];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  long long count = 0;
  // The loop bound depends only on the warp's tile, so all 32 lanes run each __ballot_sync.
  const std::size_t stride = std::size_t(blockDim.x) * gridDim.x;
  for (std::size_t tile = std::size_t(blockIdx.x) * blockDim.x + warp * 32; tile < n;
       tile += stride) {
    const std::size_t i = tile + lane;
    const unsigned votes = __ballot_sync(0xffffffffu, i < n && pred(in[i]));
    count += __popc(votes);
  }
  if (lane == 0) warp_counts[warp] = count;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long total = 0;
    for (unsigned w = 0; w < blockDim.x / 32; ++w) total += warp_counts[w];
    out[blockIdx.x] = total;
  }
}
// [reduction8b-kernel]

template <typename T, typename Pred>
void count8b_ballot(const T* in, std::size_t n, long long* out, int threads, Scratch& scratch,
                    cudaStream_t stream) {
  require_threads("variant 8b", BlockRule::MultipleOf32, threads);
  const int blocks = grid_stride_blocks(n, threads, scratch);
  long long* partial = scratch.partials_a<long long>(blocks);
  reduction8b_kernel<<<blocks, threads, 0, stream>>>(partial, in, n, Pred{});
  HB_CHECK_LAUNCH();
  reduction1_kernel<long long><<<1, 256, 256 * sizeof(long long), stream>>>(out, partial, blocks);
  HB_CHECK_LAUNCH();
}

void reduce8b_ballot(const int* in, std::size_t n, long long* out, int threads,
                     Scratch& scratch, cudaStream_t stream) {
  count8b_ballot<int, IsPositive>(in, n, out, threads, scratch, stream);
}

template void count8b_ballot<int, IsPositive>(const int*, std::size_t, long long*, int, Scratch&,
                                              cudaStream_t);
template void count8b_ballot<int, IsOdd>(const int*, std::size_t, long long*, int, Scratch&,
                                         cudaStream_t);
template void count8b_ballot<float, IsPositive>(const float*, std::size_t, long long*, int,
                                                Scratch&, cudaStream_t);

}  // namespace ch12
