/// \file
/// \brief Seeded, counter-based input generators: element i depends only on (seed, i), so the
///        same seed gives the same data on every machine, thread count and library version.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hb {

/// A well-mixed 64-bit hash of (seed, index) (the SplitMix64 finalizer).
inline std::uint64_t hash64(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + index + 0x632BE59BD9B4E5Bull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Uniform float in [lo, hi) for element \p index (24 random bits, so every value is exact).
inline float uniform_float(std::uint64_t seed, std::uint64_t index, float lo, float hi) {
  const float u = static_cast<float>(hash64(seed, index) >> 40) * (1.0f / 16777216.0f);
  return lo + (hi - lo) * u;
}

/// Uniform integer in [lo, hi] for element \p index.
inline std::int64_t uniform_int(std::uint64_t seed, std::uint64_t index, std::int64_t lo,
                                std::int64_t hi) {
  const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
  const std::uint64_t r = hash64(seed, index);
  return lo + static_cast<std::int64_t>(span == 0 ? r : r % span);
}

/// Fill [first, first + n) with uniform floats or doubles (53 random bits) in [lo, hi), integers
/// in [lo, hi], or bytes.
inline void fill_uniform(float* first, std::size_t n, std::uint64_t seed, float lo = -1.0f,
                         float hi = 1.0f) {
  for (std::size_t i = 0; i < n; ++i) first[i] = uniform_float(seed, i, lo, hi);
}
inline void fill_uniform(double* first, std::size_t n, std::uint64_t seed, double lo = -1.0,
                         double hi = 1.0) {
  for (std::size_t i = 0; i < n; ++i)
    first[i] = lo + (hi - lo) * (static_cast<double>(hash64(seed, i) >> 11) * 0x1p-53);
}
inline void fill_uniform(int* first, std::size_t n, std::uint64_t seed, int lo, int hi) {
  for (std::size_t i = 0; i < n; ++i) first[i] = static_cast<int>(uniform_int(seed, i, lo, hi));
}
inline void fill_uniform(std::uint8_t* first, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = 0; i < n; ++i) first[i] = static_cast<std::uint8_t>(hash64(seed, i) >> 56);
}

/// Convenience: a vector of \p n uniform values of type T (float, double, int, uint8_t).
template <typename T, typename... Range>
std::vector<T> uniform_vector(std::size_t n, std::uint64_t seed, Range... range) {
  std::vector<T> v(n);
  fill_uniform(v.data(), n, seed, range...);
  return v;
}

}  // namespace hb
