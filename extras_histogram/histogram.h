/// \file
/// \brief What every histogram of the chapter shares (256 bins, the launcher signature, the
///        workspace, the variant table) and the harness built on it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <cuda_runtime_api.h>

#include "hb/capability.h"
#include "hb/cli.h"
#include "hb/memory.h"
#include "hb/variants.h"

namespace histo {

constexpr int kBins = 256;  ///< one bin per byte value
using Bins = std::array<std::uint32_t, kBins>;

/// The largest input the programs accept: 32-bit bins count up to 2^32 - 1, and CUB's
/// histogram and sort take an `int` count; 2^30 bytes keeps well inside both.
constexpr std::size_t kMaxBytes = std::size_t(1) << 30;

/// Default --n of every program: 64 MiB, well above the 50-60 MB L2 of an H100 or H200.
constexpr std::size_t kDefaultBytes = std::size_t(64) << 20;

/// Shared memory per block of variants 8, 13, 14, 16 and 17: 64 KiB of counters (dynamic) and
/// the block's 256 bins (static), more than a Turing GPU (7.5) grants a block. There they run
/// half the warps (counter_block_warps(full) is full or full / 2), with half the counters.
constexpr std::size_t kCounterBlockSharedBytes = 64 * 1024 + kBins * sizeof(std::uint32_t);
inline int counter_block_warps(int full) {
  return hb::shared_per_block_limit() >= kCounterBlockSharedBytes ? full : full / 2;
}

using hb::ceil_div;

/// Device memory and launch facts every variant may need, made once, outside any timed region,
/// for inputs of up to max_n bytes: launchers never allocate and never synchronize.
class Workspace {
 public:
  Workspace() = default;  ///< holds nothing and touches no GPU
  explicit Workspace(std::size_t max_n);

  std::size_t max_n() const { return max_n_; }

  /// Tests lower this (0: no limit) so that every thread sees many bytes (the packed
  /// counters' overflow boundary).
  int max_blocks = 0;

  /// Throws std::logic_error when \p n exceeds max_n() or \p d_in is not 16-byte aligned.
  void require(const void* d_in, std::size_t n) const;

  /// The grid of a kernel that loops over its input: as many blocks as are resident at once
  /// (occupancy cached per kernel: launchers run inside the clock), at most \p wanted_blocks
  /// and max_blocks, at least 1. The first call opts the kernel in to \p dynamic_smem bytes
  /// of shared memory and the largest carveout.
  int grid(const void* kernel, int threads, std::size_t dynamic_smem, std::size_t wanted_blocks);

  /// Variant 7's per-thread histograms (bin-major), for at most max_partial_threads() threads.
  std::uint32_t* partials(std::size_t threads) const;
  std::size_t max_partial_threads() const { return max_partial_threads_; }

  /// Variant 9: a sorted copy of the bytes, the distinct keys, their counts, the run count.
  std::uint8_t* sorted() const { return sorted_.data(); }
  std::uint8_t* run_keys() const { return run_keys_.data(); }
  std::uint32_t* run_counts() const { return run_counts_.data(); }
  int* run_count() const { return run_count_.data(); }

  /// CUB's temporary storage (variants 9 and 10); require_cub throws std::logic_error when
  /// \p what needs more.
  void* cub_storage() const { return cub_.data(); }
  void require_cub(std::size_t bytes, const char* what) const {
    cub_.fit<unsigned char>(bytes, what);
  }

 private:
  std::size_t max_n_ = 0;
  int sm_count_ = 0;
  std::size_t max_partial_threads_ = 0;
  std::map<const void*, int> blocks_per_sm_;
  hb::DeviceBuffer<std::uint32_t> partials_;
  hb::DeviceBuffer<std::uint8_t> sorted_, run_keys_;
  hb::DeviceBuffer<std::uint32_t> run_counts_;
  hb::DeviceBuffer<int> run_count_;
  hb::ScratchBytes cub_;
};

/// Every GPU variant: counts the \p n bytes at \p d_in into the 256 bins at \p d_bins (all
/// overwritten: tests poison them) on \p stream, with memory from \p ws alone.
/// \pre \p d_in is 16-byte aligned (cudaMalloc gives 256) and \p n <= ws.max_n().
using Launcher = void (*)(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                          Workspace& ws, cudaStream_t stream);

/// Temporary storage CUB needs for variants 9 and 10 on \p n bytes (a host-side query).
std::size_t cub_temp_bytes(std::size_t n);

/// Variant 0, the post's serial histogram: zero the bins, then `bins[in[i]]++` for every byte.
void histogram_cpu_serial(const std::uint8_t* in, std::size_t n, std::uint32_t* bins);

/// Variant 1, the post's method 2 on a CPU: a contiguous share and a private histogram per
/// thread, added up. \p threads 0: all cores, shares of at least 64 KiB.
void histogram_cpu_threads(const std::uint8_t* in, std::size_t n, std::uint32_t* bins,
                           unsigned threads = 0);

enum class Role {
  Reference,  ///< variant 0: the CPU result every other row is checked against
  Variant,    ///< an ordinary variant: must be exact
  Lesson,     ///< the naive race: run and described, never called correct
  Library,    ///< CUB: the "% of CUB" column's 100
};

/// One row of the variant table (variants.cu). Its file is `kernels/NN_name.cuh`, NN the id in
/// two digits (`kernels/NN_name.cpp` for the CPU rows 0 and 1).
struct Variant {
  const char* id;       ///< "0" ... "17", in the order of the text
  const char* name;     ///< "shared_privatized": the program is "histogram_" + name
  const char* title;    ///< one line for tables and --help
  Role role;
  void (*cpu)(const std::uint8_t* in, std::size_t n, std::uint32_t* bins);  ///< CPU rows only
  Launcher gpu;         ///< GPU rows only
  hb::Needs needs = {};  ///< the GPU its headline form needs, and what runs below it

