/// \file
/// Compared with variant 6: two changes beyond the text. First, \f$\sum I\f$ and
/// \f$\sum I^2\f$ do not involve the template, so they leave the inner loop: the block
/// computes them as box sums in shared memory (a few additions per output, whatever the
/// template size; see corr_fused.cuh). Second, the inner loop multiplies four pixels at once:
/// `__dp4a(a, b, c)` adds the four products of the bytes of a and b to c in one instruction.
/// The image tile is stored as 4-byte words; each thread computes four adjacent outputs, at
/// shifts 0 to 3 within a word, in 8 rows. The bytes of an output at shift s are not aligned
/// with the image words, so instead of shifting the image we keep four copies of the
/// template, shifted by 0 to 3 bytes and packed into words (corr_fragments.h): every image
/// word is then multiplied, as it is, with the four template words of the same position.
/// The number of words per template row (NQ) is a template parameter of the kernel, so the
/// template words of a row stay in registers and serve all eight rows; wider templates are
/// covered in bands of 16 words.
///
/// The packed template is four times the size of the template, which would limit constant
/// memory to templates of about 124 x 124; it is read through the L1 cache with `__ldg`,
/// which, like the constant cache, delivers a word that every thread of a warp reads in one
/// transaction. When the block's shared memory would exceed the limit, variant 5 runs.
#pragma once

#include "corr_fused.cuh"
#include "correlation_launchers.h"

