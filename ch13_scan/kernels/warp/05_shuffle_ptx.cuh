/// \file
/// \brief Chapter 13, warp variant 5: shfl.sync.up with predicate, inline PTX (listing 13.17).
/* [changed]
Compared with variant 4: the book's inline-PTX form of the same step (listing 13.17).
`shfl.sync.up.b32 r|p` also returns a predicate that is true when the source lane exists, and
`@p add` adds only then: two instructions per step and no lane comparison. We add the `.sync`
and the member mask without which ptxas rejects `shfl` for sm_70 and later, and a float version.
[changed] */
#pragma once

#include "04_shuffle.cuh"

namespace ch13 {

// [warp5-step]
/// One step of listing 13.17's scanWarpShuffle in inline PTX: \p partial plus the partial
/// of the lane \p offset places down, where that lane exists. The shuffle's predicate
/// output p says whether it does; the add is predicated on it.
/// \param partial this lane's running sum
/// \param offset 1, 2, 4, 8 or 16
/// \pre all 32 lanes of the warp execute it.
__device__ __forceinline__ int warp_scan_ptx_step(int partial, int offset) {
  int result;
  asm volatile(
      "{\n\t"
      ".reg .s32 r0;\n\t"
      ".reg .pred p;\n\t"
      "shfl.sync.up.b32 r0|p, %1, %2, 0, 0xffffffff;\n\t"
      "@p add.s32 r0, r0, %1;\n\t"
      "mov.s32 %0, r0;\n\t"
      "}"
      : "=r"(result)
      : "r"(partial), "r"(offset));
  return result;
}
/// The same step for float (the shuffle moves 32 bits; the add is `add.f32`).
/// \param partial this lane's running sum
/// \param offset 1, 2, 4, 8 or 16
/// \pre all 32 lanes of the warp execute it.
__device__ __forceinline__ float warp_scan_ptx_step(float partial, int offset) {
  float result;
  asm volatile(
      "{\n\t"
      ".reg .f32 r0;\n\t"
      ".reg .pred p;\n\t"
      "shfl.sync.up.b32 r0|p, %1, %2, 0, 0xffffffff;\n\t"
      "@p add.f32 r0, r0, %1;\n\t"
      "mov.f32 %0, r0;\n\t"
      "}"
      : "=f"(result)
      : "f"(partial), "r"(offset));
  return result;
}

/// Listing 13.17's scanWarpShuffle: kLevels steps of warp_scan_ptx_step.
/// \tparam kLevels 5 for a whole warp
/// \param x this lane's value
/// \return this lane's inclusive prefix
/// \pre all 32 lanes of the warp call it.
template <int kLevels = 5, typename T>
__device__ __forceinline__ T warp_scan_ptx(T x) {
#pragma unroll
  for (int level = 0; level < kLevels; ++level) x = warp_scan_ptx_step(x, 1 << level);
  return x;
}
// [warp5-step]

/// The warp-level test kernel of variant 5.
/// \param in n values
/// \param out n results
/// \param n how many
/// \param kind inclusive or exclusive
/// \param reps scans in a row
/// \pre blockDim.x is a multiple of 32.
template <typename T>
__global__ void warp5_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  T x = i < n ? in[i] : T(0);
  for (int r = 0; r < reps; ++r) {
    const T inclusive = warp_scan_ptx(x);
    x = kind == ScanKind::Inclusive ? inclusive : warp_exclusive_from_inclusive(inclusive);
  }
  if (i < n) out[i] = x;
}

template <typename T>
void warp5_shuffle_ptx(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                       cudaStream_t stream) {
  require_threads("warp variant 5", BlockRule::MultipleOf32, threads);
  launch_per_tile(warp5_kernel<T>, n, threads, threads, 0, stream, in, out, n, kind, reps);
}

}  // namespace ch13
