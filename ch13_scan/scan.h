/// \file
/// \brief What every scan of chapter 13 shares: the kind of scan, the caller-owned scratch
///        memory, one launcher signature per level, the four tables of variants, and the
///        inputs and checks around the CPU reference.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <cuda_runtime_api.h>

#include "hb/capability.h"
#include "hb/compare.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/random.h"
#include "hb/variants.h"
#include "kernels/compact/00a_cpu.h"
#include "kernels/device/00a_cpu.h"

namespace ch13 {

using hb::BlockRule;
using hb::ceil_div;
using hb::require_threads;

/// Which scan a launcher computes (section 13.1): inclusive \f$y_i = x_0 \oplus \dots \oplus
/// x_i\f$, or exclusive \f$y_i = x_0 \oplus \dots \oplus x_{i-1}\f$ with \f$y_0\f$ the identity.
enum class ScanKind { Inclusive, Exclusive };

inline const char* kind_name(ScanKind kind) {
  return kind == ScanKind::Inclusive ? "inclusive" : "exclusive";
}

/// The type the checks sum T in.
template <typename T>
using Wide = std::conditional_t<std::is_same_v<T, int>, long long, double>;

// Elements per thread of the tile kernels (4-byte elements, loaded as 16-byte vectors), and
// the dynamic shared memory per thread of those that stage their tiles there. The scratch
// memory is sized by kLookbackItems, the smallest tile.
constexpr int kLookbackItems = 16;  ///< variant 6 and compaction 2: four vectors
/// Variants 7 to 9, compactions 3 and 4: eight vectors (32 KB for 256 threads of int).
constexpr int kBulkItems = 32;
constexpr unsigned kBulkTileBytesPerThread = kBulkItems * 4;  ///< variant 7, compaction 3
/// Tiles per block in a shared-memory ring: one being scanned, the others on their way.
constexpr int kRingStages = 3;
constexpr unsigned kRingBytesPerThread = kRingStages * kBulkTileBytesPerThread;  ///< variant 8
/// Variant 10: nine vectors. Its results leave from registers, so its ring (216 KB at 512
/// threads) is the largest that the 227 KB of an H100 block holds.
constexpr int kEarlyRefillItems = 36;
constexpr unsigned kEarlyRefillBytesPerThread = kRingStages * kEarlyRefillItems * 4;
// Compactions 4 and 5 (the page says why), which scripts/compact_tile_sweep.sh rebuilds with
// CH13_COMPACT_RING_ITEMS, CH13_LANE_RUN_ITEMS and CH13_LANE_RUN_STAGES set to others (more,
// smaller tiles were slower). Compaction 5's runs have the shape of compaction 4's tiles: nine
// vectors, an odd number, so that the lanes' runs fall on different banks.
#ifndef CH13_COMPACT_RING_ITEMS
#define CH13_COMPACT_RING_ITEMS 36
#endif
constexpr int kCompactRingItems = CH13_COMPACT_RING_ITEMS;
static_assert(kCompactRingItems % 4 == 0, "a tile's rows are 16-byte vectors");
constexpr unsigned kCompactRingBytesPerThread = kRingStages * kCompactRingItems * 4;
#ifndef CH13_LANE_RUN_ITEMS
#define CH13_LANE_RUN_ITEMS 36
#endif
#ifndef CH13_LANE_RUN_STAGES
#define CH13_LANE_RUN_STAGES 3
#endif
constexpr int kLaneRunItems = CH13_LANE_RUN_ITEMS;
constexpr int kLaneRunStages = CH13_LANE_RUN_STAGES;
static_assert(kLaneRunItems % 4 == 0 && kLaneRunItems >= kLookbackItems,
              "runs of 16-byte vectors, tiles no smaller than the Scratch's smallest");
constexpr unsigned kLaneRunBytesPerThread = kLaneRunStages * kLaneRunItems * 4;
/// What the bulk-copy variants need from the GPU, and what runs in their place below 9.0.
inline constexpr hb::Needs kBulkCopyNeeds = {
    90, "every thread stages 16-byte vectors of the tile (no bulk-copy engine before 9.0)"};

/// Whether a block of \p threads threads with \p bytes_per_thread of dynamic shared memory (and
/// a little static) fits the shared memory the current GPU grants; require_shared_memory
/// throws hb::UsageError naming \p variant unless it does.
bool fits_shared_memory(unsigned bytes_per_thread, int threads);
void require_shared_memory(const std::string& variant, unsigned bytes_per_thread, int threads);

/// Device memory every device-level variant may need, sized once for inputs of up to max_n
/// 4-byte elements: launchers never allocate, so the caller builds one Scratch per concurrent
/// stream before any timed region. Scratch() holds nothing: enough for calls rejected before
/// they reach the GPU (the CPU-only tests).
class Scratch {
 public:
  Scratch() = default;
  explicit Scratch(std::size_t max_n);

