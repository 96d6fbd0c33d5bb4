/// \file
/// \brief Chapter 11, beyond the text: listing 11.4 with 16-byte (float4) loads and stores.
/* [changed]
Compared with the unrolled kernel (listing 11.4): the same tiles of `Unroll` loads per thread
before the first store, but each load moves a `float4`, so a warp's load instruction covers
512 bytes instead of 128 and the memory system sees a quarter of the requests for the same
bytes. It adds to the sweep the dimension of section 11.1's memory reports that SAXPY's
4-byte floats leave out: the operand size (listing 11.3 shows 4-byte operands). The last
partial tile is done vector by vector behind checks, and the `n % 4` elements after the last
whole vector by the first threads of block 0. `float4` accesses need 16-byte aligned
addresses, so the launcher falls back to `saxpy_unrolled` when any of the three pointers is
not aligned (a test runs both paths).
[changed] */
#pragma once

#include <cstddef>

namespace ch11 {

// [saxpy-vectorized]
/// `saxpy_unrolled` with 16-byte accesses: `Unroll` float4 vectors of x and of y per thread
/// and tile (4 Unroll elements each), loaded before anything is stored. out, x and y must be
/// 16-byte aligned (the launcher checks, and falls back to saxpy_unrolled if they are not).
template <int Unroll>
__global__ void saxpy_vectorized(float* __restrict__ out, const float* __restrict__ x,
                                 const float* __restrict__ y, std::size_t n, float alpha) {
  const std::size_t vectors = n / 4;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  const float4* y4 = reinterpret_cast<const float4*>(y);
  float4* out4 = reinterpret_cast<float4*>(out);
  auto saxpy4 = [alpha](float4 a, float4 b) {
    return make_float4(alpha * a.x + b.x, alpha * a.y + b.y, alpha * a.z + b.z, alpha * a.w + b.w);
  };
  const std::size_t tile = std::size_t(Unroll) * blockDim.x;
  const std::size_t stride = tile * gridDim.x;
  std::size_t start = std::size_t(blockIdx.x) * tile;
  for (; start + tile <= vectors; start += stride) {
    const std::size_t i = start + threadIdx.x;
    float4 xv[Unroll], yv[Unroll];
#pragma unroll
    for (int j = 0; j < Unroll; ++j) {
      xv[j] = x4[i + std::size_t(j) * blockDim.x];
      yv[j] = y4[i + std::size_t(j) * blockDim.x];
    }
#pragma unroll
    for (int j = 0; j < Unroll; ++j) out4[i + std::size_t(j) * blockDim.x] = saxpy4(xv[j], yv[j]);
  }
  if (start < vectors) {
#pragma unroll
    for (int j = 0; j < Unroll; ++j) {
      const std::size_t i = start + threadIdx.x + std::size_t(j) * blockDim.x;
      if (i < vectors) out4[i] = saxpy4(x4[i], y4[i]);
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < n % 4) {
    const std::size_t i = 4 * vectors + threadIdx.x;
    out[i] = alpha * x[i] + y[i];
  }
}
// [saxpy-vectorized]

}  // namespace ch11
