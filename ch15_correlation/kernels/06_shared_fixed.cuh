/// \file
/// \brief Chapter 15, variant 6: template size known at compile time (15.7).
/* [changed]
Compared with variant 5: the template's width and height become template parameters of the
kernel (section 15.7), so the compiler knows every loop bound: it unrolls each row of the
template completely (small templates entirely), computes the shared-memory and constant-memory
offsets at compile time, and keeps fewer loop counters. The book specialized 8 x 8; we compile 8
x 8, 16 x 16 and the default 52 x 52. Any other size runs variant 5's kernel (the result says
so).
[changed] */
/* [notes]
Knowing the sizes, the compiler also hoists loads far ahead of their use: with 16 x 16 unrolled
completely it kept 255 registers per thread (`nvcc -Xptxas -v`) and fitted one block per SM. So
taller templates are unrolled two rows at a time, and `__launch_bounds__` asks for four blocks
per SM (at most 64 registers), which ptxas meets without spilling.
[notes] */
#pragma once

#include <vector>

#include "05_shared4.cuh"

namespace ch15 {

// [corr6-kernel]
/// Variant 5's kernel for a template of W x H pixels known at compile time.
template <int W, int H, bool kSums>
__global__ void __launch_bounds__(kBookTileWidth * kBookBlockHeight, 4) corr_shared_fixed_kernel(Output out, cudaTextureObject_t image, int w, int h,
                                         int x_off, int y_off, int w_t, int h_t, int w_tile,
                                         int shared_pitch, DeviceTemplate t) {
  (void)w_t;
  (void)h_t;
  (void)shared_pitch;
  constexpr int kPitch = (kBookTileWidth + W - 1 + 63) / 64 * 64;
  unsigned char* LocalBlock = dynamic_shared<unsigned char>();
  const int uTile = blockIdx.x * w_tile;
  const int vTile = blockIdx.y * blockDim.y;
  const int v = vTile + threadIdx.y;
  for (int row = threadIdx.y; row < static_cast<int>(blockDim.y) + H - 1; row += blockDim.y) {
    for (int col = threadIdx.x; col < w_tile + W - 1; col += blockDim.x) {
      LocalBlock[row * kPitch + col] = tex2D<unsigned char>(
          image, static_cast<float>(uTile + col + x_off), static_cast<float>(vTile + row + y_off));
    }
  }
  __syncthreads();
  // Templates of up to 8 rows are unrolled completely; taller ones two rows at a time, which
  // keeps the code small and the registers within the launch bounds without spilling.
  constexpr int kRowUnroll = H <= 8 ? H : 2;
  for (int col = threadIdx.x; col < w_tile; col += blockDim.x) {
    unsigned SumI = 0, SumISq = 0, SumIT = 0;
    const unsigned char* I = LocalBlock + threadIdx.y * kPitch + col;
#pragma unroll kRowUnroll
    for (int j = 0; j < H; ++j) {
#pragma unroll
      for (int i = 0; i < W; ++i) corr_shared_accumulate(SumI, SumISq, SumIT, I[j * kPitch + i], g_Tpix[j * W + i]);
    }
    if (uTile + col < w && v < h)
      store_result<kSums>(out, static_cast<std::size_t>(v) * w + uTile + col, SumI, SumISq, SumIT, t);
  }
}
// [corr6-kernel]

const std::vector<FixedSize>& fixed_template_sizes() {
  static const std::vector<FixedSize> sizes = {{8, 8}, {16, 16}, {52, 52}};
  return sizes;
}

// [corr6-dispatch]
/// Variant 6's launcher: the kernel compiled for the template's size, or variant 5.
Path corr6_shared_fixed(Workspace& ws, const Output& out, cudaStream_t stream) {
  const Template& t = ws.tmpl();
  if (t.width == 8 && t.height == 8)
    return launch_book_shared(ws, out, stream, corr_shared_fixed_kernel<8, 8, false>,
                              corr_shared_fixed_kernel<8, 8, true>, Path::SharedFixed);
  if (t.width == 16 && t.height == 16)
    return launch_book_shared(ws, out, stream, corr_shared_fixed_kernel<16, 16, false>,
                              corr_shared_fixed_kernel<16, 16, true>, Path::SharedFixed);
  if (t.width == 52 && t.height == 52)
    return launch_book_shared(ws, out, stream, corr_shared_fixed_kernel<52, 52, false>,
                              corr_shared_fixed_kernel<52, 52, true>, Path::SharedFixed);
  return corr5_shared4(ws, out, stream);
}
// [corr6-dispatch]

}  // namespace ch15
