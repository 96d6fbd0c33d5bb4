// Twelve coins of four sizes on a shaded background, with noise: every pixel is a pure function
// of (width, height, seed, x, y), computed in double and rounded once.
#include "hb/coin_scene.h"

#include <algorithm>
#include <cmath>

#include "hb/error.h"
#include "hb/random.h"

namespace hb {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Name, radius (at the default size) and brightness of each kind of coin, in CoinKind order.
struct KindLook {
  const char* name;
  double radius, brightness;
};
constexpr KindLook kKinds[] = {{"dime", 23.0, 178.0}, {"penny", 26.0, 162.0},
                               {"nickel", 29.0, 196.0}, {"quarter", 33.0, 186.0}};
const KindLook& look(CoinKind k) { return kKinds[static_cast<int>(k)]; }

// Where the coins lie in the 300 x 246 scene (they scale with the image). The last one is the
// dime of the default template: its 52 x 52 bounding square starts at (210, 148).
struct Placement {
  double x, y;
  CoinKind kind;
};
constexpr Placement kLayout[] = {
    {48, 48, CoinKind::Quarter},  {125, 42, CoinKind::Nickel},  {190, 40, CoinKind::Dime},
    {255, 45, CoinKind::Penny},   {38, 120, CoinKind::Dime},    {105, 115, CoinKind::Penny},
    {178, 112, CoinKind::Quarter}, {258, 112, CoinKind::Nickel}, {48, 200, CoinKind::Nickel},
    {118, 196, CoinKind::Penny},  {176, 200, CoinKind::Dime},   {236, 174, CoinKind::Dime},
};
constexpr int kTemplateCoin = 11;
constexpr double kTemplateSide = 52.0;

double background(double x, double y, int w, int h) {
  const double u = x / w, v = y / h;
  return 70.0 + 34.0 * u + 22.0 * v + 7.0 * std::sin(2.0 * kPi * (1.5 * u + 0.7 * v));
}

// The coin's own brightness at offset (dx, dy) from its centre (inside the disc): a domed
// shading, light from the upper left, a raised rim, and a relief pattern turned by the
// coin's phase.
double coin_value(const Coin& c, double dx, double dy) {
  const double r = c.radius;
  const double rho = std::sqrt(dx * dx + dy * dy) / r;
  double v = look(c.kind).brightness * (1.0 - 0.16 * rho * rho);
  v -= 14.0 * (dx + dy) / (r * std::sqrt(2.0));
  if (rho > 0.84) v += 16.0 * std::max(0.0, 1.0 - std::fabs(rho - 0.92) / 0.08);
  if (rho < 0.78) {
    const double cs = std::cos(c.phase), sn = std::sin(c.phase);
    const double u = (dx * cs + dy * sn) / r, w = (-dx * sn + dy * cs) / r;
    v += 9.0 * std::sin(3.0 * kPi * u) * std::cos(2.0 * kPi * w);
    // A raised "portrait": a brighter ellipse off the centre.
    const double pu = (u + 0.15) / 0.35, pw = (w - 0.05) / 0.45;
    v += 14.0 * std::exp(-(pu * pu + pw * pw) * 2.0);
  }
  return v;
}

void check_side(int side, const char* what, int least) {
  if (side < least || side > kMaxPgmSide)
    throw UsageError(std::string(what) + " " + std::to_string(side) + ": must be between " +
                     std::to_string(least) + " and " + std::to_string(kMaxPgmSide));
}

}  // namespace

std::string to_string(CoinKind kind) { return look(kind).name; }

CoinScene make_coin_scene(int width, int height, std::uint64_t seed) {
  check_side(width, "scene width", 32);
  check_side(height, "scene height", 32);
  if (static_cast<std::size_t>(width) * height > kMaxPgmPixels)
    throw UsageError("scene of " + std::to_string(width) + " x " + std::to_string(height) +
                     " pixels: more than " + std::to_string(kMaxPgmPixels) + " pixels");
  CoinScene scene;
  const double sx = width / double(kSceneWidth), sy = height / double(kSceneHeight);
  const double s = std::min(sx, sy);
  int index = 0;
  for (const Placement& p : kLayout) {
    const double phase = 2.0 * kPi * static_cast<double>(hash64(seed ^ 0xC01Full, index++) >> 11) *
                         0x1p-53;
    scene.coins.push_back({p.x * sx, p.y * sy, look(p.kind).radius * s, p.kind, phase});
  }
  scene.template_coin = kTemplateCoin;
  const Coin& t = scene.coins[kTemplateCoin];
  const int side = std::max(4, static_cast<int>(std::lround(kTemplateSide * s)));
  scene.template_x = std::clamp(static_cast<int>(std::lround(t.cx - side / 2.0)), 0, width - 1);
  scene.template_y = std::clamp(static_cast<int>(std::lround(t.cy - side / 2.0)), 0, height - 1);
  scene.template_w = std::min(side, width - scene.template_x);
  scene.template_h = std::min(side, height - scene.template_y);

  GrayImage& img = scene.image;
  img = {width, height, 255, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height)};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      // Pixel centres are at half-integer coordinates.
      const double px = x + 0.5, py = y + 0.5;
      double v = background(px, py, width, height);
      for (const Coin& c : scene.coins) {
        const double dx = px - c.cx, dy = py - c.cy;
        const double d = std::sqrt(dx * dx + dy * dy);
        if (d > c.radius + 6.0 * s + 2.0) continue;
        // A soft shadow to the lower right, then the disc with an anti-aliased edge.
        const double sdx = dx - 2.0 * s, sdy = dy - 2.0 * s;
        const double sd = std::sqrt(sdx * sdx + sdy * sdy) - c.radius;
        if (sd > 0) v -= 28.0 * std::exp(-(sd * sd) / (6.0 * s * s + 1.0));
        const double cover = std::clamp(c.radius + 0.5 - d, 0.0, 1.0);
        if (cover > 0) v = cover * coin_value(c, dx, dy) + (1.0 - cover) * v;
      }
      const std::size_t i = static_cast<std::size_t>(y) * width + x;
      v += static_cast<double>(uniform_int(seed, i, -6, 6));
      img.pixels[i] = static_cast<std::uint8_t>(std::clamp(std::lround(v), 0L, 255L));
    }
  }
  return scene;
}

}  // namespace hb
