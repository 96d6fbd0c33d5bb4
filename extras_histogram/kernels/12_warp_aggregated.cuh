/// \file
/// \brief Histograms, variant 12: variant 11 with __match_any_sync warp aggregation.
/* [changed]
Compared with variant 11: before each update, `__match_any_sync` tells every lane which lanes of
its warp hold the same byte value; the lowest of them adds the number of those lanes with one
atomicAdd and the others do nothing. When a warp's 32 bytes are all equal (runs, all-equal data,
a ramp whose steps are wider than a warp) one atomic replaces 32; when they are all different it
costs a `match` per byte on top of the same 32 atomics. The variant measures which of the two
the hardware's own combining of equal addresses already gives us for free.
[changed] */
#pragma once

#include "11_warp_private.cuh"

namespace histo {

// [histogram-aggregated-kernel]
/// Variant 11's loop, each byte counted through __match_any_sync by the lowest lane that
/// holds its value.
__global__ void __launch_bounds__(kWarpPrivateWarps * 32, 2)
    histogram_warp_aggregated_kernel(VectorInput in, std::uint32_t* bins) {
  __shared__ std::uint32_t warp_bins[kWarpPrivateWarps][kBins];
  for (int i = threadIdx.x; i < kWarpPrivateWarps * kBins; i += blockDim.x)
    warp_bins[i / kBins][i % kBins] = 0;
  __syncthreads();

  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  std::uint32_t* mine = warp_bins[warp];
  // Counts byte b of every lane in `lanes` (all of which must make this call).
  auto count_vector = [&](const uint4& v, unsigned lanes) {
    for_each_byte(v, [&](std::uint32_t b) {
      const unsigned peers = __match_any_sync(lanes, b);
      if (lane == __ffs(peers) - 1) atomicAdd(&mine[b], unsigned(__popc(peers)));
    });
  };
  const std::size_t warps = std::size_t(gridDim.x) * kWarpPrivateWarps;
  const std::size_t me = blockIdx.x * std::size_t(kWarpPrivateWarps) + warp;
  sweep_tiles<kTileVectors>(in, me, warps, [&](const uint4 (&v)[kTileVectors]) {
#pragma unroll
    for (int k = 0; k < kTileVectors; ++k) count_vector(v[k], 0xFFFFFFFFu);
  });
  sweep_rest<kTileVectors>(in, me, warps, [&](const uint4& v, bool active) {
    const unsigned lanes = __ballot_sync(0xFFFFFFFFu, active);
    if (active) count_vector(v, lanes);
  });
  if (me == 0 && lane < in.tail_bytes) atomicAdd(&mine[in.tail[lane]], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    std::uint32_t sum = 0;
#pragma unroll
    for (int w = 0; w < kWarpPrivateWarps; ++w) sum += warp_bins[w][b];
    if (sum != 0) atomicAdd(&bins[b], sum);
  }
}
// [histogram-aggregated-kernel]

/// Variant 12's launcher (the chapter's Launcher signature).
void histogram_warp_aggregated(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                               Workspace& ws, cudaStream_t stream) {
  ws.require(d_in, n);
  zero_bins(d_bins, stream);
  if (n == 0) return;
  const int threads = kWarpPrivateWarps * 32;
  const VectorInput in = split_input(d_in, n);
  const int blocks = ws.grid(reinterpret_cast<const void*>(&histogram_warp_aggregated_kernel),
                             threads, 0, ceil_div(in.count, std::size_t(threads) * kTileVectors));
  histogram_warp_aggregated_kernel<<<blocks, threads, 0, stream>>>(in, d_bins);
  HB_CHECK_LAUNCH();
}

}  // namespace histo
