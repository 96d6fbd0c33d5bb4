/// \file
/// \brief Chapter 11, listing 11.2: SAXPY in a grid-stride loop, correct for any grid and
///        block size.
/* [changed]
Compared with the CPU reference (listing 11.1): each thread starts at its index in the grid
and strides by the number of threads in the grid, so the kernel is correct for any grid and
any block size. The text calls such a kernel *block-agnostic*: its best configuration can be
found by trying them, which is what `saxpy_sweep` does without touching the kernel. The
template parameter is ours. It goes into `#pragma unroll`, which is how section 11.1's
`#pragma unroll` experiment is run; `saxpy_grid_stride<1>` keeps the loop rolled and is
listing 11.2 itself. The pointers are `__restrict__`, so the compiler may load x and y through
the read-only data path.
[changed] */
#pragma once

#include <cstddef>

namespace ch11 {

// [saxpy-kernel]
/// Listing 11.2: one element per iteration, striding by the whole grid. `Unroll` is what
/// `#pragma unroll` asks for (1: the loop stays rolled, as printed). `out` may be mapped host
/// memory, and may not overlap `x` or `y`.
template <int Unroll>
__global__ void saxpy_grid_stride(float* __restrict__ out, const float* __restrict__ x,
                                  const float* __restrict__ y, std::size_t n, float alpha) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
#pragma unroll Unroll
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = alpha * x[i] + y[i];
  }
}
// [saxpy-kernel]

}  // namespace ch11
