/// \file
/// \brief Chapter 13, scan variant 8: persistent blocks, a ring of tiles in and out by bulk copy (beyond the text).
/* [changed]
Compared with variant 7: the same passes over a staged tile and the same look-back, but a
block no longer waits for its own tile to arrive, nor for its results to leave. As in
variant 6, as many blocks as fit stay on the GPU for the whole launch, and each holds a ring
of kRingStages tiles in shared memory (three tiles of 64 KB at 512 threads). One thread of the
block, the producer, keeps the ring full: it takes the tickets of the tiles the block will
scan next and starts their bulk copies, so that loads stay in flight while the block looks
back. The block sums each tile as soon as it lands and publishes its aggregate; a step later
warp 0 looks back for it while the other warps scan it in place, a last pass adds its prefix,
and the producer hands the whole tile to the copy engine (a bulk copy from shared to global
memory): no thread waits for its stores. The last, partly full tile moves by bulk copy too, up
to its last whole 16-byte vector; only the one to three elements after that pass through the
threads. The block size must be a power of two from 32 to 512.
[changed] */
///
/// Before compute capability 9.0 the ring holds tickets only: the block copies each tile in
/// with 16-byte loads and stores its results itself, as variant 7 does there.
#pragma once

#include "07_bulk_copy_lookback.cuh"

namespace ch13 {

// [scan8-ring]
/// Status words each lane of variant 8's look-back loads per poll: 256 predecessors per round
/// trip to L2. The blocks of a persistent grid scan their tiles in step, so the nearest tile
/// with an inclusive prefix is about one tile per block back (132 on the H100 at 512
/// threads), which one poll of eight rows of 32 covers.
constexpr int kLookbackDepth = 8;

/// Elements at the start of tile \p index that a bulk copy moves (in, and out again): the
/// whole tile where it lies below \p n, else the 16-byte vectors below \p n of the last tile;
/// none for unaligned data, a ticket past the last tile, or code for GPUs before 9.0.
template <typename T, bool kVectorized>
__device__ __forceinline__ unsigned bulk_elements(std::size_t n, unsigned tile_elements,
                                                  unsigned tiles, unsigned index) {
  if (!CH13_BULK_COPY || !kVectorized || index >= tiles) return 0;
  const std::size_t first = std::size_t(index) * tile_elements;
  if (first + tile_elements <= n) return tile_elements;
  constexpr unsigned kPerVector = 16 / sizeof(T);
  return static_cast<unsigned>(n - first) / kPerVector * kPerVector;
}

/// The producer's half of the ring: records \p ticket as the ticket of one slot, and starts
/// the bulk copy of the tile's bulk_elements() into the slot's tile, which completes on the
/// slot's barrier. Where there are none (unaligned data, a ticket past the last tile, a last
/// tile of fewer than one vector, GPUs before 9.0) it only arrives on the barrier.
/// \param in the input
/// \param n elements in the input
/// \param tile_elements elements per tile
/// \param tiles tiles of the launch
/// \param ticket the ticket drawn for the slot
/// \param staged the slot's tile in shared memory
/// \param landed the slot's barrier
/// \param slot_ticket the slot's ticket in shared memory
template <typename T, bool kVectorized>
__device__ __forceinline__ void fill_slot(const T* in, std::size_t n, unsigned tile_elements,
                                          unsigned tiles, unsigned long long ticket, T* staged,
                                          std::uint64_t* landed, unsigned long long* slot_ticket) {
  *slot_ticket = ticket;
#if CH13_BULK_COPY
  const unsigned tile = static_cast<unsigned>(ticket);
  const unsigned bulk = bulk_elements<T, kVectorized>(n, tile_elements, tiles, tile);
  if (bulk > 0) {
    start_tile_copy(landed, staged, in + std::size_t(tile) * tile_elements,
                    bulk * unsigned(sizeof(T)));
  } else {
    (void)cuda::ptx::mbarrier_arrive(landed);  // release: the ticket is visible with the phase
  }
#else
  (void)in, (void)n, (void)tile_elements, (void)tiles, (void)staged, (void)landed;
#endif
}

/// Hands a tile of results in shared memory to the copy engine (bulk copy to global memory),
/// as one bulk group of the calling thread. \p bytes must be a multiple of 16, both addresses
/// 16-byte aligned. The threads that wrote \p staged must have made their writes visible to
/// the copy engine (fence_tile_for_copy_engine) before the block synchronized.
__device__ __forceinline__ void start_tile_store(void* dst, const void* staged, unsigned bytes) {
#if CH13_BULK_COPY
  namespace ptx = cuda::ptx;
  ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst, staged, bytes);
  ptx::cp_async_bulk_commit_group();
#else
  (void)dst, (void)staged, (void)bytes;
#endif
}

