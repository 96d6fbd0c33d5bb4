/// \file
/// \brief Chapter 13, scan variant 10: results leave from registers, each slot refilled once read (beyond the text).
/* [changed]
Compared with variant 9: the same ring, look-back and choice of block size, but the results no
longer go back into the tile. Each thread keeps its scanned rows in registers, the block
synchronizes once after the scan instead of twice, and the producer refills the slot at once
with the tile three steps ahead; the threads then add the tile's prefix and store their rows
to global memory themselves. In variant 8 a slot stays taken until the copy engine has
carried the results out of it, so while a block scans one tile and sums the next, only one
tile is on its way in; here the slot is free again before the prefix is added. No results
pass through shared memory, so the ring holds larger tiles: three of 36 elements per thread
(216 KB at 512 threads) instead of 32.
[changed] */
#pragma once

#include "09_tile_from_n.cuh"

namespace ch13 {

// [scan10-kernel]
/// Warp 0's look-back as variants 6 to 10 make it, as an object: start() sends the first
/// poll of the window below \p tile, finish() waits for it, adds the predecessors up to the
/// nearest inclusive prefix, publishes the tile's own and returns its prefix. (Variant 11
/// changes this object only.)
template <typename T>
struct NearestInclusive {
  StatusWindow<T, kLookbackDepth> w{};
  __device__ void start(unsigned long long* status, unsigned tile, unsigned epoch) {
    w.window = static_cast<long long>(tile) - 1;
    w.poll_all(status, epoch);
  }
  __device__ T finish(unsigned long long* status, unsigned tile, unsigned epoch, T aggregate) {
    return finish_look_back<T, false, kLookbackDepth>(status, tile, epoch, aggregate, w);
  }
};

/// Step j of a block: draw a ticket; wait for tile j + 1, sum it and publish its aggregate;
/// warp 0 looks back for tile j while the other warps scan their parts of it into registers;
/// one barrier, after which tile j's slot takes the ticket drawn at the top of the step; then
/// every thread adds the prefix and stores its rows. Template parameters and arguments as in
/// variant 8; \p LookBack is warp 0's look-back (NearestInclusive above).
template <typename T, int kThreads, int kStages, bool kVectorized,
          template <typename> class LookBack>
__global__ void __launch_bounds__(kThreads, 1)
    scan10_kernel(const T* in, T* out, std::size_t n, ScanKind kind, unsigned long long* status,
                  unsigned long long* counter, unsigned tiles) {
  using V = typename Vec4<T>::type;
  constexpr int kItems = kEarlyRefillItems;
  constexpr unsigned kTile = unsigned(kThreads) * kItems;
  __shared__ std::uint64_t landed[kStages];
  __shared__ unsigned long long slot_tickets[kStages];
  __shared__ T warp_totals[kThreads / 32];
  __shared__ T tile_prefix[2];  // by step parity: step j + 1 writes while step j's is read
  const unsigned lane = lane_id();
  const unsigned warp = threadIdx.x / 32;
  const bool producer = threadIdx.x == kThreads - 1;
  TileRing<T, kStages, kVectorized> ring{dynamic_shared<T>(), landed, slot_tickets, kTile, tiles,
                                         tiles + gridDim.x};
  const auto rows_of = [&](unsigned j) {  // this lane's vector of row 0 of its warp's part
    return reinterpret_cast<const V*>(ring.tile(j)) + warp * (8 * kItems) + lane;
  };
  const auto sum_tile = [&](unsigned j, const RingTile& t, T& warp_base, T& aggregate) {
    staged_tile_totals<T, kThreads, kItems>(rows_of(j), warp_totals, VectorSum{}, warp_base,
                                            aggregate);
    if (threadIdx.x == 0) publish_aggregate(status, t.index, t.epoch, aggregate);
  };

  LookBack<T> look;  // warp 0's
  if (producer) ring.start(in, n, counter);
  __syncthreads();
  RingTile current = stage_ring_tile(ring, 0, in, n);
  T base = T(0), aggregate = T(0);  // of the current tile
  if (current.valid) sum_tile(0, current, base, aggregate);
  __syncthreads();  // every thread has read tile 0's totals before tile 1's are written

  for (unsigned j = 0; current.valid; ++j) {
    if (producer) ring.draw_ahead(counter);
    const RingTile ahead = stage_ring_tile(ring, j + 1, in, n);
    T ahead_base = T(0), ahead_aggregate = T(0);
    if (ahead.valid) sum_tile(j + 1, ahead, ahead_base, ahead_aggregate);
    if (warp == 0) {
      look.start(status, current.index, current.epoch);
      const T prefix = look.finish(status, current.index, current.epoch, aggregate);
      if (lane == 0) tile_prefix[j & 1] = prefix;
    }
    V rows[kItems / 4];
    scan_staged_rows<kItems>(rows_of(j), base, kind, [&](int g, const T(&y)[4]) {
      rows[g] = V{y[0], y[1], y[2], y[3]};
    });
    fence_tile_for_copy_engine();  // our reads of the slot before the copy engine's next write
    __syncthreads();               // tile j is read: its slot and the prefix are ready
    if (producer) ring.refill(j, in, n, counter);

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
// [scan10-kernel]

/// Variant 10's entry, and variant 11's with its own \p LookBack; \p name names the variant
/// in errors.
template <template <typename> class LookBack, typename T>
void scan_early_refill(const char* name, const T* in, T* out, std::size_t n, ScanKind kind,
                       int threads, Scratch& scratch, cudaStream_t stream) {
  require_threads(name, BlockRule::Own, threads);
  if (n == 0) return;
  hb::with_power_of_two<64, 512>(
      tile_from_n_threads(n, scratch.sm_count(), kEarlyRefillBytesPerThread, kEarlyRefillItems),
      [&](auto block) {
        constexpr int kThreads = decltype(block)::value;
        launch_scan_ring<T, kThreads, kEarlyRefillItems, kEarlyRefillBytesPerThread,
                         scan10_kernel<T, kThreads, kRingStages, true, LookBack>,
                         scan10_kernel<T, kThreads, kRingStages, false, LookBack>>(
            in, out, n, kind, scratch, stream);
      });
}

template <typename T>
void scan10_early_refill(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                         Scratch& scratch, cudaStream_t stream) {
  scan_early_refill<NearestInclusive>("scan variant 10", in, out, n, kind, threads, scratch,
                                      stream);
}

}  // namespace ch13
