/// \file
/// \brief Chapter 12, variant 10a: neighbored pairs, divergent (blog 1, int32 wraps).
/* [changed]
Compared with variant 9: we step back to the first blog post's kernel to see why the book pairs
values the way it does. Each thread loads one element into shared memory, and in step k the
threads whose index is a multiple of 2<sup>k+1</sup> add their neighbor 2<sup>k</sup> to the right (interleaved
pairs, `tid % (2 * stride) == 0`). Half the threads idle in the first step, three quarters in
the second, and the busy ones are spread over every warp, so every warp stays resident and
diverges. Like the blog we add int into int, so this row computes the sum modulo 2<sup>32</sup>. The blog
added the block sums on the host; we relaunch the same kernel on the block sums until one block
remains. Block sizes are powers of two from 32 to 1024.
[changed] */
/* [notes]
The blog's kernel also returned early in threads past the end of the input, before a
`__syncthreads()` that the rest of the block still reached: a barrier that not every thread of
the block reaches is undefined behavior. We pad the last block with zeros.
[notes] */
#pragma once

#include <algorithm>

#include "reduction.h"

namespace ch12 {

/// A kernel of one level of the relaunching blog variants (10a to 10d): block b reduces its
/// blockDim.x elements of \p in into out[b]; \p work is scratch for variant 10c.
template <typename Out>
using LevelKernel = void (*)(const int* in, std::size_t n, Out* out, int* work);

// [reduction10a-relaunch]
/// Launches level until one block remains, then last, which writes the 64-bit output.
/// Level k reads what level k-1 wrote; the two scratch buffers take turns.
void relaunch_until_one_block(LevelKernel<int> level, LevelKernel<long long> last, const int* in,
                              std::size_t n, long long* out, int threads, std::size_t shared,
                              int* work, Scratch& scratch, cudaStream_t stream) {
  const std::size_t first = std::max<std::size_t>(1, ceil_div(n, threads));
  int* buffers[2] = {scratch.partials_a<int>(first),
                     scratch.partials_b<int>(ceil_div(first, threads))};
  const int* src = in;
  std::size_t count = n;
  for (int k = 0;; ++k) {
    const std::size_t blocks = std::max<std::size_t>(1, ceil_div(count, threads));
    if (blocks == 1) {
      last<<<1, threads, shared, stream>>>(src, count, out, work);
      HB_CHECK_LAUNCH();
      return;
    }
    int* dst = buffers[k % 2];
    level<<<static_cast<unsigned>(blocks), threads, shared, stream>>>(src, count, dst, work);
    HB_CHECK_LAUNCH();
    src = dst;
    count = blocks;
  }
}
// [reduction10a-relaunch]

// [reduction10a-kernel]
/// The first blog post's reduceNeighbored in shared memory: interleaved pairs.
/// Additions are done on unsigned values: they wrap like the blog's int, without the
/// undefined behavior of signed overflow in C++.
template <typename Out>
__global__ void reduction10a_kernel(const int* in, std::size_t n, Out* out, int* /*work*/) {
  unsigned* s = dynamic_shared<unsigned>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;
  s[tid] = i < n ? static_cast<unsigned>(in[i]) : 0u;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = static_cast<Out>(static_cast<int>(s[0]));
}
// [reduction10a-kernel]

void reduce10a_neighbored(const int* in, std::size_t n, long long* out, int threads,
                          Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 10a", BlockRule::PowerOfTwoFrom32, threads);
  relaunch_until_one_block(reduction10a_kernel<int>, reduction10a_kernel<long long>, in, n, out,
                           threads, threads * sizeof(int), nullptr, scratch, stream);
}

}  // namespace ch12
