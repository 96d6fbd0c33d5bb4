/// \file
/// \brief Chapter 13, compaction variant 0a: the predicate of section 13.6, which every
///        compaction uses, and the serial compaction on the CPU, the reference that every
///        compaction is checked against.
#pragma once

#include <cstddef>

#if defined(__CUDACC__)
#define CH13_HD __host__ __device__
#else
#define CH13_HD
#endif

namespace ch13 {

// [compact-predicate]
/// The predicate of listing 13.22's stream compaction: keep the odd integers. The book's
/// `isOdd` returned `x & 1` as a bool; negative odd numbers are odd too (two's complement).
struct IsOdd {
  CH13_HD bool operator()(int x) const { return (x & 1) != 0; }
};
// [compact-predicate]

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

}  // namespace ch13
