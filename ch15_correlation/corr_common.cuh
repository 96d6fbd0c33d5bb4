/// \file
/// \brief Device-side pieces every kernel of chapter 15 shares: the template statistics a
///        kernel needs, the book's CorrelationValue() (section 15.1), and the epilogue that
///        writes either the coefficient or, in the "sums" twin of a kernel, the raw sums.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "correlation.h"
#include "correlation_launch.h"
#include "correlation_launchers.h"
#include "hb/error.h"

namespace ch15 {

/// The template statistics a kernel needs, precomputed on the host.
struct DeviceTemplate {
  int n = 0;             ///< template pixels, \f$N\f$
  int sum = 0;           ///< \f$\sum T\f$
  float variance = 0.f;  ///< \f$N\sum T^2 - (\sum T)^2\f$ (exact integer, rounded to float once)
};

/// The device form of \p t.
/// \param t the template's statistics
inline DeviceTemplate device_template(const TemplateStats& t) {
  return DeviceTemplate{static_cast<int>(t.n), static_cast<int>(t.sum), static_cast<float>(t.variance)};
}

// [corr-value]
/// CorrelationValue() of section 15.1: the coefficient from the three image sums and the
/// template's precomputed statistics. The book computes the numerator and the image's
/// variance term in float, where \f$N\sum IT\f$ and \f$\sum I \sum T\f$ are close large
/// numbers whose difference loses most of float's 24 bits. We form both in 64-bit integers,
/// where they are exact (each product is below \f$2^{49}\f$), and round only the results;
/// a flat window (variance 0) gives 0 instead of a division by zero.
/// \param sum_i \f$\sum I\f$ over the window
/// \param sum_isq \f$\sum I^2\f$
/// \param sum_it \f$\sum IT\f$
/// \param t the template's statistics
__device__ __forceinline__ float correlation_value(unsigned sum_i, unsigned sum_isq, unsigned sum_it,
                                                  const DeviceTemplate& t) {
  const long long numerator =
      static_cast<long long>(t.n) * sum_it - static_cast<long long>(sum_i) * t.sum;
  const long long variance =
      static_cast<long long>(t.n) * sum_isq - static_cast<long long>(sum_i) * sum_i;
  if (variance <= 0 || !(t.variance > 0.0f)) return 0.0f;
  // Multiplying by the reciprocal square root is faster than dividing by the square root.
  return static_cast<float>(numerator) * rsqrtf(static_cast<float>(variance) * t.variance);
}
// [corr-value]

// [corr-store]
/// The end of every kernel: output pixel \p index gets the coefficient, or in the sums twin
/// (\p kSums) the three sums themselves, so that they can be compared with the CPU bit for
/// bit (section 15.6).
/// \tparam kSums true for the sums twin
/// \param out where to write
/// \param index the output pixel, y * width + x
/// \param sum_i \f$\sum I\f$
/// \param sum_isq \f$\sum I^2\f$
/// \param sum_it \f$\sum IT\f$
/// \param t the template's statistics
template <bool kSums>
__device__ __forceinline__ void store_result(const Output& out, std::size_t index, unsigned sum_i,
                                             unsigned sum_isq, unsigned sum_it, const DeviceTemplate& t) {
  if constexpr (kSums) {
    out.sums[index] = CorrSums{sum_i, sum_isq, sum_it};
  } else {
    out.coefficients[index] = correlation_value(sum_i, sum_isq, sum_it, t);
  }
}
// [corr-store]

/// The dynamic shared memory of a launch, viewed as an array of T: one `extern __shared__`
/// array for every kernel of a translation unit (declaring it with a different type in each
/// kernel is an error), aligned for any type we store.
template <typename T>
__device__ __forceinline__ T* dynamic_shared() {
  extern __shared__ __align__(16) unsigned char ch15_dynamic_shared[];
  return reinterpret_cast<T*>(ch15_dynamic_shared);
}

/// Throws std::logic_error unless exactly one of \p out's pointers is set.
/// \param out the output of a launch
inline void check_output(const Output& out) {
  if ((out.coefficients == nullptr) == (out.sums == nullptr))
    throw std::logic_error("ch15: an Output needs exactly one of coefficients and sums");
}

/// \f$\lceil a / b \rceil\f$.
/// \param a numerator, >= 0
/// \param b denominator, > 0
constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

/// \p a rounded up to a multiple of \p b.
/// \param a value, >= 0
/// \param b multiple, > 0
constexpr int round_up(int a, int b) { return ceil_div(a, b) * b; }

}  // namespace ch15
