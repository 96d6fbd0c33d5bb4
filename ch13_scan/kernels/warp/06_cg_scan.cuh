/// \file
/// \brief Chapter 13, warp variant 6: cooperative groups' cg::inclusive_scan on a tile of 32 threads.
/* [changed]
Compared with variant 5: the warp scan as one library call, beyond the text. Cooperative groups,
the CUDA Toolkit's library for naming groups of threads (the book predates it), cut the block
into tiles of 32 threads with `cg::tiled_partition<32>`, and `cg::inclusive_scan(tile, x,
cg::plus<T>())` scans the values of a tile; `cg::exclusive_scan` gives the exclusive scan. The
tile says which threads take part, so there is no mask to get wrong and no lane index to
compute, and the same call scans any type with any associative operator. Any multiple of 32
threads per block.
[changed] */
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>

#include "../common.h"

namespace ch13 {

namespace cg = cooperative_groups;

// [warp6-kernel]
/// The warp-level test kernel of variant 6: every tile of 32 threads scans its 32 values with
/// the library's scan, \p reps times in a row.
template <typename T>
__global__ void warp6_kernel(const T* in, T* out, std::size_t n, ScanKind kind, int reps) {
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  T x = i < n ? in[i] : T(0);
  for (int r = 0; r < reps; ++r) {
    x = kind == ScanKind::Inclusive ? cg::inclusive_scan(tile, x, cg::plus<T>())
                                    : cg::exclusive_scan(tile, x, cg::plus<T>());
  }
  if (i < n) out[i] = x;
}
// [warp6-kernel]

template <typename T>
void warp6_cg_scan(const T* in, T* out, std::size_t n, ScanKind kind, int threads, int reps,
                   cudaStream_t stream) {
  require_threads("warp variant 6", BlockRule::MultipleOf32, threads);
  launch_per_tile(warp6_kernel<T>, n, threads, threads, 0, stream, in, out, n, kind, reps);
}

}  // namespace ch13
