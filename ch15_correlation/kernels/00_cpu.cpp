// Variant 0: the CPU reference. It computes the three sums of every output pixel directly,
// one template pixel at a time, in 64-bit integers: slow, obvious, and exact. Every GPU
// variant is checked against it, sums bit for bit and coefficients within
// kCoefficientTolerance.
/* [changed]
Variant 0 is the reference: the CPU computes the three sums of every output pixel directly, one
template pixel at a time, as 64-bit integers, and the coefficient in double from them and the
template's statistics, which it computes once (section 15.1). Every GPU variant is checked
against it: the sums bit for bit, the coefficients within kCoefficientTolerance. Its rate is the
"x CPU" column's reference (all hardware threads).
[changed] */
#include <algorithm>
#include <cmath>
#include <thread>

#include "correlation.h"

namespace ch15 {

namespace {

// [corr0-sums]
// The sums of output row y: every template pixel times the image pixel under it, with the
// image's edge pixels standing in for pixels outside the image.
void sums_of_row(const hb::GrayImage& image, const Template& t, int y, ExactSums* out) {
  const int w = image.width, h = image.height;
  const int x_off = window_x_offset(t.width), y_off = window_y_offset(t.height);
  for (int x = 0; x < w; ++x) {
    ExactSums s;
    const int x0 = x + x_off;
    const bool inside = x0 >= 0 && x0 + t.width <= w;
    for (int j = 0; j < t.height; ++j) {
      const int iy = std::clamp(y + y_off + j, 0, h - 1);
      const std::uint8_t* row = image.pixels.data() + static_cast<std::size_t>(iy) * w;
      const std::uint8_t* trow = t.pixels.data() + static_cast<std::size_t>(j) * t.width;
      // One template row adds at most 1024 * 65025 < 2^32: 32 bits suffice inside a row,
      // which lets the compiler vectorize the common case.
      std::uint32_t si = 0, sisq = 0, sit = 0;
      if (inside) {
        for (int i = 0; i < t.width; ++i) {
          const std::uint32_t p = row[x0 + i];
          si += p;
          sisq += p * p;
          sit += p * trow[i];
        }
      } else {
        for (int i = 0; i < t.width; ++i) {
          const std::uint32_t p = row[std::clamp(x0 + i, 0, w - 1)];
          si += p;
          sisq += p * p;
          sit += p * trow[i];
        }
      }
      s.sum_i += si;
      s.sum_isq += sisq;
      s.sum_it += sit;
    }
    out[x] = s;
  }
}
// [corr0-sums]

// [corr0-coefficient]
double cpu_coefficient(const ExactSums& s, const TemplateStats& t) {
  const std::int64_t numerator = t.n * s.sum_it - s.sum_i * t.sum;
  const std::int64_t variance = t.n * s.sum_isq - s.sum_i * s.sum_i;
  if (variance <= 0 || t.variance <= 0) return 0.0;
  return static_cast<double>(numerator) / std::sqrt(static_cast<double>(variance) * t.denom_exp);
}
// [corr0-coefficient]

}  // namespace

std::vector<ExactSums> cpu_sums(const hb::GrayImage& image, const Template& tmpl, int threads) {
  std::vector<ExactSums> out(static_cast<std::size_t>(image.width) * image.height);
  int n = threads > 0 ? threads : static_cast<int>(std::thread::hardware_concurrency());
  n = std::clamp(n, 1, std::max(1, image.height));
  // Rows are dealt out round-robin, so that every thread gets a share of the (slower)
  // border rows.
  auto work = [&](int first) {
    for (int y = first; y < image.height; y += n)
      sums_of_row(image, tmpl, y, out.data() + static_cast<std::size_t>(y) * image.width);
  };
  std::vector<std::thread> pool;
  for (int k = 1; k < n; ++k) pool.emplace_back(work, k);
  work(0);
  for (auto& th : pool) th.join();
  return out;
}

std::vector<double> cpu_coefficients(const std::vector<ExactSums>& sums, const TemplateStats& t) {
  std::vector<double> c(sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i) c[i] = cpu_coefficient(sums[i], t);
  return c;
}

}  // namespace ch15
