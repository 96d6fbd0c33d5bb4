/// \file
/// Variant 0a is the reference: the serial loop that copies every odd element to the next
/// free output slot and counts them (section 13.6). It works in place too, because it never
/// writes ahead of where it reads.
#pragma once

#include <cstddef>

#include "scan_ops.h"

namespace ch13 {

// [compact0a-cpu]
/// Copies the elements of \p in for which \p keep holds to the front of \p out, in order.
/// \param out room for n elements; may be the same array as \p in
/// \param in n values
/// \param n how many
/// \param keep the predicate (IsOdd in this chapter)
/// \return how many were kept
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
