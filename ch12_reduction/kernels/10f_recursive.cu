/// \file
/// \brief Chapter 12, variant 10f: recursion by tail launch from the GPU (blog 1, dynamic parallelism).
/* [changed]
Compared with variant 10e: the GPU relaunches the kernel itself (dynamic parallelism), so the
host makes one launch whatever the input size. After its block has written its sum, thread 0 of
block 0 launches the next level into `cudaStreamTailLaunch`: a tail launch starts only when the
whole launching grid has finished, which is exactly the guarantee that the next level's inputs
are all written. The recursion ends when a level has one block, which writes the result.
[changed] */
/* [notes]
The first blog post's recursive reduction launched, from every block, a child grid of one block
with half the threads, and waited for it with a device-side `cudaDeviceSynchronize()`. CUDA 12
removed device-side `cudaDeviceSynchronize()` (it survives only in the legacy CDP1 mode, which
Hopper does not support). Waiting was never needed for correctness there, because the parent did
nothing with the child's result; what the recursion needs is "the next step starts after this
one is complete", and that is what a tail launch gives. We recurse over levels of the whole
array rather than within each block: one pending launch at a time and a depth of log<sub>2B</sub>(n),
instead of one child per block per halving step, which for a large input exceeds the device
runtime's limit of pending launches (2048 by default) by orders of magnitude. Device-side
launches need relocatable device code (`-rdc=true`) and the device runtime library (cudadevrt);
only this variant's object file is built that way.
[notes] */

#include <algorithm>

#include "reduction.h"

namespace ch12 {

// [reduction10f-kernel]
/// One level of the recursion: block b reduces 2 B elements of in (B = blockDim.x) into
/// level_out[b], or into *out if this level has one block; then the next level is
/// tail-launched on level_out, writing into spare (the two buffers take turns).
template <typename In>
__global__ void reduction10f_kernel(const In* in, std::size_t n, long long* level_out,
                                    long long* spare, long long* out) {
  long long* partial_sum = dynamic_shared<long long>();
  const unsigned t = threadIdx.x;
  const std::size_t i = 2 * std::size_t(blockIdx.x) * blockDim.x + t;
  partial_sum[t] = i < n ? static_cast<long long>(in[i]) : 0;
  partial_sum[t + blockDim.x] = i + blockDim.x < n ? static_cast<long long>(in[i + blockDim.x]) : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x; stride >= 1; stride /= 2) {
    if (t < stride) partial_sum[t] += partial_sum[t + stride];
    __syncthreads();
  }
  if (t != 0) return;
  if (gridDim.x == 1) {
    *out = partial_sum[0];
    return;
  }
  level_out[blockIdx.x] = partial_sum[0];
  if (blockIdx.x == 0) {
    // Runs after every block of this grid has finished and written its sum.
    const std::size_t count = gridDim.x;
    const unsigned blocks = static_cast<unsigned>((count + 2 * blockDim.x - 1) / (2 * blockDim.x));
    reduction10f_kernel<long long>
        <<<blocks, blockDim.x, 2 * blockDim.x * sizeof(long long), cudaStreamTailLaunch>>>(
            level_out, count, spare, level_out, out);
  }
}
// [reduction10f-kernel]

void reduce10f_recursive(const int* in, std::size_t n, long long* out, int threads,
                         Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 10f", BlockRule::PowerOfTwoFrom32, threads);
  const std::size_t per_block = 2 * std::size_t(threads);
  const std::size_t blocks = std::max<std::size_t>(1, ceil_div(n, per_block));
  long long* a = scratch.partials_a<long long>(blocks);
  long long* b = scratch.partials_b<long long>(ceil_div(blocks, per_block));
  reduction10f_kernel<int><<<static_cast<unsigned>(blocks), threads,
                             per_block * sizeof(long long), stream>>>(in, n, a, b, out);
  HB_CHECK_LAUNCH();
}

}  // namespace ch12
