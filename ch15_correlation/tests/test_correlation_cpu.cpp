// Chapter 15 tests that need no GPU: the CPU reference against a naive double
// implementation, the search of the coin scene (the scene itself is tested with the common
// layer), padding, summed-area tables, the peak, the log transform and the PGM picture,
// argument validation, the packing and index arithmetic of variants 7 and 8 (emulated here
// against the PTX fragment layout), the models behind figures 15.3 and 15.4 and the committed
// figures, and the variant table's agreement with kernels/.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <utility>
#include <sstream>
#include <string>
#include <vector>

#include "correlation.h"
#include "figures/figures.h"
#include "kernels/fragments.h"
#include "hb/coin_scene.h"
#include "hb/error.h"
#include "hb/pgm.h"
#include "hb/random.h"
#include "hb/testing.h"

namespace {

using ch15::ExactSums;
using ch15::Template;

hb::GrayImage random_image(int w, int h, std::uint64_t seed, int lo = 0, int hi = 255) {
  hb::GrayImage img;
  img.width = w;
  img.height = h;
  img.pixels.resize(static_cast<std::size_t>(w) * h);
  for (std::size_t i = 0; i < img.pixels.size(); ++i)
    img.pixels[i] = static_cast<std::uint8_t>(hb::uniform_int(seed, i, lo, hi));
  return img;
}

Template random_template(int w, int h, std::uint64_t seed) {
  std::vector<std::uint8_t> p(static_cast<std::size_t>(w) * h);
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<std::uint8_t>(hb::uniform_int(seed, i, 0, 255));
  return ch15::make_template(std::move(p), w, h);
}

int clamp_to(int v, int n) { return std::min(std::max(v, 0), n - 1); }

// The window of output (x, y) as the chapter defines it: top-left at (x - w/2, y - h/2),
// pixels outside the image replaced by the nearest edge pixel.
std::uint8_t window_pixel(const hb::GrayImage& img, const Template& t, int x, int y, int i, int j) {
  return img.at(clamp_to(x - t.width / 2 + i, img.width), clamp_to(y - t.height / 2 + j, img.height));
}

// Section 15.1's first formula, with the means, in double, straight from the definition.
double naive_coefficient(const hb::GrayImage& img, const Template& t, int x, int y) {
  const double n = static_cast<double>(t.width) * t.height;
  double mean_i = 0, mean_t = 0;
  for (int j = 0; j < t.height; ++j)
    for (int i = 0; i < t.width; ++i) {
      mean_i += window_pixel(img, t, x, y, i, j);
      mean_t += t.at(i, j);
    }
  mean_i /= n;
  mean_t /= n;
  double num = 0, di = 0, dt = 0;
  for (int j = 0; j < t.height; ++j)
    for (int i = 0; i < t.width; ++i) {
      const double a = window_pixel(img, t, x, y, i, j) - mean_i, b = t.at(i, j) - mean_t;
      num += a * b;
      di += a * a;
      dt += b * b;
    }
  if (di <= 0 || dt <= 0) return 0.0;
  return num / std::sqrt(di * dt);
}

ExactSums naive_sums(const hb::GrayImage& img, const Template& t, int x, int y) {
  ExactSums s;
  for (int j = 0; j < t.height; ++j)
    for (int i = 0; i < t.width; ++i) {
      const std::int64_t p = window_pixel(img, t, x, y, i, j);
      s.sum_i += p;
      s.sum_isq += p * p;
      s.sum_it += p * t.at(i, j);
    }
  return s;
}

// The tile of block (bx, by) of variants 7 and 8, as load_image_tile() fills it.
std::vector<std::uint32_t> emulate_tile(const hb::GrayImage& img, const Template& t, int bx, int by,
                                        int words, int rows) {
  std::vector<std::uint32_t> tile(static_cast<std::size_t>(words) * rows);
  const int x0 = bx + ch15::window_x_offset(t.width), y0 = by + ch15::window_y_offset(t.height);
  for (int r = 0; r < rows; ++r)
    for (int q = 0; q < words; ++q) {
      std::uint32_t v = 0;
      for (int e = 0; e < 4; ++e)
        v |= static_cast<std::uint32_t>(img.at(clamp_to(x0 + 4 * q + e, img.width), clamp_to(y0 + r, img.height)))
             << (8 * e);
      tile[static_cast<std::size_t>(r) * words + q] = v;
    }
  return tile;
}

std::uint8_t tile_byte(const std::vector<std::uint32_t>& tile, int words, int r, int byte) {
  return static_cast<std::uint8_t>(tile[static_cast<std::size_t>(r) * words + byte / 4] >> (8 * (byte % 4)));
}

// The summed-area tables (integral images) of an image clamp-padded for a template of
// template_width x template_height: P(u, v) = I(clamp(u + x_offset), clamp(v + y_offset))
// for 0 <= u < W + template_width - 1 and 0 <= v < H + template_height - 1, and
// S(u, v) = the sum of P over [0, u) x [0, v), with S(0, .) = S(., 0) = 0; the same for P^2.
struct SummedAreaTables {
  int width = 0;   // columns of S: W + template_width
  int height = 0;  // rows of S: H + template_height
  std::vector<std::uint64_t> sum;     // S of P, row-major, width x height
  std::vector<std::uint64_t> sum_sq;  // S of P^2

  // Sum of P over the w x h window of output (x, y).
  std::uint64_t box(int x, int y, int w, int h) const { return box_of(sum, x, y, w, h); }
  // Sum of P^2 over the w x h window of output (x, y).
  std::uint64_t box_sq(int x, int y, int w, int h) const { return box_of(sum_sq, x, y, w, h); }

 private:
  std::uint64_t box_of(const std::vector<std::uint64_t>& s, int x, int y, int w, int h) const {
    const auto at = [&](int u, int v) { return s[static_cast<std::size_t>(v) * width + u]; };
    return at(x + w, y + h) - at(x, y + h) - at(x + w, y) + at(x, y);
  }
};

// The summed-area tables of an image for templates of the given size: a CPU model of the
// denominator of the FFT route (variant 9, section 15.8).
SummedAreaTables summed_area_tables(const hb::GrayImage& image, int template_width,
                                    int template_height) {
  SummedAreaTables s;
  const int pw = image.width + template_width - 1, ph = image.height + template_height - 1;
  s.width = pw + 1;
  s.height = ph + 1;
  s.sum.assign(static_cast<std::size_t>(s.width) * s.height, 0);
  s.sum_sq.assign(s.sum.size(), 0);
  const int x_off = ch15::window_x_offset(template_width), y_off = ch15::window_y_offset(template_height);
  for (int v = 0; v < ph; ++v) {
    const int iy = std::clamp(v + y_off, 0, image.height - 1);
    std::uint64_t row = 0, row_sq = 0;
    for (int u = 0; u < pw; ++u) {
      const std::uint64_t p = image.at(std::clamp(u + x_off, 0, image.width - 1), iy);
      row += p;
      row_sq += p * p;
      const std::size_t at = static_cast<std::size_t>(v + 1) * s.width + (u + 1);
      const std::size_t above = static_cast<std::size_t>(v) * s.width + (u + 1);
      s.sum[at] = s.sum[above] + row;
      s.sum_sq[at] = s.sum_sq[above] + row_sq;
    }
  }
  return s;
}

}  // namespace