/// Orders this thread's writes to shared memory before the copy engine's accesses to it.
__device__ __forceinline__ void fence_tile_for_copy_engine() {
#if CH13_BULK_COPY
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
#endif
}

/// Waits until every tile store this thread started has read its tile from shared memory
/// (\p kPending = 0), or all but the newest \p kPending. Their writes to global memory may
/// still be under way; the end of the launch completes them.
template <int kPending>
__device__ __forceinline__ void wait_tile_stores() {
#if CH13_BULK_COPY
  cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<kPending>{});
#endif
}

/// The ring of one block: kStages slots, each a tile in shared memory with its barrier and
/// its ticket. Local tile j of the block (the j-th ticket it draws) lives in slot j % kStages;
/// the producer thread draws tickets and fills slots, every thread waits for the slot of the
/// tile it scans next.
template <typename T, int kStages, bool kVectorized>
struct TileRing {
  T* staged;                     ///< kStages tiles in dynamic shared memory
  std::uint64_t* landed;         ///< one barrier per slot
  unsigned long long* tickets;   ///< one ticket per slot
  unsigned tile_elements;        ///< elements per tile
  unsigned tiles_in_launch;      ///< tiles of the launch (a larger ticket: no work left)
  unsigned tickets_in_launch;    ///< tiles + blocks: every block draws one ticket past the end
  bool drawing = true;           ///< (producer) no ticket past the last tile drawn yet
  unsigned long long next = 0;   ///< (producer) the ticket drawn ahead of its slot

  /// Slot of local tile \p j.
  __device__ T* tile(unsigned j) const { return staged + (j % kStages) * tile_elements; }

  /// (producer) Prepares the barriers and fills every slot, up to the first ticket past the
  /// last tile. The block synchronizes before anyone waits on a slot.
  __device__ void start(const T* in, std::size_t n, unsigned long long* counter) {
    for (int s = 0; s < kStages; ++s) init_tile_barrier(&landed[s]);
    for (unsigned j = 0; j < unsigned(kStages) && drawing; ++j) {
      const unsigned long long t = take_ticket(counter, tickets_in_launch);
      fill_slot<T, kVectorized>(in, n, tile_elements, tiles_in_launch, t, tile(j), &landed[j],
                                &tickets[j]);
      drawing = static_cast<unsigned>(t) < tiles_in_launch;
    }
  }

  /// (every thread) Waits until local tile \p j has landed and returns its ticket.
  __device__ unsigned long long wait(unsigned j) const {
    wait_tile_landed(&landed[j % kStages], (j / kStages) & 1);
    return tickets[j % kStages];
  }

  /// (producer) Asks for the ticket of the next slot to fill, before it is needed.
  __device__ void draw_ahead(unsigned long long* counter) {
    if (drawing) next = draw_ticket(counter);
  }

  /// (producer) Fills the slot of local tile \p j, which every thread of the block is done
  /// with (and whose tile store, if any, has read it), with the ticket drawn ahead.
  __device__ void refill(unsigned j, const T* in, std::size_t n, unsigned long long* counter) {
    if (!drawing) return;
    close_epoch_after(counter, next, tickets_in_launch);
    fill_slot<T, kVectorized>(in, n, tile_elements, tiles_in_launch, next, tile(j),
                              &landed[j % kStages], &tickets[j % kStages]);
    drawing = static_cast<unsigned>(next) < tiles_in_launch;
  }
};
// [scan8-ring]

// [scan8-kernel]
/// Where one tile of a block's ring is: its ticket, whether it is a tile of this launch, and
/// how many of its first elements came (and leave) by bulk copy.
struct RingTile {
  unsigned index;  ///< the tile (tiles and above: past the last one)
  unsigned epoch;  ///< the launch's epoch
  bool valid;      ///< index < tiles
  bool whole;      ///< the tile lies entirely below n
  unsigned bulk;   ///< its first elements that came, and leave, by bulk copy (bulk_elements())
};

/// Every thread of the block: waits for local tile \p j of the ring and returns where it is;
/// stages by threads what no bulk copy brought, with zeros past \p n (and ends with
/// __syncthreads() then).
template <typename T, int kStages, bool kVectorized>
__device__ RingTile stage_ring_tile(TileRing<T, kStages, kVectorized>& ring, unsigned j,
                                    const T* in, std::size_t n) {
  const unsigned long long ticket = ring.wait(j);
  RingTile t{static_cast<unsigned>(ticket), static_cast<unsigned>(ticket >> 32), false, false,
             0};
  t.valid = t.index < ring.tiles_in_launch;
  if (!t.valid) return t;  // the same for the whole block
  const std::size_t first = std::size_t(t.index) * ring.tile_elements;
  t.whole = first + ring.tile_elements <= n;
  t.bulk = bulk_elements<T, kVectorized>(n, ring.tile_elements, ring.tiles_in_launch, t.index);
  if (t.bulk < ring.tile_elements) {
    copy_tile_by_threads<T, kVectorized>(in, n, first + t.bulk, ring.tile_elements - t.bulk,
                                         t.whole, ring.tile(j) + t.bulk);
  }
  return t;
}

