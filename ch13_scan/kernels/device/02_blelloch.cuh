/// \file
/// \brief Chapter 13, scan variant 2: Blelloch up-sweep/down-sweep, recursive block sums (13.2, scan post).
/* [changed]
Compared with variant 1: the same recursive structure, but each block scans with Blelloch's
work-efficient algorithm (section 13.2; the scan post outlines it for a single block, and the
recursion around it is ours). Each thread loads two elements; the up-sweep builds a balanced
tree of partial sums in place (figures 13.2 and 13.3), the root is replaced by the identity, and
the down-sweep pushes the prefixes back down to the leaves (figures 13.4 and 13.5), which gives
the exclusive scan. A block of 256 threads scans 512 elements with 1022 additions in 18 steps,
where Hillis-Steele takes 4097 additions in 9 steps for the same 512 (the complexity table of
the chapter page). The block size must be a power of two.
[changed] */
#pragma once

#include "../block/02_blelloch.cuh"
#include "01_hillis_steele.cuh"

namespace ch13 {

// [scan2-kernel]
/// One tile of 2 blockDim.x elements per block, scanned with block variant 2; the inclusive
/// result is the exclusive one plus the element.
/// \param in n values
/// \param out n results (may be \p in)
/// \param n how many
/// \param kind inclusive or exclusive
/// \param tile_totals one total per block, or nullptr when there is only one block
/// \pre blockDim.x is a power of two; dynamic shared memory holds 2 blockDim.x elements.
template <typename T>
__global__ void scan2_tile_kernel(const T* in, T* out, std::size_t n, ScanKind kind,
                                  T* tile_totals) {
  T* s = dynamic_shared<T>();
  const unsigned b = blockDim.x;
  const std::size_t first = std::size_t(blockIdx.x) * 2 * b + threadIdx.x;
  const T x0 = first < n ? in[first] : T(0);
  const T x1 = first + b < n ? in[first + b] : T(0);
  s[threadIdx.x] = x0;
  s[threadIdx.x + b] = x1;
  const T total = block_scan_blelloch(s);
  const bool inclusive = kind == ScanKind::Inclusive;
  if (first < n) out[first] = inclusive ? s[threadIdx.x] + x0 : s[threadIdx.x];
  if (first + b < n) out[first + b] = inclusive ? s[threadIdx.x + b] + x1 : s[threadIdx.x + b];
  if (tile_totals != nullptr && threadIdx.x == 0) tile_totals[blockIdx.x] = total;
}
// [scan2-kernel]

/// Variant 1's recursion with Blelloch tiles of 2 threads elements.
/// \param in n values
/// \param out n results (may be \p in)
/// \param n how many (> 0)
/// \param kind inclusive or exclusive
/// \param threads block size (a power of two)
/// \param totals room for recursion_elements(n, 2 threads) elements
/// \param stream the stream
template <typename T>
void scan2_recursive(const T* in, T* out, std::size_t n, ScanKind kind, int threads, T* totals,
                     cudaStream_t stream) {
  const std::size_t tile = 2 * std::size_t(threads);
  const std::size_t tiles = ceil_div(n, tile);
  T* tile_totals = tiles > 1 ? totals : nullptr;
  launch_per_tile(scan2_tile_kernel<T>, n, tile, threads, tile * sizeof(T), stream, in, out, n,
                  kind, tile_totals);
  if (tiles == 1) return;
  scan2_recursive<T>(tile_totals, tile_totals, tiles, ScanKind::Inclusive, threads, totals + tiles,
                     stream);
  launch_per_tile(add_tile_prefix_kernel<T>, n, tile, threads, 0, stream, out, n, tile,
                  static_cast<const T*>(tile_totals));
}

template <typename T>
void scan2_blelloch(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                    Scratch& scratch, cudaStream_t stream) {
  require_threads("scan variant 2", BlockRule::PowerOfTwoFrom32, threads);
  if (n == 0) return;
  const std::size_t tile = 2 * std::size_t(threads);
  scan2_recursive(in, out, n, kind, threads, scratch.levels<T>(recursion_elements(n, tile)), stream);
}

}  // namespace ch13
