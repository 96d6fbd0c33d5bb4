/// \file
/// \brief Small definitions that the CPU reference, the kernels and the harness share: which
///        scan to compute, and the predicate of the stream compaction of section 13.6.
#pragma once

#if defined(__CUDACC__)
#define CH13_HD __host__ __device__
#else
#define CH13_HD
#endif

namespace ch13 {

/// Which scan a launcher computes (section 13.1). The inclusive scan writes
/// \f$y_i = x_0 \oplus \dots \oplus x_i\f$, the exclusive scan
/// \f$y_i = x_0 \oplus \dots \oplus x_{i-1}\f$ with \f$y_0\f$ the identity (0 for +).
enum class ScanKind { Inclusive, Exclusive };

/// "inclusive" or "exclusive", for tables and messages.
inline const char* kind_name(ScanKind kind) {
  return kind == ScanKind::Inclusive ? "inclusive" : "exclusive";
}

// [compact-predicate]
/// The predicate of listing 13.22's stream compaction: keep the odd integers. The book's
/// `isOdd` returned `x & 1` as a bool; negative odd numbers are odd too (two's complement).
struct IsOdd {
  CH13_HD bool operator()(int x) const { return (x & 1) != 0; }
};
// [compact-predicate]

}  // namespace ch13
