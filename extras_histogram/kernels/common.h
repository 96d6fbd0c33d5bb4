/// \file
/// \brief Device pieces the GPU variants share: bytes of a 16-byte vector, how an input splits
///        into whole vectors and a tail, and the merge of a block's histogram into the bins.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "hb/error.h"
#include "histogram.h"

namespace histo {

/// Byte \p k (0 = least significant) of \p word, as a bin index.
__device__ __forceinline__ std::uint32_t byte_of(std::uint32_t word, int k) {
  return (word >> (8 * k)) & 0xFFu;
}

/// Calls \p f with each of the 16 bytes of \p v, in memory order.
template <typename F>
__device__ __forceinline__ void for_each_byte(const uint4& v, F&& f) {
  const std::uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
#pragma unroll
    for (int k = 0; k < 4; ++k) f(byte_of(words[i], k));
  }
}

/// The input seen as whole 16-byte vectors followed by fewer than 16 tail bytes.
struct VectorInput {
  const uint4* vectors;       ///< \p count 16-byte vectors
  std::size_t count;          ///< whole vectors
  const std::uint8_t* tail;   ///< the bytes after them
  int tail_bytes;             ///< 0..15
};

/// Splits \p n bytes at 16-byte aligned \p d_in into vectors and a tail.
inline VectorInput split_input(const std::uint8_t* d_in, std::size_t n) {
  const std::size_t count = n / 16;
  return {reinterpret_cast<const uint4*>(d_in), count, d_in + count * 16, int(n - count * 16)};
}

// [histogram-warp-tiles]
/// Runs on_tile over the whole tiles of the input that belong to warp warp of warps:
/// tile t is 32 x U vectors, lane l gets vectors 32 k + l of it (k < U, so each of the U loads
/// of a warp is one coalesced 512-byte access), and the warp takes tiles warp, warp + warps, ...
/// The next tile's U loads are issued before on_tile counts the current one, so a lane keeps
/// 2 U vectors in flight while it counts. With Prefetch > 0 (variant 17) the warp also asks L2
/// for the tile Prefetch rounds ahead, one 128-byte line per lane (`prefetch.global.L2`, which
/// fills no register), so that its loads, issued a round later, find it there. The loop is
/// warp-uniform.
template <int U, int Prefetch = 0, typename OnTile>
__device__ __forceinline__ void sweep_tiles(const VectorInput& in, std::size_t warp,
                                            std::size_t warps, OnTile&& on_tile) {
  const std::size_t tiles = in.count / (32 * U);
  const int lane = threadIdx.x % 32;
  if (warp >= tiles) return;
  auto load = [&](std::size_t t, uint4 (&v)[U]) {
    const uint4* p = in.vectors + t * (32 * U) + lane;
#pragma unroll
    for (int k = 0; k < U; ++k) v[k] = p[32 * k];
  };
  uint4 cur[U];
  load(warp, cur);
  for (std::size_t t = warp;;) {
    const std::size_t next = t + warps;
    const bool more = next < tiles;
    uint4 ahead[U];
    if (more) load(next, ahead);
    if constexpr (Prefetch > 0) {
      const std::size_t later = t + Prefetch * warps;
      if (later < tiles) {
        const char* line = reinterpret_cast<const char*>(in.vectors + later * (32 * U));
        for (int l = lane; l < 4 * U; l += 32)
          asm volatile("prefetch.global.L2 [%0];" ::"l"(line + 128 * l));
      }
    }
    on_tile(cur);
    if (!more) break;
#pragma unroll
    for (int k = 0; k < U; ++k) cur[k] = ahead[k];
    t = next;
  }
}

/// Runs on_vector over the vectors after the last whole tile of `sweep_tiles<U>` (fewer than
/// 32 U), warp-uniformly: each lane gets at most U of them, and lanes without one are called
/// with active == false (so warp-wide intrinsics see every lane).
template <int U, typename OnVector>
__device__ __forceinline__ void sweep_rest(const VectorInput& in, std::size_t warp,
                                           std::size_t warps, OnVector&& on_vector) {
  const int lane = threadIdx.x % 32;
  const std::size_t start = in.count / (32 * U) * (32 * U);
  for (std::size_t base = start + warp * 32; base < in.count; base += warps * 32) {
    const bool active = base + lane < in.count;
    on_vector(active ? in.vectors[base + lane] : make_uint4(0, 0, 0, 0), active);
  }
}
// [histogram-warp-tiles]

/// Adds a block's histogram \p block_bins (shared memory, kBins counts) to the global
/// \p bins: one atomicAdd per bin and block, none for empty bins.
/// \pre Every thread of the block calls it after a __syncthreads() that follows the last
///      update of \p block_bins.
__device__ __forceinline__ void merge_block(const std::uint32_t* block_bins, std::uint32_t* bins) {
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    const std::uint32_t count = block_bins[b];
    if (count != 0) atomicAdd(&bins[b], count);
  }
}

/// Zeroes the 256 global bins on \p stream: every variant that merges with atomics starts
/// from zero, whatever the bins held (CUB's histogram does the same with a kernel of its own).
inline void zero_bins(std::uint32_t* d_bins, cudaStream_t stream) {
  HB_CUDA_CHECK(cudaMemsetAsync(d_bins, 0, kBins * sizeof(std::uint32_t), stream));
}

}  // namespace histo
