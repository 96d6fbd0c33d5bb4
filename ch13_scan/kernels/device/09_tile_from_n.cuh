/// \file
/// \brief Chapter 13, scan variant 9: variant 8 with its tile chosen from n (beyond the text).
/* [changed]
Compared with variant 8: the same kernel, but the launcher picks the block size, and with it
the tile, from n. At 512 threads a tile holds 16384 elements; an input of fewer tiles than the
GPU has SMs leaves SMs without work, and a block scans its whole tile, zeros and all, however
little of it holds data. So the launcher takes the largest block of 512, 256 or 128 threads
whose tiles give every SM at least one, else 64 threads, among the sizes whose ring fits the
shared memory the GPU grants. Like CUB, it takes no --threads.
[changed] */
#pragma once

#include "08_bulk_copy_ring.cuh"

namespace ch13 {

// [scan9-choice]
/// The block size of variant 9 for \p n elements on a GPU of \p sms SMs, when blocks of up to
/// \p largest threads (a power of two from 64 to 512) fit: halved from \p largest while its
/// tiles of \p items elements per thread would leave an SM without one, down to 64.
constexpr int scan9_threads(std::size_t n, int sms, int largest, int items = kBulkItems) {
  int threads = largest;
  while (threads > 64 && ceil_div(n, std::size_t(threads) * items) < std::size_t(sms))
    threads /= 2;
  return threads;
}

/// scan9_threads() on the current GPU, for a ring of \p bytes_per_thread: the largest block
/// whose ring fits (192 KB at 512 threads for variant 9) is where the halving starts.
inline int tile_from_n_threads(std::size_t n, int sms, unsigned bytes_per_thread, int items) {
  int largest = 512;
  while (largest > 64 && !fits_shared_memory(bytes_per_thread, largest)) largest /= 2;
  return scan9_threads(n, sms, largest, items);
}

template <typename T>
void scan9_tile_from_n(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                       Scratch& scratch, cudaStream_t stream) {
  require_threads("scan variant 9", BlockRule::Own, threads);
  if (n == 0) return;
  hb::with_power_of_two<64, 512>(
      tile_from_n_threads(n, scratch.sm_count(), kRingBytesPerThread, kBulkItems),
      [&](auto block) {
        scan8_launch<T, decltype(block)::value>(in, out, n, kind, scratch, stream);
      });
}
// [scan9-choice]

}  // namespace ch13
