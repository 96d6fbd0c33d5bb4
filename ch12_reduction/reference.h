/// \file
/// \brief The CPU reference of chapter 12: what each variant must write, computed with the
///        kernels' own reduction types, and the tolerance of floating-point sums.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/07_reduction_ops.h"
#include "reduction.h"

namespace ch12 {

/// A typed reduction in input order with the kernels' own reduction type R (variant 7).
template <typename R, typename T>
R cpu_reduce(const T* in, std::size_t n) {
  R s{};
  for (std::size_t i = 0; i < n; ++i) s += in[i];
  return s;
}

/// Exact sum of \p n int32 values in 64 bits (no overflow for n < 2^32).
inline long long cpu_sum(const int* in, std::size_t n) { return cpu_reduce<long long>(in, n); }

/// Sum modulo 2^32, sign-extended to 64 bits: what a kernel that adds int into int computes.
/// Unsigned arithmetic wraps by definition; the conversion back to int32 is two's complement
/// (guaranteed since C++20, and what every compiler we use does anyway).
inline long long cpu_sum_wrapped(const int* in, std::size_t n) {
  return static_cast<std::int32_t>(cpu_reduce<std::uint32_t>(in, n));
}

/// Number of elements for which \p pred holds (variant 8 with other predicates).
template <typename T, typename Pred>
long long cpu_count_if(const T* in, std::size_t n, Pred pred) {
  long long c = 0;
  for (std::size_t i = 0; i < n; ++i) c += pred(in[i]) ? 1 : 0;
  return c;
}

/// What a variant whose Result is \p what must write for these inputs.
inline long long cpu_expected(Result what, const int* in, std::size_t n) {
  switch (what) {
    case Result::Sum64: return cpu_sum(in, n);
    case Result::Sum32Wrapped: return cpu_sum_wrapped(in, n);
    case Result::CountPositive: return cpu_count_if(in, n, IsPositive{});
  }
  return 0;
}

/// Sum of |x| in long double: the scale of the rounding error of a floating-point sum.
template <typename T>
long double cpu_sum_abs(const T* in, std::size_t n) {
  long double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += in[i] < 0 ? -static_cast<long double>(in[i]) : in[i];
  return s;
}

/// Tolerance of a floating-point sum of \p n terms in any order: the classic bound
/// \f$|\hat s - s| \le (n - 1)\,u \sum |x_i|\f$ (u = unit roundoff of the accumulator),
/// with a floor of a few ulps for tiny n.
template <typename Acc>
double sum_tolerance(std::size_t n, long double sum_abs) {
  const long double u = sizeof(Acc) == 8 ? 0x1p-53L : 0x1p-24L;
  const long double terms = n > 1 ? static_cast<long double>(n - 1) : 1.0L;
  return static_cast<double>((terms + 4) * u * sum_abs);
}

/// Whether a sum \p got of \p n terms matches \p want: exactly for integers, within
/// sum_tolerance for floating point.
template <typename Acc>
bool sum_close(Acc got, Acc want, std::size_t n, long double scale) {
  if constexpr (std::is_integral_v<Acc>) return got == want;
  return std::fabs(static_cast<double>(got) - static_cast<double>(want)) <=
         sum_tolerance<Acc>(n, scale);
}

/// Whether a typed result (variants 7, 8 and 10e) matches the CPU's: counts, minimum and maximum
/// exactly (no rounding happens), sums within sum_tolerance scaled by \f$\sum |x_i|\f$, a sum
/// of squares scaled by itself (all its terms are positive).
template <typename R, typename T>
bool matches(const R& got, const R& want, const T* in, std::size_t n) {
  if constexpr (std::is_integral_v<R>) {
    return got == want;
  } else if constexpr (std::is_floating_point_v<R>) {
    return sum_close(got, want, n, cpu_sum_abs(in, n));
  } else if constexpr (std::is_same_v<R, Min<T>> || std::is_same_v<R, Max<T>>) {
    return got.value == want.value;
  } else if constexpr (std::is_same_v<R, SumSquares<T>>) {
    return sum_close(got.sum, want.sum, n, cpu_sum_abs(in, n)) &&
           sum_close(got.sumsq, want.sumsq, n, static_cast<long double>(want.sumsq));
  } else {
    return sum_close(got.sum, want.sum, n, cpu_sum_abs(in, n));
  }
}

}  // namespace ch12
