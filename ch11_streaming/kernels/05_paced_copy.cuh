/// \file
/// \brief Chapter 11, beyond the text: a copy at a chosen rate, to measure how much traffic back
///        to the host costs the copy to the device (`bus_sharing`).
/* [changed]
Compared with the SAXPY kernels: no arithmetic, and a speed limit. A copy engine always runs
at full speed, so to ask "does a *slow* copy out still slow the copy in?" we need traffic back
to the host at a rate we choose: a kernel that writes mapped host memory, each tile of the
copy waiting for its moment on the GPU's nanosecond clock (`%globaltimer`, the same clock in
every SM).
[changed] */
#pragma once

#include <cstddef>
#include <cstdint>

#include "streaming.h"

namespace ch11 {

/// Nanoseconds on the GPU's global timer (the same clock in every SM).
__device__ __forceinline__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// [paced-copy-kernel]
/// Tile t (kPacedThreads x kPacedFloatsPerThread floats) goes to block t mod gridDim.x and
/// starts no earlier than t x ns_per_tile after the block began: together the blocks write at
/// most one tile per ns_per_tile. Thread 0 waits (sleeping between looks at the clock) and the
/// barrier holds the others; ns_per_tile == 0 does not wait at all. kVector: 16-byte loads
/// and stores (both pointers 16-byte aligned).
template <bool kVector>
__global__ void paced_copy_kernel(float* __restrict__ dst, const float* __restrict__ src,
                                  std::size_t n, double ns_per_tile) {
  constexpr std::size_t kTile = std::size_t(kPacedThreads) * kPacedFloatsPerThread;
  __shared__ std::uint64_t start;
  if (threadIdx.x == 0) start = global_ns();
  __syncthreads();
  const std::size_t tiles = (n + kTile - 1) / kTile;
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    if (ns_per_tile > 0) {
      if (threadIdx.x == 0) {
        const std::uint64_t due = start + static_cast<std::uint64_t>(double(t) * ns_per_tile);
        while (global_ns() < due) __nanosleep(256);
      }
      __syncthreads();
    }
    const std::size_t i = t * kTile + std::size_t(threadIdx.x) * kPacedFloatsPerThread;
    if (kVector && i + kPacedFloatsPerThread <= n) {
      *reinterpret_cast<float4*>(dst + i) = *reinterpret_cast<const float4*>(src + i);
    } else {
      for (std::size_t k = i; k < i + kPacedFloatsPerThread && k < n; ++k) dst[k] = src[k];
    }
  }
}
// [paced-copy-kernel]

}  // namespace ch11