TEST_CASE("the CPU reference matches a naive double implementation on small random images") {
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed << " (replay with HB_TEST_SEED)");
  struct Size {
    int w, h;
  };
  for (const Size img_size : {Size{1, 1}, Size{7, 5}, Size{13, 11}, Size{33, 17}, Size{40, 3}}) {
    const hb::GrayImage img = random_image(img_size.w, img_size.h, seed + img_size.w);
    for (const Size ts : {Size{1, 1}, Size{3, 5}, Size{4, 4}, Size{5, 2}, Size{9, 7}, Size{15, 17}}) {
      const Template t = random_template(ts.w, ts.h, seed + 7 * ts.w + ts.h);
      INFO("image " << img.width << " x " << img.height << ", template " << t.width << " x " << t.height);
      const auto sums = ch15::cpu_sums(img, t, 3);
      const auto coef = ch15::cpu_coefficients(sums, t.stats);
      for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
          INFO("output (" << x << ", " << y << ")");
          const std::size_t i = static_cast<std::size_t>(y) * img.width + x;
          const ExactSums want = naive_sums(img, t, x, y);
          CHECK(sums[i].sum_i == want.sum_i);
          CHECK(sums[i].sum_isq == want.sum_isq);
          CHECK(sums[i].sum_it == want.sum_it);
          CHECK(coef[i] == Approx(naive_coefficient(img, t, x, y)).margin(1e-9));
        }
    }
  }
}

TEST_CASE("templates cut at every edge and corner match themselves with coefficient one at their centre") {
  const hb::GrayImage img = random_image(31, 23, hb::test_seed() + 1);
  for (int w : {1, 2, 5, 8}) {
    for (int h : {2, 3, 7}) {
      for (int x : {0, 31 - w, (31 - w) / 2}) {
        for (int y : {0, 23 - h, (23 - h) / 2}) {
          INFO("template " << w << " x " << h << " at (" << x << ", " << y << ")");
          const Template t = ch15::cut_template(img, x, y, w, h);
          const auto coef = ch15::cpu_coefficients(ch15::cpu_sums(img, t, 1), t.stats);
          const int cx = x + w / 2, cy = y + h / 2;
          CHECK(coef[static_cast<std::size_t>(cy) * img.width + cx] == Approx(1.0).margin(1e-12));
          const ch15::Peak p = ch15::cpu_peak(coef, img.width);
          CHECK(p.value == Approx(1.0).margin(1e-12));
        }
      }
    }
  }
}

TEST_CASE("pixels outside the image are those of the nearest edge") {
  hb::GrayImage img;
  img.width = 3;
  img.height = 1;
  img.pixels = {10, 20, 30};
  const Template t = ch15::make_template({1, 2, 3}, 3, 1);
  const auto sums = ch15::cpu_sums(img, t, 1);
  // Output 0's window starts one pixel left of the image: 10 10 20.
  CHECK(sums[0].sum_i == 40);
  CHECK(sums[0].sum_it == 10 * 1 + 10 * 2 + 20 * 3);
  // Output 2's window ends one pixel right of it: 20 30 30.
  CHECK(sums[2].sum_i == 80);
  CHECK(sums[2].sum_isq == 400 + 900 + 900);
  CHECK(sums[2].sum_it == 20 * 1 + 30 * 2 + 30 * 3);
}

TEST_CASE("coefficients do not change when the template's brightness and contrast change") {
  // The amplitude independence that makes the coefficient popular: T and 2 T + 40 match
  // every window equally well.
  const hb::GrayImage img = random_image(40, 30, hb::test_seed() + 2);
  const Template t = random_template(6, 5, hb::test_seed() + 3);
  std::vector<std::uint8_t> a(t.pixels.size()), b(t.pixels.size());
  for (std::size_t i = 0; i < t.pixels.size(); ++i) {
    a[i] = static_cast<std::uint8_t>(t.pixels[i] / 3);
    b[i] = static_cast<std::uint8_t>(2 * a[i] + 40);
  }
  const Template ta = ch15::make_template(a, 6, 5), tb = ch15::make_template(b, 6, 5);
  const auto ca = ch15::cpu_coefficients(ch15::cpu_sums(img, ta, 2), ta.stats);
  const auto cb = ch15::cpu_coefficients(ch15::cpu_sums(img, tb, 2), tb.stats);
  for (std::size_t i = 0; i < ca.size(); ++i) CHECK(cb[i] == Approx(ca[i]).margin(1e-12));
}

TEST_CASE("a flat window or a flat template gives coefficient zero") {
  hb::GrayImage img;
  img.width = 6;
  img.height = 6;
  img.pixels.assign(36, 77);
  const Template t = random_template(3, 3, 5);
  for (double c : ch15::cpu_coefficients(ch15::cpu_sums(img, t, 1), t.stats)) CHECK(c == 0.0);
  const Template flat = ch15::make_template(std::vector<std::uint8_t>(9, 9), 3, 3);
  CHECK(flat.stats.variance == 0);
  const hb::GrayImage noisy = random_image(6, 6, 9);
  for (double c : ch15::cpu_coefficients(ch15::cpu_sums(noisy, flat, 1), flat.stats)) CHECK(c == 0.0);
}

TEST_CASE("template statistics are exact and the book's double denominator equals them") {
  const Template t = ch15::make_template({0, 255, 255, 1}, 2, 2);
  CHECK(t.stats.n == 4);
  CHECK(t.stats.sum == 511);
  CHECK(t.stats.sum_sq == 2 * 65025 + 1);
  CHECK(t.stats.variance == 4 * (2 * 65025 + 1) - 511 * 511);
  CHECK(t.stats.denom_exp == static_cast<double>(t.stats.variance));
  const Template big = random_template(256, 256, 11);
  CHECK(big.stats.denom_exp == static_cast<double>(big.stats.variance));
}

