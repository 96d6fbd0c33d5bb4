/// \file
/// \brief Chapter 15, variant 1: image and template in textures (listings 15.1, 15.2).
/* [changed]
Compared with variant 0: the GPU computes every coefficient, one thread per output pixel
(listings 15.1 and 15.2). Both the image and the template are read through the texture unit,
which also handles the image's edges: fetches outside the image return the nearest edge pixel.
The kernel is naive on purpose: each thread computes all five sums, including the template's own
SumT and SumTSq, which are the same for every thread.
[changed] */
/* [notes]
The book bound the image and the template to texture references, global objects that CUDA 12
removed; we pass texture objects (`cudaTextureObject_t`), created once per image over a
`cudaArray` with clamp addressing and point sampling, as kernel parameters. The sums are
unsigned 32-bit integers, exact for every template we accept.
[notes] */
#pragma once

#include "common.h"

namespace ch15 {

// [corr1-kernel]
/// Listing 15.1: one thread per output pixel; all five sums, template statistics included.
template <bool kSums>
__global__ void corr_tex_tex_kernel(Output out, cudaTextureObject_t image, cudaTextureObject_t templ,
                                    int w, int h, int x_off, int y_off, int w_t, int h_t) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  // There is no __syncthreads() in this kernel, so threads outside the image may leave.
  if (col >= w || row >= h) return;
  unsigned SumI = 0, SumT = 0, SumISq = 0, SumTSq = 0, SumIT = 0;
  for (int y = 0; y < h_t; ++y) {
    for (int x = 0; x < w_t; ++x) {
      const unsigned I = tex2D<unsigned char>(image, static_cast<float>(col + x_off + x),
                                              static_cast<float>(row + y_off + y));
      const unsigned T = tex2D<unsigned char>(templ, static_cast<float>(x), static_cast<float>(y));
      SumI += I;
      SumT += T;
      SumISq += I * I;
      SumTSq += T * T;
      SumIT += I * T;
    }
  }
  // The template's statistics, as this naive kernel computes them in every thread; the text
  // computes fDenomExp in double, where both products are exact.
  const int n = w_t * h_t;
  const DeviceTemplate t{n, static_cast<int>(SumT),
                         static_cast<float>(static_cast<double>(n) * SumTSq -
                                            static_cast<double>(SumT) * SumT)};
  store_result<kSums>(out, static_cast<std::size_t>(row) * w + col, SumI, SumISq, SumIT, t);
}
// [corr1-kernel]

// [corr1-launch]
/// Listing 15.2: the host function launches one thread per output pixel in blocks of
/// 32 x 8 threads. Later launchers choose between kernels; this one has no choice to make.
Path corr1_tex_tex(Workspace& ws, const Output& out, cudaStream_t stream) {
  check_output(out);
  const Template& t = ws.tmpl();
  const dim3 threads(32, 8);
  const dim3 blocks(ceil_div(ws.width(), threads.x), ceil_div(ws.height(), threads.y));
  const int x_off = window_x_offset(t.width), y_off = window_y_offset(t.height);
  if (out.sums != nullptr) {
    corr_tex_tex_kernel<true><<<blocks, threads, 0, stream>>>(
        out, ws.image_texture(), ws.template_texture(), ws.width(), ws.height(), x_off, y_off,
        t.width, t.height);
  } else {
    corr_tex_tex_kernel<false><<<blocks, threads, 0, stream>>>(
        out, ws.image_texture(), ws.template_texture(), ws.width(), ws.height(), x_off, y_off,
        t.width, t.height);
  }
  HB_CHECK_LAUNCH();
  return Path::TexTex;
}
// [corr1-launch]

/// The preparer of variants that need nothing beyond the workspace's textures.
/// \param ws the workspace (unused)
/// \param stream the stream (unused)
void prepare_nothing(Workspace& ws, cudaStream_t stream) {
  (void)ws;
  (void)stream;
}

}  // namespace ch15