  /// The per-tile totals of every level of a recursive scan (variants 1 to 4).
  template <typename T>
  T* levels(std::size_t count) const { return levels_.fit<T>(count, "levels"); }
  /// The partials of the two-level variants (5a-5c, compaction 1): at most max_partials(), one
  /// per block that fits on the GPU at once, counting 32 blocks per SM (the hardware's limit).
  template <typename T>
  T* partials(std::size_t count) const { return partials_.fit<T>(count, "partials"); }
  std::size_t max_partials() const { return max_partials_; }

  /// The look-back state (kernels/device/06_decoupled_lookback.cuh) for a launch of \p tiles
  /// tiles: a status word per tile, and a counter (epoch, next tile). Every launch calls this;
  /// every set_epoch_period() calls it clears the words and restarts the epochs (on \p stream),
  /// so that an epoch never repeats while an old status word could still carry it.
  unsigned long long* lookback_status(std::size_t tiles, cudaStream_t stream);
  unsigned long long* lookback_counter() const { return counter_.data(); }
  /// Calls between two restarts of the epochs (1 to 2^31 - 2, the default); tests make it
  /// small to exercise the restart.
  void set_epoch_period(std::uint32_t calls);

  /// Temporary storage for CUB (scan 0b and compaction 0b), enough for max_n elements.
  void* cub_storage() const { return cub_.data(); }
  std::size_t cub_bytes() const { return cub_.bytes(); }

  int sm_count() const { return residency_.sm_count; }
  /// The grid of the book's grid-stride kernels (hb::Residency::blocks).
  int resident_blocks(int threads) const { return residency_.blocks(threads); }

 private:
  void restart_epochs(cudaStream_t stream);

  std::size_t max_n_ = 0;
  std::size_t max_partials_ = 0;
  hb::ScratchBytes levels_, partials_, cub_;
  hb::DeviceBuffer<unsigned long long> status_, counter_;
  std::uint64_t lookback_calls_ = 0;
  std::uint32_t epoch_period_ = (1u << 31) - 2;
  hb::Residency residency_;
};

/// Elements of Scratch::levels() a recursive scan of \p n elements with tiles of \p tile
/// elements needs: \f$\lceil n/t \rceil + \lceil n/t^2 \rceil + \dots\f$ down to one tile.
std::size_t recursion_elements(std::size_t n, std::size_t tile);

/// The device-level scans: scan \p n elements of T at \p in into \p out (may equal \p in),
/// with blocks of \p threads threads, on \p stream, asynchronously (device memory). Throws
/// hb::UsageError, before any GPU work, when the variant does not accept \p threads.
template <typename T>
using ScanLauncher = void (*)(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                              Scratch& scratch, cudaStream_t stream);
/// The compactions: copy the odd elements of the \p n values at \p in to the front of \p out,
/// in order, and write how many to \p count; only those elements of \p out are written.
using CompactLauncher = void (*)(const int* in, int* out, std::size_t n, int* count, int threads,
                                 Scratch& scratch, cudaStream_t stream);
/// The warp- and block-level test kernels: scan every segment (32 elements for a warp, one
/// tile for a block) independently, \p reps times in a row (each repetition scans the last
/// one's output; 1 for the plain scan). \p threads is the block size.
template <typename T>
using SegmentLauncher = void (*)(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                                 int reps, cudaStream_t stream);

/// A variant's launcher for int and for float: the scans of every level run on both.
template <template <typename> class Launcher>
struct IntAndFloat {
  Launcher<int> for_int = nullptr;
  Launcher<float> for_float = nullptr;
  explicit operator bool() const { return for_int != nullptr && for_float != nullptr; }
  template <typename T>
  Launcher<T> get() const {
    if constexpr (std::is_same_v<T, int>) return for_int;
    else return for_float;
  }
};

/// The four tables of the chapter, one per folder of kernels/.
enum class Level { Warp, Block, Device, Compact };

/// Another instantiation of a row's kernel file that the sweeps and tests run just before the
/// row, as a row of its own (warp variant 3 without zero padding, which the book counts too).
template <typename Launch>
struct Alternate {
  const char* id = nullptr;  ///< "3u"; nullptr: none
  const char* title = nullptr;
  Launch launch = {};
};

/// The block size of the per-variant programs and of the tests' first runs.
constexpr int kDefaultThreads = 256;

/// One row of a table: one file of `kernels/<level>/`, and what the programs, the drivers and
/// the tests need to know about it.
template <Level kLevel, typename Launch>
struct Variant {
  const char* id;     ///< "0a", "1", "5c", in the text's order: the file's number
  const char* name;   ///< "scan_then_fan": as in `kernels/device/03_scan_then_fan.cuh`
  const char* title;  ///< one line for tables and --help
  Launch launch;      ///< empty for the CPU reference
  BlockRule threads;  ///< Cpu: the CPU reference; Library: CUB's own; Own: chosen from n
  /// Elements of a block's tile per thread: the tests cover the edges of the tiles.
  int items_per_thread = 1;
  hb::Needs needs = {};  ///< the GPU its headline form needs, and what runs below it
  unsigned tile_bytes_per_thread = 0;  ///< dynamic shared memory per thread of a block (0: none)
  /// Whether it uses the look-back state of Scratch, which carries over from call to call:
  /// the tests mix such calls back to back.
  bool shares_lookback = false;
  Alternate<Launch> alternate = {};

