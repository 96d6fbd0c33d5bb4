/// \file
/// \brief Chapter 13, scan variant 7: single pass, one tile per block, staged by bulk copy (beyond the text).
/* [changed]
Compared with variant 6: the same look-back, but every block scans one tile, and the tile
reaches shared memory in one bulk copy (Hopper's tensor memory accelerator, TMA) instead of
through registers. In variant 6 a few blocks stay on the GPU for the whole launch and hold their
tiles in registers, which caps the tiles in flight per SM, and a block that waits in its
look-back has no loads in flight. Here one thread of each block takes a ticket and starts a bulk
copy of that tile (32 elements per thread) into shared memory, and the block waits on the copy's
barrier. A tile in flight costs no registers and 32 KB of shared memory at 256 threads, so six
blocks share an SM: while some look back, the copies of the others keep the memory busy. The
threads read the tile from shared memory twice, once to sum it (the aggregate the look-back
publishes) and once to scan and store it, row by row as in variant 6. The look-back polls
without back-off. The block size must be a power of two from 32 to 1024.
[changed] */
///
/// The bulk copy needs compute capability 9.0. Code built for older GPUs stages the same tile
/// with 16-byte loads by every thread of the block; the rest of the kernel is the same.
#pragma once

#include <cstdint>

#include <cuda/ptx>

#include "06_decoupled_lookback.cuh"

// The bulk-copy engine (TMA) and its transaction barriers exist from compute capability 9.0
// on. Code for older GPUs never names them: one instruction they lack would stop the whole
// module, variant 6's kernels with it, from loading there.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CH13_BULK_COPY 1
#else
#define CH13_BULK_COPY 0
#endif

namespace ch13 {

// [scan7-copy]
/// The bulk copy of one tile: thread 0 of the block initializes the barrier \p landed and
/// starts an asynchronous copy of \p bytes bytes from \p src (global memory) to \p dst (shared
/// memory) that completes on it. Every thread then waits with wait_tile_landed(). The
/// addresses must be 16-byte aligned and \p bytes a multiple of 16.
/// \param landed the tile's barrier in shared memory
/// \param dst the tile in shared memory
/// \param src the tile in global memory
/// \param bytes the tile's size
__device__ __forceinline__ void start_tile_copy(std::uint64_t* landed, void* dst, const void* src,
                                                unsigned bytes) {
#if CH13_BULK_COPY
  namespace ptx = cuda::ptx;
  // The barrier expects one arrival (ours, below) and `bytes` bytes from the copy engine.
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, landed,
                                 bytes);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, dst, src, bytes, landed);
#else
  (void)landed, (void)dst, (void)src, (void)bytes;
#endif
}

/// Initializes the barrier of one tile copy (one arrival expected), visible to the copy
/// engine. Called by the thread that starts the copy, before it does.
/// \param landed the barrier in shared memory
__device__ __forceinline__ void init_tile_barrier(std::uint64_t* landed) {
#if CH13_BULK_COPY
  namespace ptx = cuda::ptx;
  ptx::mbarrier_init(landed, 1);
  ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
#else
  (void)landed;
#endif
}

/// Waits until the copy started by start_tile_copy() has landed: the barrier's first phase
/// (parity 0), or in variant 8, whose barriers are used again and again, the phase of the
/// given \p parity.
/// \param landed the tile's barrier
/// \param parity the phase's parity (0, 1, 0, ... for the first, second, third use)
__device__ __forceinline__ void wait_tile_landed(std::uint64_t* landed, unsigned parity = 0) {
#if CH13_BULK_COPY
  while (!cuda::ptx::mbarrier_try_wait_parity(landed, parity)) {
  }
#else
  (void)landed, (void)parity;
#endif
}
// [scan7-copy]

/// What the threads of a variant 7 (and compaction 3) block know about their tile.
struct BulkTile {
  unsigned index;  ///< the tile (from the ticket)
  unsigned epoch;  ///< the launch's epoch (from the ticket)
  bool whole;      ///< whether the tile lies entirely below n
};

