/// \file
/// \brief What every histogram of the chapter shares: 256 bins of 32-bit counts, the one
///        launcher signature, the workspace the caller owns, the variant table, and the
///        programs built on it.
///
/// Launchers never allocate and never synchronize: the caller builds one Workspace for the
/// largest input it will count, outside any timed region, and passes it (with a stream) to
/// every call. Every launcher writes all 256 bins, whatever the bins held before (tests poison
/// them), so a call needs no preparation by the caller.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <cuda_runtime_api.h>

#include "hb/capability.h"
#include "hb/memory.h"
#include "hb/variants.h"

namespace histo {

/// Bins of every histogram in this chapter: one per byte value.
constexpr int kBins = 256;

/// A histogram on the host.
using Bins = std::array<std::uint32_t, kBins>;

/// The largest input the programs accept: 32-bit bins count up to 2^32 - 1, and CUB's
/// histogram and sort take an `int` count; 2^30 bytes keeps well inside both.
constexpr std::size_t kMaxBytes = std::size_t(1) << 30;

/// Shared memory per block of variants 8, 13, 14, 16 and 17: 64 KiB of counters (dynamic) and
/// the block's 256 bins (static). More than the 64 KiB a Turing GPU (7.5) grants a block.
constexpr std::size_t kCounterBlockSharedBytes = 64 * 1024 + kBins * sizeof(std::uint32_t);

/// Warps per block of variants 8, 13, 14, 16 and 17 on the current GPU: \p full, whose counters
/// fill kCounterBlockSharedBytes, where the GPU grants a block that much
/// (hb::shared_per_block_limit), else half as many, with half the counters (Turing).
int counter_block_warps(int full);

using hb::ceil_div;

/// Device memory and launch facts every variant may need, made once for inputs of up to
/// max_n bytes on the current device.
class Workspace {
 public:
  /// Holds nothing and touches no GPU: enough for code paths that are rejected before they
  /// reach the GPU.
  Workspace() = default;
  /// Allocates every buffer for inputs of up to \p max_n bytes on the current device: the
  /// per-thread partial histograms of variant 7, the sorted copy and run buffers of variant
  /// 9, and CUB's temporary storage (variants 9 and 10), sized for \p max_n.
  explicit Workspace(std::size_t max_n);

  std::size_t max_n() const { return max_n_; }
  int sm_count() const { return sm_count_; }

  /// Tests set this to run a kernel with fewer blocks than fit on the GPU, so that every
  /// thread sees many bytes (the packed counters' overflow boundary). 0: no limit.
  int max_blocks = 0;

  /// Throws std::logic_error when \p n exceeds max_n() or \p d_in is not 16-byte aligned:
  /// programming errors, not bad input.
  void require(const void* d_in, std::size_t n) const;

  /// The grid of a kernel that loops over its input: as many blocks of \p threads threads
  /// (with \p dynamic_smem bytes of dynamic shared memory) as are resident on the GPU at once
  /// (occupancy API, cached per kernel), but no more than \p wanted_blocks and no more than
  /// max_blocks; at least 1. The first call for a kernel also opts it in to \p dynamic_smem
  /// bytes of dynamic shared memory and to the largest shared-memory carveout.
  int grid(const void* kernel, int threads, std::size_t dynamic_smem, std::size_t wanted_blocks);

  /// Per-thread partial histograms of variant 7 (bin-major, kBins x threads counts).
  std::uint32_t* partials(std::size_t threads) const;
  /// Most threads variant 7 may use (its partials are sized for that many).
  std::size_t max_partial_threads() const { return max_partial_threads_; }

  /// Variant 9: room for a sorted copy of max_n bytes, the distinct keys, their counts and
  /// the number of runs.
  std::uint8_t* sorted() const { return sorted_.data(); }
  std::uint8_t* run_keys() const { return run_keys_.data(); }
  std::uint32_t* run_counts() const { return run_counts_.data(); }
  int* run_count() const { return run_count_.data(); }

  /// CUB's temporary storage (variants 9 and 10), the largest any of its calls needs for
  /// max_n bytes.
  void* cub_storage() const { return cub_.data(); }
  std::size_t cub_bytes() const { return cub_.bytes(); }
  /// Throws std::logic_error when CUB asks for more than cub_bytes().
  void require_cub(std::size_t bytes, const char* what) const;

