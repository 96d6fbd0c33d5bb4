// Packing the template for variants 7 and 8 (host side; see corr_fragments.h).
#include "corr_fragments.h"

#include <algorithm>

namespace ch15 {

FusedLayout fused_layout(int template_width, int template_height, int tile_words) {
  FusedLayout l;
  l.tile_words = tile_words;
  l.tile_rows = kFusedTileHeight + template_height - 1;
  // An odd pitch puts the 32 rows a warp reads at once (one per lane) in 32 different banks.
  l.box_pitch = (kFusedTileWidth + template_width - 1) | 1;
  return l;
}

const std::vector<int>& dp4a_word_counts() {
  static const std::vector<int> counts = {1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16};
  return counts;
}

Dp4aShape dp4a_shape(int template_width) {
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

std::uint32_t dp4a_template_word(const Template& t, int j, int qq, int s) {
  std::uint32_t word = 0;
  for (int e = 0; e < 4; ++e) {
    const int i = 4 * qq + e - s;
    if (i >= 0 && i < t.width) word |= static_cast<std::uint32_t>(t.at(i, j)) << (8 * e);
  }
  return word;
}

std::vector<std::uint32_t> pack_dp4a_template(const Template& t, const Dp4aShape& shape) {
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

std::vector<std::uint32_t> pack_tensor_template(const Template& t, int chunks) {
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
