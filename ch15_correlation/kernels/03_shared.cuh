/// \file
/// \brief Chapter 15, variant 3: image tile in shared memory (listings 15.5, 15.6).
/* [changed]
Compared with variant 2: a block first copies the image pixels it needs into shared memory and
then computes its coefficients from there (listings 15.5 and 15.6). The outputs of a block form
a tile of wTile x blockDim.y pixels (32 x 8); the block over-fetches the tile plus an apron of
(wTemplate - 1) x (hTemplate - 1) pixels through the texture, which still handles the image
edges, waits at a barrier, and then every thread reads its window from shared memory, where
neighbouring windows overlap.
[changed] */
/* [notes]
The host function checks whether a block would need more shared memory than it may have and runs
variant 1 instead. The book compared with `sharedMemPerBlock`, 48 KB; a Hopper block may use up
to 227 KB, but only after the kernel opts in with `cudaFuncSetAttribute(...,
cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)`, which `ch15::allow_shared_memory()` does
once per kernel and size. The tests lower the workspace's limit to reach the fallback on small
images.
[notes] */
#pragma once

#include "02_tex_constant.cuh"

namespace ch15 {

/// Output columns per block (the book's wTile).
constexpr int kBookTileWidth = 32;
/// Output rows per block (blockDim.y).
constexpr int kBookBlockHeight = 8;

// [corr3-kernel]
/// Listing 15.5: the block's image tile in shared memory, the template in constant memory.
template <bool kSums>
__global__ void corr_shared_kernel(Output out, cudaTextureObject_t image, int w, int h, int x_off,
                                   int y_off, int w_t, int h_t, int w_tile, int shared_pitch,
                                   DeviceTemplate t) {
  unsigned char* LocalBlock = dynamic_shared<unsigned char>();
  const int uTile = blockIdx.x * w_tile;
  const int vTile = blockIdx.y * blockDim.y;
  const int v = vTile + threadIdx.y;

  // Over-fetch the tile and its apron; the texture clamps coordinates outside the image.
  for (int row = threadIdx.y; row < static_cast<int>(blockDim.y) + h_t - 1; row += blockDim.y) {
    const int SharedIdx = row * shared_pitch;
    for (int col = threadIdx.x; col < w_tile + w_t - 1; col += blockDim.x) {
      LocalBlock[SharedIdx + col] = tex2D<unsigned char>(
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
        SumISq += I * I;
        SumIT += I * T;
      }
      SharedIdx += shared_pitch;
    }
    if (uTile + col < w && v < h)
      store_result<kSums>(out, static_cast<std::size_t>(v) * w + uTile + col, SumI, SumISq, SumIT, t);
  }
}
// [corr3-kernel]

std::size_t book_shared_bytes(int template_width, int template_height) {
  // The book pads each row to a multiple of 64 bytes: ~63 & (wTile + wTemplate + 63).
  const std::size_t pitch = round_up(kBookTileWidth + template_width - 1, 64);
  return pitch * static_cast<std::size_t>(kBookBlockHeight + template_height - 1);
}

/// The parameter list every shared-memory kernel of variants 3 to 6 has.
using BookSharedKernel = void (*)(Output, cudaTextureObject_t, int, int, int, int, int, int, int,
                                  int, DeviceTemplate);

// [corr3-launch]
/// Listing 15.6: launches a shared-memory kernel, or variant 1 when the block would need
/// more shared memory than it may have (or the template does not fit constant memory).
/// Above 48 KB the kernel must opt in first (allow_shared_memory()).
Path launch_book_shared(Workspace& ws, const Output& out, cudaStream_t stream,
                        BookSharedKernel coefficients_kernel, BookSharedKernel sums_kernel, Path path) {
  check_output(out);
  const Template& t = ws.tmpl();
  const std::size_t shared = book_shared_bytes(t.width, t.height);
  if (!fits_constant_memory(t) || shared > ws.shared_limit()) return corr1_tex_tex(ws, out, stream);
  ensure_constant_template(ws, stream);
  const BookSharedKernel kernel = out.sums != nullptr ? sums_kernel : coefficients_kernel;
  allow_shared_memory(reinterpret_cast<const void*>(kernel), shared);
  const dim3 threads(kBookTileWidth, kBookBlockHeight);
  const dim3 blocks(ceil_div(ws.width(), kBookTileWidth), ceil_div(ws.height(), kBookBlockHeight));
  const int pitch = round_up(kBookTileWidth + t.width - 1, 64);
  kernel<<<blocks, threads, shared, stream>>>(out, ws.image_texture(), ws.width(), ws.height(),
                                               window_x_offset(t.width), window_y_offset(t.height),
                                               t.width, t.height, kBookTileWidth, pitch,
                                               device_template(t.stats));
  HB_CHECK_LAUNCH();
  return path;
}
// [corr3-launch]

/// Variant 3's launcher.
/// \param ws the workspace: image, template
/// \param out where to write (coefficients or sums)
/// \param stream the stream
/// \return Path::Shared, or Path::TexTex after a fallback
Path corr3_shared(Workspace& ws, const Output& out, cudaStream_t stream) {
  return launch_book_shared(ws, out, stream, corr_shared_kernel<false>, corr_shared_kernel<true>,
                            Path::Shared);
}

}  // namespace ch15
