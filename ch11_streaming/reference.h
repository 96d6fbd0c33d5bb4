/// \file
/// \brief Chapter 11's CPU reference (listing 11.1): out = alpha * x + y, and the tolerances
///        with which a GPU result is compared against it.
///
/// Every SAXPY in this chapter computes one float per element from two float inputs, so the
/// only difference between two correct implementations is rounding: the GPU contracts
/// `alpha * x[i] + y[i]` into one fused multiply-add (one rounding), the CPU reference
/// rounds the product and then the sum (two roundings). The tolerances below bound that
/// difference for *any* correct float evaluation, fused or not, so a correct kernel can never
/// fail the check and a wrong element (a missed index, a stale value, poison) always does.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

namespace ch11 {

// [saxpy-cpu]
/// Listing 11.1: the reference SAXPY on the CPU, `out[i] = alpha * x[i] + y[i]` for i < n
/// (n may be 0). `out` may alias neither input.
inline void saxpy_cpu(float* out, const float* x, const float* y, std::size_t n, float alpha) {
  for (std::size_t i = 0; i < n; ++i) out[i] = alpha * x[i] + y[i];
}
// [saxpy-cpu]

/// The exact value of every element, computed in double: the product of two floats is exact
/// in double (24 + 24 < 53 significant bits) and the sum is rounded once, to 2^-53, so this
/// reference is 2^29 times more accurate than any float result.
inline void saxpy_exact(double* out, const float* x, const float* y, std::size_t n,
                        float alpha) {
  for (std::size_t i = 0; i < n; ++i)
    out[i] = static_cast<double>(alpha) * static_cast<double>(x[i]) + static_cast<double>(y[i]);
}

/// A tolerance for hb::compare_relative: an element passes when
/// \f$|got - want| \le atol + rtol \cdot |want|\f$.
struct SaxpyTolerance {
  double rtol = 0.0;
  double atol = 0.0;
};

/// Unit roundoff of float (round to nearest): \f$u = 2^{-24}\f$.
inline constexpr double kFloatRoundoff = 1.0 / 16777216.0;

/// Tolerance of a float SAXPY against the exact (double) value.
///
/// With \f$r = \alpha x + y\f$ exact, a fused evaluation is within \f$u|r|\f$ of it and an
/// unfused one (product rounded, then the sum) within \f$u(1+u)|\alpha x| + u|r|\f$.
/// Bounding \f$|\alpha x|\f$ by \f$A = |\alpha| \max|x|\f$ over the array gives
/// `rtol = u`, `atol = u(1+u)A`; we allow twice that, so that the double reference's own
/// rounding can never tip a correct element over the edge.
/// \param alpha     the scale factor of the run
/// \param max_abs_x the largest |x[i]| of the run's input
inline SaxpyTolerance tolerance_vs_exact(float alpha, float max_abs_x) {
  const double u = kFloatRoundoff;
  const double a = std::fabs(static_cast<double>(alpha)) * static_cast<double>(max_abs_x);
  return {2.0 * u, 2.0 * u * (1.0 + u) * a};
}

/// Tolerance between two float SAXPY results, e.g. the GPU (fused) against saxpy_cpu()
/// (unfused): each is within tolerance_vs_exact() of the exact value, so their difference is
/// within the sum of the two bounds; we allow twice the exact bound on each side (4u).
inline SaxpyTolerance tolerance_vs_cpu(float alpha, float max_abs_x) {
  const SaxpyTolerance one = tolerance_vs_exact(alpha, max_abs_x);
  return {2.0 * one.rtol, 2.0 * one.atol};
}

/// The largest |v[i]| (0 for an empty array); NaN counts as infinitely large.
inline float max_abs(const float* v, std::size_t n) {
  float m = 0.0f;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isnan(v[i])) return std::numeric_limits<float>::infinity();
    m = std::fmax(m, std::fabs(v[i]));
  }
  return m;
}

}  // namespace ch11
