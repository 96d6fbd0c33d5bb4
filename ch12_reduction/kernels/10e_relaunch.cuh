/// \file
/// \brief Chapter 12, variant 10e: two per thread, host relaunches until one block (blog 3).
/* [changed]
Compared with variant 10d: each thread loads two elements instead of one, so no thread idles in
the first step and a block covers twice the input (the third blog post). The host launches the
same kernel again on the block sums until a single block produces the result, as 10a to 10d
already did, and the kernel is a template on the input and sum types: the table's row sums int32
into long long (exact), and the blog's own case, double into double, is tested too. Block sizes
are powers of two from 32 to 1024.
[changed] */
/* [notes]
The blog wrote each block's sum back into the input array, at index blockIdx.x, while other
blocks of the same launch may still be reading that index: block 1 overwrites element 1, which
block 0 reads. Blocks run in no guaranteed order, so that is a race. We write each level's sums
to a separate buffer, two buffers taking turns.
[notes] */
#pragma once

#include <algorithm>

#include "reduction.h"

namespace ch12 {

// [reduction10e-kernel]
/// The third blog post's kernel: block b reduces elements [2 b B, 2 b B + 2 B) of in
/// (B = blockDim.x), two per thread, into out[b].
template <typename In, typename Acc>
__global__ void reduction10e_kernel(const In* in, std::size_t n, Acc* out) {
  Acc* partial_sum = dynamic_shared<Acc>();
  const unsigned t = threadIdx.x;
  const std::size_t i = 2 * std::size_t(blockIdx.x) * blockDim.x + t;
  partial_sum[t] = i < n ? static_cast<Acc>(in[i]) : Acc(0);
  partial_sum[t + blockDim.x] = i + blockDim.x < n ? static_cast<Acc>(in[i + blockDim.x]) : Acc(0);
  __syncthreads();
  for (unsigned stride = blockDim.x; stride >= 1; stride /= 2) {
    if (t < stride) partial_sum[t] += partial_sum[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial_sum[0];
}
// [reduction10e-kernel]

// [reduction10e-launch]
/// The host loop: one launch per level until one block remains.
template <typename In, typename Acc>
void reduce10e_typed(const In* in, std::size_t n, Acc* out, int threads, Scratch& scratch,
                     cudaStream_t stream) {
  require_threads("variant 10e", BlockRule::PowerOfTwoFrom32, threads);
  const std::size_t per_block = 2 * std::size_t(threads);
  const std::size_t shared = per_block * sizeof(Acc);
  std::size_t blocks = std::max<std::size_t>(1, ceil_div(n, per_block));
  if (blocks == 1) {
    reduction10e_kernel<In, Acc><<<1, threads, shared, stream>>>(in, n, out);
    HB_CHECK_LAUNCH();
    return;
  }
  Acc* buffers[2] = {scratch.partials_a<Acc>(blocks),
                     scratch.partials_b<Acc>(ceil_div(blocks, per_block))};
  reduction10e_kernel<In, Acc><<<static_cast<unsigned>(blocks), threads, shared, stream>>>(
      in, n, buffers[0]);
  HB_CHECK_LAUNCH();
  for (int k = 0; blocks > 1; ++k) {
    const std::size_t count = blocks;
    blocks = ceil_div(count, per_block);
    Acc* dst = blocks == 1 ? out : buffers[(k + 1) % 2];
    reduction10e_kernel<Acc, Acc><<<static_cast<unsigned>(blocks), threads, shared, stream>>>(
        buffers[k % 2], count, dst);
    HB_CHECK_LAUNCH();
  }
}
// [reduction10e-launch]

void reduce10e_relaunch(const int* in, std::size_t n, long long* out, int threads,
                        Scratch& scratch, cudaStream_t stream) {
  reduce10e_typed<int, long long>(in, n, out, threads, scratch, stream);
}

template void reduce10e_typed<int, long long>(const int*, std::size_t, long long*, int, Scratch&,
                                              cudaStream_t);
template void reduce10e_typed<double, double>(const double*, std::size_t, double*, int, Scratch&,
                                              cudaStream_t);

}  // namespace ch12
