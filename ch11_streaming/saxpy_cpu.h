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

#include <cstddef>

namespace ch11 {

/// Listing 11.1: the reference SAXPY on the CPU, `out[i] = alpha * x[i] + y[i]`.
/// (The printed listing has `out[i] +=`, a typo: listing 11.2 and the text say `=`.)
/// \param out   n results; may alias neither input
/// \param x     n inputs, scaled by \p alpha
/// \param y     n inputs, added
/// \param n     number of elements (0 is allowed)
/// \param alpha the scale factor
void saxpy_cpu(float* out, const float* x, const float* y, std::size_t n, float alpha);

/// The exact value of every element, computed in double: the product of two floats is exact
/// in double (24 + 24 < 53 significant bits) and the sum is rounded once, to 2^-53, so this
/// reference is 2^29 times more accurate than any float result.
void saxpy_exact(double* out, const float* x, const float* y, std::size_t n, float alpha);

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
SaxpyTolerance tolerance_vs_exact(float alpha, float max_abs_x);

/// Tolerance between two float SAXPY results, e.g. the GPU (fused) against saxpy_cpu()
/// (unfused): each is within tolerance_vs_exact() of the exact value, so their difference is
/// within the sum of the two bounds; we allow twice the exact bound on each side (4u).
SaxpyTolerance tolerance_vs_cpu(float alpha, float max_abs_x);

/// The largest |v[i]| (0 for an empty array); NaN counts as infinitely large.
float max_abs(const float* v, std::size_t n);

}  // namespace ch11
