// Templates: cutting, validating and their statistics (section 15.1).
#include "correlation.h"

#include <stdexcept>
#include <utility>

#include "hb/error.h"

namespace ch15 {

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

void validate_template_size(int width, int height) {
  if (width < 1 || height < 1) {
    throw hb::UsageError("--wTemplate " + std::to_string(width) + " --hTemplate " +
                         std::to_string(height) + ": the template must be at least 1 x 1");
  }
  if (width > kMaxTemplateSide || height > kMaxTemplateSide) {
    throw hb::UsageError("--wTemplate " + std::to_string(width) + " --hTemplate " +
                         std::to_string(height) + ": each side must be at most " +
                         std::to_string(kMaxTemplateSide));
  }
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
  if (x < 0 || y < 0 || x > image.width - width || y > image.height - height) {
    throw hb::UsageError("template " + std::to_string(width) + " x " + std::to_string(height) +
                         " at (" + std::to_string(x) + ", " + std::to_string(y) +
                         ") (--xTemplate --yTemplate --wTemplate --hTemplate) is not inside the " +
                         std::to_string(image.width) + " x " + std::to_string(image.height) +
                         " image");
  }
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width) * height);
  for (int j = 0; j < height; ++j)
    for (int i = 0; i < width; ++i) pixels[static_cast<std::size_t>(j) * width + i] = image.at(x + i, y + j);
  Template t = make_template(std::move(pixels), width, height);
  if (t.stats.variance == 0) {
    throw hb::UsageError("template " + std::to_string(width) + " x " + std::to_string(height) +
                         " at (" + std::to_string(x) + ", " + std::to_string(y) +
                         ") is flat (every pixel is " + std::to_string(t.pixels[0]) +
                         "): the normalized correlation is undefined");
  }
  t.x = x;
  t.y = y;
  return t;
}

}  // namespace ch15
