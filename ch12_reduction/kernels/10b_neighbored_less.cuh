/// \file
/// \brief Chapter 12, variant 10b: neighbored pairs, less divergent (blog 1, int32 wraps).
/* [changed]
Compared with variant 10a: the same pairs are added, but by different threads (the blog's
reduceNeighboredLess). In step k, thread t adds the pair that starts at `index = 2 * stride *
t`, so the busy threads are the lowest-numbered ones and whole warps finish early instead of
every warp diverging. The price is a strided access to shared memory (stride 2<sup>k+1</sup> words),
which causes bank conflicts; variant 1's halving order (thread t adds t + active) avoids both
problems, which is why the book uses it.
[changed] */
#pragma once

#include "10a_neighbored.cuh"

namespace ch12 {

// [reduction10b-kernel]
/// The first blog post's reduceNeighboredLess in shared memory.
template <typename Out>
__global__ void reduction10b_kernel(const int* in, std::size_t n, Out* out, int* /*work*/) {
  unsigned* s = dynamic_shared<unsigned>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid;
  s[tid] = i < n ? static_cast<unsigned>(in[i]) : 0u;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    const unsigned index = 2 * stride * tid;
    if (index < blockDim.x) s[index] += s[index + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = static_cast<Out>(static_cast<int>(s[0]));
}
// [reduction10b-kernel]

void reduce10b_neighbored_less(const int* in, std::size_t n, long long* out, int threads,
                               Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 10b", BlockRule::PowerOfTwoFrom32, threads);
  relaunch_until_one_block(reduction10b_kernel<int>, reduction10b_kernel<long long>, in, n, out,
                           threads, threads * sizeof(int), nullptr, scratch, stream);
}

}  // namespace ch12