/// The single-pass scan of persistent blocks with a ring of staged tiles.
///
/// Step j of the block: sum local tile j + 1 and publish its aggregate at once (the other
/// blocks' look-backs wait for it); then warp 0 looks back for tile j, whose aggregate went
/// out a step ago, while the other warps already scan their parts of tile j in place with
/// the totals of the warps before them (variant 7's second pass) and warp 0 scans its part
/// after; a last, light pass adds the tile's prefix to every element, and the producer hands
/// the tile to the copy engine. A look-back is a round trip to L2 or more, at a time when the
/// memory system is at its busiest, and here the block's scan fills it. The producer (the
/// block's last thread) also refills tile j - 1's slot in step j with the tile kStages
/// steps after it.
/// \tparam kThreads the block size
/// \tparam kStages tiles in the ring
/// \tparam kVectorized whether in and out are 16-byte aligned (else element by element)
/// \param in n values
/// \param out n results (may be \p in: a tile is read completely before its results leave)
/// \param n how many
/// \param kind inclusive or exclusive
/// \param status one status word per tile
/// \param counter the tile counter (ticket 0 of the current epoch at launch)
/// \param tiles ceil(n / (kThreads kBulkItems))
template <typename T, int kThreads, int kStages, bool kVectorized>
__global__ void __launch_bounds__(kThreads)
    scan8_kernel(const T* in, T* out, std::size_t n, ScanKind kind, unsigned long long* status,
                 unsigned long long* counter, unsigned tiles) {
  using V = typename Vec4<T>::type;
  constexpr unsigned kTile = unsigned(kThreads) * kBulkItems;
  __shared__ std::uint64_t landed[kStages];
  __shared__ unsigned long long slot_tickets[kStages];
  __shared__ T warp_totals[kThreads / 32];
  __shared__ T tile_prefix;
  const unsigned lane = lane_id();
  const unsigned warp = threadIdx.x / 32;
  const bool producer = threadIdx.x == kThreads - 1;
  TileRing<T, kStages, kVectorized> ring{dynamic_shared<T>(), landed, slot_tickets, kTile, tiles,
                                         tiles + gridDim.x};
  const auto rows_of = [&](unsigned j) {  // this lane's vector of row 0 of its warp's part
    return reinterpret_cast<V*>(ring.tile(j)) + warp * (8 * kBulkItems) + lane;
  };
  // Sums local tile j (first pass) and publishes its aggregate; every thread gets the totals
  // of the warps before its own and the aggregate.
  const auto sum_tile = [&](unsigned j, const RingTile& t, T& warp_base, T& aggregate) {
    staged_tile_totals<T, kThreads>(rows_of(j), warp_totals, VectorSum{}, warp_base, aggregate);
    if (threadIdx.x == 0) publish_aggregate(status, t.index, t.epoch, aggregate);
  };

  if (producer) ring.start(in, n, counter);
  __syncthreads();
  RingTile current = stage_ring_tile(ring, 0, in, n);
  T base = T(0), aggregate = T(0);  // of the current tile
  if (current.valid) sum_tile(0, current, base, aggregate);
  __syncthreads();  // every thread has read tile 0's totals before tile 1's are written

  for (unsigned j = 0; current.valid; ++j) {
    const RingTile ahead = stage_ring_tile(ring, j + 1, in, n);
    T ahead_base = T(0), ahead_aggregate = T(0);
    if (ahead.valid) sum_tile(j + 1, ahead, ahead_base, ahead_aggregate);
    // Every thread is past step j - 1: its slot is free once its tile store has read it.
    if (producer && j > 0) {
      wait_tile_stores<0>();
      ring.refill(j - 1, in, n, counter);
    }

    V* rows = rows_of(j);
    const auto scan_in_place = [&] {
      scan_staged_rows(rows, base, kind, [&](int g, const T(&y)[4]) {
        rows[32 * g] = V{y[0], y[1], y[2], y[3]};
      });
    };
    if (warp == 0) {
      const T prefix = look_back<T, false, kLookbackDepth>(status, current.index, current.epoch,
                                                           aggregate);
      if (lane == 0) tile_prefix = prefix;
    }
    scan_in_place();
    __syncthreads();

    // The last pass: add the tile's prefix; then the tile leaves. What came by bulk copy
    // leaves by bulk copy, the rest (the last vectors of the last tile, every vector before
    // 9.0 or of unaligned data) by the threads' stores.
    const T prefix = tile_prefix;
    const std::size_t first = std::size_t(current.index) * kTile;
    const unsigned mine = warp * (32 * kBulkItems) + lane * 4;  // in the tile
#pragma unroll
    for (int g = 0; g < kBulkItems / 4; ++g) {
      V q = rows[32 * g];
      q.x += prefix;
      q.y += prefix;
      q.z += prefix;
      q.w += prefix;
      if (mine + 128 * g < current.bulk) {
        rows[32 * g] = q;
      } else {
        store_row<T, kVectorized>(out, first + mine + 128 * g, n, current.whole,
                                  {q.x, q.y, q.z, q.w});
      }
    }
    if (current.bulk > 0) fence_tile_for_copy_engine();
    __syncthreads();  // tile j is complete; tile_prefix and the totals are free again
    if (producer) {
      if (current.bulk > 0)
        start_tile_store(out + first, ring.tile(j), current.bulk * unsigned(sizeof(T)));
      ring.draw_ahead(counter);
    }
    current = ahead;
    base = ahead_base;
    aggregate = ahead_aggregate;
  }
  // The stores must have read the ring before the block leaves and its shared memory goes to
  // the next block; their writes complete with the launch.
  if (producer) wait_tile_stores<0>();
}
// [scan8-kernel]

