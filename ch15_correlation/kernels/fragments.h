/// \file
/// \brief How variants 7 and 8 pack the template, and the index arithmetic of their inner
///        loops, as plain functions that host and device share, so that the CPU tests can
///        check the packing and the indices (against the PTX fragment layout of
///        `mma.m16n8k32`) on a machine without a GPU.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "correlation.h"

#if defined(__CUDACC__)
#define CH15_HOST_DEVICE __host__ __device__
#else
#define CH15_HOST_DEVICE
#endif

namespace ch15 {

/// Output columns of a block of variants 7 and 8.
constexpr int kFusedTileWidth = 128;
/// Output rows of a block of variants 7 and 8.
constexpr int kFusedTileHeight = 32;
/// Threads of a block of variant 7 (four warps, eight output rows per thread).
constexpr int kDp4aThreads = 128;
/// Threads of a block of variant 8 (eight warps, four output rows per warp): at 1024 x 1024
/// pixels the grid is 256 blocks, and eight warps per block give each scheduler of an H100
/// about four warps to choose from.
constexpr int kTensorThreads = 256;

/// The tile of a block of variants 7 and 8 in shared memory: (kFusedTileHeight + hTemplate
/// - 1) rows of tile_words 4-byte words of image pixels, then the box sums
/// (2 x kFusedTileHeight rows of box_pitch 32-bit words).
struct FusedLayout {
  int tile_words = 0;  ///< words per tile row
  int tile_rows = 0;   ///< kFusedTileHeight + hTemplate - 1
  int box_pitch = 0;   ///< words per row of the box sums: odd, >= kFusedTileWidth + wTemplate - 1
  /// Bytes of dynamic shared memory.
  std::size_t bytes() const {
    return 4 * (static_cast<std::size_t>(tile_words) * tile_rows +
                2 * static_cast<std::size_t>(kFusedTileHeight) * box_pitch);
  }
};

/// The layout for a template of \p template_width x \p template_height with \p tile_words
/// words per tile row.
/// \param template_width template width
/// \param template_height template height
/// \param tile_words words per tile row (the kernel's own requirement)
inline FusedLayout fused_layout(int template_width, int template_height, int tile_words) {
  FusedLayout l;
  l.tile_words = tile_words;
  l.tile_rows = kFusedTileHeight + template_height - 1;
  // An odd pitch puts the 32 rows a warp reads at once (one per lane) in 32 different banks.
  l.box_pitch = (kFusedTileWidth + template_width - 1) | 1;
  return l;
}

// ---- Variant 7: packed byte dot products -------------------------------------------------

/// Output rows each thread of variant 7 computes (four adjacent columns each).
constexpr int kDp4aRowsPerThread = kFusedTileHeight / (kDp4aThreads / 32);

/// How variant 7 covers a template row of words: bands of words_per_band words.
struct Dp4aShape {
  int words_per_band = 0;  ///< NQ, one of the sizes the kernel is compiled for
  int bands = 0;           ///< bands x NQ >= ceil((wTemplate + 3) / 4)
  int tile_words = 0;      ///< words per shared tile row: 31 + bands x NQ
};

/// The word counts (NQ) the kernel of variant 7 is compiled for.
inline const std::vector<int>& dp4a_word_counts() {
  static const std::vector<int> counts = {1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16};
  return counts;
}

/// The shape for a template \p template_width pixels wide: the smallest compiled NQ that
/// covers ceil((wTemplate + 3) / 4) words in one band, or bands of the largest NQ.
/// \param template_width template width
inline Dp4aShape dp4a_shape(int template_width) {
  const int needed = (template_width + 3 + 3) / 4;  // ceil((w + 3) / 4)
  Dp4aShape s;
  const auto& counts = dp4a_word_counts();
  const auto fit = std::lower_bound(counts.begin(), counts.end(), needed);
  if (fit != counts.end()) {
    s.words_per_band = *fit;
    s.bands = 1;
  } else {
    s.words_per_band = counts.back();
    s.bands = (needed + s.words_per_band - 1) / s.words_per_band;
  }
  s.tile_words = 31 + s.bands * s.words_per_band;
  return s;
}

/// Byte \p e of packed template word \p qq of row \p j for the output at shift \p s within
/// its word: T[j][4 qq + e - s], or 0 outside the template. An output at x = 4 k + s reads
/// image word k + qq, whose byte e is image pixel 4 (k + qq) + e = x + (4 qq + e - s).
/// \param t the template
/// \param j template row
/// \param qq word index within the row, 0 <= qq
/// \param s shift, 0..3
inline std::uint32_t dp4a_template_word(const Template& t, int j, int qq, int s) {
  std::uint32_t word = 0;
  for (int e = 0; e < 4; ++e) {
    const int i = 4 * qq + e - s;
    if (i >= 0 && i < t.width) word |= static_cast<std::uint32_t>(t.at(i, j)) << (8 * e);
  }
  return word;
}

/// The packed template of variant 7: for each row j, band b and word q, four words (one per
/// shift s = 0..3), in that order: element ((j x bands + b) x NQ + q) x 4 + s.
/// \param t the template
/// \param shape the shape from dp4a_shape()
inline std::vector<std::uint32_t> pack_dp4a_template(const Template& t, const Dp4aShape& shape) {
  const int nq = shape.words_per_band;
  std::vector<std::uint32_t> packed(static_cast<std::size_t>(t.height) * shape.bands * nq * 4);
  for (int j = 0; j < t.height; ++j)
    for (int b = 0; b < shape.bands; ++b)
      for (int q = 0; q < nq; ++q)
        for (int s = 0; s < 4; ++s)
          packed[((static_cast<std::size_t>(j) * shape.bands + b) * nq + q) * 4 + s] =
              dp4a_template_word(t, j, b * nq + q, s);
  return packed;
}

/// What `__dp4a(a, b, c)` computes for unsigned operands: c plus the sum of the products of
/// the four byte pairs.
/// \param a four bytes
/// \param b four bytes
/// \param c the accumulator
CH15_HOST_DEVICE inline std::uint32_t dp4a_reference(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  for (int e = 0; e < 4; ++e) c += ((a >> (8 * e)) & 0xFFu) * ((b >> (8 * e)) & 0xFFu);
  return c;
}

// ---- Variant 8: tensor cores ---------------------------------------------------------------

/// Output rows of a warp of variant 8 (one m16n8 tile of 128 columns per row).
constexpr int kTensorRowsPerWarp = kFusedTileHeight / (kTensorThreads / 32);

/// 32-byte chunks of K per template row: the Toeplitz matrix of a row has wTemplate + 7
/// non-trivial rows (8 shifts).
/// \param template_width template width
constexpr int tensor_chunks(int template_width) { return (template_width + 7 + 31) / 32; }

/// Words per shared tile row that variant 8's A fragments read: 8 x chunks + 30.
/// \param chunks tensor_chunks() of the template
constexpr int tensor_tile_words(int chunks) { return 8 * chunks + 30; }

/// Position of byte \p byte of A register \p reg of lane \p lane in the 16 x 32 A matrix of
/// `mma.sync.m16n8k32` with .u8 operands (PTX ISA, "Matrix Fragments for mma.m16n8k32"):
/// row = groupID (+8 for registers 1 and 3), column = 4 threadID_in_group + byte (+16 for
/// registers 2 and 3).
/// \param lane lane 0..31
/// \param reg register 0..3
/// \param byte byte 0..3 of the register
/// \param row receives the row, 0..15
/// \param col receives the column (k), 0..31
CH15_HOST_DEVICE inline void mma_a_position(int lane, int reg, int byte, int& row, int& col) {
  row = (lane >> 2) + 8 * (reg & 1);
  col = 4 * (lane & 3) + byte + 16 * (reg >> 1);
}

/// Position of byte \p byte of B register \p reg of lane \p lane in the 32 x 8 B matrix:
/// row (k) = 4 threadID_in_group + byte (+16 for register 1), column (n) = groupID.
/// \param lane lane 0..31
/// \param reg register 0..1
/// \param byte byte 0..3 of the register
/// \param k receives the row, 0..31
/// \param n receives the column, 0..7
CH15_HOST_DEVICE inline void mma_b_position(int lane, int reg, int byte, int& k, int& n) {
  k = 4 * (lane & 3) + byte + 16 * reg;
  n = lane >> 2;
}

/// Position of accumulator register \p reg of lane \p lane in the 16 x 8 C/D matrix:
/// row = groupID (+8 for registers 2 and 3), column = 2 threadID_in_group (+1 for registers
/// 1 and 3).
/// \param lane lane 0..31
/// \param reg register 0..3
/// \param row receives the row, 0..15
/// \param col receives the column, 0..7
CH15_HOST_DEVICE inline void mma_c_position(int lane, int reg, int& row, int& col) {
  row = (lane >> 2) + 8 * (reg >> 1);
  col = 2 * (lane & 3) + (reg & 1);
}

/// The tile word, counted from the start of a tile row, that holds A register \p reg of
/// lane \p lane for chunk \p chunk. Matrix A is a Hankel matrix of the row: A[m][k] = tile
/// byte 8 m + 32 chunk + k, so the four bytes of a register are one aligned word.
/// \param lane lane 0..31
/// \param reg register 0..3
/// \param chunk chunk of K
CH15_HOST_DEVICE constexpr int tensor_a_word(int lane, int reg, int chunk) {
  return 2 * (lane >> 2) + (lane & 3) + 8 * chunk + 16 * (reg & 1) + 4 * (reg >> 1);
}

/// The output column within the warp's 128 columns of accumulator register \p reg of lane
/// \p lane: 8 m + n for C[m][n].
/// \param lane lane 0..31
/// \param reg register 0..3
CH15_HOST_DEVICE constexpr int tensor_c_column(int lane, int reg) {
  return 8 * (lane >> 2) + 64 * (reg >> 1) + 2 * (lane & 3) + (reg & 1);
}

/// The B fragments of variant 8: for template row j and chunk c, matrix B[k][n] =
/// T[j][32 c + k - n] (0 outside the template), a Toeplitz matrix; element
/// ((j x chunks + c) x 32 + lane) x 2 + reg is B register reg of that lane.
/// \param t the template
/// \param chunks tensor_chunks(t.width)
inline std::vector<std::uint32_t> pack_tensor_template(const Template& t, int chunks) {
  std::vector<std::uint32_t> packed(static_cast<std::size_t>(t.height) * chunks * 32 * 2);
  for (int j = 0; j < t.height; ++j) {
    for (int c = 0; c < chunks; ++c) {
      for (int lane = 0; lane < 32; ++lane) {
        for (int reg = 0; reg < 2; ++reg) {
          std::uint32_t word = 0;
          for (int byte = 0; byte < 4; ++byte) {
            int k = 0, n = 0;
            mma_b_position(lane, reg, byte, k, n);
            const int i = 32 * c + k - n;
            if (i >= 0 && i < t.width) word |= static_cast<std::uint32_t>(t.at(i, j)) << (8 * byte);
          }
          packed[((static_cast<std::size_t>(j) * chunks + c) * 32 + lane) * 2 + reg] = word;
        }
      }
    }
  }
  return packed;
}

}  // namespace ch15
