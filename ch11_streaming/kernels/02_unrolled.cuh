/// \file
/// \brief Chapter 11, listing 11.4: SAXPY unrolled through a template parameter, every load of
///        a tile issued before the first store. The streaming pipelines launch it.
/* [changed]
Compared with the grid-stride kernel (listing 11.2): each thread first loads `Unroll`
elements of x and of y into registers and only then computes and stores them, so
`2 * Unroll` independent loads are in flight per thread instead of two. Thread t of a block
handles elements t, t + blockDim.x, ... of a tile of `Unroll * blockDim.x` consecutive
elements, so every load instruction of a warp is still one coalesced 128-byte access. This is
the kernel the book's `stream1Device` launches (`saxpy_unrolled<4>`), and so do all our
pipelines.
[changed] */
/* [notes]
The printed listing's loop test `i < N - n*blockDim.x*gridDim.x` is computed in `size_t` and
wraps around when `N` is smaller than one grid stride: the loop then runs off the end of the
arrays. Its clean-up loop is nested twice by mistake. Ours runs the main loop over whole tiles
only (`start + tile <= n`, which cannot wrap; no bounds checks inside, and the test is the
same for every thread of the block), and the one partial tile at the end is done, with
checks, by the block that stops in front of it.
[notes] */
#pragma once

#include <cstddef>

namespace ch11 {

// [saxpy-unrolled]
/// Listing 11.4: tiles of `Unroll * blockDim.x` elements, all loads of a tile before the first
/// store; the whole tiles without bounds checks, then the last, partial tile with them.
/// `out` may not overlap `x` or `y`.
template <int Unroll>
__global__ void saxpy_unrolled(float* __restrict__ out, const float* __restrict__ x,
                               const float* __restrict__ y, std::size_t n, float alpha) {
  const std::size_t tile = std::size_t(Unroll) * blockDim.x;
  const std::size_t stride = tile * gridDim.x;
  std::size_t start = std::size_t(blockIdx.x) * tile;
  for (; start + tile <= n; start += stride) {
    const std::size_t i = start + threadIdx.x;
    float xv[Unroll], yv[Unroll];
#pragma unroll
    for (int j = 0; j < Unroll; ++j) {
      xv[j] = x[i + std::size_t(j) * blockDim.x];
      yv[j] = y[i + std::size_t(j) * blockDim.x];
    }
#pragma unroll
    for (int j = 0; j < Unroll; ++j) out[i + std::size_t(j) * blockDim.x] = alpha * xv[j] + yv[j];
  }
  // Only the last tile of the array can be partial, and exactly one block stops in front of it.
  if (start < n) {
#pragma unroll
    for (int j = 0; j < Unroll; ++j) {
      const std::size_t i = start + threadIdx.x + std::size_t(j) * blockDim.x;
      if (i < n) out[i] = alpha * x[i] + y[i];
    }
  }
}
// [saxpy-unrolled]

}  // namespace ch11
