/// \file
/// \brief Chapter 15, variant 4: 24-bit multiplies, the SM 1.x path (15.5.1).
/* [changed]
Compared with variant 3: the two multiplications of the inner loop use the 24-bit multiplier,
`__umul24()` (section 15.5.1). SM 1.x GPUs had a fast 24-bit multiplier and a slow 32-bit one,
and the compiler did not find on its own that the 8-bit operands would fit, so the book passed a
template parameter bSM1 and launched the 24-bit kernel on SM 1.x only. Every GPU since SM 2.x
has a 32-bit integer multiplier and no fast 24-bit one (the programming guide lists `__umul24()`
as "multiple instructions"), so the book's device check would always pick the 32-bit path there;
this variant forces the 24-bit path, so that the table measures what it costs today.
[changed] */
#pragma once

#include "03_shared.cuh"

namespace ch15 {

// [corr4-kernel]
/// Section 15.5.1: variant 3's kernel with a choice of multiplier, the book's
/// corrSharedSM_kernel<bSM1>().
template <bool kSums, bool bSM1>
__global__ void corr_shared_sm_kernel(Output out, cudaTextureObject_t image, int w, int h,
                                      int x_off, int y_off, int w_t, int h_t, int w_tile,
                                      int shared_pitch, DeviceTemplate t) {
  unsigned char* LocalBlock = dynamic_shared<unsigned char>();
  const int uTile = blockIdx.x * w_tile;
  const int vTile = blockIdx.y * blockDim.y;
  const int v = vTile + threadIdx.y;
  for (int row = threadIdx.y; row < static_cast<int>(blockDim.y) + h_t - 1; row += blockDim.y) {
    for (int col = threadIdx.x; col < w_tile + w_t - 1; col += blockDim.x) {
      LocalBlock[row * shared_pitch + col] = tex2D<unsigned char>(
          image, static_cast<float>(uTile + col + x_off), static_cast<float>(vTile + row + y_off));
    }
  }
  __syncthreads();
  for (int col = threadIdx.x; col < w_tile; col += blockDim.x) {
    unsigned SumI = 0, SumISq = 0, SumIT = 0;
    int idx = 0;
    int SharedIdx = threadIdx.y * shared_pitch + col;
    for (int j = 0; j < h_t; ++j) {
      for (int i = 0; i < w_t; ++i) {
        const unsigned I = LocalBlock[SharedIdx + i];
        const unsigned T = g_Tpix[idx++];
        SumI += I;
        if constexpr (bSM1) {
          SumISq += __umul24(I, I);
          SumIT += __umul24(I, T);
        } else {
          SumISq += I * I;
          SumIT += I * T;
        }
      }
      SharedIdx += shared_pitch;
    }
    if (uTile + col < w && v < h)
      store_result<kSums>(out, static_cast<std::size_t>(v) * w + uTile + col, SumI, SumISq, SumIT, t);
  }
}
// [corr4-kernel]

/// Variant 4's launcher: the 24-bit kernel, always (the book's host code chose it for SM 1.x
/// devices only).
/// \param ws the workspace: image, template
/// \param out where to write (coefficients or sums)
/// \param stream the stream
/// \return Path::SharedUmul24, or Path::TexTex after a fallback
Path corr4_shared_umul24(Workspace& ws, const Output& out, cudaStream_t stream) {
  return launch_book_shared(ws, out, stream, corr_shared_sm_kernel<false, true>,
                            corr_shared_sm_kernel<true, true>, Path::SharedUmul24);
}

}  // namespace ch15
