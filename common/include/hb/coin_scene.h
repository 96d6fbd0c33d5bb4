/// \file
/// \brief A deterministic 8-bit scene of coins on a shaded background, with noise: it stands in
///        for coins.pgm, the photograph chapter 15 searches, so that its programs need no files,
///        and the histogram chapter counts it as a photograph-like distribution.
///
/// Coins lie at fixed fractions of the image size and scale with it; at the default size, that
/// of the book's image, the lower-right dime fills the book's default template.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hb/pgm.h"

namespace hb {

/// The kinds of coin in the scene, smallest first.
enum class CoinKind { Dime, Penny, Nickel, Quarter };

/// One coin: a disc with shading, a rim and a relief texture.
struct Coin {
  double cx = 0.0, cy = 0.0;  ///< centre, in pixels from the left and top edges
  double radius = 0.0;
  CoinKind kind = CoinKind::Dime;
  double phase = 0.0;  ///< rotation of the relief texture (so equal coins are not identical)
};

struct CoinScene {
  GrayImage image;
  std::vector<Coin> coins;
  int template_coin = 0;  ///< index of the coin the default template encloses
  /// The default template, the square around coins[template_coin] clipped to the image.
  int template_x = 0, template_y = 0, template_w = 0, template_h = 0;
};

/// The size of the default scene (the book's coins.pgm is 300 x 246).
constexpr int kSceneWidth = 300, kSceneHeight = 246;

/// Generates the scene (maxval 255); \p seed seeds the noise and each coin's relief texture.
/// Throws hb::UsageError when a side is below 32 or above hb::kMaxPgmSide, or the image has
/// more than hb::kMaxPgmPixels pixels.
CoinScene make_coin_scene(int width = kSceneWidth, int height = kSceneHeight,
                          std::uint64_t seed = 20261122);

/// "dime", "penny", "nickel" or "quarter".
std::string to_string(CoinKind kind);

}  // namespace hb
