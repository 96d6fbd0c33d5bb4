/// \file
/// \brief Histograms, variant 11: shared bins per warp, 16-byte tiles in flight, persistent grid.
/* [changed]
Compared with variant 10: we return to shared-memory atomics (variants 4 to 6), with what CUB's
kernel taught us and what the variants since showed. Each warp counts into its own 256 bins, so
atomics on one address come only from the 32 lanes of one warp, never from the other warps of
the block; and an `atomicAdd(&bins[b], 1)` on shared memory is an increment by one, for which
Volta and later GPUs have an atomic of their own that counts the lanes of a warp on one address
together (`ATOMS.POPC.INC`). Each lane loads four 16-byte vectors per tile and issues the next
tile's loads before it counts the current one (sweep_tiles), so the loads of two tiles are in
flight while the SM counts. The grid is exactly as many blocks as are resident at once (the
occupancy API), each looping over its share; at the end the block adds its warps' bins and makes
one atomicAdd per bin.
[changed] */
#pragma once

#include "common.h"

namespace histo {

/// Warps per block of variants 11 and 12.
constexpr int kWarpPrivateWarps = 16;
/// Vectors per lane and tile in variants 11 to 14.
constexpr int kTileVectors = 4;

// [histogram-warp-private-kernel]
/// Tiles of 16-byte vectors counted with shared atomics into the warp's own bins.
__global__ void __launch_bounds__(kWarpPrivateWarps * 32, 2)
    histogram_warp_private_kernel(VectorInput in, std::uint32_t* bins) {
  __shared__ std::uint32_t warp_bins[kWarpPrivateWarps][kBins];
  for (int i = threadIdx.x; i < kWarpPrivateWarps * kBins; i += blockDim.x)
    warp_bins[i / kBins][i % kBins] = 0;
  __syncthreads();

  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  std::uint32_t* mine = warp_bins[warp];
  auto count = [&](std::uint32_t b) { atomicAdd(&mine[b], 1u); };
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
  __syncthreads();

  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    std::uint32_t sum = 0;
#pragma unroll
    for (int w = 0; w < kWarpPrivateWarps; ++w) sum += warp_bins[w][b];
    if (sum != 0) atomicAdd(&bins[b], sum);
  }
}
// [histogram-warp-private-kernel]

/// Variant 11's launcher (the chapter's Launcher signature).
void histogram_warp_private(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                            Workspace& ws, cudaStream_t stream) {
  ws.require(d_in, n);
  zero_bins(d_bins, stream);
  if (n == 0) return;
  const int threads = kWarpPrivateWarps * 32;
  const VectorInput in = split_input(d_in, n);
  const int blocks = ws.grid(reinterpret_cast<const void*>(&histogram_warp_private_kernel),
                             threads, 0, ceil_div(in.count, std::size_t(threads) * kTileVectors));
  histogram_warp_private_kernel<<<blocks, threads, 0, stream>>>(in, d_bins);
  HB_CHECK_LAUNCH();
}

}  // namespace histo
