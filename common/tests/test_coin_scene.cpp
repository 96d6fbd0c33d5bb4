// The coin scene that chapter 15 searches and the histogram chapter counts: deterministic,
// laid out like the book's coins.pgm, scaled with the image, and refused at bad sizes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>

#include "hb/coin_scene.h"
#include "hb/error.h"
#include "hb/pgm.h"

TEST_CASE("the coin scene is deterministic and has coins of four sizes", "[coin_scene]") {
  const hb::CoinScene a = hb::make_coin_scene();
  const hb::CoinScene b = hb::make_coin_scene();
  CHECK(a.image.pixels == b.image.pixels);
  CHECK(a.image.width == 300);
  CHECK(a.image.height == 246);
  CHECK(hb::make_coin_scene(300, 246, 7).image.pixels != a.image.pixels);
  // The book's default template: 52 x 52 at (210, 148), around the lower-right dime.
  CHECK(a.template_x == 210);
  CHECK(a.template_y == 148);
  CHECK(a.template_w == 52);
  CHECK(a.template_h == 52);
  const hb::Coin& dime = a.coins[a.template_coin];
  CHECK(dime.kind == hb::CoinKind::Dime);
  CHECK(dime.cx - dime.radius >= a.template_x);
  CHECK(dime.cx + dime.radius <= a.template_x + a.template_w);
  CHECK(dime.cy - dime.radius >= a.template_y);
  CHECK(dime.cy + dime.radius <= a.template_y + a.template_h);
  std::set<hb::CoinKind> kinds;
  for (const auto& c : a.coins) kinds.insert(c.kind);
  CHECK(kinds.size() == 4);
  CHECK(a.coins.size() == 12);
  // Coins do not overlap and lie inside the image.
  for (std::size_t i = 0; i < a.coins.size(); ++i) {
    const auto& c = a.coins[i];
    CHECK(c.cx - c.radius >= 0);
    CHECK(c.cy - c.radius >= 0);
    CHECK(c.cx + c.radius <= 300);
    CHECK(c.cy + c.radius <= 246);
    for (std::size_t k = i + 1; k < a.coins.size(); ++k)
      CHECK(std::hypot(c.cx - a.coins[k].cx, c.cy - a.coins[k].cy) > c.radius + a.coins[k].radius);
  }
  // Every coin is brighter inside than in a ring around it.
  for (const auto& c : a.coins) {
    double inside = 0, ring = 0;
    int ni = 0, nr = 0;
    for (int y = 0; y < 246; ++y)
      for (int x = 0; x < 300; ++x) {
        const double d = std::hypot(x + 0.5 - c.cx, y + 0.5 - c.cy);
        if (d < 0.7 * c.radius) inside += a.image.at(x, y), ++ni;
        else if (d > c.radius + 3 && d < c.radius + 6) ring += a.image.at(x, y), ++nr;
      }
    INFO(hb::to_string(c.kind) << " at (" << c.cx << ", " << c.cy << ")");
    CHECK(inside / ni > ring / nr + 40);
  }
  // The template is not flat (a correlation needs its variance), and the scene uses a good
  // part of the gray range.
  std::set<std::uint8_t> template_values;
  for (int y = a.template_y; y < a.template_y + a.template_h; ++y)
    for (int x = a.template_x; x < a.template_x + a.template_w; ++x)
      template_values.insert(a.image.at(x, y));
  CHECK(template_values.size() > 1);
  const auto [lo, hi] = std::minmax_element(a.image.pixels.begin(), a.image.pixels.end());
  CHECK(*lo < 60);
  CHECK(*hi > 200);
}

TEST_CASE("the coin scene scales with the image size", "[coin_scene]") {
  const hb::CoinScene s = hb::make_coin_scene(600, 492, 1);
  CHECK(s.image.width == 600);
  CHECK(s.image.height == 492);
  CHECK(s.template_w == 104);
  CHECK(s.template_h == 104);
  CHECK(s.template_x == 420);
  CHECK(s.template_y == 296);
}

TEST_CASE("coin scenes with a side below 32 or too many pixels are usage errors", "[coin_scene]") {
  CHECK_THROWS_AS(hb::make_coin_scene(31, 100), hb::UsageError);
  CHECK_THROWS_AS(hb::make_coin_scene(100, 31), hb::UsageError);
  CHECK_THROWS_AS(hb::make_coin_scene(0, 100), hb::UsageError);
  CHECK_THROWS_AS(hb::make_coin_scene(hb::kMaxPgmSide + 1, 32), hb::UsageError);
  // Both sides allowed, their product not: refused before any allocation.
  CHECK_THROWS_WITH(hb::make_coin_scene(hb::kMaxPgmSide, 1024), Catch::Contains("pixels"));
  CHECK_NOTHROW(hb::make_coin_scene(32, 32));
}
