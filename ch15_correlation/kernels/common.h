/// \file
/// \brief What every kernel of the chapter shares: the template statistics a kernel needs, the
///        coefficient or the sums every kernel ends with, and the dynamic shared memory.
#pragma once

#include <stdexcept>
#include <vector>

#include "correlation.h"
#if defined(__CUDACC__)
#include "hb/shared_memory.cuh"
#endif

namespace ch15 {

/// The template statistics a kernel needs, precomputed on the host.
struct DeviceTemplate {
  int n = 0;             ///< template pixels, \f$N\f$
  int sum = 0;           ///< \f$\sum T\f$
  float variance = 0.f;  ///< \f$N\sum T^2 - (\sum T)^2\f$ (exact integer, rounded to float once)
};

/// The device form of \p t.
inline DeviceTemplate device_template(const TemplateStats& t) {
  return DeviceTemplate{static_cast<int>(t.n), static_cast<int>(t.sum), static_cast<float>(t.variance)};
}

/// Throws std::logic_error unless exactly one of \p out's pointers is set.
inline void check_output(const Output& out) {
  if ((out.coefficients == nullptr) == (out.sums == nullptr))
    throw std::logic_error("ch15: an Output needs exactly one of coefficients and sums");
}

/// The template sizes variant 6 is compiled for (section 15.7); other sizes run variant 5.
struct FixedSize {
  int width;   ///< template width
  int height;  ///< template height
};
/// Every size variant 6 has a kernel for.
const std::vector<FixedSize>& fixed_template_sizes();

#if defined(__CUDACC__)
// [corr-value]
/// CorrelationValue() of section 15.1: the coefficient from the three image sums and the
/// template's precomputed statistics. The book computes the numerator and the image's
/// variance term in float, where N ΣIT and ΣI ΣT are close large
/// numbers whose difference loses most of float's 24 bits. We form both in 64-bit integers,
/// where they are exact (each product is below 2⁴⁹), and round only the results;
/// a flat window (variance 0) gives 0 instead of a division by zero.
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
/// The end of every kernel: output pixel index gets the coefficient, or in the sums twin
/// (kSums) the three sums themselves, so that they can be compared with the CPU bit for
/// bit (section 15.6).
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

/// The dynamic shared memory of a launch, viewed as an array of T.
using hb::dynamic_shared;
#endif

}  // namespace ch15