 private:
  std::size_t max_n_ = 0;
  int sm_count_ = 0;
  std::size_t max_partial_threads_ = 0;
  std::map<const void*, int> blocks_per_sm_;
  hb::DeviceBuffer<std::uint32_t> partials_;
  hb::DeviceBuffer<std::uint8_t> sorted_, run_keys_;
  hb::DeviceBuffer<std::uint32_t> run_counts_;
  hb::DeviceBuffer<int> run_count_;
  hb::DeviceBuffer<unsigned char> cub_;
};

/// The one signature of every GPU variant: counts the \p n bytes at \p d_in into the 256
/// bins at \p d_bins (all overwritten), on \p stream, using only memory from \p ws.
/// \pre \p d_in is 16-byte aligned (cudaMalloc gives 256) and \p n <= ws.max_n().
using Launcher = void (*)(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                          Workspace& ws, cudaStream_t stream);

/// Temporary storage CUB needs for variants 9 and 10 on \p n bytes: the largest of its
/// histogram, radix sort and run-length encoding (a host-side query; no GPU work).
std::size_t cub_temp_bytes(std::size_t n);

/// Variant 0, the post's serial histogram: zero the bins, then `bins[in[i]]++` for every byte.
/// All 256 \p bins are written.
void histogram_cpu_serial(const std::uint8_t* in, std::size_t n, std::uint32_t* bins);

/// Variant 1: the input cut into one contiguous share per thread, each thread counting into
/// private histograms, which are then added up (the post's method 2, on a CPU). \p threads
/// is at most one per byte; 0 means all cores (std::thread::hardware_concurrency()), with
/// shares of at least 64 KiB.
void histogram_cpu_threads(const std::uint8_t* in, std::size_t n, std::uint32_t* bins,
                           unsigned threads = 0);

/// The signature of the CPU rows of the variant table.
using CpuHistogram = void (*)(const std::uint8_t* in, std::size_t n, std::uint32_t* bins);

/// histogram_cpu_threads on all cores, with the CpuHistogram signature.
void histogram_cpu_all_cores(const std::uint8_t* in, std::size_t n, std::uint32_t* bins);

/// What a row is, for the table and the checks.
enum class Role {
  Reference,  ///< variant 0: the CPU result every other row is checked against
  Variant,    ///< an ordinary variant: must be exact
  Lesson,     ///< the naive race: run and described, never called correct
  Library,    ///< CUB: the "% of CUB" column's 100
};

/// One row of the variant table (variants.cu). A GPU variant's kernel file is
/// `kernels/NN_name.cuh`, NN the id in two digits; the CPU rows 0 and 1 are reference.cpp.
struct Variant {
  const char* id;       ///< "0" ... "14", in the order of the text
  const char* name;     ///< "shared_privatized": the program is "histogram_" + name
  const char* title;    ///< one line for tables and --help
  Role role;
  CpuHistogram cpu;     ///< set for CPU rows (ids 0 and 1), else null
  Launcher gpu;         ///< set for GPU rows, else null
  hb::Needs needs = {};  ///< the GPU its headline form needs, and what runs below it

  /// "histogram_shared_privatized": the name of the variant's program.
  std::string program() const { return std::string("histogram_") + name; }
  bool on_gpu() const { return gpu != nullptr; }
};

/// Every variant, variant 0 (the CPU reference) first, ids 0 ... N-1.
const std::vector<Variant>& variants();
/// The variant with id \p id ("4"); throws hb::UsageError listing the valid ids.
inline const Variant& find_variant(std::string_view id) { return hb::find_row(variants(), id); }
/// The library row (CUB's histogram), against which "% of CUB" is computed.
const Variant& library_variant();

/// main() of the per-variant programs (histogram_cpu_serial ... histogram_lane_columns_pairs):
/// runs variant \p id alone on the default data (uniform bytes, 64 MiB) next to CUB on the same
/// buffer, checks it against the CPU and prints its time, GB/s and % of CUB. Exit 0 when the
/// check passes (the naive lesson reports its lost counts and exits 0), 1 when it fails.
int variant_program_main(const char* program, const char* id, int argc, char** argv);
/// main() of the driver `histogram`: every variant on every distribution, against CUB.
int driver_main(int argc, char** argv);

}  // namespace histo
