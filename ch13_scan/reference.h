/// \file
/// \brief The CPU reference of chapter 13 (scan variant 0a and compaction variant 0a), the
///        inputs of its programs and tests, and the checks of their results: exact for int and
///        for floats that sum exactly, within a documented bound for other floats.
///
/// We keep these as plain and obviously right as we can, because every GPU variant is checked
/// against them.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "hb/compare.h"
#include "hb/random.h"
#include "scan.h"

namespace ch13 {

/* [scan0a-changed]
Variant 0a is the reference. It is the serial scan of listings 13.1 and 13.2 on the CPU: one
loop that keeps a running sum, with two lines swapped for the exclusive scan. Both return the
total, and both work in place (`out == in`): the exclusive scan reads `in[i]` into a temporary
before it overwrites `out[i]`, the book's footnote made into code. Every GPU result of the
chapter is checked against it (for float inputs, against the same loop run in double precision).
[scan0a-changed] */

// [scan0a-inclusive]
/// Listing 13.1: the inclusive scan, \f$out_i = in_0 + \dots + in_i\f$, into \p out (which may
/// be \p in), summed in T (double for a double-precision reference of float). Returns the sum
/// of all n values.
template <typename T, typename In = T>
T cpu_inclusive_scan(T* out, const In* in, std::size_t n) {
  T sum(0);
  for (std::size_t i = 0; i < n; ++i) {
    sum += in[i];
    out[i] = sum;
  }
  return sum;
}
// [scan0a-inclusive]

// [scan0a-exclusive]
/// Listing 13.2: the exclusive scan, \f$out_i = in_0 + \dots + in_{i-1}\f$, \f$out_0 = 0\f$.
/// As printed, the listing cannot work in place (it would add the output it has just
/// written); reading the input into a temporary first fixes that.
template <typename T, typename In = T>
T cpu_exclusive_scan(T* out, const In* in, std::size_t n) {
  T sum(0);
  for (std::size_t i = 0; i < n; ++i) {
    const T x = static_cast<T>(in[i]);
    out[i] = sum;
    sum += x;
  }
  return sum;
}
// [scan0a-exclusive]

/// The inclusive or exclusive scan, as \p kind says; returns the sum of all n values.
template <typename T, typename In = T>
T cpu_scan(T* out, const In* in, std::size_t n, ScanKind kind) {
  return kind == ScanKind::Inclusive ? cpu_inclusive_scan<T, In>(out, in, n)
                                     : cpu_exclusive_scan<T, In>(out, in, n);
}

/// The scan restarted every \p segment elements (> 0): what the warp-level (segment 32) and
/// block-level (segment = tile) test kernels compute.
template <typename T, typename In = T>
void cpu_segmented_scan(T* out, const In* in, std::size_t n, std::size_t segment, ScanKind kind) {
  for (std::size_t first = 0; first < n; first += segment) {
    const std::size_t count = n - first < segment ? n - first : segment;
    cpu_scan<T, In>(out + first, in + first, count, kind);
  }
}

/* [compact0a-changed]
Variant 0a is the reference: the serial loop that copies every odd element to the next free
output slot and counts them (section 13.6). It works in place too, because it never writes ahead
of where it reads.
[compact0a-changed] */

// [compact0a-cpu]
/// Copies the elements of \p in for which \p keep holds to the front of \p out (which may be
/// \p in), in order, and returns how many.
template <typename T, typename Pred>
std::size_t cpu_compact(T* out, const T* in, std::size_t n, Pred keep) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const T x = in[i];
    if (keep(x)) out[count++] = x;
  }
  return count;
}
// [compact0a-cpu]

/// int32 inputs: uniform in [-1000, 1000], element i depending only on (seed, i). Their
/// prefix sums stay far inside int32 for every size we use (a random walk of 2^30 steps of
/// at most 1000 strays a few 10^7 from 0), so an int32 scan is exact and is compared exactly
/// with the CPU's 64-bit scan.
inline std::vector<int> make_ints(std::size_t n, std::uint64_t seed) {
  std::vector<int> v(n);
  hb::fill_uniform(v.data(), n, seed, -1000, 1000);
  return v;
}

/// What float inputs look like.
enum class FloatData {
  /// Multiples of 2^-8 in (-1, 1), symmetric about 0. Every partial sum that any scan forms
  /// is the sum of a contiguous range, a multiple of 2^-8 below 2^16 in magnitude for the
  /// sizes we use (a random walk without drift; a CPU test checks the default seed up to
  /// 2^28 elements), so it needs at most 24 significant bits: float scans of these inputs
  /// are exact in any order of additions and are compared exactly.
  Grid,
  /// Uniform in [-1, 1) with 24 random bits: scans are rounded, and compared within
  /// float_scan_gamma() (see there).
  Uniform
};

/// float inputs of the given kind, element i depending only on (seed, i).
inline std::vector<float> make_floats(std::size_t n, std::uint64_t seed, FloatData data) {
  std::vector<float> v(n);
  if (data == FloatData::Uniform) {
    hb::fill_uniform(v.data(), n, seed, -1.0f, 1.0f);
  } else {
    for (std::size_t i = 0; i < n; ++i)
      v[i] = static_cast<float>(hb::uniform_int(seed, i, -255, 255)) / 256.0f;  // mean 0: no drift
  }
  return v;
}

/// The inputs of T whose scans are exact in any order: make_ints, or make_floats of the grid.
template <typename T>
std::vector<T> make_exact_inputs(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, int>) {
    return make_ints(n, seed);
  } else {
    return make_floats(n, seed, FloatData::Grid);
  }
}

