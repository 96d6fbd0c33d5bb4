/// \file
/// \brief Chapter 13, scan variant 11: one barrier per step (beyond the text).
/* [changed]
Compared with variant 10: the warps' totals of the next tile no longer meet at a barrier of
their own. Each warp leaves its total of tile j + 1 in shared memory and goes on to scan its
part of tile j; the step's one barrier, the one after which the slot is refilled and the
prefix is read, also makes the totals visible, and the threads add them up after it. Tile
j + 1's aggregate goes out after that barrier instead of before the look-back, and the totals
take two slots by step parity, as the prefix does.
[changed] */
#pragma once

#include "10_early_refill.cuh"

namespace ch13 {

// [scan11-kernel]
/// Step j of a block: draw a ticket; wait for tile j + 1 and leave each warp's total of it in
/// shared memory; warp 0 looks back for tile j while the other warps scan their parts of it
/// into registers; one barrier, after which tile j's slot takes the ticket, every thread adds
/// up tile j + 1's totals (thread 0 publishes its aggregate), and adds the prefix to its rows
/// of tile j and stores them. Template parameters and arguments as in variant 8.
template <typename T, int kThreads, int kStages, bool kVectorized>
__global__ void __launch_bounds__(kThreads, 1)
    scan11_kernel(const T* in, T* out, std::size_t n, ScanKind kind, unsigned long long* status,
                  unsigned long long* counter, unsigned tiles) {
  using V = typename Vec4<T>::type;
  constexpr int kItems = kEarlyRefillItems;
  constexpr int kWarps = kThreads / 32;
  constexpr unsigned kTile = unsigned(kThreads) * kItems;
  __shared__ std::uint64_t landed[kStages];
  __shared__ unsigned long long slot_tickets[kStages];
  __shared__ T warp_totals[2][kWarps];  // by the parity of the tile's step
  __shared__ T tile_prefix[2];          // by step parity
  const unsigned lane = lane_id();
  const unsigned warp = threadIdx.x / 32;
  const bool producer = threadIdx.x == kThreads - 1;
  TileRing<T, kStages, kVectorized> ring{dynamic_shared<T>(), landed, slot_tickets, kTile, tiles,
                                         tiles + gridDim.x};
  const auto rows_of = [&](unsigned j) {  // this lane's vector of row 0 of its warp's part
    return reinterpret_cast<const V*>(ring.tile(j)) + warp * (8 * kItems) + lane;
  };
  // Before the barrier: this warp's total of local tile j.
  const auto leave_total = [&](unsigned j) {
    T sum = T(0);
#pragma unroll
    for (int g = 0; g < kItems / 4; ++g) sum += VectorSum{}(rows_of(j)[32 * g]);
    sum = warp_sum(sum);
    if (lane == 0) warp_totals[j & 1][warp] = sum;
  };
  // After it: the totals of the warps before this one and the tile's, published.
  const auto add_totals = [&](unsigned j, const RingTile& t, T& warp_base, T& aggregate) {
    warp_base = T(0);
    aggregate = T(0);
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const T total = warp_totals[j & 1][w];
      if (w < static_cast<int>(warp)) warp_base += total;
      aggregate += total;
    }
    if (threadIdx.x == 0) publish_aggregate(status, t.index, t.epoch, aggregate);
  };

  if (producer) ring.start(in, n, counter);
  __syncthreads();
  RingTile current = stage_ring_tile(ring, 0, in, n);
  T base = T(0), aggregate = T(0);  // of the current tile
  if (current.valid) leave_total(0);
  __syncthreads();
  if (current.valid) add_totals(0, current, base, aggregate);

  for (unsigned j = 0; current.valid; ++j) {
    if (producer) ring.draw_ahead(counter);
    const RingTile ahead = stage_ring_tile(ring, j + 1, in, n);
    if (ahead.valid) leave_total(j + 1);
    if (warp == 0) {
      const T prefix = look_back<T, false, kLookbackDepth>(status, current.index, current.epoch,
                                                           aggregate);
      if (lane == 0) tile_prefix[j & 1] = prefix;
    }
    V rows[kItems / 4];
    scan_staged_rows<kItems>(rows_of(j), base, kind, [&](int g, const T(&y)[4]) {
      rows[g] = V{y[0], y[1], y[2], y[3]};
    });
    fence_tile_for_copy_engine();  // our reads of the slot before the copy engine's next write
    __syncthreads();  // tile j is read; its prefix and tile j + 1's totals are in
    if (producer) ring.refill(j, in, n, counter);
    T ahead_base = T(0), ahead_aggregate = T(0);
    if (ahead.valid) add_totals(j + 1, ahead, ahead_base, ahead_aggregate);

    const T prefix = tile_prefix[j & 1];
    const std::size_t mine = std::size_t(current.index) * kTile + warp * (32 * kItems) + lane * 4;
#pragma unroll
    for (int g = 0; g < kItems / 4; ++g) {
      const V q = rows[g];
      store_row<T, kVectorized>(out, mine + 128 * g, n, current.whole,
                                {q.x + prefix, q.y + prefix, q.z + prefix, q.w + prefix});
    }
    current = ahead;
    base = ahead_base;
    aggregate = ahead_aggregate;
  }
}
// [scan11-kernel]

template <typename T>
void scan11_one_barrier(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                        Scratch& scratch, cudaStream_t stream) {
  require_threads("scan variant 11", BlockRule::Own, threads);
  if (n == 0) return;
  hb::with_power_of_two<64, 512>(
      tile_from_n_threads(n, scratch.sm_count(), kEarlyRefillBytesPerThread, kEarlyRefillItems),
      [&](auto block) {
        constexpr int kThreads = decltype(block)::value;
        launch_scan_ring<T, kThreads, kEarlyRefillItems, kEarlyRefillBytesPerThread,
                         scan11_kernel<T, kThreads, kRingStages, true>,
                         scan11_kernel<T, kThreads, kRingStages, false>>(in, out, n, kind,
                                                                         scratch, stream);
      });
}

}  // namespace ch13
