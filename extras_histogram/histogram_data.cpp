// The chapter's inputs: generated distributions and PGM images.
#include "histogram_data.h"

#include <algorithm>
#include <stdexcept>

#include "hb/coin_scene.h"
#include "hb/error.h"
#include "hb/pgm.h"
#include "hb/random.h"

namespace histo {

const std::vector<Distribution>& generated_distributions() {
  static const std::vector<Distribution> all = {Distribution::Uniform, Distribution::Equal,
                                                Distribution::Hot, Distribution::Ramp,
                                                Distribution::Scene};
  return all;
}

std::string name(Distribution d) {
  switch (d) {
    case Distribution::Uniform: return "uniform";
    case Distribution::Equal: return "equal";
    case Distribution::Hot: return "hot";
    case Distribution::Ramp: return "ramp";
    case Distribution::Scene: return "scene";
    case Distribution::Image: return "image";
  }
  return "?";
}

std::string distribution_names() { return "uniform, equal, hot, ramp, scene, image"; }

Distribution parse_distribution(const std::string& text) {
  for (const auto d : generated_distributions())
    if (text == name(d)) return d;
  if (text == name(Distribution::Image)) return Distribution::Image;
  throw hb::UsageError("--distribution '" + text + "': unknown (expected all or one of " +
                       distribution_names() + ")");
}

std::uint8_t equal_value(std::uint64_t seed) {
  return static_cast<std::uint8_t>(hb::hash64(seed, 0xE0) >> 56);
}

std::vector<std::uint8_t> hot_values(std::uint64_t seed) {
  std::vector<std::uint8_t> hot;
  for (std::uint64_t k = 0; hot.size() < 4; ++k) {
    const auto v = static_cast<std::uint8_t>(hb::hash64(seed, 0x40700 + k) >> 56);
    if (std::find(hot.begin(), hot.end(), v) == hot.end()) hot.push_back(v);
  }
  return hot;
}

// [histogram-distributions]
void generate(Distribution d, std::uint8_t* out, std::size_t n, std::uint64_t seed) {
  switch (d) {
    case Distribution::Uniform:
      hb::fill_uniform(out, n, seed);
      return;
    case Distribution::Equal:
      std::fill(out, out + n, equal_value(seed));
      return;
    case Distribution::Hot: {
      const auto hot = hot_values(seed);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t r = hb::hash64(seed, i);
        // 90 of 100 bytes on one of the four hot values, the rest uniform.
        out[i] = (r % 100) < 90 ? hot[(r >> 32) % 4] : static_cast<std::uint8_t>(r >> 56);
      }
      return;
    }
    case Distribution::Ramp:
      // Non-decreasing, every value in turn, each for about n / 256 bytes (n <= 2^30, so
      // 256 i does not overflow).
      for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>((i * 256) / n);
      return;
    case Distribution::Scene: {
      // The coin scene that chapter 15 searches (coins on a shaded, noisy background),
      // tiled: byte i is pixel i mod 73,800 of the seeded 300 x 246 scene.
      const std::vector<std::uint8_t> scene =
          hb::make_coin_scene(hb::kSceneWidth, hb::kSceneHeight, seed).image.pixels;
      for (std::size_t i = 0; i < n; ++i) out[i] = scene[i % scene.size()];
      return;
    }
    case Distribution::Image:
      break;
  }
  throw std::logic_error("histo::generate: images are read (--input), not generated");
}
// [histogram-distributions]

std::vector<std::uint8_t> generate(Distribution d, std::size_t n, std::uint64_t seed) {
  std::vector<std::uint8_t> v(n);
  generate(d, v.data(), n, seed);
  return v;
}

std::vector<std::uint8_t> load_pgm_bytes(const std::string& path) {
  return hb::read_pgm(path).pixels;
}

}  // namespace histo
