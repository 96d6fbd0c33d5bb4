#include "hb/random.h"

namespace hb {

void fill_uniform(float* first, std::size_t n, std::uint64_t seed, float lo, float hi) {
  for (std::size_t i = 0; i < n; ++i) first[i] = uniform_float(seed, i, lo, hi);
}

void fill_uniform(double* first, std::size_t n, std::uint64_t seed, double lo, double hi) {
  for (std::size_t i = 0; i < n; ++i) {
    const double u = static_cast<double>(hash64(seed, i) >> 11) * (1.0 / 9007199254740992.0);
    first[i] = lo + (hi - lo) * u;
  }
}

void fill_uniform(int* first, std::size_t n, std::uint64_t seed, int lo, int hi) {
  for (std::size_t i = 0; i < n; ++i) first[i] = static_cast<int>(uniform_int(seed, i, lo, hi));
}

void fill_uniform(std::uint8_t* first, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = 0; i < n; ++i) first[i] = static_cast<std::uint8_t>(hash64(seed, i) >> 56);
}

}  // namespace hb
