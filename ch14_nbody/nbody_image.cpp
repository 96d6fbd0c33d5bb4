#include "nbody_image.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ch14 {

// [nbody-image]
hb::GrayImage render_bodies(const std::vector<float4>& bodies, int size, float extent) {
  std::vector<std::uint32_t> count(std::size_t(size) * size, 0);
  for (const float4& b : bodies) {
    const double u = (double(b.x) + extent) / (2.0 * extent);  // 0 at the left edge
    const double v = (extent - double(b.y)) / (2.0 * extent);  // 0 at the top edge
    if (!(u >= 0.0 && u < 1.0 && v >= 0.0 && v < 1.0)) continue;  // also drops NaN
    const int px = std::min(size - 1, static_cast<int>(u * size));
    const int py = std::min(size - 1, static_cast<int>(v * size));
    ++count[std::size_t(py) * size + px];
  }
  const std::uint32_t most = count.empty() ? 0 : *std::max_element(count.begin(), count.end());
  hb::GrayImage img;
  img.width = img.height = size;
  img.maxval = 255;
  img.pixels.resize(count.size());
  const double scale = most > 0 ? 255.0 / std::log1p(double(most)) : 0.0;
  for (std::size_t k = 0; k < count.size(); ++k)
    img.pixels[k] = static_cast<std::uint8_t>(std::lround(scale * std::log1p(double(count[k]))));
  return img;
}
// [nbody-image]

}  // namespace ch14
