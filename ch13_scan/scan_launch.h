/// \file
/// \brief What every launcher of chapter 13 shares: the caller-owned scratch memory, the rules
///        for block sizes, and the one signature per level (device scan, compaction, and the
///        warp- and block-level test kernels).
///
/// Launchers never allocate: every buffer they need comes from a Scratch that the caller
/// builds once, before any timed region, for the largest input it will scan. Two calls that
/// may run at the same time (different streams) need two Scratch objects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

#include "hb/memory.h"
#include "hb/variants.h"
#include "scan_ops.h"

namespace ch13 {

using hb::BlockRule;
using hb::ceil_div;
using hb::require_threads;

/// Elements per thread of the single-pass kernels (variant 6 and compaction 2): four
/// 16-byte vectors of 4-byte elements. Kept here because the scratch memory is sized by it.
constexpr int kLookbackItems = 16;
/// Elements per thread of variant 7 and compaction 3, whose tiles are staged in shared memory
/// (32 KB for 256 threads of int): eight 16-byte vectors.
constexpr int kBulkItems = 32;

/// Dynamic shared memory per thread of variant 7 and compaction 3 (their staged tile).
constexpr unsigned kBulkTileBytesPerThread = kBulkItems * 4;

/// Whether a block of \p threads threads with \p bytes_per_thread of dynamic shared memory (and
/// a little static) fits the shared memory the current GPU grants (hb::shared_per_block_limit).
/// Always true for 0 bytes per thread.
bool fits_shared_memory(unsigned bytes_per_thread, int threads);
/// Throws hb::UsageError naming \p variant unless fits_shared_memory(bytes_per_thread, threads).
void require_shared_memory(const std::string& variant, unsigned bytes_per_thread, int threads);

/// Device memory every device-level variant may need, sized once for inputs of up to max_n
/// 4-byte elements.
class Scratch {
 public:
  /// Holds nothing. Enough for calls that are rejected before they reach the GPU (bad block
  /// sizes), which is what the CPU-only tests check.
  Scratch() = default;
  /// Allocates every buffer for inputs of up to \p max_n elements on the current device and
  /// initializes the state of the single-pass kernels.
  explicit Scratch(std::size_t max_n);

  std::size_t max_n() const { return max_n_; }

  /// Room for the per-tile totals of every level of a recursive scan (variants 1 to 4): at
  /// most \f$N/31 + 64\f$ elements for tiles of at least 32 elements. Throws
  /// std::logic_error when \p count elements of T do not fit (a programming error).
  template <typename T>
  T* levels(std::size_t count) const {
    return levels_.fit<T>(count, "levels");
  }
  /// The fixed, small array of partials of the two-level variants (5a-5c, compaction 1).
  template <typename T>
  T* partials(std::size_t count) const {
    return partials_.fit<T>(count, "partials");
  }
  /// The most partials the two-level variants may use: one per block that fits on the GPU
  /// at once, counting 32 blocks per SM (the hardware's limit).
  std::size_t max_partials() const { return max_partials_; }

  /// The state of the decoupled look-back (scan 6, compaction 2) for a launch of \p tiles
  /// tiles: one 64-bit status word per tile and one 64-bit counter whose high half is the
  /// current epoch and whose low half hands out tile indices. Every call goes through this
  /// function, which counts the calls and, once every epoch_period() calls, clears the
  /// status words and restarts the epochs (on \p stream) so that an epoch never repeats
  /// while an old status word could still carry it (see scan6_decoupled_lookback.cuh).
  unsigned long long* lookback_status(std::size_t tiles, cudaStream_t stream);
  /// The tile counter of the look-back (the word described above).
  unsigned long long* lookback_counter() const { return counter_.data(); }
  /// Calls between two restarts of the epochs; tests make it small to exercise the restart.
  std::uint32_t epoch_period() const { return epoch_period_; }
  /// Sets epoch_period() (between 1 and 2^31 - 2).
  void set_epoch_period(std::uint32_t calls);

  /// Temporary storage for CUB (scan 0b and compaction 0b), enough for max_n elements.
  void* cub_storage() const { return cub_.data(); }
  std::size_t cub_bytes() const { return cub_bytes_; }

  int sm_count() const { return sm_count_; }
  /// Blocks of \p threads threads that fit on the GPU at once when threads are the only
  /// limit (at most 32 per SM): the grid of the book's grid-stride kernels.
  int resident_blocks(int threads) const;

 private:
  void restart_epochs(cudaStream_t stream);

  std::size_t max_n_ = 0;
  std::size_t max_partials_ = 0;
  hb::ScratchBytes levels_, partials_, cub_;
  hb::DeviceBuffer<unsigned long long> status_, counter_;
  std::size_t cub_bytes_ = 0;
  std::uint64_t lookback_calls_ = 0;
  std::uint32_t epoch_period_ = (1u << 31) - 2;
  int sm_count_ = 0;
  int max_threads_per_sm_ = 0;
};

/// Elements of Scratch::levels() a recursive scan of \p n elements with tiles of \p tile
/// elements needs: \f$\lceil n/t \rceil + \lceil n/t^2 \rceil + \dots\f$ down to one tile.
std::size_t recursion_elements(std::size_t n, std::size_t tile);

/// The one signature of the device-level scans: scan \p n elements of T at \p in (device)
/// into \p out (device; may equal \p in), inclusive or exclusive, with blocks of \p threads
/// threads, on \p stream. Asynchronous. Throws hb::UsageError, before any GPU work, when the
/// variant does not accept \p threads.
template <typename T>
using ScanLauncher = void (*)(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                              Scratch& scratch, cudaStream_t stream);

/// The one signature of the compactions: copy the odd elements of the \p n int32 values at
/// \p in to the front of \p out, in order, and write how many to \p count (all device
/// memory). Only the first count elements of \p out are written.
using CompactLauncher = void (*)(const int* in, int* out, std::size_t n, int* count, int threads,
                                 Scratch& scratch, cudaStream_t stream);

/// The one signature of the warp- and block-level test kernels: scan every segment (32
/// elements for a warp, one tile for a block) of the \p n elements at \p in independently,
/// \p reps times in a row (the output of one repetition is the input of the next; 1 for the
/// plain scan), and write the result to \p out. \p threads is the block size.
template <typename T>
using SegmentLauncher = void (*)(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                                 int reps, cudaStream_t stream);

}  // namespace ch13
