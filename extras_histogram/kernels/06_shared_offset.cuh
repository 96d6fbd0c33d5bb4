/// \file
/// \brief Histograms, variant 6: variant 5 with 8 padded copies of the bins per block.
/* [changed]
Compared with variant 5: the block keeps kReplicas copies of its bins, and lane l of a warp
counts into copy l % kReplicas. The copies are interleaved bin by bin with one word of padding,
bin b of copy r at word b * (kReplicas + 1) + r, so the copies of one bin sit in kReplicas
neighbouring banks, and each bin's copies start one bank further on than they would without the
padding. When many lanes of a warp hit the same bin (runs, hot bins, all-equal bytes) their
atomics now spread over kReplicas addresses and banks instead of queueing at one; when the bins
are random, the shifted layout changes which lanes collide in a bank. The block adds up the
copies before its one atomicAdd per bin.
[changed] */
#pragma once

#include "common.h"

namespace histo {

/// Copies of the bins per block in variant 6.
constexpr int kReplicas = 8;

// [histogram-offset-kernel]
/// Grid-stride loop over 16-byte vectors into kReplicas padded copies of the block's bins.
__global__ void histogram_offset_kernel(VectorInput in, std::uint32_t* bins) {
  constexpr int kStride = kReplicas + 1;  // one word of padding after each bin's copies
  __shared__ std::uint32_t copies[kBins * kStride];
  for (int i = threadIdx.x; i < kBins * kStride; i += blockDim.x) copies[i] = 0;
  __syncthreads();

  std::uint32_t* mine = copies + (threadIdx.x % 32) % kReplicas;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  for (std::size_t i = first; i < in.count; i += stride)
    for_each_byte(in.vectors[i], [&](std::uint32_t b) { atomicAdd(&mine[b * kStride], 1u); });
  if (first < std::size_t(in.tail_bytes)) atomicAdd(&mine[in.tail[first] * kStride], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    std::uint32_t sum = 0;
#pragma unroll
    for (int r = 0; r < kReplicas; ++r) sum += copies[b * kStride + r];
    if (sum != 0) atomicAdd(&bins[b], sum);  // one atomicAdd per bin and block
  }
}
// [histogram-offset-kernel]

/// Variant 6's launcher (the chapter's Launcher signature).
void histogram_shared_offset(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                             Workspace& ws, cudaStream_t stream) {
  ws.require(d_in, n);
  zero_bins(d_bins, stream);
  if (n == 0) return;
  const int threads = 256;
  const VectorInput in = split_input(d_in, n);
  const int blocks = ws.grid(reinterpret_cast<const void*>(&histogram_offset_kernel), threads, 0,
                             ceil_div(in.count, threads));
  histogram_offset_kernel<<<blocks, threads, 0, stream>>>(in, d_bins);
  HB_CHECK_LAUNCH();
}

}  // namespace histo
