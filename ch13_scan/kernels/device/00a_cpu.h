/// \file
/// \brief Chapter 13, scan variant 0a: the serial scans of listings 13.1 and 13.2 on the CPU,
///        the reference that every scan of the chapter is checked against.
#pragma once

#include <cstddef>

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

}  // namespace ch13
