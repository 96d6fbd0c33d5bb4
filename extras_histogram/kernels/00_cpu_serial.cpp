/// \file
/// \brief Histograms, variant 0: CPU, serial (the post's loop; the reference of every check).
#include "histogram.h"

namespace histo {

// [histogram-cpu-serial]
void histogram_cpu_serial(const std::uint8_t* in, std::size_t n, std::uint32_t* bins) {
  for (int b = 0; b < kBins; ++b) bins[b] = 0;
  for (std::size_t i = 0; i < n; ++i) bins[in[i]]++;
}
// [histogram-cpu-serial]

}  // namespace histo
