/// \file
/// \brief Chapter 15, variant 7: packed byte dot products, box sums (beyond the text).
/* [changed]
Compared with variant 6: two changes beyond the text. First, SumI and SumISq do not involve the
template, so they leave the inner loop: the block computes them as box sums in shared memory (a
few additions per output, whatever the template size; see box_sums). Second, the inner
loop multiplies four pixels at once: `__dp4a(a, b, c)` adds the four products of the bytes of a
and b to c in one instruction. The image tile is stored as 4-byte words; each thread computes
four adjacent outputs, at shifts 0 to 3 within a word, in 8 rows. The bytes of an output at
shift s are not aligned with the image words, so instead of shifting the image we keep four
copies of the template, shifted by 0 to 3 bytes and packed into words (fragments.h): every
image word is then multiplied, as it is, with the four template words of the same position. The
number of words per template row (NQ) is a template parameter of the kernel, so the template
words of a row stay in registers and serve all eight rows; wider templates are covered in bands
of 16 words.
[changed] */
/* [notes]
The packed template is four times the size of the template's bytes, which would limit constant
memory to templates of about 124 x 124; it is read through the L1 cache with `__ldg`, which
delivers a word that all threads of a warp read in one transaction, as the constant cache does.
A CPU test runs the kernel's loops with the packed words and an emulated `__dp4a` over whole
images and compares every sum. When the block's shared memory would exceed the limit, variant 5
runs.
[notes] */
#pragma once

#include <cstdint>

#include "06_shared_fixed.cuh"
#include "correlation.h"
#include "fragments.h"

namespace ch15 {

// What variants 7 and 8 share: a block owns a tile of 128 x 32 output pixels,
// copies the image pixels the tile needs into shared memory as 4-byte words, and computes the
// two sums that do not involve the template, SumI and SumISq, as box sums in shared memory
// (a few additions per output pixel, whatever the template size), so that the inner loop
// computes SumIT alone.

// [corr-fused-tile]
/// The tile word of pixels x .. x + 3 of an image row when it crosses an image edge: assembled
/// byte by byte from the clamped coordinates (what the texture did for the book's kernels).
__device__ inline unsigned edge_tile_word(const std::uint8_t* __restrict__ row, int w, int x) {
  unsigned v = 0;
  for (int e = 0; e < 4; ++e) v |= static_cast<unsigned>(row[min(max(x + e, 0), w - 1)]) << (8 * e);
  return v;
}

/// Copies rows rows of words 4-byte words of the image into tile: word q of row r
/// holds image pixels x0 + 4q ... x0 + 4q + 3 of row y0 + r, each coordinate clamped to the
/// image. Inside the image a word is one or two aligned 4-byte loads and a funnel shift.
/// Each thread takes four words at a time and issues all their loads before it uses the
/// first, so that it waits for memory once per four words.
__device__ __forceinline__ void load_image_tile(unsigned* tile, int words, int rows,
                                                const std::uint8_t* __restrict__ image,
                                                std::size_t pitch, int w, int h, int x0, int y0) {
  constexpr int kBatch = 4;
  const int tid = threadIdx.x + threadIdx.y * blockDim.x;
  const int threads = blockDim.x * blockDim.y;
  const int count = words * rows;
  for (int i0 = tid; i0 < count; i0 += kBatch * threads) {
    unsigned lo[kBatch], hi[kBatch];
    int shift[kBatch];  // 8 x (x mod 4) for a word inside the image, -1 at an edge
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const int i = i0 + u * threads, r = i / words, x = x0 + 4 * (i - r * words);
      const std::uint8_t* row = image + static_cast<std::size_t>(min(max(y0 + r, 0), h - 1)) * pitch;
      lo[u] = hi[u] = 0;
      shift[u] = -1;
      if (i < count && x >= 0 && x + 3 < w) {
        const unsigned* aligned = reinterpret_cast<const unsigned*>(row + (x & ~3));
        shift[u] = 8 * (x & 3);
        lo[u] = __ldg(aligned);
        // The second word may reach up to 3 bytes past the row's last pixel: the workspace
        // pads every row with zero bytes.
        if (shift[u] != 0) hi[u] = __ldg(aligned + 1);
      }
    }
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const int i = i0 + u * threads;
      if (i >= count) break;
      if (shift[u] >= 0) {
        tile[i] = __funnelshift_r(lo[u], hi[u], shift[u]);
      } else {
        const int r = i / words;
        const std::uint8_t* row = image + static_cast<std::size_t>(min(max(y0 + r, 0), h - 1)) * pitch;
        tile[i] = edge_tile_word(row, w, x0 + 4 * (i - r * words));
      }
    }
  }
}
// [corr-fused-tile]

