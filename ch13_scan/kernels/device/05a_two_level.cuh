/// \file
/// \brief Chapter 13, scan variant 5a: two-level reduce-then-scan (listings 13.10-13.12).
/* [changed]
Compared with variant 4: Merrill's two-level reduce-then-scan (section 13.4.3, listings 13.10 to
13.12). Instead of one partial per tile there is a small fixed number of partials, one per block
that fits on the GPU at once. Each block first reduces a whole subarray of many tiles (listing
13.10), a single block scans the few partials, and each block then scans its subarray tile by
tile, carrying the running total from one tile to the next (listing 13.11). Three launches
whatever N is, no recursion, and the partials fit in a small fixed buffer. The block scan is
listing 13.3's with the plain (lane-test) warp scan. The block size must be a power of two.
[changed] */
#pragma once

#include "04_reduce_then_scan.cuh"

namespace ch13 {

// [scan5a-reduce]
/// Listing 13.10 (scanReduceSubarrays): the total of each subarray of \p per_partial
/// elements, one block per subarray (grid-stride); each thread first adds its share of the
/// subarray, then the block reduces the threads' sums.
/// \param partials one total per subarray
/// \param in n values
/// \param n how many
/// \param per_partial elements per subarray, a multiple of kThreads
template <typename T, int kThreads>
__global__ void __launch_bounds__(kThreads)
    scan_reduce_subarrays(T* partials, const T* in, std::size_t n, std::size_t per_partial) {
  __shared__ T sums[kThreads];
  for (std::size_t p = blockIdx.x; p * per_partial < n; p += gridDim.x) {
    const std::size_t first = p * per_partial;
    const std::size_t last = first + per_partial < n ? first + per_partial : n;
    T sum = T(0);
    for (std::size_t i = first + threadIdx.x; i < last; i += kThreads) sum += in[i];
    sums[threadIdx.x] = sum;
    __syncthreads();
    sum = reduce_block<T, kThreads>(sums);
    if (threadIdx.x == 0) partials[p] = sum;
    __syncthreads();
  }
}
// [scan5a-reduce]

// [scan5a-kernel]
/// Listing 13.11 (scan2Level_kernel): block b scans its subarray of \p per_partial elements
/// tile by tile, starting from the scanned total of the subarrays before it and carrying
/// each tile's total into the next tile.
/// \tparam kZeroPad the shared-memory layout of the block scan (variant 5b when true)
/// \param out n results (may be \p in)
/// \param base_sums the inclusive scan of the subarrays' totals, or nullptr for one block
/// \param in n values
/// \param n how many
/// \param per_partial elements per subarray, a multiple of blockDim.x
/// \param kind inclusive or exclusive
/// \pre blockDim.x is a multiple of 32; dynamic shared memory holds
///      scan_shared_memory<T, kZeroPad>(blockDim.x).
template <typename T, bool kZeroPad>
__global__ void scan_2level_kernel(T* out, const T* base_sums, const T* in, std::size_t n,
                                   std::size_t per_partial, ScanKind kind) {
  __shared__ T warp_partials[kWarpPartials];
  T* tile = dynamic_shared<T>();
  T* s = tile + scan_shared_index<kZeroPad>(threadIdx.x);
  if (kZeroPad && lane_id() < 16) s[-16] = T(0);
  init_warp_partials(warp_partials);
  T base_sum = (blockIdx.x > 0 && base_sums != nullptr) ? base_sums[blockIdx.x - 1] : T(0);
  const std::size_t first = std::size_t(blockIdx.x) * per_partial;
  for (std::size_t i = 0; i < per_partial && first + i < n; i += blockDim.x) {
    const std::size_t index = first + i + threadIdx.x;
    *s = index < n ? in[index] : T(0);
    __syncthreads();
    const T inclusive = scan_block<T, kZeroPad>(s, warp_partials);
    if (index < n) {
      out[index] = base_sum + (kind == ScanKind::Inclusive
                                   ? inclusive
                                   : scan_block_exclusive<T, kZeroPad>(tile, threadIdx.x));
    }
    base_sum += tile[scan_shared_index<kZeroPad>(blockDim.x - 1)];  // carry into the next tile
    __syncthreads();
  }
}
// [scan5a-kernel]

/// How listing 13.12 splits n elements: `count` subarrays of `per_partial` elements each.
struct TwoLevelSplit {
  std::size_t count = 0;        ///< subarrays (= partials = blocks)
  std::size_t per_partial = 0;  ///< elements per subarray, a multiple of the block size
};

// [scan5a-split]
/// Listing 13.12's arithmetic: at most \p max_partials subarrays, each a whole number of
/// tiles of \p b elements, as even as possible.
/// \param n elements (> b)
/// \param b block size
/// \param max_partials the cap (the book: MAX_PARTIALS; here the blocks that fit at once)
inline TwoLevelSplit two_level_split(std::size_t n, std::size_t b, std::size_t max_partials) {
  std::size_t count = std::min(ceil_div(n, b), max_partials);
  std::size_t per_partial = ceil_div(n, count);
  per_partial = b * ceil_div(per_partial, b);
  count = ceil_div(n, per_partial);
  return {count, per_partial};
}
// [scan5a-split]

// [scan5a-host]
/// Listing 13.12 (scan2Level) for any of the three block scans: \p scan_kernel is
/// scan_2level_kernel<T, false> (5a), <T, true> (5b) or the shuffle kernel (5c), with
/// \p shared bytes of dynamic shared memory.
/// \param scan_kernel the kernel of listing 13.11 to use
/// \param shared its dynamic shared memory
/// \param in n values
/// \param out n results (may be \p in)
/// \param n how many (> 0)
/// \param kind inclusive or exclusive
/// \param scratch the caller's scratch (the partials and the grid size)
/// \param stream the stream
template <typename T, int kThreads>
void scan_2level(void (*scan_kernel)(T*, const T*, const T*, std::size_t, std::size_t, ScanKind),
                 std::size_t shared, const T* in, T* out, std::size_t n, ScanKind kind,
                 Scratch& scratch, cudaStream_t stream) {
  if (n <= kThreads) {
    scan_kernel<<<1, kThreads, shared, stream>>>(out, nullptr, in, n, kThreads, kind);
    HB_CHECK_LAUNCH();
    return;
  }
  const std::size_t max_partials =
      std::min<std::size_t>(scratch.max_partials(), scratch.resident_blocks(kThreads));
  const TwoLevelSplit split = two_level_split(n, kThreads, max_partials);
  T* partials = scratch.partials<T>(split.count);
  const unsigned blocks = static_cast<unsigned>(split.count);
  scan_reduce_subarrays<T, kThreads><<<blocks, kThreads, 0, stream>>>(partials, in, n,
                                                                      split.per_partial);
  HB_CHECK_LAUNCH();
  scan_kernel<<<1, kThreads, shared, stream>>>(partials, nullptr, partials, split.count,
                                               kThreads * ceil_div(split.count, kThreads),
                                               ScanKind::Inclusive);
  HB_CHECK_LAUNCH();
  scan_kernel<<<blocks, kThreads, shared, stream>>>(out, partials, in, n, split.per_partial, kind);
  HB_CHECK_LAUNCH();
}
// [scan5a-host]

template <typename T>
void scan5a_two_level(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                      Scratch& scratch, cudaStream_t stream) {
  require_threads("scan variant 5a", BlockRule::PowerOfTwoFrom32, threads);
  if (n == 0) return;
  hb::with_power_of_two<32, 1024>(threads, [&](auto b) {
    constexpr int kThreads = decltype(b)::value;
    scan_2level<T, kThreads>(scan_2level_kernel<T, false>, scan_shared_memory<T, false>(kThreads),
                             in, out, n, kind, scratch, stream);
  });
}

}  // namespace ch13
