/// \file
/// \brief What every reduction launcher of chapter 12 shares: the one launcher signature, the
///        scratch memory the caller owns, and the rules for block sizes.
///
/// Launchers never allocate: the caller builds one Scratch for the largest input it will
/// reduce, outside any timed region, and passes it (with a stream) to every call. A Scratch
/// holds counters that single-pass kernels leave at zero when they finish, so two calls that
/// may run at the same time (different streams) need two Scratch objects.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

#include "hb/memory.h"

namespace ch12 {

/// \f$\lceil a / b \rceil\f$ for sizes.
constexpr std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

/// Device memory every variant may need, sized once for inputs of up to max_n elements.
class Scratch {
 public:
  /// Holds nothing. Enough for calls that are rejected before they reach the GPU (bad block
  /// sizes), which is what the CPU-only tests check.
  Scratch() = default;
  /// Allocates every buffer for inputs of up to \p max_n int32 elements on the current
  /// device, and zeroes the counters that single-pass kernels rely on.
  explicit Scratch(std::size_t max_n);

  std::size_t max_n() const { return max_n_; }
  /// Per-block partial results (first level). Throws std::logic_error when \p count
  /// elements of T do not fit: a programming error, not bad input.
  template <typename T>
  T* partials_a(std::size_t count) const {
    return fit<T>(a_, count, "partials_a");
  }
  /// Second-level partial results (relaunching variants ping-pong between a and b).
  template <typename T>
  T* partials_b(std::size_t count) const {
    return fit<T>(b_, count, "partials_b");
  }
  /// Work space of int32 elements for the in-place global-memory reduction (variant 10c).
  int* work(std::size_t count) const { return fit<int>(work_, count, "work"); }
  /// A block counter that is zero between calls (each single-pass kernel resets it).
  unsigned* ticket() const { return counters_.data(); }
  /// A 64-bit accumulator that is zero between calls (variant 11b resets it).
  long long* accumulator() const { return accumulator_.data(); }
  /// Temporary storage for CUB (variant 0).
  void* cub_storage() const { return cub_.data(); }
  std::size_t cub_bytes() const { return cub_bytes_; }

  int sm_count() const { return sm_count_; }
  /// Blocks of \p threads threads that fit on the GPU at once when threads are the only
  /// limit (at most 32 blocks per SM): the grid size of the book's grid-stride kernels.
  int resident_blocks(int threads) const;

 private:
  template <typename T>
  T* fit(const hb::DeviceBuffer<unsigned char>& buf, std::size_t count, const char* what) const {
    if (count * sizeof(T) > buf.bytes()) {
      throw std::logic_error(std::string("ch12::Scratch::") + what + ": " +
                             std::to_string(count * sizeof(T)) + " bytes needed, " +
                             std::to_string(buf.bytes()) + " allocated (Scratch built for n = " +
                             std::to_string(max_n_) + ")");
    }
    return reinterpret_cast<T*>(buf.data());
  }

  std::size_t max_n_ = 0;
  hb::DeviceBuffer<unsigned char> a_, b_, work_, cub_;
  hb::DeviceBuffer<unsigned> counters_;
  hb::DeviceBuffer<long long> accumulator_;
  std::size_t cub_bytes_ = 0;
  int sm_count_ = 0;
  int max_threads_per_sm_ = 0;
};

/// The one signature of the chapter's launchers: reduce \p n int32 values at \p in (device)
/// into one 64-bit value at \p out (device), with blocks of \p threads threads, on \p stream.
/// Asynchronous: it enqueues work and returns. Throws hb::UsageError, before any GPU work, when
/// the variant does not accept \p threads.
using Launcher = void (*)(const int* in, std::size_t n, long long* out, int threads,
                          Scratch& scratch, cudaStream_t stream);

/// Which block sizes a variant accepts.
enum class BlockRule {
  Library,           ///< the library picks its own (CUB); --threads is not offered
  PowerOfTwo,        ///< 1, 2, 4, ..., 1024
  PowerOfTwoFrom32,  ///< 32, 64, ..., 1024
  MultipleOf32,      ///< 32, 64, 96, ..., 1024
  Any                ///< 1 ... 1024
};

/// Whether \p rule allows blocks of \p threads threads.
bool accepts(BlockRule rule, int threads);
/// "a power of two between 1 and 1024", for messages.
std::string describe(BlockRule rule);
/// Throws hb::UsageError naming \p variant_id unless \p rule allows \p threads.
void require_threads(const char* variant_id, BlockRule rule, int threads);

/// Grid size of the book's grid-stride kernels: one block per \p threads elements, but no
/// more blocks than fit on the GPU at once, and at least one (so that n = 0 writes a zero).
int grid_stride_blocks(std::size_t n, int threads, const Scratch& scratch);

}  // namespace ch12
