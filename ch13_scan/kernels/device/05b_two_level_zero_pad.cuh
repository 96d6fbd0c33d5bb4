/// \file
/// \brief Chapter 13, scan variant 5b: two-level, zero-padded warp scans (listings 13.14-13.16).
/* [changed]
Compared with variant 5a: the warp scans read zeros instead of testing their lane (section
13.5.1, listings 13.14 to 13.16). Each warp's 32 values in shared memory are preceded by 16
zeros (figure 13.15: index 49 warp + 16 + lane), so a lane near 0 that reads up to 16 places to
its left gets 0: no lane test and no divergence, for 17 more words of shared memory per warp.
[changed] */
#pragma once

#include "05a_two_level.cuh"

namespace ch13 {

// [scan5b-launch]
/// Variant 5b: listing 13.12 with scan2Level_kernel<T, true>, the zero-padded layout.
template <typename T>
void scan5b_two_level_zero_pad(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                               Scratch& scratch, cudaStream_t stream) {
  require_threads("scan variant 5b", BlockRule::PowerOfTwoFrom32, threads);
  if (n == 0) return;
  hb::with_power_of_two<32, 1024>(threads, [&](auto b) {
    constexpr int kThreads = decltype(b)::value;
    scan_2level<T, kThreads>(scan_2level_kernel<T, true>, scan_shared_memory<T, true>(kThreads), in,
                             out, n, kind, scratch, stream);
  });
}
// [scan5b-launch]

}  // namespace ch13
