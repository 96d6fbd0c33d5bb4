/// \file
/// \brief Chapter 13, scan variant 4: reduce-then-scan, recursive (listings 13.7-13.9).
/* [changed]
Compared with variant 3: the first pass only reduces each tile (listing 13.7, with the block
reduction of listing 12.3) instead of scanning it and writing the result, so it writes nothing
but one total per tile. The totals are scanned recursively (listing 13.9), and the second pass
scans each tile again, starting from the tile's base sum (listing 13.8): 3N global memory
accesses at the top level instead of 4N. The block size must be a power of two (the unrolled
block reduction).
[changed] */
#pragma once

#include <type_traits>

#include "../block/03_scan_then_fan.cuh"

namespace ch13 {

// [scan4-reduce-block]
/// Listing 12.3's reduceBlock for any T, the block size known at compile time: halving
/// steps in shared memory down to 64 values, then one warp adds the last 64 with shuffles
/// (chapter 12, variant 9). Chapter 12's kernels reduce int into 64 bits inside their own
/// kernels and export no device function of this shape, so we write it here.
/// \tparam kThreads the block size, a power of two from 32 to 1024
/// \param partials kThreads elements of shared memory holding the threads' values
/// \return the sum of the values in thread 0 (other threads: a partial sum)
/// \pre every thread of the block calls it after a barrier that follows the writes.
template <typename T, int kThreads>
__device__ T reduce_block(T* partials) {
  const unsigned tid = threadIdx.x;
#pragma unroll
  for (int active = kThreads / 2; active >= 64; active /= 2) {
    if (tid < active) partials[tid] += partials[tid + active];
    __syncthreads();
  }
  T sum = T(0);
  if (tid < 32) {
    sum = partials[tid];
    if (kThreads >= 64) sum += partials[tid + 32];
    sum = warp_sum(sum);
  }
  return sum;
}
// [scan4-reduce-block]

// [scan4-kernels]
/// Listing 13.7 (scanReduceBlocks): the total of each tile of kThreads elements, grid-stride.
/// \param tile_totals one total per tile
/// \param in n values
/// \param n how many
template <typename T, int kThreads>
__global__ void __launch_bounds__(kThreads)
    scan_reduce_blocks(T* tile_totals, const T* in, std::size_t n) {
  __shared__ T partials[kThreads];
  for (std::size_t t = blockIdx.x; t * kThreads < n; t += gridDim.x) {
    const std::size_t i = t * kThreads + threadIdx.x;
    partials[threadIdx.x] = i < n ? in[i] : T(0);
    __syncthreads();
    const T sum = reduce_block<T, kThreads>(partials);
    if (threadIdx.x == 0) tile_totals[t] = sum;
    __syncthreads();
  }
}

/// Listing 13.8 (scanWithBaseSums): scans each tile with listing 13.3's block scan and adds
/// the scanned total of the tiles before it.
/// \param out n results (may be \p in)
/// \param base_sums the inclusive scan of the tiles' totals, or nullptr for a single tile
/// \param in n values
/// \param n how many
/// \param tiles ceil(n / blockDim.x)
/// \param kind inclusive or exclusive
/// \pre blockDim.x is a multiple of 32; dynamic shared memory holds blockDim.x elements.
template <typename T>
__global__ void scan_with_base_sums(T* out, const T* base_sums, const T* in, std::size_t n,
                                    std::size_t tiles, ScanKind kind) {
  __shared__ T warp_partials[kWarpPartials];
  T* tile = dynamic_shared<T>();
  T* s = tile + threadIdx.x;
  init_warp_partials(warp_partials);
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const T base_sum = (t > 0 && base_sums != nullptr) ? base_sums[t - 1] : T(0);
    const std::size_t i = t * blockDim.x + threadIdx.x;
    *s = i < n ? in[i] : T(0);
    __syncthreads();
    const T sum = scan_block<T, false>(s, warp_partials);
    if (i < n) {
      out[i] = base_sum +
               (kind == ScanKind::Inclusive ? sum : scan_block_exclusive<T, false>(tile, threadIdx.x));
    }
    __syncthreads();
  }
}
// [scan4-kernels]

// [scan4-host]
/// Listing 13.9 (scanReduceThenScan): reduce the tiles, scan the totals recursively (in
/// place, one level up), scan the tiles from their base sums.
/// \param out n results (may be \p in)
/// \param in n values
/// \param n how many (> 0)
/// \param kind inclusive or exclusive
/// \param totals room for recursion_elements(n, kThreads) elements
/// \param scratch the caller's scratch (for the grid size)
/// \param stream the stream
template <typename T, int kThreads>
void scan_reduce_then_scan(T* out, const T* in, std::size_t n, ScanKind kind, T* totals,
                           const Scratch& scratch, cudaStream_t stream) {
  const std::size_t shared = kThreads * sizeof(T);
  if (n <= kThreads) {
    scan_with_base_sums<T><<<1, kThreads, shared, stream>>>(out, nullptr, in, n, 1, kind);
    HB_CHECK_LAUNCH();
    return;
  }
  const std::size_t tiles = ceil_div(n, kThreads);
  const unsigned blocks =
      static_cast<unsigned>(std::min<std::size_t>(tiles, scratch.resident_blocks(kThreads)));
  scan_reduce_blocks<T, kThreads><<<blocks, kThreads, 0, stream>>>(totals, in, n);
  HB_CHECK_LAUNCH();
  scan_reduce_then_scan<T, kThreads>(totals, totals, tiles, ScanKind::Inclusive, totals + tiles,
                                     scratch, stream);
  scan_with_base_sums<T><<<blocks, kThreads, shared, stream>>>(out, totals, in, n, tiles, kind);
  HB_CHECK_LAUNCH();
}
// [scan4-host]

template <typename T>
void scan4_reduce_then_scan(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                            Scratch& scratch, cudaStream_t stream) {
  require_threads("scan variant 4", BlockRule::PowerOfTwoFrom32, threads);
  if (n == 0) return;
  T* totals = scratch.levels<T>(recursion_elements(n, threads));
  hb::with_power_of_two<32, 1024>(threads, [&](auto b) {
    scan_reduce_then_scan<T, decltype(b)::value>(out, in, n, kind, totals, scratch, stream);
  });
}

}  // namespace ch13
