/// \file
/// \brief Chapter 15, variant 2: template in constant memory (listings 15.3, 15.4).
/* [changed]
Compared with variant 1: the template moves to `__constant__` memory and its statistics are
computed once, on the host (listings 15.3 and 15.4). Every thread of a warp reads the same
template pixel at the same time, which is exactly the access the constant cache broadcasts in
one transaction; the kernel computes three sums instead of five. The image still comes through
the texture unit.
[changed] */
/* [notes]
Constant memory holds 64 KB per module. Variants 2 to 6 share one array of 65280 bytes,
`g_Tpix`, in one translation unit; a larger template runs variant 1 instead, and the result says
which path ran.
[notes] */
#pragma once

#include <cstdint>

#include "01_tex_tex.cuh"

namespace ch15 {

// [corr2-constant]
/// The template's pixels (the book's g_Tpix), shared by variants 2 to 6 of this translation
/// unit; only the first wTemplate x hTemplate bytes are meaningful.
__constant__ unsigned char g_Tpix[kConstantTemplateBytes];

/// The id of the template g_Tpix holds (Workspace::template_id()); 0 for none.
static std::uint64_t g_Tpix_template = 0;

/// Listing 15.3's CopyToTemplate(): copies the template's pixels to constant memory. The
/// statistics that the book also copied there (SumT, fDenomExp, the pixel count) are
/// kernel parameters here, computed once on the host (ch15::TemplateStats).
void prepare_constant_template(Workspace& ws, cudaStream_t stream) {
  const Template& t = ws.tmpl();
  if (!fits_constant_memory(t)) return;  // the launchers fall back to variant 1
  HB_CUDA_CHECK(cudaMemcpyToSymbolAsync(g_Tpix, t.pixels.data(), t.pixels.size(), 0,
                                        cudaMemcpyHostToDevice, stream));
  g_Tpix_template = ws.template_id();
}
// [corr2-constant]

/// Uploads the workspace's template to g_Tpix unless it is there already.
/// \param ws the workspace
/// \param stream the stream of the upload
inline void ensure_constant_template(Workspace& ws, cudaStream_t stream) {
  if (g_Tpix_template != ws.template_id()) prepare_constant_template(ws, stream);
}

// [corr2-kernel]
/// Listing 15.4: one thread per output pixel, the template from constant memory.
template <bool kSums>
__global__ void corr_tex_constant_kernel(Output out, cudaTextureObject_t image, int w, int h,
                                         int x_off, int y_off, int w_t, int h_t, DeviceTemplate t) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= w || row >= h) return;
  unsigned SumI = 0, SumISq = 0, SumIT = 0;
  int inx = 0;
  for (int j = 0; j < h_t; ++j) {
    for (int i = 0; i < w_t; ++i) {
      const unsigned I = tex2D<unsigned char>(image, static_cast<float>(col + x_off + i),
                                              static_cast<float>(row + y_off + j));
      const unsigned T = g_Tpix[inx++];
      SumI += I;
      SumISq += I * I;
      SumIT += I * T;
    }
  }
  store_result<kSums>(out, static_cast<std::size_t>(row) * w + col, SumI, SumISq, SumIT, t);
}
// [corr2-kernel]

/// Variant 2's launcher: variant 1 for templates too large for constant memory.
/// \param ws the workspace: image, template
/// \param out where to write (coefficients or sums)
/// \param stream the stream
/// \return Path::TexConstant, or Path::TexTex for a template too large for constant memory
Path corr2_tex_constant(Workspace& ws, const Output& out, cudaStream_t stream) {
  check_output(out);
  const Template& t = ws.tmpl();
  if (!fits_constant_memory(t)) return corr1_tex_tex(ws, out, stream);
  ensure_constant_template(ws, stream);
  const dim3 threads(32, 8);
  const dim3 blocks(ceil_div(ws.width(), threads.x), ceil_div(ws.height(), threads.y));
  const int x_off = window_x_offset(t.width), y_off = window_y_offset(t.height);
  const DeviceTemplate dt = device_template(t.stats);
  if (out.sums != nullptr) {
    corr_tex_constant_kernel<true><<<blocks, threads, 0, stream>>>(
        out, ws.image_texture(), ws.width(), ws.height(), x_off, y_off, t.width, t.height, dt);
  } else {
    corr_tex_constant_kernel<false><<<blocks, threads, 0, stream>>>(
        out, ws.image_texture(), ws.width(), ws.height(), x_off, y_off, t.width, t.height, dt);
  }
  HB_CHECK_LAUNCH();
  return Path::TexConstant;
}

}  // namespace ch15
