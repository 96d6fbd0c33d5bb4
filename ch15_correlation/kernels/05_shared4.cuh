/// \file
/// \brief Chapter 15, variant 5: inner loop unrolled by 4 (15.5.2).
/* [changed]
Compared with variant 4: back to 32-bit multiplies, and the inner loop is unrolled by four
(section 15.5.2): four calls of corrSharedAccumulate() per iteration, then the remaining zero to
three pixels of the row one at a time (the book's loop ran to wTemplate/4 and left them out).
The text's motive was the four-way bank conflicts of byte reads on SM 1.x; on every later GPU
the unrolled loop was still faster, because it spends fewer instructions on loop control and
addresses per pixel.
[changed] */
#pragma once

#include "04_shared_umul24.cuh"

namespace ch15 {

// [corr5-accumulate]
/// corrSharedAccumulate() of section 15.5.2, without the bSM1 choice: adds one image pixel
/// I and its template pixel T to the three sums.
__device__ __forceinline__ void corr_shared_accumulate(unsigned& SumI, unsigned& SumISq,
                                                       unsigned& SumIT, unsigned I, unsigned T) {
  SumI += I;
  SumISq += I * I;
  SumIT += I * T;
}
// [corr5-accumulate]

// [corr5-kernel]
/// Variant 3's kernel with the inner loop unrolled by four (the book's corrShared4).
template <bool kSums>
__global__ void corr_shared4_kernel(Output out, cudaTextureObject_t image, int w, int h, int x_off,
                                    int y_off, int w_t, int h_t, int w_tile, int shared_pitch,
                                    DeviceTemplate t) {
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
  const int w4 = w_t & ~3;
  for (int col = threadIdx.x; col < w_tile; col += blockDim.x) {
    unsigned SumI = 0, SumISq = 0, SumIT = 0;
    const unsigned char* I = LocalBlock + threadIdx.y * shared_pitch + col;
    const unsigned char* T = g_Tpix;
    for (int j = 0; j < h_t; ++j) {
      int i = 0;
      for (; i < w4; i += 4) {
        corr_shared_accumulate(SumI, SumISq, SumIT, I[i + 0], T[i + 0]);
        corr_shared_accumulate(SumI, SumISq, SumIT, I[i + 1], T[i + 1]);
        corr_shared_accumulate(SumI, SumISq, SumIT, I[i + 2], T[i + 2]);
        corr_shared_accumulate(SumI, SumISq, SumIT, I[i + 3], T[i + 3]);
      }
      for (; i < w_t; ++i) corr_shared_accumulate(SumI, SumISq, SumIT, I[i], T[i]);
      I += shared_pitch;
      T += w_t;
    }
    if (uTile + col < w && v < h)
      store_result<kSums>(out, static_cast<std::size_t>(v) * w + uTile + col, SumI, SumISq, SumIT, t);
  }
}
// [corr5-kernel]

/// Variant 5's launcher.
/// \param ws the workspace: image, template
/// \param out where to write (coefficients or sums)
/// \param stream the stream
/// \return Path::Shared4, or Path::TexTex after a fallback
Path corr5_shared4(Workspace& ws, const Output& out, cudaStream_t stream) {
  return launch_book_shared(ws, out, stream, corr_shared4_kernel<false>, corr_shared4_kernel<true>,
                            Path::Shared4);
}

}  // namespace ch15
