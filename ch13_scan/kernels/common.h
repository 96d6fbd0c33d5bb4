/// \file
/// \brief What the kernels of every level share: the full warp mask, the dynamic shared memory,
///        the lane, a block scan's result, the warp sum, and the launch of one block per tile.
#pragma once

#include <stdexcept>

#include "scan.h"

namespace ch13 {

/// All 32 lanes of a warp, the mask of the `*_sync` intrinsics when the whole warp takes part.
constexpr unsigned kFullMask = 0xffffffffu;

/// The dynamically sized shared memory of a launch, viewed as an array of T (one
/// `extern __shared__` byte array, as in chapter 12). It starts on a 128-byte boundary: the
/// bulk copies of variant 7 write whole 128-byte lines there, and with the 16 bytes that any
/// type needs the tiles started 64 bytes into a line, which made variant 7 slower (H100,
/// 2^28 ints at 512 threads: 0.907 ms then, 0.836 ms aligned; see the chapter page).
template <typename T>
__device__ __forceinline__ T* dynamic_shared() {
  extern __shared__ __align__(128) unsigned char ch13_dynamic_shared[];
  return reinterpret_cast<T*>(ch13_dynamic_shared);
}

/// This thread's lane within its warp.
__device__ __forceinline__ unsigned lane_id() { return threadIdx.x % 32; }

/// What a block scan leaves with each thread: its inclusive and exclusive prefix within the
/// block, and the block's total.
template <typename T>
struct BlockScanResult {
  T inclusive;
  T exclusive;
  T total;
};

/// The sum of \p v over the 32 lanes, in every lane (butterfly of `__shfl_xor_sync`, as in
/// chapter 12's variant 9). \pre all 32 lanes call it.
template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(kFullMask, v, offset);
  return v;
}

using hb::aligned16;

/// Launches \p kernel with one block of \p threads threads per \p tile elements of \p n
/// (nothing for n = 0) and checks the launch: the grid of the per-tile kernels.
template <typename... Params, typename... Args>
void launch_per_tile(void (*kernel)(Params...), std::size_t n, std::size_t tile, int threads,
                     std::size_t shared_bytes, cudaStream_t stream, Args... args) {
  if (n == 0) return;
  const std::size_t blocks = ceil_div(n, tile);
  if (blocks > 0x7fffffffu) throw std::logic_error("ch13: grid too large");
  kernel<<<static_cast<unsigned>(blocks), threads, shared_bytes, stream>>>(args...);
  HB_CHECK_LAUNCH();
}

}  // namespace ch13