// [scan7-stage]
/// What the block does where no bulk copy brought the tile: every thread copies 16-byte
/// vectors of a whole tile of aligned data (the portable form, for GPUs before 9.0), or
/// elements of the last tile or of unaligned data, with zeros past \p n. Ends with
/// __syncthreads(), so the tile is in shared memory for every thread.
/// \param in the input
/// \param n elements in the input
/// \param first the tile's first element
/// \param tile_elements elements per tile
/// \param whole whether the tile lies entirely below n
/// \param staged the tile in shared memory
template <typename T, bool kVectorized>
__device__ void copy_tile_by_threads(const T* in, std::size_t n, std::size_t first,
                                     unsigned tile_elements, bool whole, T* staged) {
  if (kVectorized && whole) {
    const uint4* src = reinterpret_cast<const uint4*>(in + first);
    uint4* dst = reinterpret_cast<uint4*>(staged);
    const unsigned vectors = tile_elements * unsigned(sizeof(T)) / 16;
    for (unsigned i = threadIdx.x; i < vectors; i += blockDim.x) dst[i] = src[i];
  } else {
    for (unsigned i = threadIdx.x; i < tile_elements; i += blockDim.x)
      staged[i] = first + i < n ? in[first + i] : T(0);
  }
  __syncthreads();
}

/// Takes this block's ticket and brings its tile into shared memory: whole tiles of aligned
/// data by one bulk copy, the last tile (or unaligned data) element by element, with zeros
/// past \p n. Every thread of the block calls it and gets the same BulkTile.
/// \tparam kVectorized whether \p in is 16-byte aligned
/// \param in the input
/// \param n elements in the input
/// \param tile_elements elements per tile
/// \param tiles tiles of this launch (one block each)
/// \param counter the look-back counter of the Scratch
/// \param staged the tile in shared memory (tile_elements elements, 128-byte aligned)
/// \param landed the tile's barrier in shared memory
/// \param ticket shared memory for the ticket
template <typename T, bool kVectorized>
__device__ BulkTile stage_tile(const T* in, std::size_t n, unsigned tile_elements, unsigned tiles,
                               unsigned long long* counter, T* staged, std::uint64_t* landed,
                               unsigned long long* ticket) {
  if (threadIdx.x == 0) {
    init_tile_barrier(landed);
    const unsigned long long t = take_ticket(counter, tiles);
    const std::size_t first = std::size_t(static_cast<unsigned>(t)) * tile_elements;
    if (kVectorized && first + tile_elements <= n)
      start_tile_copy(landed, staged, in + first, tile_elements * unsigned(sizeof(T)));
    *ticket = t;
  }
  __syncthreads();
  const BulkTile tile{static_cast<unsigned>(*ticket), static_cast<unsigned>(*ticket >> 32),
                      (std::size_t(static_cast<unsigned>(*ticket)) + 1) * tile_elements <= n};
  if (CH13_BULK_COPY && kVectorized && tile.whole) {
    wait_tile_landed(landed);
  } else {
    copy_tile_by_threads<T, kVectorized>(in, n, std::size_t(tile.index) * tile_elements,
                                         tile_elements, tile.whole, staged);
  }
  return tile;
}
// [scan7-stage]

// [scan7-passes]
/// The warps' totals \p warp_total meet in shared memory: every thread learns the total of
/// the warps before its own and the tile's total. Ends after a __syncthreads().
template <typename T, int kThreads>
__device__ __forceinline__ void tile_totals(T warp_total, T* warp_totals, T& warp_base,
                                            T& aggregate) {
  if (lane_id() == 0) warp_totals[threadIdx.x / 32] = warp_total;
  __syncthreads();
  warp_base = T(0);
  aggregate = T(0);
#pragma unroll
  for (int w = 0; w < kThreads / 32; ++w) {
    const T t = warp_totals[w];
    if (w < static_cast<int>(threadIdx.x / 32)) warp_base += t;
    aggregate += t;
  }
}

/// The first pass over a staged tile: each warp adds up \p part of each of its rows' vectors
/// (the sum of the four elements for a scan, how many are odd for a compaction), the warps'
/// totals meet in shared memory, and every thread learns the total of the warps before its own
/// and the tile's total (the aggregate of the look-back). Ends after a __syncthreads().
/// \param rows this lane's vector of row 0; row g's is at rows[32 g]
/// \param warp_totals one slot per warp in shared memory
/// \param part what one vector adds to the total
/// \param warp_base the totals of the warps before this thread's
/// \param aggregate the tile's total
template <typename T, int kThreads, int kItems = kBulkItems, typename V, typename Part>
__device__ __forceinline__ void staged_tile_totals(const V* rows, T* warp_totals, Part part,
                                                   T& warp_base, T& aggregate) {
  constexpr int kRows = kItems / 4;
  T sum = T(0);
#pragma unroll
  for (int g = 0; g < kRows; ++g) sum += part(rows[32 * g]);
  tile_totals<T, kThreads>(warp_sum(sum), warp_totals, warp_base, aggregate);
}

