/// \file
/// \brief Chapter 13, block variant 3: warp scans, then the warps' totals (listing 13.3).
/* [changed]
Compared with variant 2: scan-then-fan within the block (listing 13.3, figure 13.12): each warp
scans its 32 values with the warp scan of listing 13.16, the warps' totals are scanned by one
warp, and each warp adds its predecessors' total.
[changed] */
#pragma once

#include "../warp/03_templated.cuh"

namespace ch13 {

/// Slots of the warp-partials array of scan_block: 16 zeros, then one total per warp.
constexpr int kWarpPartials = 16 + 32;

/// Zeroes the warp-partials array of scan_block; the 16 leading zeros are the padding the
/// zero-padded warp scan of the warps' totals reads, and the rest must hold defined values
/// because lanes past the last warp scan them too.
/// \param warp_partials kWarpPartials elements of shared memory
/// \pre every thread of the block calls it; a barrier follows before the first scan_block.
template <typename T>
__device__ __forceinline__ void init_warp_partials(T* warp_partials) {
  for (int i = threadIdx.x; i < kWarpPartials; i += blockDim.x) warp_partials[i] = T(0);
}

// [block3-scan]
/// Listing 13.3 (scanBlock), with the layout template of listing 13.11: the inclusive scan
/// of the block's values in shared memory. Step 1: every warp scans its 32 values. Step 2:
/// the last lane of each warp writes the warp's total, and warp 0 scans the totals. Step 3:
/// each warp after the first adds the total of the warps before it.
///
/// The book reused the first words of the values' own array for the warps' totals (each
/// thread holds its value in a register meanwhile), which takes some thought to see is
/// safe; we keep the totals in an array of their own.
/// \tparam kZeroPad the layout of the values (figure 13.15) and of the warp scan
/// \param s this thread's slot, at scan_shared_index<kZeroPad>(threadIdx.x)
/// \param warp_partials kWarpPartials elements prepared by init_warp_partials
/// \return this thread's inclusive prefix; every slot holds its thread's prefix on return
/// \pre blockDim.x is a multiple of 32; every thread of the block calls it after a barrier
///      that follows the writes of the values.
template <typename T, bool kZeroPad>
__device__ T scan_block(T* s, T* warp_partials) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  T sum = warp_scan<T, kZeroPad>(s);
  if (lane == 31) warp_partials[16 + warp] = sum;
  __syncthreads();
  if (warp == 0) warp_scan<T, kZeroPad>(warp_partials + 16 + lane);
  __syncthreads();
  if (warp > 0) sum += warp_partials[16 + warp - 1];
  *s = sum;
  __syncthreads();
  return sum;
}
// [block3-scan]

/// The exclusive prefix of thread \p tid after scan_block: its left neighbor's inclusive one.
/// \param tile the block's slots (index 0 is thread 0's slot without padding)
/// \param tid the thread
template <typename T, bool kZeroPad>
__device__ __forceinline__ T scan_block_exclusive(const T* tile, unsigned tid) {
  return tid > 0 ? tile[scan_shared_index<kZeroPad>(tid - 1)] : T(0);
}

/// The block-level test kernel of variants 3 and 4.
/// \param in n values
/// \param out n results
/// \param n how many
/// \param kind inclusive or exclusive
/// \param reps scans in a row
/// \pre blockDim.x is a multiple of 32; dynamic shared memory holds
///      scan_shared_memory<T, kZeroPad>(blockDim.x).
template <typename T, bool kZeroPad>
__global__ void block3_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  __shared__ T warp_partials[kWarpPartials];
  T* tile = dynamic_shared<T>();
  T* s = tile + scan_shared_index<kZeroPad>(threadIdx.x);
  if (kZeroPad && lane_id() < 16) s[-16] = T(0);
  init_warp_partials(warp_partials);
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  T x = i < n ? in[i] : T(0);
  for (int r = 0; r < reps; ++r) {
    *s = x;
    __syncthreads();
    const T inclusive = scan_block<T, kZeroPad>(s, warp_partials);
    const T exclusive = scan_block_exclusive<T, kZeroPad>(tile, threadIdx.x);
    __syncthreads();  // everyone has read its neighbor before the next repetition writes
    x = kind == ScanKind::Inclusive ? inclusive : exclusive;
  }
  if (i < n) out[i] = x;
}

template <typename T, bool kZeroPad>
void block3_launch(const char* id, const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                   int reps, cudaStream_t stream) {
  require_threads(std::string("block variant ") + id, BlockRule::MultipleOf32, threads);
  launch_per_tile(block3_kernel<T, kZeroPad>, n, threads, threads,
                  scan_shared_memory<T, kZeroPad>(threads), stream, in, out, n, kind, reps);
}

template <typename T>
void block3_scan_then_fan(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                          cudaStream_t stream) {
  block3_launch<T, false>("3", in, out, n, kind, threads, reps, stream);
}

}  // namespace ch13