// [scan8-launch]
/// Launches \p kKernel, a kernel with a ring, with as many blocks of \p kThreads threads as
/// fit on the GPU at once (no more than \p tiles), each with the ring's shared memory
/// (\p kBytesPerThread per thread). The grant of shared memory and the occupancy are asked
/// once per kernel.
template <auto kKernel, int kThreads, unsigned kBytesPerThread = kRingBytesPerThread,
          typename... Args>
void launch_ring(std::size_t tiles, const Scratch& scratch, cudaStream_t stream, Args... args) {
  const std::size_t bytes = std::size_t(kThreads) * kBytesPerThread;
  allow_tile_shared_memory<kKernel>(bytes);
  static int per_sm = 0;  // one per kernel: the template's instances differ by kernel
  const unsigned grid = resident_grid(kKernel, kThreads, tiles, scratch, per_sm, bytes);
  kKernel<<<grid, kThreads, bytes, stream>>>(args...);
  HB_CHECK_LAUNCH();
}

/// Launches a scan with a ring of tiles of \p kItems elements per thread and \p kBytes of
/// shared memory per thread: \p kAligned when both pointers are 16-byte aligned, else
/// \p kUnaligned (variants 8, 9 and 10).
template <typename T, int kThreads, int kItems, unsigned kBytes, auto kAligned, auto kUnaligned>
void launch_scan_ring(const T* in, T* out, std::size_t n, ScanKind kind, Scratch& scratch,
                      cudaStream_t stream) {
  const std::size_t tiles = ceil_div(n, std::size_t(kThreads) * kItems);
  if (tiles > 0x7fffffffu) throw std::logic_error("scan: too many tiles");
  unsigned long long* status = scratch.lookback_status(tiles, stream);
  unsigned long long* counter = scratch.lookback_counter();
  const unsigned t = static_cast<unsigned>(tiles);
  if (aligned16(in) && aligned16(out)) {
    launch_ring<kAligned, kThreads, kBytes>(tiles, scratch, stream, in, out, n, kind, status,
                                            counter, t);
  } else {
    launch_ring<kUnaligned, kThreads, kBytes>(tiles, scratch, stream, in, out, n, kind, status,
                                              counter, t);
  }
}

/// Variant 8's launch at \p kThreads threads.
template <typename T, int kThreads>
void scan8_launch(const T* in, T* out, std::size_t n, ScanKind kind, Scratch& scratch,
                  cudaStream_t stream) {
  launch_scan_ring<T, kThreads, kBulkItems, kRingBytesPerThread,
                   scan8_kernel<T, kThreads, kRingStages, true>,
                   scan8_kernel<T, kThreads, kRingStages, false>>(in, out, n, kind, scratch,
                                                                  stream);
}
// [scan8-launch]

template <typename T>
void scan8_bulk_copy_ring(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                          Scratch& scratch, cudaStream_t stream) {
  require_threads("scan variant 8", BlockRule::PowerOfTwo32To512, threads);
  require_shared_memory("scan variant 8", kRingBytesPerThread, threads);
  if (n == 0) return;
  hb::with_power_of_two<32, 512>(threads, [&](auto block) {
    scan8_launch<T, decltype(block)::value>(in, out, n, kind, scratch, stream);
  });
}

}  // namespace ch13
