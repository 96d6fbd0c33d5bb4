/// \file
/// \brief The CPU reference of chapter 12 (variant 0's check): exact 64-bit sums, the
///        wrapped 32-bit sum of the blog kernels, predicate counts, and the typed reductions of
///        variant 7 computed with the same reduction types the kernels use.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernels/07_reduction_ops.h"
#include "reduction.h"

namespace ch12 {

/// Exact sum of \p n int32 values in 64 bits (no overflow for n < 2^32).
inline long long cpu_sum(const int* in, std::size_t n) {
  long long s = 0;
  for (std::size_t i = 0; i < n; ++i) s += in[i];
  return s;
}

/// Sum modulo 2^32 with two's-complement wrap-around, sign-extended to 64 bits: what a kernel
/// that adds int into int computes.
inline long long cpu_sum_wrapped(const int* in, std::size_t n) {
  // Unsigned arithmetic wraps by definition; the conversion back to int32 is two's
  // complement (guaranteed since C++20, and what every compiler we use does anyway).
  std::uint32_t s = 0;
  for (std::size_t i = 0; i < n; ++i) s += static_cast<std::uint32_t>(in[i]);
  return static_cast<long long>(static_cast<std::int32_t>(s));
}

/// A typed reduction in input order with the kernels' own reduction type R (variant 7).
template <typename R, typename T>
R cpu_reduce(const T* in, std::size_t n) {
  R r{};
  for (std::size_t i = 0; i < n; ++i) r += in[i];
  return r;
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

/// Whether variant 7's result matches the CPU's; a floating-point sum's tolerance is scaled by
/// \f$\sum |x_i|\f$.
template <typename T>
bool matches(const Sum<T>& got, const Sum<T>& want, const T* in, std::size_t n) {
  return sum_close(got.sum, want.sum, n, cpu_sum_abs(in, n));
}

/// As above; the sum of squares is scaled by itself (all its terms are positive).
template <typename T>
bool matches(const SumSquares<T>& got, const SumSquares<T>& want, const T* in, std::size_t n) {
  return sum_close(got.sum, want.sum, n, cpu_sum_abs(in, n)) &&
         sum_close(got.sumsq, want.sumsq, n, static_cast<long double>(want.sumsq));
}

/// A plain double sum (variant 10e's double launcher), within sum_tolerance.
inline bool matches(double got, double want, const double* in, std::size_t n) {
  return sum_close(got, want, n, cpu_sum_abs(in, n));
}

/// Counts (variant 8 with other predicates), minimum and maximum are exact: no rounding happens.
template <typename T>
bool matches(long long got, long long want, const T*, std::size_t) {
  return got == want;
}
template <typename T>
bool matches(const Min<T>& got, const Min<T>& want, const T*, std::size_t) {
  return got.value == want.value;
}
template <typename T>
bool matches(const Max<T>& got, const Max<T>& want, const T*, std::size_t) {
  return got.value == want.value;
}

}  // namespace ch12