/// The sum of a vector's four elements: what a vector adds to a scan's staged_tile_totals.
struct VectorSum {
  template <typename V>
  __device__ __forceinline__ auto operator()(const V& q) const {
    return (q.x + q.y) + (q.z + q.w);
  }
};

/// The second pass of the scan: row by row, the scan of each lane's 4-element vector, then of
/// the vectors' totals over the lanes, plus the totals of the rows before it and \p carry
/// (everything before the warp's first element). Hands row g's four results to
/// \p emit(g, y), which stores them. Returns \p carry plus the warp's elements (variant 8
/// scans with carry 0 and takes this as the warp's total).
/// \tparam kItems elements per thread of the tile (kItems / 4 rows)
/// \param rows this lane's vector of row 0; row g's is at rows[32 g]
/// \param carry the sum of all elements before the warp's part of the tile
/// \param kind inclusive or exclusive
/// \param emit where the results go
template <int kItems = kBulkItems, typename T, typename V, typename Emit>
__device__ __forceinline__ T scan_staged_rows(const V* rows, T carry, ScanKind kind,
                                              Emit&& emit) {
  constexpr int kRows = kItems / 4;
  const bool inclusive = kind == ScanKind::Inclusive;
#pragma unroll
  for (int g = 0; g < kRows; ++g) {
    const V q = rows[32 * g];
    const T x[4] = {q.x, q.y, q.z, q.w};
    T scan[4];  // inclusive within the vector
    scan[0] = x[0];
    scan[1] = scan[0] + x[1];
    scan[2] = scan[1] + x[2];
    scan[3] = scan[2] + x[3];
    // Then the inclusive scan of the vectors' totals over the lanes. We use the intrinsic
    // form (warp variant 4): the compiler may interleave the shuffles of different rows, which
    // it must not do with the `asm volatile` of variant 5.
    const T lanes = warp_scan_shuffle(scan[3]);
    const T base = carry + warp_exclusive_from_inclusive(lanes);
    carry += __shfl_sync(kFullMask, lanes, 31);
    T y[4];
    y[0] = inclusive ? base + scan[0] : base;
#pragma unroll
    for (int j = 1; j < 4; ++j) y[j] = base + (inclusive ? scan[j] : scan[j - 1]);
    emit(g, y);
  }
  return carry;
}

/// Stores one row's four results of a lane at out[i ... i + 3]: one 16-byte store for a whole
/// tile of aligned data, else only those below \p n.
template <typename T, bool kVectorized>
__device__ __forceinline__ void store_row(T* out, std::size_t i, std::size_t n, bool whole,
                                          const T (&y)[4]) {
  if (kVectorized && whole) {
    // __stwb is st.global.wb.v4, the plain store spelled out: with an assignment the compiler
    // wrote a thread's row 0 as four 4-byte stores.
    using V = typename Vec4<T>::type;
    __stwb(reinterpret_cast<V*>(out + i), V{y[0], y[1], y[2], y[3]});
  } else {
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (i + j < n) out[i + j] = y[j];
  }
}
// [scan7-passes]

