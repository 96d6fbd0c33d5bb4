/// \file
/// \brief Chapter 13, scan variant 3: scan-then-fan, recursive (listings 13.3-13.6).
/* [changed]
Compared with variant 2: the book's first CUDA scan, scan-then-fan (section 13.4.1, listings
13.3 to 13.6). Within a block, every warp scans its 32 values in shared memory (the warp scan of
section 13.5), one warp scans the warps' totals, and each warp adds the total of the warps
before it (figure 13.12). In global memory the same pattern repeats (figure 13.13): a
grid-stride kernel scans each block-sized tile and writes the tile's total (the spine), the
spine is scanned recursively, and a last kernel fans the scanned totals out over the tiles: 4N
global memory accesses at the top level. The book's fan kernel writes past the end of the array
when N is not a multiple of the block size; ours checks the index. Any multiple of 32 threads
per block.
[changed] */
#pragma once

#include "../block/03_scan_then_fan.cuh"

namespace ch13 {

// [scan3-kernel]
/// Listing 13.4 (scanAndWritePartials): each block scans tiles of blockDim.x elements,
/// grid-stride, with the block scan of listing 13.3, and writes the tile's total to the
/// spine. The lowest level of the recursion has no spine: kWriteSpine = false drops the
/// write at compile time.
/// \param out n results (may be \p in)
/// \param spine one total per tile (unused without kWriteSpine)
/// \param in n values
/// \param n how many
/// \param tiles ceil(n / blockDim.x)
/// \param kind inclusive or exclusive
/// \pre blockDim.x is a multiple of 32; dynamic shared memory holds blockDim.x elements.
template <typename T, bool kWriteSpine>
__global__ void scan_and_write_partials(T* out, T* spine, const T* in, std::size_t n,
                                        std::size_t tiles, ScanKind kind) {
  __shared__ T warp_partials[kWarpPartials];
  T* tile = dynamic_shared<T>();
  T* s = tile + threadIdx.x;
  init_warp_partials(warp_partials);
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::size_t i = t * blockDim.x + threadIdx.x;
    *s = i < n ? in[i] : T(0);
    __syncthreads();
    const T sum = scan_block<T, false>(s, warp_partials);
    if (i < n) {
      out[i] = kind == ScanKind::Inclusive ? sum : scan_block_exclusive<T, false>(tile, threadIdx.x);
    }
    if (kWriteSpine && threadIdx.x == blockDim.x - 1) spine[t] = sum;
    __syncthreads();  // neighbors have read this slot before the next tile overwrites it
  }
}
// [scan3-kernel]

// [scan3-fan]
/// Listing 13.6 (scanAddBaseSums): adds to every element of tile t > 0 the scanned spine
/// entry of tile t - 1. The book did so for every thread of the last tile, also past n.
/// \param out n values, scanned tile by tile
/// \param base_sums the inclusive scan of the tiles' totals
/// \param n how many
/// \param tiles ceil(n / blockDim.x)
template <typename T>
__global__ void scan_add_base_sums(T* out, const T* base_sums, std::size_t n, std::size_t tiles) {
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::size_t i = t * blockDim.x + threadIdx.x;
    if (t > 0 && i < n) out[i] += base_sums[t - 1];
  }
}
// [scan3-fan]

// [scan3-host]
/// Listing 13.5 (scanFan): small inputs are scanned by one block; larger ones write the
/// spine, scan it recursively (in place, one level up in the scratch memory), and fan it
/// out. The grid is capped at the blocks that fit on the GPU at once (the book: 150).
/// \param out n results (may be \p in)
/// \param in n values
/// \param n how many (> 0)
/// \param kind inclusive or exclusive (the spine is always scanned inclusive)
/// \param b the block size
/// \param spine room for recursion_elements(n, b) elements
/// \param scratch the caller's scratch (for the grid size)
/// \param stream the stream
template <typename T>
void scan_fan(T* out, const T* in, std::size_t n, ScanKind kind, int b, T* spine,
              const Scratch& scratch, cudaStream_t stream) {
  const std::size_t shared = b * sizeof(T);
  if (n <= std::size_t(b)) {
    scan_and_write_partials<T, false><<<1, b, shared, stream>>>(out, nullptr, in, n, 1, kind);
    HB_CHECK_LAUNCH();
    return;
  }
  const std::size_t tiles = ceil_div(n, b);
  const unsigned blocks =
      static_cast<unsigned>(std::min<std::size_t>(tiles, scratch.resident_blocks(b)));
  scan_and_write_partials<T, true><<<blocks, b, shared, stream>>>(out, spine, in, n, tiles, kind);
  HB_CHECK_LAUNCH();
  scan_fan<T>(spine, spine, tiles, ScanKind::Inclusive, b, spine + tiles, scratch, stream);
  scan_add_base_sums<T><<<blocks, b, 0, stream>>>(out, spine, n, tiles);
  HB_CHECK_LAUNCH();
}
// [scan3-host]

template <typename T>
void scan3_scan_then_fan(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                         Scratch& scratch, cudaStream_t stream) {
  require_threads("scan variant 3", BlockRule::MultipleOf32, threads);
  if (n == 0) return;
  scan_fan(out, in, n, kind, threads, scratch.levels<T>(recursion_elements(n, threads)), scratch,
           stream);
}

}  // namespace ch13