TEST_CASE("template validation rejects empty and oversized and flat templates and rectangles outside the image") {
  const hb::GrayImage img = random_image(50, 40, 3);
  CHECK_THROWS_AS(ch15::cut_template(img, 0, 0, 0, 5), hb::UsageError);
  CHECK_THROWS_AS(ch15::cut_template(img, 0, 0, 5, -1), hb::UsageError);
  CHECK_THROWS_AS(ch15::cut_template(img, -1, 0, 5, 5), hb::UsageError);
  CHECK_THROWS_AS(ch15::cut_template(img, 46, 0, 5, 5), hb::UsageError);
  CHECK_THROWS_AS(ch15::cut_template(img, 0, 36, 5, 5), hb::UsageError);
  CHECK_NOTHROW(ch15::cut_template(img, 45, 35, 5, 5));
  CHECK_THROWS_WITH(ch15::cut_template(img, 49, 0, 2, 2), Catch::Contains("not inside"));
  CHECK_THROWS_AS(ch15::validate_template_size(1025, 1), hb::UsageError);
  CHECK_THROWS_AS(ch15::validate_template_size(257, 256), hb::UsageError);
  CHECK_NOTHROW(ch15::validate_template_size(256, 256));
  CHECK_NOTHROW(ch15::validate_template_size(1024, 64));
  hb::GrayImage flat = img;
  std::fill(flat.pixels.begin(), flat.pixels.end(), 12);
  CHECK_THROWS_WITH(ch15::cut_template(flat, 0, 0, 4, 4), Catch::Contains("flat"));
}

TEST_CASE("the default template matches itself best and the other dimes better than the other coins") {
  const hb::CoinScene s = hb::make_coin_scene();
  const Template t = ch15::cut_template(s.image, s.template_x, s.template_y, s.template_w, s.template_h);
  const auto coef = ch15::cpu_coefficients(ch15::cpu_sums(s.image, t), t.stats);
  const ch15::Peak p = ch15::cpu_peak(coef, s.image.width);
  CHECK(p.x == 236);
  CHECK(p.y == 174);
  CHECK(p.value == Approx(1.0).margin(1e-12));
  // The best coefficient near each coin's centre: dimes beat every other kind.
  double worst_dime = 1.0, best_other = -1.0;
  for (std::size_t i = 0; i < s.coins.size(); ++i) {
    if (static_cast<int>(i) == s.template_coin) continue;
    const auto& c = s.coins[i];
    double best = -1.0;
    for (int y = static_cast<int>(c.cy) - 3; y <= static_cast<int>(c.cy) + 3; ++y)
      for (int x = static_cast<int>(c.cx) - 3; x <= static_cast<int>(c.cx) + 3; ++x)
        best = std::max(best, coef[static_cast<std::size_t>(y) * s.image.width + x]);
    if (c.kind == hb::CoinKind::Dime) worst_dime = std::min(worst_dime, best);
    else best_other = std::max(best_other, best);
  }
  CHECK(worst_dime > best_other);
  CHECK(worst_dime < 0.999);
}

TEST_CASE("padding keeps the image at the top left and fills the rest deterministically") {
  const hb::GrayImage img = random_image(5, 4, 1);
  const hb::GrayImage p = ch15::pad_image(img, 9, 7, 3);
  CHECK(p.width == 9);
  CHECK(p.height == 7);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 5; ++x) CHECK(p.at(x, y) == img.at(x, y));
  CHECK(ch15::pad_image(img, 9, 7, 3).pixels == p.pixels);
  CHECK(ch15::pad_image(img, 5, 4, 3).pixels == img.pixels);
  CHECK_THROWS_AS(ch15::pad_image(img, 4, 10, 3), hb::UsageError);
  CHECK_THROWS_AS(ch15::pad_image(img, 10, 3, 3), hb::UsageError);
}

TEST_CASE("summed-area tables give the same box sums as the direct sums") {
  const hb::GrayImage img = random_image(37, 29, hb::test_seed() + 4);
  for (auto [w, h] : {std::pair{1, 1}, std::pair{5, 3}, std::pair{16, 16}, std::pair{37, 29}, std::pair{52, 40}}) {
    INFO("template " << w << " x " << h);
    const Template t = random_template(w, h, 8);
    const auto sums = ch15::cpu_sums(img, t, 2);
    const SummedAreaTables s = summed_area_tables(img, w, h);
    CHECK(s.width == img.width + w);
    CHECK(s.height == img.height + h);
    for (int y = 0; y < img.height; ++y)
      for (int x = 0; x < img.width; ++x) {
        const auto& want = sums[static_cast<std::size_t>(y) * img.width + x];
        CHECK(s.box(x, y, w, h) == static_cast<std::uint64_t>(want.sum_i));
        CHECK(s.box_sq(x, y, w, h) == static_cast<std::uint64_t>(want.sum_isq));
      }
  }
}

TEST_CASE("summed-area tables that wrap around in 32 bits still give exact box sums") {
  // Variant 9 keeps its tables in 32-bit words, which overflow for large images. The box sum
  // is a difference of four table entries, so arithmetic modulo 2^32 gives it exactly as
  // long as the box sum itself is below 2^32: here 255^2 per pixel over a 256 x 256 window.
  hb::GrayImage img;
  img.width = 700;
  img.height = 300;
  img.pixels.assign(static_cast<std::size_t>(img.width) * img.height, 255);
  const SummedAreaTables s = summed_area_tables(img, 256, 256);
  CHECK(s.sum_sq.back() > 0xffffffffull);  // the table itself does not fit 32 bits
  const auto wrapped = [&](int u, int v) {
    return static_cast<std::uint32_t>(s.sum_sq[static_cast<std::size_t>(v) * s.width + u]);
  };
  for (auto [x, y] : {std::pair{0, 0}, std::pair{699, 299}, std::pair{350, 150}}) {
    const std::uint32_t box = wrapped(x + 256, y + 256) - wrapped(x, y + 256) - wrapped(x + 256, y) + wrapped(x, y);
    CHECK(box == 256u * 256u * 65025u);
    CHECK(box == s.box_sq(x, y, 256, 256));
  }
}

TEST_CASE("the peak is the first largest value and NaN never wins") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> v = {0.1, nan, 0.9, -2.0, 0.9, 0.3};
  const ch15::Peak p = ch15::cpu_peak(v, 3);
  CHECK(p.x == 2);
  CHECK(p.y == 0);
  CHECK(p.value == 0.9);
  const std::vector<float> f = {-1.0f, -0.5f, std::numeric_limits<float>::quiet_NaN(), -0.5f};
  const ch15::Peak q = ch15::cpu_peak(f, 2);
  CHECK(q.x == 1);
  CHECK(q.y == 0);
  const ch15::Peak none = ch15::cpu_peak(std::vector<double>{nan, nan}, 2);
  CHECK(none.x == -1);
}

