/// \file
/// \brief Chapter 13, scan variant 1: Hillis-Steele, double-buffered, recursive block sums (scan post).
/* [changed]
Compared with variant 0b: we write the scan ourselves, starting from the step-efficient
algorithm of Hillis and Steele (the scan post). Each block loads one element per thread into
shared memory and runs one step per doubling of the distance (8 for 256 threads); in the step of
distance s every thread at or above s adds the value s places to its left. Two buffers in shared
memory alternate as source and destination (double buffering), so no thread overwrites a value
another thread still has to read, and one barrier per step suffices. Each block writes its
scanned elements and its total; the totals are scanned by the same code, recursively, until one
block is left, and a last kernel adds to each block's elements the scanned total of the blocks
before it. Any multiple of 32 threads per block.
[changed] */
#pragma once

#include "../block/01_hillis_steele.cuh"

namespace ch13 {

// [scan1-kernel]
/// One tile of blockDim.x elements per block: the block scan of block variant 1, the
/// block's results, and its total for the level above.
/// \param in n values
/// \param out n results (may be \p in)
/// \param n how many
/// \param kind inclusive or exclusive
/// \param tile_totals one total per block, or nullptr when there is only one block
/// \pre dynamic shared memory holds 2 blockDim.x elements.
template <typename T>
__global__ void scan1_tile_kernel(const T* in, T* out, std::size_t n, ScanKind kind,
                                  T* tile_totals) {
  T* buffers = dynamic_shared<T>();
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const BlockScanResult<T> s = block_scan_hillis_steele(i < n ? in[i] : T(0), buffers);
  if (i < n) out[i] = kind == ScanKind::Inclusive ? s.inclusive : s.exclusive;
  if (tile_totals != nullptr && threadIdx.x == 0) tile_totals[blockIdx.x] = s.total;
}
// [scan1-kernel]

// [scan1-add]
/// The scan post's handPost: adds to every element of tile b > 0 the inclusive scan of the tile
/// totals up to tile b - 1, which turns the tile's own scan into the scan of the whole array.
/// \param out n values, scanned tile by tile
/// \param n how many
/// \param tile elements per tile
/// \param scanned_totals the inclusive scan of the tiles' totals
template <typename T>
__global__ void add_tile_prefix_kernel(T* out, std::size_t n, std::size_t tile,
                                       const T* scanned_totals) {
  if (blockIdx.x == 0) return;
  const T prefix = scanned_totals[blockIdx.x - 1];
  for (std::size_t j = threadIdx.x; j < tile; j += blockDim.x) {
    const std::size_t i = std::size_t(blockIdx.x) * tile + j;
    if (i < n) out[i] += prefix;
  }
}
// [scan1-add]

// [scan1-recursion]
/// The scan post's scan(): scan the tiles, scan the tiles' totals (recursively, in place, one
/// level up in \p totals), add them back. Each level has blockDim.x times fewer elements.
/// \param in n values
/// \param out n results (may be \p in)
/// \param n how many (> 0)
/// \param kind inclusive or exclusive (the levels above are always inclusive)
/// \param threads block size
/// \param totals room for recursion_elements(n, threads) elements
/// \param stream the stream
template <typename T>
void scan1_recursive(const T* in, T* out, std::size_t n, ScanKind kind, int threads, T* totals,
                     cudaStream_t stream) {
  const std::size_t tiles = ceil_div(n, threads);
  T* tile_totals = tiles > 1 ? totals : nullptr;
  launch_per_tile(scan1_tile_kernel<T>, n, threads, threads, 2 * threads * sizeof(T), stream, in,
                  out, n, kind, tile_totals);
  if (tiles == 1) return;
  scan1_recursive<T>(tile_totals, tile_totals, tiles, ScanKind::Inclusive, threads, totals + tiles,
                     stream);
  launch_per_tile(add_tile_prefix_kernel<T>, n, threads, threads, 0, stream, out, n,
                  std::size_t(threads), static_cast<const T*>(tile_totals));
}
// [scan1-recursion]

template <typename T>
void scan1_hillis_steele(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                         Scratch& scratch, cudaStream_t stream) {
  require_threads("scan variant 1", BlockRule::MultipleOf32, threads);
  if (n == 0) return;
  scan1_recursive(in, out, n, kind, threads, scratch.levels<T>(recursion_elements(n, threads)),
                  stream);
}

}  // namespace ch13
