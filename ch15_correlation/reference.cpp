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
//
// Also the templates (cutting, validating and their statistics, section 15.1), and the log
// transform that turns coefficients into a picture (figure 15.2).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <utility>

#include "correlation.h"
#include "hb/error.h"

namespace ch15 {

namespace {

TemplateStats template_stats(const std::uint8_t* pixels, std::size_t count) {
  TemplateStats t;
  t.n = static_cast<std::int64_t>(count);
  for (std::size_t i = 0; i < count; ++i) {
    t.sum += pixels[i];
    t.sum_sq += static_cast<std::int64_t>(pixels[i]) * pixels[i];
  }
  t.variance = t.n * t.sum_sq - t.sum * t.sum;
  // The text's advice: compute fDenomExp in double. Both products are below 2^53, so the
  // double is exact and equals the integer above.
  t.denom_exp = static_cast<double>(t.n) * static_cast<double>(t.sum_sq) -
                static_cast<double>(t.sum) * static_cast<double>(t.sum);
  return t;
}

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

void validate_template_size(int width, int height) {
  const std::string flags = "--wTemplate " + std::to_string(width) + " --hTemplate " + std::to_string(height);
  if (width < 1 || height < 1) throw hb::UsageError(flags + ": the template must be at least 1 x 1");
  if (width > kMaxTemplateSide || height > kMaxTemplateSide)
    throw hb::UsageError(flags + ": each side must be at most " + std::to_string(kMaxTemplateSide));
  if (static_cast<long long>(width) * height > kMaxTemplatePixels) {
    throw hb::UsageError("template of " + std::to_string(width) + " x " + std::to_string(height) +
                         " pixels: more than " + std::to_string(kMaxTemplatePixels) +
                         " pixels (the sums would not fit 32 bits)");
  }
}

Template make_template(std::vector<std::uint8_t> pixels, int width, int height) {
  validate_template_size(width, height);
  if (pixels.size() != static_cast<std::size_t>(width) * height)
    throw std::logic_error("make_template: pixel count does not match the size");
  Template t;
  t.width = width;
  t.height = height;
  t.pixels = std::move(pixels);
  t.stats = template_stats(t.pixels.data(), t.pixels.size());
  return t;
}

Template cut_template(const hb::GrayImage& image, int x, int y, int width, int height) {
  validate_template_size(width, height);
  const std::string where = "template " + std::to_string(width) + " x " + std::to_string(height) +
                            " at (" + std::to_string(x) + ", " + std::to_string(y) + ")";
  if (x < 0 || y < 0 || x > image.width - width || y > image.height - height) {
    throw hb::UsageError(where + " (--xTemplate --yTemplate --wTemplate --hTemplate) is not inside the " +
                         std::to_string(image.width) + " x " + std::to_string(image.height) + " image");
  }
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width) * height);
  for (int j = 0; j < height; ++j)
    for (int i = 0; i < width; ++i) pixels[static_cast<std::size_t>(j) * width + i] = image.at(x + i, y + j);
  Template t = make_template(std::move(pixels), width, height);
  if (t.stats.variance == 0) {
    throw hb::UsageError(where + " is flat (every pixel is " + std::to_string(t.pixels[0]) +
                         "): the normalized correlation is undefined");
  }
  t.x = x;
  t.y = y;
  return t;
}

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

std::uint8_t log_transform_pixel(double c) {
  if (!(c > 0.0)) return 0;  // negative, zero and NaN
  const double r = 255.0 * std::min(c, 1.0);
  return static_cast<std::uint8_t>(std::lround(255.0 * std::log1p(r) / std::log(256.0)));
}

hb::GrayImage log_transform_image(const std::vector<float>& values, int width, int height) {
  hb::GrayImage img;
  img.width = width;
  img.height = height;
  img.maxval = 255;
  img.pixels.resize(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) img.pixels[i] = log_transform_pixel(values[i]);
  return img;
}

}  // namespace ch15