  std::string program() const { return std::string("histogram_") + name; }
  std::string label() const { return std::string(id) + " " + name; }  ///< "4 shared_privatized"
  bool on_gpu() const { return gpu != nullptr; }
};

/// Every variant, ids 0 ... N-1, variant 0 (the CPU reference) first.
const std::vector<Variant>& variants();
inline const Variant& find_variant(std::string_view id) { return hb::find_row(variants(), id); }
const Variant& library_variant();  ///< CUB's row, the 100 of "% of CUB"

enum class Distribution {
  Uniform,  ///< uniform random bytes: every bin about n / 256, few equal neighbours
  Equal,    ///< all bytes the same value: the worst case for contention on one bin
  Hot,      ///< 90% of the bytes on four hot values, the rest uniform
  Ramp,     ///< a sorted ramp: byte i = floor(256 i / n), long runs of each value in turn
  Scene,    ///< chapter 15's seeded coin scene (hb/coin_scene.h) repeated to n bytes
  Image,    ///< the pixels of a PGM image (--input)
};

/// Every distribution but Image, in the order of the tables.
const std::vector<Distribution>& generated_distributions();
std::string name(Distribution d);  ///< "uniform", ..., "image"
Distribution parse_distribution(const std::string& text);

std::uint8_t equal_value(std::uint64_t seed);            ///< every byte of Equal
std::vector<std::uint8_t> hot_values(std::uint64_t seed);  ///< the four distinct ones of Hot

/// \p n bytes of \p d (not Image); byte i depends only on (seed, i), or (i, n) for Ramp.
std::vector<std::uint8_t> generate(Distribution d, std::size_t n, std::uint64_t seed);

struct Verdict {
  bool exact = false;      ///< every bin equals the reference; never true for the lesson
  bool plausible = false;  ///< lesson only: every bin <= the reference (lost updates alone)
  std::int64_t lost = 0;   ///< counts missing from the total (reference total - result total)
  std::string text;        ///< the table's check column
  std::string details;     ///< the first and last differing bins, empty when none differ
};

Verdict check_exact(const Bins& got, const Bins& want);

/// The naive lesson (variant 2): never exact, plausible when it only lost counts.
Verdict check_lesson(const Bins& got, const Bins& want);

std::int64_t total(const Bins& bins);  ///< in 64 bits

/// What a program was asked to do, validated before any GPU work.
struct ProgramOptions {
  hb::CommonOptions common;
  std::vector<Distribution> distributions;  ///< in table order; {Image} with --input
  std::string input;                        ///< the PGM file of --input, or empty
  std::vector<std::uint8_t> image;          ///< its pixels
  std::string command_line;                 ///< the program and its arguments, for the report
};

/// The shared flags, `--distribution` (default: all in the driver, which \p with_variant
/// marks, else uniform) and `--input FILE.pgm`. Throws hb::UsageError on anything invalid;
/// nothing when --help was printed.
std::optional<ProgramOptions> parse_options(const std::string& program,
                                            const std::string& description, bool with_variant,
                                            int argc, const char* const* argv);

/// One input on the host and the device, and the CPU's histogram of it.
struct DataSet {
  std::vector<std::uint8_t> host;
  hb::DeviceBuffer<std::uint8_t> device;
  std::optional<Bins> reference;  ///< variant 0's result (computed only when checking)
};

/// The data of \p d (for Image the image of \p opt), with its reference when asked.
DataSet make_data_set(Distribution d, const ProgramOptions& opt, bool with_reference);

struct Measurement {
  double median_ms = 0.0;
  double gbs = 0.0;     ///< input bytes / median time, in 1e9 bytes/s
  Verdict verdict;      ///< of the first call (from poisoned bins) and, if that was exact, the last
  bool checked = false;
};

/// Runs \p v on \p data, checked from poisoned bins, warmed up once, timed \p iters times.
Measurement measure(const Variant& v, const DataSet& data, Workspace& ws, std::uint32_t* d_bins,
                    cudaStream_t stream, int iters, bool check);

/// Whether \p m lets the program exit 0: unchecked, exact, or for the lesson plausible.
bool passes(const Variant& v, const Measurement& m);

/// main() of the program of variant \p id, or of the driver `histogram` when \p id is null.
int run_program(const char* program, const char* id, int argc, char** argv);

}  // namespace histo