  /// "scan3_scan_then_fan": the name of the variant's program (scan and compaction tables).
  std::string program() const { return prefix() + id + "_" + name; }
  /// "scan variant 5c", for messages.
  std::string label() const {
    return (kLevel == Level::Compact ? std::string("compaction") : prefix()) + " variant " + id;
  }
  bool is_cpu() const { return threads == BlockRule::Cpu; }
  bool is_library() const { return threads == BlockRule::Library; }
  bool picks_own() const { return threads == BlockRule::Own; }
  bool accepts_threads(int n) const { return hb::accepts(threads, n); }
  /// The rule, and the tile of such a block fits the shared memory this GPU grants.
  bool accepts_threads_here(int n) const {
    return accepts_threads(n) && fits_shared_memory(tile_bytes_per_thread, n);
  }
  /// The block size of its program (0 where it takes none).
  int default_threads() const {
    return is_cpu() || is_library() || picks_own() ? 0 : kDefaultThreads;
  }
  /// default_threads(), or on a GPU whose shared memory holds no tile of such a block, the
  /// largest smaller power of two whose tile it holds (Turing's 64 KiB take variant 8's ring
  /// at 128 threads): what its program and the tests run when no block size is asked for.
  int default_threads_here() const {
    int t = default_threads();
    while (t > 32 && !accepts_threads_here(t)) t /= 2;
    return t;
  }
  /// Elements one scan covers: a warp's 32 at the warp level, else a block's tile.
  std::size_t segment(int block_threads) const {
    return kLevel == Level::Warp ? 32 : std::size_t(block_threads) * items_per_thread;
  }

