/// \file
/// \brief Chapter 13, compaction variant 1: reduce, scan, scatter (listings 13.22, 13.23).
/* [changed]
Compared with variant 0b: the book's stream compaction (section 13.6, listings 13.22 and 13.23),
built on the two-level reduce-then-scan of scan variant 5b. A reduction counts the odd elements
of each subarray, one block scans the counts into each subarray's first output index, and the
last pass scans the predicates of each tile, writes every odd element to its index, and writes
the count. The block size must be a power of two.
[changed] */
#pragma once

#include "../device/05b_two_level_zero_pad.cuh"

namespace ch13 {

// [compact1-count]
/// Listing 13.22 (predicateReduceSubarrays_odd): how many elements of each subarray of
/// \p per_partial elements are odd.
/// \param partials one count per subarray
/// \param in n values
/// \param n how many
/// \param per_partial elements per subarray, a multiple of kThreads
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    predicate_reduce_subarrays_odd(int* partials, const int* in, std::size_t n,
                                   std::size_t per_partial) {
  __shared__ int counts[kThreads];
  for (std::size_t p = blockIdx.x; p * per_partial < n; p += gridDim.x) {
    const std::size_t first = p * per_partial;
    const std::size_t last = first + per_partial < n ? first + per_partial : n;
    int count = 0;
    for (std::size_t i = first + threadIdx.x; i < last; i += kThreads) count += IsOdd{}(in[i]);
    counts[threadIdx.x] = count;
    __syncthreads();
    count = reduce_block<int, kThreads>(counts);
    if (threadIdx.x == 0) partials[p] = count;
    __syncthreads();
  }
}
// [compact1-count]

// [compact1-scatter]
/// Listing 13.23 (streamCompact_odd): block b walks its subarray tile by tile; the scan of
/// the predicates gives each odd element its index within the tile, the base sum the
/// index of the tile's first odd element in the output. Block 0 writes the count.
/// \param out room for the odd elements
/// \param count how many were odd
/// \param base_sums the inclusive scan of the subarrays' counts, or nullptr for one block
/// \param in n values
/// \param n how many
/// \param per_partial elements per subarray, a multiple of blockDim.x
/// \pre blockDim.x is a multiple of 32; dynamic shared memory holds
///      scan_shared_memory<int, kZeroPad>(blockDim.x).
template <bool kZeroPad>
__global__ void stream_compact_odd(int* out, int* count, const int* base_sums, const int* in,
                                   std::size_t n, std::size_t per_partial) {
  __shared__ int warp_partials[kWarpPartials];
  int* tile = dynamic_shared<int>();
  int* s = tile + scan_shared_index<kZeroPad>(threadIdx.x);
  if (kZeroPad && lane_id() < 16) s[-16] = 0;
  init_warp_partials(warp_partials);
  int base_sum = (blockIdx.x > 0 && base_sums != nullptr) ? base_sums[blockIdx.x - 1] : 0;
  const std::size_t first = std::size_t(blockIdx.x) * per_partial;
  for (std::size_t i = 0; i < per_partial && first + i < n; i += blockDim.x) {
    const std::size_t index = first + i + threadIdx.x;
    const int value = index < n ? in[index] : 0;
    const bool keep = index < n && IsOdd{}(value);
    *s = keep ? 1 : 0;
    __syncthreads();
    scan_block<int, kZeroPad>(s, warp_partials);
    if (keep) out[base_sum + scan_block_exclusive<int, kZeroPad>(tile, threadIdx.x)] = value;
    base_sum += tile[scan_shared_index<kZeroPad>(blockDim.x - 1)];
    __syncthreads();
  }
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    *count = base_sums != nullptr ? base_sums[gridDim.x - 1] : base_sum;
  }
}
// [compact1-scatter]

// [compact1-host]
/// The host code the book leaves out ("similar to listing 13.12"): count, scan the counts
/// with one block, scatter.
template <int kThreads>
void compact1_launch(const int* in, int* out, std::size_t n, int* count, Scratch& scratch,
                     cudaStream_t stream) {
  constexpr bool kZeroPad = true;
  const std::size_t shared = scan_shared_memory<int, kZeroPad>(kThreads);
  if (n <= kThreads) {  // also n = 0: the kernel writes the count
    stream_compact_odd<kZeroPad><<<1, kThreads, shared, stream>>>(out, count, nullptr, in, n,
                                                                  kThreads);
    HB_CHECK_LAUNCH();
    return;
  }
  const std::size_t max_partials =
      std::min<std::size_t>(scratch.max_partials(), scratch.resident_blocks(kThreads));
  const TwoLevelSplit split = two_level_split(n, kThreads, max_partials);
  int* partials = scratch.partials<int>(split.count);
  const unsigned blocks = static_cast<unsigned>(split.count);
  predicate_reduce_subarrays_odd<kThreads><<<blocks, kThreads, 0, stream>>>(partials, in, n,
                                                                             split.per_partial);
  HB_CHECK_LAUNCH();
  scan_2level_kernel<int, kZeroPad><<<1, kThreads, shared, stream>>>(
      partials, nullptr, partials, split.count, kThreads * ceil_div(split.count, kThreads),
      ScanKind::Inclusive);
  HB_CHECK_LAUNCH();
  stream_compact_odd<kZeroPad><<<blocks, kThreads, shared, stream>>>(out, count, partials, in, n,
                                                                     split.per_partial);
  HB_CHECK_LAUNCH();
}
// [compact1-host]

void compact1_two_level(const int* in, int* out, std::size_t n, int* count, int threads,
                        Scratch& scratch, cudaStream_t stream) {
  require_threads("compaction variant 1", BlockRule::PowerOfTwoFrom32, threads);
  hb::with_power_of_two<32, 1024>(threads, [&](auto b) {
    compact1_launch<decltype(b)::value>(in, out, n, count, scratch, stream);
  });
}

}  // namespace ch13
