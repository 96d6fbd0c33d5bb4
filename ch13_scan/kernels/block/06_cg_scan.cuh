/// \file
/// \brief Chapter 13, block variant 6: cooperative groups' cg::inclusive_scan per warp, then of the warps' totals.
/* [changed]
Compared with variant 5: listing 13.18's block scan written with cooperative groups, beyond the
text. The block is a `cg::thread_block`, its warps are tiles of 32 threads from
`cg::tiled_partition<32>`, and each tile scans its values with `cg::inclusive_scan` (warp
variant 6). The last thread of each tile leaves the tile's total in shared memory, the first
tile scans the totals with `cg::inclusive_scan` too, and each tile adds the totals of the tiles
before it; `block.sync()` replaces `__syncthreads()`, and the exclusive prefix is the inclusive
one of the thread before, passed on by the tile's `shfl_up`. Any multiple of 32 threads per
block.
[changed] */
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>

#include "../common.h"

namespace ch13 {

namespace cg = cooperative_groups;

// [block6-scan]
/// Listing 13.18's structure with the library's scans: the scan of one value per thread over
/// the block. \p warp_totals holds 32 elements of shared memory; every thread of the block
/// calls it.
template <typename T>
__device__ BlockScanResult<T> block_scan_cg(const cg::thread_block& block, T x, T* warp_totals) {
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const unsigned warp = tile.meta_group_rank();
  const unsigned warps = tile.meta_group_size();
  const T inclusive = cg::inclusive_scan(tile, x, cg::plus<T>());
  const T before = tile.shfl_up(inclusive, 1);  // the inclusive prefix of the thread before
  if (tile.thread_rank() == 31) warp_totals[warp] = inclusive;
  block.sync();
  if (warp == 0) {
    // The tiles past the last read the identity.
    const T total = tile.thread_rank() < warps ? warp_totals[tile.thread_rank()] : T(0);
    warp_totals[tile.thread_rank()] = cg::inclusive_scan(tile, total, cg::plus<T>());
  }
  block.sync();
  const T base = warp > 0 ? warp_totals[warp - 1] : T(0);
  const BlockScanResult<T> result{base + inclusive, base + (tile.thread_rank() > 0 ? before : T(0)),
                                  warp_totals[warps - 1]};
  block.sync();  // everyone has read before warp_totals is written again
  return result;
}
// [block6-scan]

/// The block-level test kernel of variant 6.
template <typename T>
__global__ void block6_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  __shared__ T warp_totals[32];
  const cg::thread_block block = cg::this_thread_block();
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  T x = i < n ? in[i] : T(0);
  for (int r = 0; r < reps; ++r) {
    const BlockScanResult<T> s = block_scan_cg(block, x, warp_totals);
    x = kind == ScanKind::Inclusive ? s.inclusive : s.exclusive;
  }
  if (i < n) out[i] = x;
}

template <typename T>
void block6_cg_scan(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                    cudaStream_t stream) {
  require_threads("block variant 6", BlockRule::MultipleOf32, threads);
  launch_per_tile(block6_kernel<T>, n, threads, threads, 0, stream, in, out, n, kind, reps);
}

}  // namespace ch13