/// The scan of \p in in Wide<T> (64-bit integers for int, double for float): exact for int
/// and for FloatData::Grid.
template <typename T>
std::vector<Wide<T>> reference_scan(const std::vector<T>& in, ScanKind kind) {
  std::vector<Wide<T>> out(in.size());
  cpu_scan<Wide<T>, T>(out.data(), in.data(), in.size(), kind);
  return out;
}

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
/// A float sum of terms whose magnitudes add up to S, computed through a chain of k
/// roundings, is off by at most about \f$k\, u\, S\f$ (\f$u = 2^{-24}\f$). The tree-shaped
/// parts of every variant (warp, block, recursion levels) contribute a few steps per level,
/// at most \f$4 \log_2 n\f$ in all; the serial parts contribute one rounding per step: the
/// carry from tile to tile of the two-level kernels (fewer than \f$n/512\f$ tiles per
/// subarray) and the look-back (at most two roundings per tile of at least 512 elements).
/// The bound scales with n: a test with rounded floats checks the arithmetic, while the
/// exact tests (int, FloatData::Grid) check that every element lands where it belongs.
inline double float_scan_gamma(std::size_t n) {
  const double log2n = std::ceil(std::log2(static_cast<double>(n) + 2.0));
  const double tiles = std::ceil(static_cast<double>(n) / 512.0);
  return (4.0 * log2n + 2.0 * tiles + 32.0) * std::ldexp(1.0, -24);
}

namespace detail {

// Finds the mismatches with a cheap test and formats only the first and last five, so that a
// variant that gets every element of 2^28 wrong is reported as quickly as one that is right.
template <typename IsBad, typename Line>
hb::CompareResult collect_mismatches(std::size_t n, IsBad is_bad, Line line,
                                     const double& max_error) {
  constexpr std::size_t kKeep = 5;
  std::vector<std::size_t> first, last;
  std::size_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_bad(i)) continue;
    ++total;
    if (first.size() < kKeep) {
      first.push_back(i);
    } else {
      last.push_back(i);
      if (last.size() > 4 * kKeep) last.erase(last.begin(), last.end() - kKeep);
    }
  }
  if (last.size() > kKeep) last.erase(last.begin(), last.end() - kKeep);
  hb::CompareResult r;
  r.count = n;
  r.mismatches = total;
  r.max_error = max_error;
  r.ok = total == 0;
  if (!r.ok) {
    r.report = std::to_string(total) + " of " + std::to_string(n) +
               " scan elements differ from the reference:\n";
    for (std::size_t i : first) r.report += "  [" + std::to_string(i) + "] " + line(i) + "\n";
    if (total > first.size() + last.size()) r.report += "  ...\n";
    for (std::size_t i : last) r.report += "  [" + std::to_string(i) + "] " + line(i) + "\n";
  }
  return r;
}

}  // namespace detail

/// An int32 scan against the 64-bit reference: every element equal.
inline hb::CompareResult compare_scan(const int* got, const long long* want, std::size_t n) {
  double max_error = 0.0;
  auto bad = [&](std::size_t i) {
    if (got[i] == want[i]) return false;
    max_error =
        std::fmax(max_error, std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i])));
    return true;
  };
  auto line = [&](std::size_t i) {
    return "got " + std::to_string(got[i]) + ", want " + std::to_string(want[i]);
  };
  return detail::collect_mismatches(n, bad, line, max_error);
}

/// A float scan against the double reference: every element equal when \p gamma is 0
/// (\p scale may then be nullptr), else within \p gamma times \p scale[i]
/// (reference_abs_scan). NaN never matches.
inline hb::CompareResult compare_scan(const float* got, const double* want, const double* scale,
                                      std::size_t n, double gamma) {
  if (gamma == 0.0) scale = nullptr;
  double max_error = 0.0;  // the largest error relative to scale[i]
  auto bad = [&](std::size_t i) {
    const double err = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (std::isnan(err)) {
      max_error = INFINITY;
      return true;
    }
    if (err == 0.0) return false;
    if (scale == nullptr) {  // exact comparison: max_error in absolute terms
      max_error = std::fmax(max_error, err);
      return true;
    }
    max_error = std::fmax(max_error, scale[i] > 0 ? err / scale[i] : INFINITY);
    return !(err <= gamma * scale[i]);
  };
  auto line = [&](std::size_t i) {
    const double err = std::fabs(static_cast<double>(got[i]) - want[i]);
    return "got " + hb::detail::to_text(got[i]) + ", want " + hb::detail::to_text(want[i]) +
           " (error " + hb::detail::to_text(err) + ", bound " +
           hb::detail::to_text(scale == nullptr ? 0.0 : gamma * scale[i]) + ")";
  };
  return detail::collect_mismatches(n, bad, line, max_error);
}

/// A float scan against the double reference, every element equal.
inline hb::CompareResult compare_scan(const float* got, const double* want, std::size_t n) {
  return compare_scan(got, want, nullptr, n, 0.0);
}

/// Variant 0a's compaction of the odd elements among the first \p n of \p in: the odd
/// inputs, in order.
inline std::vector<int> reference_compact(const std::vector<int>& in, std::size_t n) {
  std::vector<int> selected(n);
  selected.resize(cpu_compact(selected.data(), in.data(), n, IsOdd{}));
  return selected;
}

}  // namespace ch13
