/// \file
/// Variant 0a is the reference. It is the serial scan of listings 13.1 and 13.2 on the CPU:
/// one loop that keeps a running sum, with two lines swapped for the exclusive scan. Both
/// return the total, and both work in place (`out == in`): the exclusive scan reads `in[i]`
/// into a temporary before it overwrites `out[i]`, the book's footnote made into code. Every
/// GPU result of the chapter is checked against it (for float inputs, against the same loop
/// run in double precision).
#pragma once

#include <cstddef>

#include "scan_ops.h"

namespace ch13 {

// [scan0a-inclusive]
/// Listing 13.1: the inclusive scan, \f$out_i = in_0 + \dots + in_i\f$.
/// \tparam T the type we sum in and write (double for a double-precision reference of float)
/// \tparam In the input type
/// \param out n results; may be the same array as \p in
/// \param in n values
/// \param n how many
/// \return the sum of all n values
template <typename T, typename In = T>
T inclusive_scan(T* out, const In* in, std::size_t n) {
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
/// \tparam T the type we sum in and write
/// \tparam In the input type
/// \param out n results; may be the same array as \p in
/// \param in n values
/// \param n how many
/// \return the sum of all n values
template <typename T, typename In = T>
T exclusive_scan(T* out, const In* in, std::size_t n) {
  T sum(0);
  for (std::size_t i = 0; i < n; ++i) {
    const T x = static_cast<T>(in[i]);
    out[i] = sum;
    sum += x;
  }
  return sum;
}
// [scan0a-exclusive]

/// The inclusive or exclusive scan, as \p kind says.
/// \param out n results; may be the same array as \p in
/// \param in n values
/// \param n how many
/// \param kind which scan
/// \return the sum of all n values
template <typename T, typename In = T>
T cpu_scan(T* out, const In* in, std::size_t n, ScanKind kind) {
  return kind == ScanKind::Inclusive ? inclusive_scan<T, In>(out, in, n)
                                     : exclusive_scan<T, In>(out, in, n);
}

/// The scan restarted every \p segment elements: what the warp-level (segment 32) and
/// block-level (segment = tile) test kernels compute.
/// \param out n results; may be the same array as \p in
/// \param in n values
/// \param n how many
/// \param segment elements per independent scan (> 0)
/// \param kind which scan
template <typename T, typename In = T>
void cpu_segmented_scan(T* out, const In* in, std::size_t n, std::size_t segment, ScanKind kind) {
  for (std::size_t first = 0; first < n; first += segment) {
    const std::size_t count = n - first < segment ? n - first : segment;
    cpu_scan<T, In>(out + first, in + first, count, kind);
  }
}

}  // namespace ch13
