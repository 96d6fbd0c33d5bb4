/// \file
/// \brief Chapter 13, compaction variant 2: single pass, decoupled look-back (beyond the text).
/* [changed]
Compared with variant 1: a single pass built on scan variant 6's decoupled look-back. Each block
loads its tile with 16-byte loads, counts and scans the predicates in registers, and stages its
odd elements contiguously in shared memory while its first warp looks back for the number of odd
elements before the tile; then the block writes them with coalesced stores. It reads the N
elements once and writes only the selected ones. The block size must be a power of two from 32
to 512.
[changed] */
#pragma once

#include "../device/06_decoupled_lookback.cuh"

namespace ch13 {

// [compact2-kernel]
/// Single-pass compaction of the odd elements: scan variant 6's tiles, tickets and
/// look-back, with counts of odd elements in place of sums.
/// \tparam kThreads the block size (the staging area is kThreads x 16 ints of shared memory)
/// \tparam kVectorized whether \p in is 16-byte aligned
/// \param in n values
/// \param out room for the odd elements
/// \param n how many
/// \param count how many were odd (written by the block of the last tile)
/// \param status one status word per tile
/// \param counter the tile counter
/// \param tiles ceil(n / (kThreads kLookbackItems))
template <int kThreads, bool kVectorized>
__global__ void __launch_bounds__(kThreads)
    compact2_kernel(const int* in, int* out, std::size_t n, int* count,
                    unsigned long long* status, unsigned long long* counter, unsigned tiles) {
  constexpr int kGroups = LookbackPolicy::kGroups;
  constexpr int kWarps = kThreads / 32;
  constexpr std::size_t kTile = std::size_t(kThreads) * kLookbackItems;
  __shared__ unsigned long long tickets[2];
  __shared__ int warp_totals[kWarps];
  __shared__ int tile_prefix;
  __shared__ int staged[kTile];
  const unsigned lane = lane_id();
  const unsigned warp = threadIdx.x / 32;

  if (threadIdx.x == 0) tickets[0] = take_ticket(counter, tiles + gridDim.x);
  __syncthreads();
  for (int current = 0;; current ^= 1) {
    const unsigned long long ticket = tickets[current];
    const unsigned tile = static_cast<unsigned>(ticket);
    if (tile >= tiles) return;
    const unsigned epoch = static_cast<unsigned>(ticket >> 32);
    const std::size_t first = tile * kTile + warp * (32 * kLookbackItems) + lane * 4;

    int v[kGroups][4];
    load_tile<int, kVectorized>(in, first, n, (tile + 1) * kTile <= n, v);  // zeros are even
    if (threadIdx.x == 0) tickets[current ^ 1] = take_ticket(counter, tiles + gridDim.x);
    int row[kGroups];  // odd elements per vector, then their inclusive scan over the lanes
#pragma unroll
    for (int g = 0; g < kGroups; ++g)
      row[g] = IsOdd{}(v[g][0]) + IsOdd{}(v[g][1]) + IsOdd{}(v[g][2]) + IsOdd{}(v[g][3]);
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2) {
#pragma unroll
      for (int g = 0; g < kGroups; ++g) row[g] = warp_scan_ptx_step(row[g], offset);
    }
    int row_base[kGroups];
    int warp_total = 0;
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
      row_base[g] = warp_total;
      warp_total += __shfl_sync(kFullMask, row[g], 31);
    }
    if (lane == 0) warp_totals[warp] = warp_total;
    __syncthreads();
    int warp_base = 0;
    int aggregate = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const int t = warp_totals[w];
      if (w < static_cast<int>(warp)) warp_base += t;
      aggregate += t;
    }

    // Stage the tile's odd elements in order, while warp 0 looks back.
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
      int position = warp_base + row_base[g] + warp_exclusive_from_inclusive(row[g]);
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        if (IsOdd{}(v[g][j])) staged[position++] = v[g][j];
      }
    }
    if (warp == 0) {
      const int prefix = lookback_tile_prefix(status, tile, epoch, aggregate);
      if (lane == 0) tile_prefix = prefix;
    }
    __syncthreads();
    const int offset = tile_prefix;
    for (int i = threadIdx.x; i < aggregate; i += kThreads) out[offset + i] = staged[i];
    if (tile == tiles - 1 && threadIdx.x == 0) *count = offset + aggregate;
  }
}
// [compact2-kernel]

template <int kThreads>
void compact2_launch(const int* in, int* out, std::size_t n, int* count, Scratch& scratch,
                     cudaStream_t stream) {
  if (n == 0) {
    HB_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(int), stream));
    return;
  }
  const std::size_t tiles = ceil_div(n, std::size_t(kThreads) * kLookbackItems);
  if (n > 0x7fffffff) throw std::logic_error("compact2: more than 2^31 - 1 elements");
  unsigned long long* status = scratch.lookback_status(tiles, stream);
  const unsigned t = static_cast<unsigned>(tiles);
  if (aligned16(in)) {
    static int per_sm = 0;
    const unsigned grid = resident_grid(compact2_kernel<kThreads, true>, kThreads, tiles, scratch, per_sm);
    compact2_kernel<kThreads, true><<<grid, kThreads, 0, stream>>>(
        in, out, n, count, status, scratch.lookback_counter(), t);
  } else {
    static int per_sm = 0;
    const unsigned grid = resident_grid(compact2_kernel<kThreads, false>, kThreads, tiles, scratch, per_sm);
    compact2_kernel<kThreads, false><<<grid, kThreads, 0, stream>>>(
        in, out, n, count, status, scratch.lookback_counter(), t);
  }
  HB_CHECK_LAUNCH();
}

void compact2_decoupled_lookback(const int* in, int* out, std::size_t n, int* count, int threads,
                                 Scratch& scratch, cudaStream_t stream) {
  require_threads("compaction variant 2", BlockRule::PowerOfTwo32To512, threads);
  switch (threads) {
    case 32: return compact2_launch<32>(in, out, n, count, scratch, stream);
    case 64: return compact2_launch<64>(in, out, n, count, scratch, stream);
    case 128: return compact2_launch<128>(in, out, n, count, scratch, stream);
    case 256: return compact2_launch<256>(in, out, n, count, scratch, stream);
    default: return compact2_launch<512>(in, out, n, count, scratch, stream);
  }
}

}  // namespace ch13
