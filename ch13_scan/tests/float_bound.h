// The bound within which the tests accept float scans of rounded inputs (FloatData::Uniform).
#pragma once

#include <cmath>
#include <vector>

#include "scan.h"

namespace ch13 {

/// The scan of |x| in double precision: the scale \f$S_i = \sum_{j} |x_j|\f$ of the rounding
/// error of each float prefix.
inline std::vector<double> reference_abs_scan(const std::vector<float>& in, ScanKind kind) {
  std::vector<float> magnitudes(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) magnitudes[i] = std::fabs(in[i]);
  return reference_scan(magnitudes, kind);
}

/// The relative bound \f$\gamma\f$ of a float scan of \p n elements: we accept
/// \f$|\hat y_i - y_i| \le \gamma\, S_i\f$ with
/// \f[ \gamma = \bigl(4 \lceil \log_2 (n+2) \rceil + 2 \lceil n / 512 \rceil + 32\bigr)\, 2^{-24}. \f]
/// A float sum of terms whose magnitudes add up to S, through a chain of k roundings, is off
/// by at most about \f$k\, u\, S\f$ (\f$u = 2^{-24}\f$). The tree-shaped parts of every
/// variant (warp, block, recursion levels) take at most \f$4 \log_2 n\f$ steps; the serial
/// parts one rounding per step: the carry from tile to tile of the two-level kernels (fewer
/// than \f$n/512\f$ tiles per subarray) and the look-back (at most two per tile of at least
/// 512 elements). The exact tests (int, FloatData::Grid) check where every element lands.
inline double float_scan_gamma(std::size_t n) {
  const double log2n = std::ceil(std::log2(static_cast<double>(n) + 2.0));
  const double tiles = std::ceil(static_cast<double>(n) / 512.0);
  return (4.0 * log2n + 2.0 * tiles + 32.0) * std::ldexp(1.0, -24);
}

}  // namespace ch13