// [scan7-kernel]
/// The single-pass scan with one tile per block, staged in shared memory. Warp w owns the
/// kBulkItems x 32 consecutive elements from w kBulkItems 32 on, as kBulkItems / 4 rows of
/// 128; in row g, lane l handles elements 4l ... 4l + 3 (one 16-byte shared-memory access per
/// row and lane, no bank conflicts).
/// \tparam kThreads the block size
/// \tparam kVectorized whether in and out are 16-byte aligned (else element by element)
/// \param in n values
/// \param out n results (may be \p in)
/// \param n how many
/// \param kind inclusive or exclusive
/// \param status one status word per tile
/// \param counter the tile counter (ticket 0 of the current epoch at launch)
/// \param tiles ceil(n / (kThreads kBulkItems)), the grid size
template <typename T, int kThreads, bool kVectorized>
__global__ void __launch_bounds__(kThreads)
    scan7_kernel(const T* in, T* out, std::size_t n, ScanKind kind, unsigned long long* status,
                 unsigned long long* counter, unsigned tiles) {
  using V = typename Vec4<T>::type;
  constexpr unsigned kTile = unsigned(kThreads) * kBulkItems;
  __shared__ std::uint64_t landed;
  __shared__ unsigned long long ticket;
  __shared__ T warp_totals[kThreads / 32];
  __shared__ T tile_prefix;
  T* staged = dynamic_shared<T>();
  const unsigned lane = lane_id();
  const unsigned warp = threadIdx.x / 32;

  const BulkTile tile = stage_tile<T, kVectorized>(in, n, kTile, tiles, counter, staged, &landed,
                                                   &ticket);
  // Row g of this lane: the vector at rows[32 g].
  const V* rows = reinterpret_cast<const V*>(staged) + warp * (8 * kBulkItems) + lane;

  // First pass: the tile's total (the aggregate) and the warps' before ours.
  T warp_base, aggregate;
  staged_tile_totals<T, kThreads>(rows, warp_totals, VectorSum{}, warp_base, aggregate);
  if (warp == 0) {
    const T prefix = lookback_tile_prefix<T, false>(status, tile.index, tile.epoch, aggregate);
    if (lane == 0) tile_prefix = prefix;
  }
  __syncthreads();

  // Second pass: scan each row, carrying the total of the rows before it, and store.
  const std::size_t first = std::size_t(tile.index) * kTile + warp * (32 * kBulkItems) + lane * 4;
  scan_staged_rows(rows, tile_prefix + warp_base, kind, [&](int g, const T(&y)[4]) {
    store_row<T, kVectorized>(out, first + 128 * g, n, tile.whole, y);
  });
}
// [scan7-kernel]

// [scan7-launch]
/// Grants \p kKernel the dynamic shared memory of its tile (above 48 KB a kernel must ask)
/// and asks for the largest shared-memory carveout, so that as many tiles as fit share an SM.
/// The attributes are set on the first call for each kernel; later calls cost nothing.
template <auto kKernel>
void allow_tile_shared_memory(std::size_t bytes) {
  static const bool done = [bytes] {
    HB_CUDA_CHECK(cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(bytes)));
    HB_CUDA_CHECK(cudaFuncSetAttribute(kKernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                       cudaSharedmemCarveoutMaxShared));
    return true;
  }();
  (void)done;
}

/// One launch: one block per tile; the bulk-copy kernel when both pointers are 16-byte aligned.
template <typename T, int kThreads>
void scan7_launch(const T* in, T* out, std::size_t n, ScanKind kind, Scratch& scratch,
                  cudaStream_t stream) {
  constexpr std::size_t kTile = std::size_t(kThreads) * kBulkItems;
  const std::size_t tiles = ceil_div(n, kTile);
  if (tiles > 0x7fffffffu) throw std::logic_error("scan7: too many tiles");
  unsigned long long* status = scratch.lookback_status(tiles, stream);
  unsigned long long* counter = scratch.lookback_counter();
  const unsigned t = static_cast<unsigned>(tiles);
  const std::size_t bytes = kTile * sizeof(T);
  if (aligned16(in) && aligned16(out)) {
    allow_tile_shared_memory<scan7_kernel<T, kThreads, true>>(bytes);
    scan7_kernel<T, kThreads, true><<<t, kThreads, bytes, stream>>>(in, out, n, kind, status, counter, t);
  } else {
    allow_tile_shared_memory<scan7_kernel<T, kThreads, false>>(bytes);
    scan7_kernel<T, kThreads, false><<<t, kThreads, bytes, stream>>>(in, out, n, kind, status, counter, t);
  }
  HB_CHECK_LAUNCH();
}
// [scan7-launch]

template <typename T>
void scan7_bulk_copy_lookback(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                              Scratch& scratch, cudaStream_t stream) {
  require_threads("scan variant 7", BlockRule::PowerOfTwoFrom32, threads);
  require_shared_memory("scan variant 7", kBulkTileBytesPerThread, threads);
  if (n == 0) return;
  hb::with_power_of_two<32, 1024>(threads, [&](auto block) {
    scan7_launch<T, decltype(block)::value>(in, out, n, kind, scratch, stream);
  });
}

}  // namespace ch13