// [corr-fused-box]
/// The box sums of the tile: for each output (x, y) of the block, S1 = ΣI and
/// S2 = ΣI² over its wTemplate x hTemplate window, in two separable passes.
/// First each column of the tile is summed over hTemplate rows, sliding down one row at a
/// time (one addition and one subtraction per step); then each row of those column sums
/// is summed over wTemplate columns, sliding right. Unsigned arithmetic wraps, but every
/// true value is below 2³², so the results are exact. kThreads: the block's threads.
template <int kThreads>
__device__ __forceinline__ void box_sums(const unsigned* tile, int tile_words, int w_t, int h_t,
                                         unsigned* box, int box_pitch) {
  const int tid = threadIdx.x + threadIdx.y * blockDim.x;
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(tile);
  const int stride = 4 * tile_words;
  unsigned* v1 = box;
  unsigned* v2 = box + kFusedTileHeight * box_pitch;

  // Columns: v(k, u) = sum over j < h_t of tile(k + j, u), for the tile's 32 output rows k
  // and every column u that some window of the block covers.
  const int columns = kFusedTileWidth + w_t - 1;
  for (int u = tid; u < columns; u += kThreads) {
    unsigned s1 = 0, s2 = 0;
    for (int j = 0; j < h_t; ++j) {
      const unsigned b = bytes[j * stride + u];
      s1 += b;
      s2 += b * b;
    }
    for (int k = 0; k < kFusedTileHeight; ++k) {
      v1[k * box_pitch + u] = s1;
      v2[k * box_pitch + u] = s2;
      if (k + 1 < kFusedTileHeight) {
        const unsigned out = bytes[k * stride + u], in = bytes[(k + h_t) * stride + u];
        s1 += in - out;
        s2 += in * in - out * out;
      }
    }
  }
  __syncthreads();

  // Rows: each warp takes kColumns adjacent outputs of every row, one row per lane (the odd
  // pitch keeps the lanes in different banks), and keeps its results in registers until every
  // warp has read the column sums it needs.
  constexpr int kColumns = kFusedTileWidth / (kThreads / 32);
  static_assert(kFusedTileHeight == 32, "one output row per lane");
  const int row = tid & 31;
  const int x0 = (tid >> 5) * kColumns;
  const unsigned* c1 = v1 + row * box_pitch + x0;
  const unsigned* c2 = v2 + row * box_pitch + x0;
  unsigned h1 = 0, h2 = 0;
  for (int i = 0; i < w_t; ++i) {
    h1 += c1[i];
    h2 += c2[i];
  }
  unsigned r1[kColumns], r2[kColumns];
#pragma unroll
  for (int m = 0; m < kColumns; ++m) {
    r1[m] = h1;
    r2[m] = h2;
    if (m + 1 < kColumns) {
      h1 += c1[m + w_t] - c1[m];
      h2 += c2[m + w_t] - c2[m];
    }
  }
  __syncthreads();
#pragma unroll
  for (int m = 0; m < kColumns; ++m) {
    v1[row * box_pitch + x0 + m] = r1[m];
    v2[row * box_pitch + x0 + m] = r2[m];
  }
  __syncthreads();
}
// [corr-fused-box]

// [corr7-kernel]
/// Variant 7: ΣIT with packed byte dot products, the other sums as box sums.
template <int NQ, bool kSums>
__global__ void __launch_bounds__(kDp4aThreads)
    corr_dp4a_kernel(Output out, const std::uint8_t* __restrict__ image, std::size_t pitch, int w,
                     int h, int x_off, int y_off, int w_t, int h_t, int bands, FusedLayout layout,
                     const uint4* __restrict__ packed, DeviceTemplate t) {
  unsigned* tile = dynamic_shared<unsigned>();
  unsigned* box = tile + layout.tile_words * layout.tile_rows;
  const int bx = blockIdx.x * kFusedTileWidth, by = blockIdx.y * kFusedTileHeight;
  load_image_tile(tile, layout.tile_words, layout.tile_rows, image, pitch, w, h, bx + x_off, by + y_off);
  __syncthreads();
  box_sums<kDp4aThreads>(tile, layout.tile_words, w_t, h_t, box, layout.box_pitch);

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

/// Variant 7's preparation: packs the template (four shifted copies, fragments.h) and
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

/// Launches \p kernel, variant 7's or 8's, with blocks of \p threads over the image's tiles;
/// \p shape and \p packed are the kernel's template shape (bands or chunks) and packed template.
template <typename Kernel, typename Packed>
void launch_fused(Kernel kernel, dim3 threads, Workspace& ws, const Output& out, cudaStream_t stream,
                  const FusedLayout& layout, int shape, const Packed* packed) {
  const Template& t = ws.tmpl();
  allow_shared_memory(reinterpret_cast<const void*>(kernel), layout.bytes());
  const dim3 blocks(ceil_div(ws.width(), kFusedTileWidth), ceil_div(ws.height(), kFusedTileHeight));
  kernel<<<blocks, threads, layout.bytes(), stream>>>(
      out, ws.image_rows(), ws.image_pitch(), ws.width(), ws.height(), window_x_offset(t.width),
      window_y_offset(t.height), t.width, t.height, shape, layout, packed, device_template(t.stats));
  HB_CHECK_LAUNCH();
}

/// Launches the kernel compiled for NQ words per band.
template <int NQ>
void launch_dp4a(Workspace& ws, const Output& out, cudaStream_t stream, const FusedLayout& layout) {
  launch_fused(out.sums != nullptr ? corr_dp4a_kernel<NQ, true> : corr_dp4a_kernel<NQ, false>,
               dim3(32, kDp4aThreads / 32), ws, out, stream, layout, ws.packed.bands,
               ws.packed.words.data());
}

// [corr7-dispatch]
/// Variant 7's launcher: the kernel for the template's words per band, or variant 5 when the
/// block would need more shared memory than it may have.
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
