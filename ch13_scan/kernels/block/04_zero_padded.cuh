/// \file
/// \brief Chapter 13, block variant 4: listing 13.3 on the zero-padded layout (listing 13.15).
/* [changed]
Compared with variant 3: the same block scan on the zero-padded layout (figure 13.15, listing
13.15), with the warp scan that needs no lane test.
[changed] */
#pragma once

#include "03_scan_then_fan.cuh"

namespace ch13 {

// [block4-launch]
/// The zero-padded block scan: listing 13.3's scanBlock instantiated with kZeroPad = true.
/// Its shared memory is scan_shared_memory<T, true>(threads): 49 words per warp instead
/// of 32.
template <typename T>
void block4_zero_padded(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                        cudaStream_t stream) {
  block3_launch<T, true>("4", in, out, n, kind, threads, reps, stream);
}
// [block4-launch]

}  // namespace ch13
