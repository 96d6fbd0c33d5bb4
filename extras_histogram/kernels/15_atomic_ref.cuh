/// \file
/// \brief Histograms, variant 15: variant 11 with scoped atomics, cuda::atomic_ref.
/* [changed]
Compared with variant 14: back to variant 11's kernel, with its two kinds of `atomicAdd` written
in the C++ way, as libcu++'s `cuda::atomic_ref` (the book predates it). An `atomic_ref` makes an
ordinary object atomic for as long as the reference lives, and it says two things that
`atomicAdd` leaves unsaid: the scope, which threads may touch the object at the same time, and
the memory order, what else the update makes visible. A warp's bins in shared memory are only
ever seen by the threads of one block, so their increments are `cuda::atomic_ref<std::uint32_t,
cuda::thread_scope_block>(mine[b]).fetch_add(1, cuda::memory_order_relaxed)`; the global bins
are shared by every block of the grid, so the block's merge uses `cuda::thread_scope_device`.
Both are relaxed: a count orders nothing, and the only thing that must be complete before the
merge reads the warps' bins is made so by the `__syncthreads()`, as before. The bins stay plain
`std::uint32_t` arrays, zeroed and added up with ordinary loads and stores; only the updates
that race are atomic. Tiles, grid and merge are variant 11's, so any difference in speed between
the two is the instructions the atomics become. And they differ: with the CUDA 13.0 compiler,
the SASS (`cuobjdump -sass`) of variant 11 counts with the shared-memory atomic `ATOMS` (on
sm_90 `ATOMS.POPC.INC.32`, which combines a warp's lanes on one address) and merges with `RED`,
a global reduction that returns nothing; this kernel counts with `ATOM.E.ADD.STRONG.SM` (`.CTA`
on sm_75) and merges with `ATOM.E.ADD.STRONG.GPU`: atomics on generic addresses that return the
old value. libcu++ issues its atomics on a generic address (the PTX has
`atom.add.relaxed.cta.u32` after a `cvta.shared`), so the compiler does not use what it knew,
that the bins are in shared memory, and an unused `fetch_add` result is still fetched. The table
says what that costs.
[changed] */
/* [notes]
Why a learner should know the idiom: `atomicAdd` is a CUDA function whose guarantees are written
in the programming guide, not in the code. It is relaxed, with no form that orders anything, so
code that publishes data with it needs separate fences (`__threadfence()`), and its scope is
spelled in its name (`atomicAdd_block`, `atomicAdd_system`). `cuda::atomic_ref` is the interface
of C++20's `std::atomic_ref` with one more template argument, the scope: the same spelling works
in host code, the order is part of each call (chapter 12's variant 12 takes its ticket with
`memory_order_acq_rel` instead of two fences), and the scope tells the compiler which threads it
must make the update atomic for. A scope that is too narrow is a bug no compiler reports:
`thread_scope_block` on the global bins would make two blocks' updates of one bin atomic only
within each block. `cuda::atomic_ref` compiles for every GPU this repository supports (7.5 and
later).
[notes] */
#pragma once

#include <cuda/atomic>

#include "11_warp_private.cuh"

namespace histo {

// [histogram-atomic-ref-kernel]
/// Variant 11's loop, each byte counted with a relaxed block-scope atomic_ref on the warp's
/// bins, and the block's sums added with relaxed device-scope atomic_refs on the global bins.
__global__ void __launch_bounds__(kWarpPrivateWarps * 32, 2)
    histogram_atomic_ref_kernel(VectorInput in, std::uint32_t* bins) {
  using BlockCount = cuda::atomic_ref<std::uint32_t, cuda::thread_scope_block>;
  using DeviceCount = cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>;
  __shared__ std::uint32_t warp_bins[kWarpPrivateWarps][kBins];
  for (int i = threadIdx.x; i < kWarpPrivateWarps * kBins; i += blockDim.x)
    warp_bins[i / kBins][i % kBins] = 0;
  __syncthreads();

  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  std::uint32_t* mine = warp_bins[warp];
  auto count = [&](std::uint32_t b) {
    BlockCount(mine[b]).fetch_add(1u, cuda::memory_order_relaxed);
  };
  const std::size_t warps = std::size_t(gridDim.x) * kWarpPrivateWarps;
  const std::size_t me = blockIdx.x * std::size_t(kWarpPrivateWarps) + warp;
  sweep_tiles<kTileVectors>(in, me, warps, [&](const uint4 (&v)[kTileVectors]) {
#pragma unroll
    for (int k = 0; k < kTileVectors; ++k) for_each_byte(v[k], count);
  });
  sweep_rest<kTileVectors>(in, me, warps, [&](const uint4& v, bool active) {
    if (active) for_each_byte(v, count);
  });
  if (me == 0 && lane < in.tail_bytes) count(in.tail[lane]);
  __syncthreads();  // every count of the block is done before the sums read them

  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    std::uint32_t sum = 0;
#pragma unroll
    for (int w = 0; w < kWarpPrivateWarps; ++w) sum += warp_bins[w][b];
    if (sum != 0) DeviceCount(bins[b]).fetch_add(sum, cuda::memory_order_relaxed);
  }
}
// [histogram-atomic-ref-kernel]

/// Variant 15's launcher (the chapter's Launcher signature).
void histogram_atomic_ref(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                          Workspace& ws, cudaStream_t stream) {
  ws.require(d_in, n);
  zero_bins(d_bins, stream);
  if (n == 0) return;
  const int threads = kWarpPrivateWarps * 32;
  const VectorInput in = split_input(d_in, n);
  const int blocks = ws.grid(reinterpret_cast<const void*>(&histogram_atomic_ref_kernel),
                             threads, 0, ceil_div(in.count, std::size_t(threads) * kTileVectors));
  histogram_atomic_ref_kernel<<<blocks, threads, 0, stream>>>(in, d_bins);
  HB_CHECK_LAUNCH();
}

}  // namespace histo