 private:
  static std::string prefix() {
    constexpr const char* kPrefixes[] = {"warp", "block", "scan", "compact"};  // by Level
    return kPrefixes[static_cast<int>(kLevel)];
  }
};

using WarpVariant = Variant<Level::Warp, IntAndFloat<SegmentLauncher>>;
using BlockVariant = Variant<Level::Block, IntAndFloat<SegmentLauncher>>;
using ScanVariant = Variant<Level::Device, IntAndFloat<ScanLauncher>>;
using CompactVariant = Variant<Level::Compact, CompactLauncher>;

// The tables, the references first: CUB (warp, block), the CPU (scan, compact). Each is in
// variants/, which compiles every file of its kernels folder once (CMake lists them in
// *_kernels.cuh): adding a variant is one file there and one row in the table.
const std::vector<WarpVariant>& warp_variants();
const std::vector<BlockVariant>& block_variants();
const std::vector<ScanVariant>& scan_variants();
const std::vector<CompactVariant>& compact_variants();

/// The row with id \p id ("6", "5c"); throws hb::UsageError listing the valid ids.
inline const ScanVariant& find_scan_variant(std::string_view id) {
  return hb::find_row(scan_variants(), id, "--variant", "scan ");
}
inline const CompactVariant& find_compact_variant(std::string_view id) {
  return hb::find_row(compact_variants(), id, "--variant", "compaction ");
}

/// The rows of \p table as the sweeps and tests run them: each row preceded by its alternate,
/// if it has one, as a row of its own.
template <typename Row>
std::vector<Row> with_alternates(const std::vector<Row>& table) {
  std::vector<Row> rows;
  for (const Row& v : table) {
    if (v.alternate.id != nullptr) {
      Row& a = rows.emplace_back(v);
      a.id = v.alternate.id;
      a.title = v.alternate.title;
      a.launch = v.alternate.launch;
      a.alternate = {};
    }
    rows.push_back(v);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------
// The CPU reference's inputs and checks.

/// The inclusive or exclusive scan, as \p kind says; returns the sum of all n values.
template <typename T, typename In = T>
T cpu_scan(T* out, const In* in, std::size_t n, ScanKind kind) {
  return kind == ScanKind::Inclusive ? cpu_inclusive_scan<T, In>(out, in, n)
                                     : cpu_exclusive_scan<T, In>(out, in, n);
}

/// The scan restarted every \p segment elements (> 0): what the warp-level (segment 32) and
/// block-level (segment = tile) test kernels compute.
template <typename T, typename In = T>
void cpu_segmented_scan(T* out, const In* in, std::size_t n, std::size_t segment, ScanKind kind) {
  for (std::size_t first = 0; first < n; first += segment)
    cpu_scan<T, In>(out + first, in + first, std::min(segment, n - first), kind);
}

/// int32 inputs, uniform in [-1000, 1000], element i depending only on (seed, i). A random
/// walk of 2^30 such steps strays a few 10^7 from 0, so int32 scans are exact, and compared
/// exactly with the CPU's 64-bit scan.
inline std::vector<int> make_ints(std::size_t n, std::uint64_t seed) {
  return hb::uniform_vector<int>(n, seed, -1000, 1000);
}

/// What float inputs look like (element i depending only on (seed, i)).
enum class FloatData {
  /// Multiples of 2^-8 in (-1, 1), symmetric about 0. Every partial sum of any scan is the sum
  /// of a contiguous range: a multiple of 2^-8 below 2^16 in magnitude for our sizes (a walk
  /// without drift; a CPU test checks the default seed up to 2^28 elements), at most 24
  /// significant bits. Float scans of these are exact in any order, and compared exactly.
  Grid,
  /// Uniform in [-1, 1) with 24 random bits: scans are rounded (tests/float_bound.h).
  Uniform
};

inline std::vector<float> make_floats(std::size_t n, std::uint64_t seed, FloatData data) {
  if (data == FloatData::Uniform) return hb::uniform_vector<float>(n, seed, -1.0f, 1.0f);
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<float>(hb::uniform_int(seed, i, -255, 255)) / 256.0f;  // mean 0: no drift
  return v;
}

/// The scan of \p in in Wide<T>: exact for int and for FloatData::Grid.
template <typename T>
std::vector<Wide<T>> reference_scan(const std::vector<T>& in, ScanKind kind) {
  std::vector<Wide<T>> out(in.size());
  cpu_scan<Wide<T>, T>(out.data(), in.data(), in.size(), kind);
  return out;
}

/// A scan against its reference in Wide<T>: every element equal, or, where \p gamma is not 0
/// (rounded float scans; tests/float_bound.h), within \p gamma times \p scale[i]. NaN never
/// matches. max_error is absolute, or relative to scale[i].
template <typename T>
hb::CompareResult compare_scan(const T* got, const Wide<T>* want, std::size_t n,
                               const double* scale = nullptr, double gamma = 0.0) {
  if (gamma == 0.0) scale = nullptr;
  const auto error = [&](std::size_t i) { return hb::detail::difference(got[i], want[i]); };
  const auto check = [&](std::size_t i) -> hb::ElementCheck {
    const double err = error(i);
    if (err == 0.0) return {0.0, false};
    if (std::isnan(err)) return {INFINITY, true};
    if (scale == nullptr) return {err, true};
    return {scale[i] > 0 ? err / scale[i] : INFINITY, !(err <= gamma * scale[i])};
  };
  const auto describe = [&](std::size_t i) {
    std::string error_and_bound;  // none for int: its scans are exact
    if constexpr (std::is_same_v<T, float>) {
      error_and_bound = "error " + hb::detail::to_text(error(i)) + ", bound " +
                        hb::detail::to_text(scale == nullptr ? 0.0 : gamma * scale[i]);
    }
    return hb::mismatch_line(i, got[i], want[i], error_and_bound);
  };
  return hb::compare_each(n, "scan elements", check, describe);
}

/// Variant 0a's compaction of the first \p n elements of \p in: the odd ones, in order.
inline std::vector<int> reference_compact(const std::vector<int>& in, std::size_t n) {
  std::vector<int> selected(n);
  selected.resize(cpu_compact(selected.data(), in.data(), n, IsOdd{}));
  return selected;
}

}  // namespace ch13
