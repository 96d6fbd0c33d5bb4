/// \file
/// \brief How chapter 12 measures and checks a variant, and the two kinds of programs built
///        on that: one small program per variant, and the driver `reduction`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "reduction_launch.h"
#include "reduction_variants.h"

namespace ch12 {

/// The programs' input: \p n int32 values uniform over the whole int32 range, element i
/// depending only on (seed, i). Sums of such values overflow 32 bits at once, so a kernel
/// that accumulates in int32 cannot pass the check of a 64-bit variant.
std::vector<int> make_input(std::size_t n, std::uint64_t seed);

/// One measured configuration.
struct Measurement {
  double median_ms = 0.0;
  double gbs = 0.0;     ///< 4 n bytes / median time, in 1e9 bytes/s
  long long got = 0;    ///< the last call's result
  bool ok = true;       ///< first and last result equal the expected value
  bool checked = true;  ///< false with --no-check
};

/// What a measurement needs; the caller owns every buffer.
struct Bench {
  const int* d_in = nullptr;  ///< device input
  std::size_t n = 0;          ///< elements
  Scratch* scratch = nullptr;
  cudaStream_t stream = nullptr;
  long long* d_out = nullptr;  ///< device output (one element)
  int iters = 10;              ///< timed repetitions (median)
  bool check = true;           ///< compare with \p expected
};

/// Runs variant \p v with blocks of \p threads threads: one call whose result is checked
/// (the output is poisoned first), two untimed calls, \p bench.iters timed calls (CUDA events,
/// median), and a check of the last call's result, which catches state (tickets,
/// accumulators) that a call leaves behind.
Measurement measure(const Variant& v, int threads, const Bench& bench, long long expected);

/// main() of the per-variant programs (reduction1_two_pass ...): runs variant \p id alone
/// against CUB on default data, checks it against the CPU, and prints the time, GB/s and
/// % of CUB. \p program must be the variant's program name.
int variant_program_main(const char* program, const char* id, int argc, char** argv);

/// main() of the driver `reduction`: the book's block-size sweep (one row per variant, one
/// column per block size) and a size sweep of the fastest variants against CUB.
int driver_main(int argc, char** argv);

}  // namespace ch12
