/// \file
/// \brief What the two fastest direct kernels (variants 7 and 8) share: a block of 128
///        threads owns a tile of 128 x 32 output pixels, copies the image pixels the tile
///        needs into shared memory as 4-byte words, and computes the two sums that do not
///        involve the template, \f$\sum I\f$ and \f$\sum I^2\f$, as box sums in shared memory
///        (a few additions per output pixel, whatever the template size), so that the inner
///        loop computes \f$\sum IT\f$ alone.
#pragma once

#include <cstdint>

#include "corr_common.cuh"
#include "corr_fragments.h"

namespace ch15 {

// [corr-fused-tile]
/// Copies \p rows rows of \p words 4-byte words of the image into \p tile: word q of row r
/// holds image pixels x0 + 4q ... x0 + 4q + 3 of row y0 + r, each coordinate clamped to the
/// image (what the texture did for the book's kernels). Inside the image a word is one or
/// two aligned 4-byte loads and a funnel shift; only words that cross an image edge are
/// assembled byte by byte.
/// \param tile shared memory, rows x words words
/// \param words words per tile row
/// \param rows tile rows
/// \param image the image rows (Workspace::image_rows(): 8 zero bytes after each row)
/// \param pitch bytes from one image row to the next (a multiple of 4)
/// \param w image width
/// \param h image height
/// \param x0 image column of the tile's first byte (may be negative)
/// \param y0 image row of the tile's first row (may be negative)
__device__ __forceinline__ void load_image_tile(unsigned* tile, int words, int rows,
                                                const std::uint8_t* __restrict__ image,
                                                std::size_t pitch, int w, int h, int x0, int y0) {
  const int tid = threadIdx.x + threadIdx.y * blockDim.x;
  const int threads = blockDim.x * blockDim.y;
  for (int i = tid; i < words * rows; i += threads) {
    const int r = i / words;
    const int q = i - r * words;
    const int y = min(max(y0 + r, 0), h - 1);
    const std::uint8_t* row = image + static_cast<std::size_t>(y) * pitch;
    const int x = x0 + 4 * q;
    unsigned v;
    if (x >= 0 && x + 3 < w) {
      const int s = x & 3;
      const unsigned* aligned = reinterpret_cast<const unsigned*>(row + (x - s));
      v = __ldg(aligned);
      // The second word may reach up to 3 bytes past the row's last pixel: the workspace
      // pads every row with zero bytes.
      if (s != 0) v = __funnelshift_r(v, __ldg(aligned + 1), 8 * s);
    } else {
      v = 0;
      for (int e = 0; e < 4; ++e) v |= static_cast<unsigned>(row[min(max(x + e, 0), w - 1)]) << (8 * e);
    }
    tile[i] = v;
  }
}
// [corr-fused-tile]

// [corr-fused-box]
/// The box sums of the tile: for each output (x, y) of the block, S1 = \f$\sum I\f$ and
/// S2 = \f$\sum I^2\f$ over its wTemplate x hTemplate window, in two separable passes.
/// First each column of the tile is summed over hTemplate rows, sliding down one row at a
/// time (one addition and one subtraction per step); then each row of those column sums
/// is summed over wTemplate columns, sliding right. Unsigned arithmetic wraps, but every
/// true value is below \f$2^{32}\f$, so the results are exact.
/// \param tile the image tile (load_image_tile()), tile_words words per row
/// \param tile_words words per tile row
/// \param w_t template width
/// \param h_t template height
/// \param box shared memory of 2 x kFusedTileHeight x box_pitch words; on return S1 of
///        output (x, y) is box[y * box_pitch + x] and S2 is box[(kFusedTileHeight + y) *
///        box_pitch + x] (x, y within the block's tile)
/// \param box_pitch words per row of \p box, odd
/// \pre blockDim.x x blockDim.y = 128 and the tile is loaded and visible (a barrier)
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
  for (int u = tid; u < columns; u += kFusedThreads) {
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

  // Rows: each warp takes 32 adjacent outputs of every row, one row per lane (the odd pitch
  // keeps the lanes in different banks), and keeps its 32 results in registers until every
  // warp has read the column sums it needs.
  const int row = tid & 31;
  const int x0 = (tid >> 5) * 32;
  const unsigned* c1 = v1 + row * box_pitch + x0;
  const unsigned* c2 = v2 + row * box_pitch + x0;
  unsigned h1 = 0, h2 = 0;
  for (int i = 0; i < w_t; ++i) {
    h1 += c1[i];
    h2 += c2[i];
  }
  unsigned r1[32], r2[32];
#pragma unroll
  for (int m = 0; m < 32; ++m) {
    r1[m] = h1;
    r2[m] = h2;
    if (m + 1 < 32) {
      h1 += c1[m + w_t] - c1[m];
      h2 += c2[m + w_t] - c2[m];
    }
  }
  __syncthreads();
#pragma unroll
  for (int m = 0; m < 32; ++m) {
    v1[row * box_pitch + x0 + m] = r1[m];
    v2[row * box_pitch + x0 + m] = r2[m];
  }
  __syncthreads();
}
// [corr-fused-box]

}  // namespace ch15
