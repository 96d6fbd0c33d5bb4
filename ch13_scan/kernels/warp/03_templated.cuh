/// \file
/// \brief Chapter 13, warp variant 3: templated on padding, running sum in a register (listing 13.16).
/* [changed]
Compared with variant 2: the templated form (listings 13.15 and 13.16) that serves both layouts.
`bool kZeroPad` picks the padded index (49 warp + 16 + lane) or the plain one and keeps or drops
the lane test, and the running value stays in a register, so each step loads only the neighbor
and stores once. The table's row is the padded instantiation; the instruction counts show both.
[changed] */
#pragma once

#include "02_zero_padded.cuh"

namespace ch13 {

// [warp3-index]
/// Listing 13.15: the shared-memory slot of thread \p tid, with or without zero padding.
template <bool kZeroPad>
__host__ __device__ constexpr int scan_shared_index(int tid) {
  return kZeroPad ? zero_padded_index(tid) : tid;
}
/// Listing 13.15: the shared memory a block of \p threads threads needs for its values.
template <typename T, bool kZeroPad>
__host__ __device__ constexpr int scan_shared_memory(int threads) {
  return kZeroPad ? zero_padded_bytes<T>(threads) : threads * static_cast<int>(sizeof(T));
}
// [warp3-index]

// [warp3-scan]
/// Listing 13.16: the inclusive warp scan for either layout. The running sum t lives in a
/// register; each step reads one neighbor and writes t back for the neighbors to read.
/// \tparam kZeroPad whether 16 zeros precede the warp's values (then no lane test)
/// \param s this lane's slot, at scan_shared_index<kZeroPad>(threadIdx.x)
/// \return this lane's inclusive prefix (also left in *s)
/// \pre all 32 lanes of the warp call it, and every lane's value is in its slot.
template <typename T, bool kZeroPad>
__device__ __forceinline__ T warp_scan(T* s) {
  T t = s[0];
  const unsigned lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const bool active = kZeroPad || lane >= offset;
    if (active) t += s[-offset];
    __syncwarp();
    if (active) s[0] = t;
    __syncwarp();
  }
  return t;
}
// [warp3-scan]

/// The warp-level test kernel of variant 3, for either layout.
/// \param in n values
/// \param out n results
/// \param n how many
/// \param kind inclusive or exclusive
/// \param reps scans in a row
/// \pre blockDim.x is a multiple of 32; dynamic shared memory holds
///      scan_shared_memory<T, kZeroPad>(blockDim.x).
template <typename T, bool kZeroPad>
__global__ void warp3_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  T* s = dynamic_shared<T>() + scan_shared_index<kZeroPad>(threadIdx.x);
  if (kZeroPad && lane_id() < 16) s[-16] = T(0);
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  T x = i < n ? in[i] : T(0);
  for (int r = 0; r < reps; ++r) {
    *s = x;
    __syncwarp();
    const T inclusive = warp_scan<T, kZeroPad>(s);
    const T exclusive = (kZeroPad || lane_id() > 0) ? s[-1] : T(0);
    __syncwarp();
    x = kind == ScanKind::Inclusive ? inclusive : exclusive;
  }
  if (i < n) out[i] = x;
}

template <typename T, bool kZeroPad>
void warp3_launch(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                  cudaStream_t stream) {
  require_threads("warp variant 3", BlockRule::MultipleOf32, threads);
  launch_per_tile(warp3_kernel<T, kZeroPad>, n, threads, threads,
                  scan_shared_memory<T, kZeroPad>(threads), stream, in, out, n, kind, reps);
}

template <typename T>
void warp3_templated(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                     cudaStream_t stream) {
  warp3_launch<T, true>(in, out, n, kind, threads, reps, stream);
}

template <typename T>
void warp3_templated_unpadded(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                              int reps, cudaStream_t stream) {
  warp3_launch<T, false>(in, out, n, kind, threads, reps, stream);
}

}  // namespace ch13
