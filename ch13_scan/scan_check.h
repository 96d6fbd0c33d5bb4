/// \file
/// \brief The data of chapter 13's programs and tests and the checks of their results: exact
///        for int and for floats that sum exactly, within a documented bound for other floats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hb/compare.h"
#include "scan_ops.h"

namespace ch13 {

/// int32 inputs: uniform in [-1000, 1000], element i depending only on (seed, i). Their
/// prefix sums stay far inside int32 for every size we use (a random walk of 2^30 steps of
/// at most 1000 strays a few 10^7 from 0), so an int32 scan is exact and is compared exactly
/// with the CPU's 64-bit scan.
std::vector<int> make_ints(std::size_t n, std::uint64_t seed);

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
std::vector<float> make_floats(std::size_t n, std::uint64_t seed, FloatData data);

/// The exact scan of int32 inputs in 64 bits (variant 0a's loop with a wider sum).
std::vector<long long> reference_scan(const std::vector<int>& in, ScanKind kind);
/// The scan of float inputs in double precision (exact for FloatData::Grid).
std::vector<double> reference_scan(const std::vector<float>& in, ScanKind kind);
/// The scan of |x| in double precision: the scale \f$S_i = \sum_{j} |x_j|\f$ of the rounding
/// error of each float prefix.
std::vector<double> reference_abs_scan(const std::vector<float>& in, ScanKind kind);

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
double float_scan_gamma(std::size_t n);

/// An int32 scan against the 64-bit reference: every element equal.
hb::CompareResult compare_scan(const int* got, const long long* want, std::size_t n);
/// A float scan against the double reference: every element equal when \p gamma is 0
/// (\p scale may then be nullptr), else within \p gamma times \p scale[i]
/// (reference_abs_scan). NaN never matches.
hb::CompareResult compare_scan(const float* got, const double* want, const double* scale,
                               std::size_t n, double gamma);

/// The selected elements of a compaction and their number, computed by variant 0a.
struct CompactReference {
  std::vector<int> selected;  ///< the odd inputs, in order
};
/// Variant 0a's compaction of the odd elements among the first \p n of \p in.
CompactReference reference_compact(const std::vector<int>& in, std::size_t n);

}  // namespace ch13