TEST_CASE("the log transform maps coefficients to pixels as figure 15.2 does") {
  CHECK(ch15::log_transform_pixel(-1.0) == 0);
  CHECK(ch15::log_transform_pixel(0.0) == 0);
  CHECK(ch15::log_transform_pixel(std::nan("")) == 0);
  CHECK(ch15::log_transform_pixel(1.0) == 255);
  CHECK(ch15::log_transform_pixel(1.5) == 255);
  CHECK(ch15::log_transform_pixel(0.5) == std::lround(255.0 * std::log(1.0 + 127.5) / std::log(256.0)));
  // Weak matches are brightened: a coefficient of 0.1 is already half the gray range.
  CHECK(ch15::log_transform_pixel(0.1) > 120);
  int last = -1;
  for (int k = 0; k <= 1000; ++k) {
    const int p = ch15::log_transform_pixel(k / 1000.0);
    CHECK(p >= last);
    last = p;
  }
}

TEST_CASE("the correlation picture is a valid PGM that reads back unchanged") {
  const std::vector<float> c = {-0.5f, 0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
  const hb::GrayImage img = ch15::log_transform_image(c, 3, 2);
  CHECK(img.width == 3);
  CHECK(img.height == 2);
  CHECK(img.pixels[0] == 0);
  CHECK(img.pixels[5] == 255);
  const hb::GrayImage back = hb::parse_pgm(hb::format_pgm(img), "picture");
  CHECK(back.pixels == img.pixels);
  // Through the file system, as --output writes it.
  const std::string path = "ch15_test_picture.pgm";
  hb::write_pgm(path, img);
  CHECK(hb::read_pgm(path).pixels == img.pixels);
  std::remove(path.c_str());
}

TEST_CASE("the problem is the coin scene and its dime unless flags say otherwise") {
  ch15::ProblemOptions o;
  ch15::Problem p = ch15::make_problem(o, 20261122);
  CHECK(p.image.width == 300);
  CHECK(p.tmpl.x == 210);
  CHECK(p.tmpl.y == 148);
  CHECK(p.tmpl.width == 52);
  CHECK(p.tmpl.height == 52);
  CHECK(p.focus_x == 236);

  o.pad_width = o.pad_height = 1024;
  o.w_template = o.h_template = 16;
  p = ch15::make_problem(o, 20261122);
  CHECK(p.image.width == 1024);
  CHECK(p.original_width == 300);
  CHECK(p.tmpl.x == 210);
  CHECK(p.tmpl.width == 16);

  ch15::ProblemOptions one;
  one.pad_width = 1024;
  CHECK_THROWS_WITH(ch15::make_problem(one, 1), Catch::Contains("go together"));
  ch15::ProblemOptions outside;
  outside.x_template = 260;
  CHECK_THROWS_AS(ch15::make_problem(outside, 1), hb::UsageError);
  ch15::ProblemOptions missing;
  missing.input = "no_such_file.pgm";
  CHECK_THROWS_AS(ch15::make_problem(missing, 1), hb::UsageError);
}

TEST_CASE("an input image gets a centred template") {
  const hb::GrayImage img = random_image(100, 60, 2);
  const std::string path = "ch15_test_input.pgm";
  hb::write_pgm(path, img, hb::PgmFormat::Ascii);
  ch15::ProblemOptions o;
  o.input = path;
  const ch15::Problem p = ch15::make_problem(o, 1);
  CHECK(p.image.pixels == img.pixels);
  CHECK(p.tmpl.width == 52);
  CHECK(p.tmpl.x == 24);
  CHECK(p.tmpl.y == 4);
  std::remove(path.c_str());
}

TEST_CASE("the neighbourhood table is the 9 x 9 coefficients around the centre clamped to the image") {
  std::vector<double> c(20 * 10);
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = static_cast<double>(i);
  const auto rows = ch15::neighbourhood(c, 20, 10, 5, 5);
  REQUIRE(rows.size() == 9);
  CHECK(rows[4][4] == 5 * 20 + 5);
  CHECK(rows[0][0] == 1 * 20 + 1);
  CHECK(rows[8][8] == 9 * 20 + 9);  // row 9 is the last: clamped
  const auto corner = ch15::neighbourhood(c, 20, 10, 0, 0);
  CHECK(corner[0][0] == 0);
}

TEST_CASE("variant 7's shape covers every template width and fits its tile") {
  for (int w = 1; w <= ch15::kMaxTemplateSide; ++w) {
    INFO("width " << w);
    const ch15::Dp4aShape s = ch15::dp4a_shape(w);
    const auto& counts = ch15::dp4a_word_counts();
    CHECK(std::find(counts.begin(), counts.end(), s.words_per_band) != counts.end());
    CHECK(s.bands * s.words_per_band >= (w + 3 + 3) / 4);
    CHECK(4 * s.tile_words >= ch15::kFusedTileWidth + w - 1);
    if (s.bands == 1) CHECK(s.words_per_band <= (w + 3 + 3) / 4 + 3);
  }
  CHECK(ch15::dp4a_shape(52).words_per_band == 14);
  CHECK(ch15::dp4a_shape(16).words_per_band == 5);
  CHECK(ch15::dp4a_shape(8).words_per_band == 3);
}

TEST_CASE("variant 7's packed words put each template pixel where the shifted output reads it") {
  // Emulates the kernel's loops on the CPU with the packed template and __dp4a's arithmetic,
  // for every output of images that are not multiples of the tile.
  const std::uint64_t seed = hb::test_seed() + 5;
  INFO("seed " << seed);
  const hb::GrayImage img = random_image(150, 40, seed);
  for (auto [w, h] : {std::pair{1, 1}, std::pair{3, 5}, std::pair{16, 16}, std::pair{52, 9}, std::pair{70, 3}}) {
    INFO("template " << w << " x " << h);
    const Template t = random_template(w, h, seed + w);
    const auto ref = ch15::cpu_sums(img, t, 2);
    const ch15::Dp4aShape shape = ch15::dp4a_shape(w);
    const auto packed = ch15::pack_dp4a_template(t, shape);
    const int nq = shape.words_per_band, rows = ch15::kFusedTileHeight + h - 1;
    std::size_t checked = 0, wrong = 0;
    for (int by = 0; by < img.height; by += ch15::kFusedTileHeight) {
      for (int bx = 0; bx < img.width; bx += ch15::kFusedTileWidth) {
        const auto tile = emulate_tile(img, t, bx, by, shape.tile_words, rows);
        for (int ty = 0; ty < ch15::kDp4aThreads / 32; ++ty) {
          for (int tx = 0; tx < 32; ++tx) {
            const int k0 = ty * ch15::kDp4aRowsPerThread;
            std::uint32_t acc[ch15::kDp4aRowsPerThread][4] = {};
            for (int b = 0; b < shape.bands; ++b)
              for (int j = 0; j < h; ++j)
                for (int k = 0; k < ch15::kDp4aRowsPerThread; ++k)
                  for (int q = 0; q < nq; ++q) {
                    const std::uint32_t word =
                        tile[static_cast<std::size_t>(k0 + j + k) * shape.tile_words + tx + b * nq + q];
                    for (int s = 0; s < 4; ++s)
                      acc[k][s] = ch15::dp4a_reference(
                          word, packed[((static_cast<std::size_t>(j) * shape.bands + b) * nq + q) * 4 + s], acc[k][s]);
                  }
            for (int k = 0; k < ch15::kDp4aRowsPerThread; ++k)
              for (int s = 0; s < 4; ++s) {
                const int x = bx + 4 * tx + s, y = by + k0 + k;
                if (x >= img.width || y >= img.height) continue;
                ++checked;
                wrong += acc[k][s] != ref[static_cast<std::size_t>(y) * img.width + x].sum_it;
              }
          }
        }
      }
    }
    CHECK(checked == img.pixels.size());
    CHECK(wrong == 0);
  }
}

TEST_CASE("variant 8's A words and C columns follow the PTX fragment layout of mma m16n8k32") {
  // A[m][k] is tile byte 8 m + 32 c + k of the row; the four bytes of register reg of each
  // lane must be one aligned word, the one tensor_a_word() names.
  for (int lane = 0; lane < 32; ++lane) {
    for (int reg = 0; reg < 4; ++reg) {
      for (int c = 0; c < 3; ++c) {
        for (int byte = 0; byte < 4; ++byte) {
          int m = 0, k = 0;
          ch15::mma_a_position(lane, reg, byte, m, k);
          const int tile_byte = 8 * m + 32 * c + k;
          CHECK(tile_byte == 4 * ch15::tensor_a_word(lane, reg, c) + byte);
        }
      }
      int m = 0, n = 0;
      ch15::mma_c_position(lane, reg, m, n);
      CHECK(ch15::tensor_c_column(lane, reg) == 8 * m + n);
    }
  }
  // Every (row, column) of A, B and C belongs to exactly one (lane, register, byte).
  std::set<std::pair<int, int>> a, b, c;
  for (int lane = 0; lane < 32; ++lane)
    for (int reg = 0; reg < 4; ++reg) {
      int r = 0, col = 0;
      ch15::mma_c_position(lane, reg, r, col);
      c.insert({r, col});
      for (int byte = 0; byte < 4; ++byte) {
        ch15::mma_a_position(lane, reg, byte, r, col);
        a.insert({r, col});
        if (reg < 2) {
          ch15::mma_b_position(lane, reg, byte, r, col);
          b.insert({r, col});
        }
      }
    }
  CHECK(a.size() == 16 * 32);
  CHECK(b.size() == 32 * 8);
  CHECK(c.size() == 16 * 8);
  CHECK(ch15::tensor_chunks(25) == 1);
  CHECK(ch15::tensor_chunks(26) == 2);
  CHECK(ch15::tensor_chunks(52) == 2);
}

TEST_CASE("variant 8's fragments multiplied by the PTX layout give the exact sums") {
  // Emulates the tensor-core kernel: A registers from the tile words, B registers from the
  // packed fragments, each mma.m16n8k32 as the matrix product that the PTX layout defines,
  // and the accumulators read back through the C layout.
  const std::uint64_t seed = hb::test_seed() + 6;
  INFO("seed " << seed);
  const hb::GrayImage img = random_image(140, 37, seed);
  for (auto [w, h] : {std::pair{1, 1}, std::pair{3, 5}, std::pair{25, 2}, std::pair{26, 4}, std::pair{52, 10}, std::pair{100, 3}}) {
    INFO("template " << w << " x " << h);
    const Template t = random_template(w, h, seed + w);
    const auto ref = ch15::cpu_sums(img, t, 2);
    const int chunks = ch15::tensor_chunks(w), words = ch15::tensor_tile_words(chunks);
    const auto frags = ch15::pack_tensor_template(t, chunks);
    const int rows = ch15::kFusedTileHeight + h - 1;
    std::size_t checked = 0, wrong = 0;
    for (int by = 0; by < img.height; by += ch15::kFusedTileHeight) {
      for (int bx = 0; bx < img.width; bx += ch15::kFusedTileWidth) {
        const auto tile = emulate_tile(img, t, bx, by, words, rows);
        for (int warp = 0; warp < ch15::kTensorThreads / 32; ++warp) {
          const int k0 = warp * ch15::kTensorRowsPerWarp;
          std::vector<std::int64_t> acc(ch15::kTensorRowsPerWarp * 16 * 8, 0);  // [k][m][n]
          for (int r = 0; r < ch15::kTensorRowsPerWarp + h - 1; ++r) {
            for (int c = 0; c < chunks; ++c) {
              int A[16][32] = {}, B[32][8] = {};
              for (int lane = 0; lane < 32; ++lane)
                for (int reg = 0; reg < 4; ++reg) {
                  const std::uint32_t word =
                      tile[static_cast<std::size_t>(k0 + r) * words + ch15::tensor_a_word(lane, reg, c)];
                  for (int byte = 0; byte < 4; ++byte) {
                    int m = 0, k = 0;
                    ch15::mma_a_position(lane, reg, byte, m, k);
                    A[m][k] = static_cast<int>((word >> (8 * byte)) & 0xFF);
                  }
                }
              for (int kk = 0; kk < ch15::kTensorRowsPerWarp; ++kk) {
                const int j = r - kk;
                if (j < 0 || j >= h) continue;
                for (int lane = 0; lane < 32; ++lane)
                  for (int reg = 0; reg < 2; ++reg) {
                    const std::uint32_t word = frags[((static_cast<std::size_t>(j) * chunks + c) * 32 + lane) * 2 + reg];
                    for (int byte = 0; byte < 4; ++byte) {
                      int k = 0, n = 0;
                      ch15::mma_b_position(lane, reg, byte, k, n);
                      B[k][n] = static_cast<int>((word >> (8 * byte)) & 0xFF);
                    }
                  }
                for (int m = 0; m < 16; ++m)
                  for (int n = 0; n < 8; ++n) {
                    std::int64_t d = 0;
                    for (int k = 0; k < 32; ++k) d += A[m][k] * B[k][n];
                    acc[(static_cast<std::size_t>(kk) * 16 + m) * 8 + n] += d;
                  }
              }
            }
          }
          for (int kk = 0; kk < ch15::kTensorRowsPerWarp; ++kk)
            for (int lane = 0; lane < 32; ++lane)
              for (int reg = 0; reg < 4; ++reg) {
                int m = 0, n = 0;
                ch15::mma_c_position(lane, reg, m, n);
                const int x = bx + ch15::tensor_c_column(lane, reg), y = by + k0 + kk;
                if (x >= img.width || y >= img.height) continue;
                ++checked;
                wrong += acc[(static_cast<std::size_t>(kk) * 16 + m) * 8 + n] !=
                         ref[static_cast<std::size_t>(y) * img.width + x].sum_it;
              }
        }
      }
    }
    CHECK(checked == img.pixels.size());
    CHECK(wrong == 0);
  }
}

TEST_CASE("the box sums of the fused kernels equal the direct sums") {
  // Emulates box_sums(): column sums sliding down, then row sums sliding right, per tile.
  const hb::GrayImage img = random_image(133, 45, hb::test_seed() + 7);
  for (auto [w, h] : {std::pair{1, 1}, std::pair{4, 7}, std::pair{33, 17}, std::pair{52, 52}}) {
    INFO("template " << w << " x " << h);
    const Template t = random_template(w, h, 3);
    const auto ref = ch15::cpu_sums(img, t, 2);
    const int words = ch15::dp4a_shape(w).tile_words, rows = ch15::kFusedTileHeight + h - 1;
    const ch15::FusedLayout layout = ch15::fused_layout(w, h, words);
    CHECK(layout.box_pitch % 2 == 1);
    CHECK(layout.box_pitch >= ch15::kFusedTileWidth + w - 1);
    std::size_t wrong = 0;
    for (int by = 0; by < img.height; by += ch15::kFusedTileHeight) {
      for (int bx = 0; bx < img.width; bx += ch15::kFusedTileWidth) {
        const auto tile = emulate_tile(img, t, bx, by, words, rows);
        const int columns = ch15::kFusedTileWidth + w - 1;
        std::vector<std::uint32_t> v1(ch15::kFusedTileHeight * columns), v2(v1.size());
        for (int u = 0; u < columns; ++u) {
          std::uint32_t s1 = 0, s2 = 0;
          for (int j = 0; j < h; ++j) {
            const std::uint32_t b = tile_byte(tile, words, j, u);
            s1 += b;
            s2 += b * b;
          }
          for (int k = 0; k < ch15::kFusedTileHeight; ++k) {
            v1[k * columns + u] = s1;
            v2[k * columns + u] = s2;
            if (k + 1 < ch15::kFusedTileHeight) {
              const std::uint32_t out = tile_byte(tile, words, k, u), in = tile_byte(tile, words, k + h, u);
              s1 += in - out;
              s2 += in * in - out * out;
            }
          }
        }
        // Each warp of a block of variant 7 or 8 slides along its share of the columns.
        for (const int threads : {ch15::kDp4aThreads, ch15::kTensorThreads}) {
          for (int k = 0; k < ch15::kFusedTileHeight; ++k) {
            const int columns_per_warp = ch15::kFusedTileWidth / (threads / 32);
            for (int x0 = 0; x0 < ch15::kFusedTileWidth; x0 += columns_per_warp) {
              std::uint32_t h1 = 0, h2 = 0;
              for (int i = 0; i < w; ++i) h1 += v1[k * columns + x0 + i], h2 += v2[k * columns + x0 + i];
              for (int m = 0; m < columns_per_warp; ++m) {
                const int x = bx + x0 + m, y = by + k;
                if (x < img.width && y < img.height) {
                  const auto& want = ref[static_cast<std::size_t>(y) * img.width + x];
                  wrong += h1 != want.sum_i || h2 != want.sum_isq;
                }
                if (m + 1 < columns_per_warp) {
                  h1 += v1[k * columns + x0 + m + w] - v1[k * columns + x0 + m];
                  h2 += v2[k * columns + x0 + m + w] - v2[k * columns + x0 + m];
                }
              }
            }
          }
        }
      }
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("shared memory needs follow listing 15.6 and stay within Hopper's opt-in limit") {
  // Listing 15.6: rows of wTile + wTemplate - 1 bytes rounded up to 64, blockDim.y +
  // hTemplate - 1 of them.
  CHECK(ch15::book_shared_bytes(52, 52) == 128 * 59);
  CHECK(ch15::book_shared_bytes(1, 1) == 64 * 8);
  CHECK(ch15::book_shared_bytes(33, 3) == 64 * 10);
  constexpr std::size_t kHopperOptIn = 227 * 1024;
  for (int side : {8, 16, 52, 64, 128, 200, 256}) {
    INFO("template " << side << " x " << side);
    CHECK(ch15::dp4a_shared_bytes(side, side) <= kHopperOptIn);
    CHECK(ch15::tensor_shared_bytes(side, side) <= kHopperOptIn);
  }
  CHECK(ch15::dp4a_shared_bytes(16, 16) <= 48 * 1024);
  // A wide template needs more than any block may have: variants 7 and 8 fall back.
  CHECK(ch15::dp4a_shared_bytes(1000, 16) > kHopperOptIn);
  CHECK(ch15::tensor_shared_bytes(1000, 16) > kHopperOptIn);
  CHECK(ch15::book_shared_bytes(1000, 16) <= kHopperOptIn);
}

TEST_CASE("constant memory holds templates up to its capacity") {
  CHECK(ch15::kConstantTemplateBytes <= 64 * 1024);
  CHECK(ch15::fits_constant_memory(random_template(255, 256, 1)));
  CHECK(ch15::fits_constant_memory(random_template(1020, 64, 1)));
  CHECK_FALSE(ch15::fits_constant_memory(random_template(673, 97, 1)));
  CHECK_FALSE(ch15::fits_constant_memory(random_template(256, 256, 1)));
}

TEST_CASE("FFT sizes are even products of 2 3 5 and 7 at least as large as asked") {
  for (int n = 1; n <= 5000; ++n) {
    const int m = ch15::good_fft_size(n);
    INFO("n " << n << " -> " << m);
    CHECK(m >= n);
    CHECK(m % 2 == 0);
    int r = m;
    for (int p : {2, 3, 5, 7})
      while (r % p == 0) r /= p;
    CHECK(r == 1);
    for (int k = std::max(n, 2); k < m; ++k) {
      if (k % 2 != 0) continue;
      int rr = k;
      for (int p : {2, 3, 5, 7})
        while (rr % p == 0) rr /= p;
      CHECK(rr != 1);
    }
    if (n > 400) n += 37;  // fewer checks for larger sizes
  }
  CHECK(ch15::good_fft_size(1075) == 1080);
  CHECK(ch15::good_fft_size(1024) == 1024);
}

TEST_CASE("every variant in the table has a name and a title") {
  std::set<std::string> ids, names;
  const auto& t = ch15::variants();
  for (std::size_t i = 0; i < t.size(); ++i) {
    const auto& v = t[i];
    INFO("variant " << v.id);
    CHECK(std::string(v.id) == std::to_string(i));
    CHECK(std::string(v.title).size() > 10);
    CHECK(ids.insert(v.id).second);
    CHECK(names.insert(v.name).second);
    CHECK(std::regex_match(std::string(v.name), std::regex("[a-z0-9_]+")));
    CHECK(v.is_cpu() == (i == 0));
    CHECK((v.prepare == nullptr) == v.is_cpu());
  }
  // The paths the launchers return are named as the variants whose kernels they are.
  using ch15::Path;
  for (const Path p : {Path::Cpu, Path::TexTex, Path::TexConstant, Path::Shared, Path::SharedUmul24, Path::Shared4,
                       Path::SharedFixed, Path::Dp4a, Path::Tensor, Path::Fft})
    CHECK(names.count(ch15::to_string(p)) == 1);
}

TEST_CASE("every row of the variant table is the CPU or a file of kernels/, in the same order") {
  // CMake lists the CPU reference and kernels/ as id:program pairs; the table must match.
  std::vector<std::string> programs;
  std::istringstream in(CH15_PROGRAMS);
  for (std::string pair; in >> pair;) programs.push_back(pair);
  std::vector<std::string> rows;
  for (const auto& v : ch15::variants()) rows.push_back(std::string(v.id) + ":" + v.program());
  CHECK(rows == programs);
}

TEST_CASE("unknown variant ids are usage errors that list the valid ones") {
  CHECK(std::string(ch15::find_variant("5").name) == "shared4");
  CHECK_THROWS_AS(ch15::find_variant("11"), hb::UsageError);
  CHECK_THROWS_WITH(ch15::find_variant("x"), Catch::Contains("9"));
  CHECK(ch15::find_variant("9").program() == "corr_fft");
}

TEST_CASE("only the tensor-core variant declares a capability, 8.0, and falls back to variant 7's path", "[table]") {
  for (const auto& v : ch15::variants()) {
    INFO("variant " << v.id << " " << v.name);
    if (std::string(v.id) == "8") {
      CHECK(v.needs.cc == 80);
      CHECK(v.needs.below != nullptr);
      CHECK(v.path() == ch15::Path::Tensor);
      CHECK(v.path_below == ch15::find_variant("7").path());
    } else {
      CHECK_FALSE(hb::needs_anything(v.needs));
    }
  }
}

// ---------------------------------------------------------------------------------------
// Figures 15.3 and 15.4: the models of the kernels' loops, and the committed drawings.

namespace {

std::string read_source(const std::string& relative) {
  return hb::read_text_file(std::string(CH15_SOURCE_DIR) + "/" + relative);
}

}  // namespace

TEST_CASE("figure 15.3's model: every thread walks the template once in row order and a warp reads one constant address per step") {
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed << " (replay with HB_TEST_SEED)");
  const hb::GrayImage img = random_image(45, 19, seed + 3);
  for (const auto& size : {std::pair<int, int>{1, 1}, {6, 4}, {5, 7}, {16, 16}}) {
    const Template t = random_template(size.first, size.second, seed + size.first);
    INFO("template " << t.width << " x " << t.height);
    const auto want = ch15::cpu_sums(img, t, 1);
    // Warps as variant 2 launches them: 32 consecutive outputs of one row.
    for (int row : {0, 9, 18}) {
      for (int col0 : {0, 13}) {
        std::vector<std::vector<ch15::ConstantStep>> warp;
        for (int lane = 0; lane < 32; ++lane)
          warp.push_back(ch15::constant_template_steps(col0 + lane, row, t.width, t.height));
        for (std::size_t k = 0; k < t.pixels.size(); ++k) {
          std::set<int> addresses, columns;
          for (const auto& steps : warp) {
            REQUIRE(steps.size() == t.pixels.size());
            addresses.insert(steps[k].k);
            columns.insert(steps[k].x);
          }
          CHECK(addresses == std::set<int>{static_cast<int>(k)});  // one address: a broadcast
          CHECK(columns.size() == 32);                              // 32 pixels: one per thread
        }
        // The model's reads, clamped as the texture clamps them, give the CPU reference's sums.
        for (int lane = 0; lane < 32; ++lane) {
          const int col = col0 + lane;
          if (col >= img.width) continue;
          ExactSums e;
          for (const ch15::ConstantStep& st : warp[static_cast<std::size_t>(lane)]) {
            const std::int64_t I = img.at(clamp_to(st.x, img.width), clamp_to(st.y, img.height));
            e.sum_i += I;
            e.sum_isq += I * I;
            e.sum_it += I * t.pixels[static_cast<std::size_t>(st.k)];
          }
          const ExactSums& w = want[static_cast<std::size_t>(row) * img.width + col];
          CHECK(e.sum_i == w.sum_i);
          CHECK(e.sum_isq == w.sum_isq);
          CHECK(e.sum_it == w.sum_it);
        }
      }
    }
  }
}

TEST_CASE("figure 15.4's model: a block stores its tile and apron once each and every window reads only stored bytes") {
  for (const auto& size : {std::pair<int, int>{1, 1}, {3, 3}, {9, 5}, {16, 16}, {33, 3}, {52, 52}, {64, 64}, {200, 2}}) {
    const ch15::TileModel m = ch15::model_tile(ch15::book_tile_shape(size.first, size.second));
    const ch15::TileShape& s = m.shape;
    INFO("template " << size.first << " x " << size.second);
    // The model's footprint is what the launcher asks for (kBookTileWidth, kBookBlockHeight).
    CHECK(s.bytes() == ch15::book_shared_bytes(size.first, size.second));
    CHECK(s.pitch() % 64 == 0);
    CHECK(m.outputs == s.w_tile * s.block_h);
    std::size_t loaded = 0;
    long long reads = 0;
    for (int r = 0; r < s.fetch_rows(); ++r) {
      for (int c = 0; c < s.pitch(); ++c) {
        const std::size_t k = m.cell(c, r);
        const bool tile = c < s.fetch_cols();
        INFO("cell (" << c << ", " << r << ")");
        CHECK(m.writes[k] == (tile ? 1 : 0));  // stored exactly once, padding never
        CHECK((m.reads[k] > 0) == tile);         // read by some window exactly where stored
        if (tile) {
          // The thread that stores it is the one the strided loops give it to.
          CHECK(m.writer[k] == (r % s.block_h) * s.block_w + c % s.block_w);
        }
        loaded += static_cast<std::size_t>(m.writes[k]);
        reads += m.reads[k];
      }
    }
    CHECK(loaded == static_cast<std::size_t>(s.fetch_cols()) * s.fetch_rows());
    CHECK(reads == static_cast<long long>(m.outputs) * size.first * size.second);
  }
}

TEST_CASE("the book's loop bounds load one column and one row of the tile that no window reads") {
  for (const auto& size : {std::pair<int, int>{1, 1}, {9, 5}, {16, 16}, {52, 52}}) {
    INFO("template " << size.first << " x " << size.second);
    const ch15::TileModel book = ch15::model_tile(ch15::book_tile_shape(size.first, size.second, true));
    const ch15::TileShape& s = book.shape;
    // Listing 15.5's shared memory: ~63 & (wTile + wTemplate + 63) bytes per row,
    // blockDim.y + hTemplate rows.
    CHECK(s.pitch() == (~63 & (s.w_tile + size.first + 63)));
    CHECK(s.bytes() == static_cast<std::size_t>(s.pitch()) * (s.block_h + size.second));
    int unread = 0;
    for (int r = 0; r < s.fetch_rows(); ++r)
      for (int c = 0; c < s.fetch_cols(); ++c) {
        const std::size_t k = book.cell(c, r);
        CHECK(book.writes[k] == 1);
        if (book.reads[k] == 0) {
          ++unread;
          CHECK((c == s.fetch_cols() - 1 || r == s.fetch_rows() - 1));
        }
      }
    CHECK(unread == s.fetch_cols() + s.fetch_rows() - 1);
  }
}

TEST_CASE("figure 15.4's model of the shared-memory kernels computes the CPU reference's sums") {
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed << " (replay with HB_TEST_SEED)");
  const hb::GrayImage img = random_image(75, 21, seed + 11);  // 3 x 3 blocks, the last ones partial
  for (const auto& size : {std::pair<int, int>{1, 1}, {9, 5}, {16, 16}, {4, 11}}) {
    const Template t = random_template(size.first, size.second, seed + 5 * size.first);
    INFO("template " << t.width << " x " << t.height);
    std::vector<int> written;
    const auto got = ch15::tile_model_sums(img, t, written);
    const auto want = ch15::cpu_sums(img, t, 1);
    int wrong = 0, not_once = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      wrong += got[i].sum_i != want[i].sum_i || got[i].sum_isq != want[i].sum_isq ||
               got[i].sum_it != want[i].sum_it;
      not_once += written[i] != 1;
    }
    CHECK(wrong == 0);
    CHECK(not_once == 0);  // the grid covers the image, every output written once
  }
}

TEST_CASE("the committed figures 15.3 and 15.4 are what the models draw, and the page shows them") {
  const auto figures = ch15::chapter_figures();
  REQUIRE(figures.size() == 2);
  CHECK(figures[0].caption.rfind("Figure 15.3:", 0) == 0);
  CHECK(figures[1].caption.rfind("Figure 15.4:", 0) == 0);
  const std::string readme = read_source("README.md");
  INFO("regenerate: correlation_figures --figures ch15_correlation/figures");
  const std::string folder = std::string(CH15_SOURCE_DIR) + "/figures";
  CHECK(hb::figure_faults(figures, folder, readme, "ch15_correlation/figures") ==
        std::vector<std::string>{});
}

TEST_CASE("the page's code snippets hold no formula markers and its source files exist") {
  const std::string readme = read_source("README.md");
  std::istringstream lines(readme);
  int snippets = 0, files = 0;
  for (std::string line; std::getline(lines, line);) {
    // "\snippet ch15_correlation/FILE NAME": the region between the two "// [NAME]" lines.
    std::smatch m;
    if (std::regex_match(line, m, std::regex(R"(\\snippet ch15_correlation/(\S+) (\S+)\s*)"))) {
      INFO(line);
      const std::string text = read_source(m[1].str());
      const std::string marker = "// [" + m[2].str() + "]";
      const std::size_t a = text.find(marker);
      REQUIRE(a != std::string::npos);
      const std::size_t b = text.find(marker, a + marker.size());
      REQUIRE(b != std::string::npos);
      const std::string region = text.substr(a, b - a);
      // Code blocks show comments verbatim: a Doxygen formula would show as raw markup.
      CHECK(region.find("\\f$") == std::string::npos);
      CHECK(region.find("\\f[") == std::string::npos);
      ++snippets;
    }
    // Every file the page names in code font, the table of the book's sources included.
    const std::regex source_file(R"(`((?:kernels/)?[0-9a-z_]+\.(?:cuh|cpp|h))`)");
    for (std::sregex_iterator it(line.begin(), line.end(), source_file), end; it != end; ++it) {
      INFO(line);
      CHECK_NOTHROW(read_source((*it)[1].str()));
      ++files;
    }
  }
  CHECK(snippets > 30);
  CHECK(files > 12);
}

TEST_CASE("every variant's section names its source and its row of the committed measurements") {
  const std::string readme = read_source("README.md");
  std::set<std::string> linked;
  for (const auto& v : ch15::variants()) {
    const std::string id = v.id;
    const std::string file = "kernels/" + std::string(id.size() < 2 ? "0" : "") + id + "_" + v.name +
                             (v.is_cpu() ? ".cpp" : ".cuh");
    INFO("variant " << id << ": " << file);
    CHECK_NOTHROW(read_source(file));
    // In the variant's own section, "Source: \ref ch15_correlation/FILE "FILE"": a link to the
    // file's page in the docs, which leads to the whole file.
    const std::size_t at = readme.find("### Variant " + id + ":");
    REQUIRE(at != std::string::npos);
    const std::string section = readme.substr(at, readme.find("\n### ", at + 1) - at);
    CHECK(section.find("Source: \\ref ch15_correlation/" + file + " \"" + file + "\"") !=
          std::string::npos);
    linked.insert(file);
    // Its headline number, the rate with the 52 x 52 template, is the committed table's; a
    // variant the table lacks says it was not measured.
    const auto row =
        hb::csv_row(std::string(CH15_SOURCE_DIR) + "/../docs/results/ch15_rates_52.csv", {{"id", id}});
    const std::string text = hb::normalize_space(section);
    if (row.empty()) {
      CHECK(text.find("Not measured yet") != std::string::npos);
      continue;
    }
    CHECK(text.find("`ch15_rates_52.csv`") != std::string::npos);
    const std::size_t measured = text.find("Measured: ");
    REQUIRE(measured != std::string::npos);
    std::smatch rate;
    const std::string claim = text.substr(measured);
    const std::regex at_52(R"(([0-9][0-9,.]*)(?: Mpix/s)? (?:at|with the) 52 x 52)");
    REQUIRE(std::regex_search(claim, rate, at_52));
    INFO(rate[0].str() << " against " << row.at("Mpix/s") << " Mpix/s");
    CHECK(hb::shows_rounded(rate[1].str(), row.at("Mpix/s")));
  }
  // Every file of kernels/ is the source of its variant's section, or a header the kernels
  // share (.h), which the page names.
  const std::string kernels = std::string(CH15_SOURCE_DIR) + "/kernels";
  for (const auto& entry : std::filesystem::directory_iterator(kernels)) {
    INFO(entry.path());
    const std::string file = "kernels/" + entry.path().filename().string();
    if (entry.path().extension() == ".h")
      CHECK(readme.find("`" + file + "`") != std::string::npos);
    else
      CHECK(linked.count(file) == 1);
  }
}
