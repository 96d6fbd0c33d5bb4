/// \file
/// \brief The reduction types of variant 7 (listings 12.9 and 12.10) and the predicates of
///        variant 8. Plain C++ that both the GPU kernels and the CPU reference use, so the two
///        compute with the same definitions.
///
/// A reduction type R is what the book calls `ReductionType`: default construction gives the
/// identity, `r += x` folds in one input element, and `r += other` combines two partial
/// results. The book needed `volatile` overloads of both because its warp-synchronous code
/// went through a volatile pointer; our kernels synchronize explicitly (see variant 2), so
/// plain overloads are enough. R must be trivially copyable: kernels keep it in shared
/// memory and copy it to global memory.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define CH12_HD __host__ __device__
#else
#define CH12_HD
#endif

namespace ch12 {

/// Largest and smallest values of the element types, usable in device code.
template <typename T>
struct Bounds;
template <>
struct Bounds<int> {
  CH12_HD static constexpr int lowest() { return -2147483647 - 1; }
  CH12_HD static constexpr int highest() { return 2147483647; }
};
template <>
struct Bounds<float> {
  CH12_HD static constexpr float lowest() { return -__builtin_huge_valf(); }
  CH12_HD static constexpr float highest() { return __builtin_huge_valf(); }
};
template <>
struct Bounds<double> {
  CH12_HD static constexpr double lowest() { return -__builtin_huge_val(); }
  CH12_HD static constexpr double highest() { return __builtin_huge_val(); }
};

/// The wider type we sum T into: int -> long long (exact up to 2^32 elements), float ->
/// double, double -> double.
template <typename T>
struct Wide;
template <>
struct Wide<int> {
  using type = long long;
};
template <>
struct Wide<float> {
  using type = double;
};
template <>
struct Wide<double> {
  using type = double;
};
template <typename T>
using wide_t = typename Wide<T>::type;

// [reduction7-types]
/// Sum of T, accumulated in the wider type wide_t<T>.
template <typename T>
struct Sum {
  wide_t<T> sum{};
  CH12_HD Sum& operator+=(T x) {
    sum += x;
    return *this;
  }
  CH12_HD Sum& operator+=(const Sum& o) {
    sum += o.sum;
    return *this;
  }
};

/// Sum and sum of squares in one pass (listing 12.10's CReduction_Sumi_isq, for any T).
template <typename T>
struct SumSquares {
  wide_t<T> sum{};
  wide_t<T> sumsq{};
  CH12_HD SumSquares& operator+=(T x) {
    sum += x;
    sumsq += static_cast<wide_t<T>>(x) * static_cast<wide_t<T>>(x);
    return *this;
  }
  CH12_HD SumSquares& operator+=(const SumSquares& o) {
    sum += o.sum;
    sumsq += o.sumsq;
    return *this;
  }
};

/// Smallest element; the identity is the largest value of T (+infinity for floats).
template <typename T>
struct Min {
  T value = Bounds<T>::highest();
  CH12_HD Min& operator+=(T x) {
    value = x < value ? x : value;
    return *this;
  }
  CH12_HD Min& operator+=(const Min& o) { return *this += o.value; }
};

/// Largest element; the identity is the smallest value of T (-infinity for floats).
template <typename T>
struct Max {
  T value = Bounds<T>::lowest();
  CH12_HD Max& operator+=(T x) {
    value = x > value ? x : value;
    return *this;
  }
  CH12_HD Max& operator+=(const Max& o) { return *this += o.value; }
};
// [reduction7-types]

// [reduction8-predicates]
/// x > 0, for any element type.
struct IsPositive {
  template <typename T>
  CH12_HD bool operator()(T x) const {
    return x > T(0);
  }
};

/// x is odd (integers).
struct IsOdd {
  CH12_HD bool operator()(int x) const { return (x & 1) != 0; }
};
// [reduction8-predicates]

}  // namespace ch12