namespace ch15 {

// [corr7-kernel]
/// Variant 7: \f$\sum IT\f$ with packed byte dot products, the other sums as box sums.
/// \tparam NQ template words per band (a compiled size, Dp4aShape::words_per_band)
/// \tparam kSums true for the sums twin
/// \param out where to write
/// \param image the image rows (Workspace::image_rows())
/// \param pitch bytes from one image row to the next
/// \param w image width
/// \param h image height
/// \param x_off horizontal window offset
/// \param y_off vertical window offset
/// \param w_t template width
/// \param h_t template height
/// \param bands bands of NQ words per template row
/// \param layout the shared-memory layout (tile_words = 31 + bands x NQ)
/// \param packed the packed template (pack_dp4a_template())
/// \param t the template's statistics
/// \pre blockDim = (32, 4); dynamic shared memory holds layout.bytes()
template <int NQ, bool kSums>
__global__ void __launch_bounds__(kFusedThreads)
    corr_dp4a_kernel(Output out, const std::uint8_t* __restrict__ image, std::size_t pitch, int w,
                     int h, int x_off, int y_off, int w_t, int h_t, int bands, FusedLayout layout,
                     const uint4* __restrict__ packed, DeviceTemplate t) {
  unsigned* tile = dynamic_shared<unsigned>();
  unsigned* box = tile + layout.tile_words * layout.tile_rows;
  const int bx = blockIdx.x * kFusedTileWidth, by = blockIdx.y * kFusedTileHeight;
  load_image_tile(tile, layout.tile_words, layout.tile_rows, image, pitch, w, h, bx + x_off, by + y_off);
  __syncthreads();
  box_sums(tile, layout.tile_words, w_t, h_t, box, layout.box_pitch);

  // Thread (tx, ty) computes outputs 4 tx + s (s = 0..3) of the rows k0 .. k0 + 7.
  const int tx = threadIdx.x;
  const int k0 = threadIdx.y * kDp4aRowsPerThread;
  unsigned acc[kDp4aRowsPerThread][4];
#pragma unroll
  for (int k = 0; k < kDp4aRowsPerThread; ++k) acc[k][0] = acc[k][1] = acc[k][2] = acc[k][3] = 0;
  for (int b = 0; b < bands; ++b) {
    for (int j = 0; j < h_t; ++j) {
      // The four shifted template words of each position of this row and band.
      uint4 tw[NQ];
      const uint4* src = packed + (static_cast<std::size_t>(j) * bands + b) * NQ;
#pragma unroll
      for (int q = 0; q < NQ; ++q) tw[q] = __ldg(src + q);
      const unsigned* row = tile + (k0 + j) * layout.tile_words + tx + b * NQ;
#pragma unroll
      for (int k = 0; k < kDp4aRowsPerThread; ++k) {
#pragma unroll
        for (int q = 0; q < NQ; ++q) {
          const unsigned word = row[k * layout.tile_words + q];
          acc[k][0] = __dp4a(word, tw[q].x, acc[k][0]);
          acc[k][1] = __dp4a(word, tw[q].y, acc[k][1]);
          acc[k][2] = __dp4a(word, tw[q].z, acc[k][2]);
          acc[k][3] = __dp4a(word, tw[q].w, acc[k][3]);
        }
      }
    }
  }

#pragma unroll
  for (int k = 0; k < kDp4aRowsPerThread; ++k) {
    const int ly = k0 + k, y = by + ly;
#pragma unroll
    for (int s = 0; s < 4; ++s) {
      const int lx = 4 * tx + s, x = bx + lx;
      if (x < w && y < h) {
        store_result<kSums>(out, static_cast<std::size_t>(y) * w + x, box[ly * layout.box_pitch + lx],
                            box[(kFusedTileHeight + ly) * layout.box_pitch + lx], acc[k][s], t);
      }
    }
  }
}
// [corr7-kernel]

/// Variant 7's preparation: packs the template (four shifted copies, corr_fragments.h) and
/// uploads it.
/// \param ws the workspace whose template to pack
/// \param stream the stream of the upload
void prepare7_dp4a(Workspace& ws, cudaStream_t stream) {
  const Template& t = ws.tmpl();
  const Dp4aShape shape = dp4a_shape(t.width);
  const std::vector<std::uint32_t> packed = pack_dp4a_template(t, shape);
  Workspace::PackedTemplate& p = ws.packed;
  if (p.words.size() * 4 < packed.size()) p.words = hb::DeviceBuffer<uint4>(packed.size() / 4);
  HB_CUDA_CHECK(cudaMemcpyAsync(p.words.data(), packed.data(), packed.size() * sizeof(std::uint32_t),
                                cudaMemcpyHostToDevice, stream));
  // The copy reads a local vector; wait for it (preparation is not timed).
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
  p.words_per_band = shape.words_per_band;
  p.bands = shape.bands;
  p.template_id = ws.template_id();
}

std::size_t dp4a_shared_bytes(int template_width, int template_height) {
  return fused_layout(template_width, template_height, dp4a_shape(template_width).tile_words).bytes();
}

/// Launches the kernel compiled for NQ words per band.
/// \tparam NQ words per band
/// \param ws the workspace
/// \param out where to write
/// \param stream the stream
/// \param layout the shared-memory layout
template <int NQ>
void launch_dp4a(Workspace& ws, const Output& out, cudaStream_t stream, const FusedLayout& layout) {
  const Template& t = ws.tmpl();
  const auto kernel = out.sums != nullptr ? corr_dp4a_kernel<NQ, true> : corr_dp4a_kernel<NQ, false>;
  allow_shared_memory(reinterpret_cast<const void*>(kernel), layout.bytes());
  const dim3 threads(32, kFusedThreads / 32);
  const dim3 blocks(ceil_div(ws.width(), kFusedTileWidth), ceil_div(ws.height(), kFusedTileHeight));
  kernel<<<blocks, threads, layout.bytes(), stream>>>(
      out, ws.image_rows(), ws.image_pitch(), ws.width(), ws.height(), window_x_offset(t.width),
      window_y_offset(t.height), t.width, t.height, ws.packed.bands, layout, ws.packed.words.data(),
      device_template(t.stats));
  HB_CHECK_LAUNCH();
}

// [corr7-dispatch]
/// Variant 7's launcher: the kernel for the template's words per band, or variant 5 when the
/// block would need more shared memory than it may have.
/// \param ws the workspace: image, template
/// \param out where to write (coefficients or sums)
/// \param stream the stream
/// \return Path::Dp4a, or the path of variant 5 after a fallback
Path corr7_dp4a(Workspace& ws, const Output& out, cudaStream_t stream) {
  check_output(out);
  const Template& t = ws.tmpl();
  const Dp4aShape shape = dp4a_shape(t.width);
  const FusedLayout layout = fused_layout(t.width, t.height, shape.tile_words);
  if (layout.bytes() > ws.shared_limit()) return corr5_shared4(ws, out, stream);
  if (ws.packed.template_id != ws.template_id()) prepare7_dp4a(ws, stream);
  switch (shape.words_per_band) {
    case 1: launch_dp4a<1>(ws, out, stream, layout); break;
    case 2: launch_dp4a<2>(ws, out, stream, layout); break;
    case 3: launch_dp4a<3>(ws, out, stream, layout); break;
    case 4: launch_dp4a<4>(ws, out, stream, layout); break;
    case 5: launch_dp4a<5>(ws, out, stream, layout); break;
    case 6: launch_dp4a<6>(ws, out, stream, layout); break;
    case 8: launch_dp4a<8>(ws, out, stream, layout); break;
    case 10: launch_dp4a<10>(ws, out, stream, layout); break;
    case 12: launch_dp4a<12>(ws, out, stream, layout); break;
    case 14: launch_dp4a<14>(ws, out, stream, layout); break;
    case 16: launch_dp4a<16>(ws, out, stream, layout); break;
    default: throw std::logic_error("corr7_dp4a: no kernel for " + std::to_string(shape.words_per_band) + " words");
  }
  return Path::Dp4a;
}
// [corr7-dispatch]

}  // namespace ch15
