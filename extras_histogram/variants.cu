// The variant table, and the Workspace the kernels use. Every GPU kernel file of kernels/ is
// compiled here, once (CMake lists them in histogram_kernels.cuh), so a launcher needs no
// declaration: adding a variant is one file in kernels/ and one row below.
#include <algorithm>
#include <stdexcept>

#include "hb/device.h"
#include "hb/error.h"
#include "histogram.h"
#include "histogram_kernels.cuh"

namespace histo {

// Variants 8, 13, 14, 16 and 17 below kCounterBlockSharedBytes (Turing): blocks of half the
// warps, each warp with the same columns (16 and 17 run variant 13's).
constexpr hb::Needs kCounterBlocks{
    0, "blocks of half the warps, 32 KiB of counters (a block may have only 64 KiB on 7.5)",
    kCounterBlockSharedBytes};

const std::vector<Variant>& variants() {
  // clang-format off
  static const std::vector<Variant> table = {
      {"0", "cpu_serial", "CPU, serial (the post's loop; the reference)",
       Role::Reference, histogram_cpu_serial, nullptr},
      {"1", "cpu_threads", "CPU, all cores, private histograms merged",
       Role::Variant, [](const std::uint8_t* in, std::size_t n, std::uint32_t* bins) {
         histogram_cpu_threads(in, n, bins);  // on all cores
       }, nullptr},
      {"2", "naive", "GPU naive: bins[b]++ on global memory (a race, a lesson)",
       Role::Lesson, nullptr, histogram_naive},
      {"3", "global_atomics", "method 1: one global atomicAdd per byte",
       Role::Variant, nullptr, histogram_global_atomics},
      {"4", "shared_privatized", "shared-memory bins per block, merged at the end",
       Role::Variant, nullptr, histogram_shared_privatized},
      {"5", "shared_unrolled", "variant 4 with 16-byte loads, 16 bytes per step",
       Role::Variant, nullptr, histogram_shared_unrolled},
      {"6", "shared_offset", "variant 5 with 8 padded copies of the bins per block",
       Role::Variant, nullptr, histogram_shared_offset},
      {"7", "per_thread", "method 2: a private histogram per thread, then a reduction",
       Role::Variant, nullptr, histogram_per_thread},
      {"8", "per_thread_packed", "method 2 with 8-bit counters packed in shared memory",
       Role::Variant, nullptr, histogram_per_thread_packed, kCounterBlocks},
      {"9", "sort_reduce", "method 3: sort the bytes, then reduce by key (CUB)",
       Role::Variant, nullptr, histogram_sort_reduce},
      {"10", "cub", "CUB DeviceHistogram::HistogramEven (the library reference)",
       Role::Library, nullptr, histogram_cub},
      {"11", "warp_private", "shared bins per warp, 16-byte tiles in flight, persistent grid",
       Role::Variant, nullptr, histogram_warp_private},
      {"12", "warp_aggregated", "variant 11 with __match_any_sync warp aggregation",
       Role::Variant, nullptr, histogram_warp_aggregated},
      {"13", "lane_columns_atomic", "a 16-bit column per lane, fire-and-forget atomics",
       Role::Variant, nullptr, histogram_lane_columns_atomic, kCounterBlocks},
      {"14", "lane_columns_pairs", "variant 13 with plain loads and stores, two bytes a step",
       Role::Variant, nullptr, histogram_lane_columns_pairs, kCounterBlocks},
      {"15", "atomic_ref", "variant 11 with scoped atomics, cuda::atomic_ref",
       Role::Variant, nullptr, histogram_atomic_ref},
      {"16", "lane_columns_permute", "variant 13 with address and increment made by byte permutes",
       Role::Variant, nullptr, histogram_lane_columns_permute, kCounterBlocks},
      {"17", "l2_prefetch", "variant 16 with the tile after next prefetched into L2",
       Role::Variant, nullptr, histogram_l2_prefetch, kCounterBlocks},
  };
  // clang-format on
  return table;
}

const Variant& library_variant() {
  for (const auto& v : variants())
    if (v.role == Role::Library) return v;
  throw std::logic_error("histo: the variant table has no library row");
}

namespace {
// Variant 7 keeps 1 KiB of counters per thread in global memory; we give it at most 512
// threads per SM and at least 1 KiB of input per thread (kernels/07_per_thread.cuh).
constexpr std::size_t kPartialThreadsPerSm = 512;
constexpr std::size_t kPartialMinBytesPerThread = 1024;
constexpr std::size_t kPartialGranule = 128;  // threads per block of its counting kernel

// Every buffer starts zeroed. No variant relies on it (each writes what it reads), but CUB's
// decoupled look-back reads status words next to the ones its own init kernel set, which
// compute-sanitizer's initcheck reports as reads of uninitialized memory (NVIDIA/cccl
// issues 1790, 2104); memory that was zeroed once is initialized for good.
template <typename Buffer>
void allocate_zeroed(Buffer& buffer, std::size_t count) {
  buffer = Buffer(std::max<std::size_t>(count, 1));
  buffer.zero();
}
}  // namespace

Workspace::Workspace(std::size_t max_n) : max_n_(max_n) {
  if (max_n > kMaxBytes)
    throw std::logic_error("histo::Workspace: " + std::to_string(max_n) + " bytes is more than " +
                           std::to_string(kMaxBytes));
  sm_count_ = hb::Residency::of_current_device().sm_count;
  const std::size_t by_size = ceil_div(std::max<std::size_t>(max_n, 1), kPartialMinBytesPerThread);
  max_partial_threads_ = std::min(kPartialThreadsPerSm * sm_count_, by_size);
  max_partial_threads_ = ceil_div(max_partial_threads_, kPartialGranule) * kPartialGranule;
  // CUB picks different algorithms for small and large inputs, so we size its storage for
  // the largest need over max_n and every power of two below it, not for max_n alone.
  std::size_t storage = cub_temp_bytes(max_n);
  for (std::size_t n = 1; n < max_n; n *= 2) storage = std::max(storage, cub_temp_bytes(n));
  allocate_zeroed(partials_, max_partial_threads_ * kBins);
  allocate_zeroed(sorted_, max_n);
  allocate_zeroed(run_keys_, kBins);
  allocate_zeroed(run_counts_, kBins);
  allocate_zeroed(run_count_, 1);
  allocate_zeroed(cub_, storage);
  HB_CUDA_CHECK(cudaDeviceSynchronize());
}

void Workspace::require(const void* d_in, std::size_t n) const {
  if (n > max_n_)
    throw std::logic_error("histo::Workspace: input of " + std::to_string(n) +
                           " bytes, but the workspace was made for " + std::to_string(max_n_));
  if (!hb::aligned16(d_in)) throw std::logic_error("histo: the input must be 16-byte aligned");
}

int Workspace::grid(const void* kernel, int threads, std::size_t dynamic_smem,
                    std::size_t wanted_blocks) {
  auto it = blocks_per_sm_.find(kernel);
  if (it == blocks_per_sm_.end()) {
    if (dynamic_smem > 0) {
      HB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         int(dynamic_smem)));
      HB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                         int(cudaSharedmemCarveoutMaxShared)));
    }
    int per_sm = 0;
    HB_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_smem));
    if (per_sm < 1)
      throw std::logic_error("histo: a kernel with " + std::to_string(threads) + " threads and " +
                             std::to_string(dynamic_smem) + " bytes of shared memory does not fit");
    it = blocks_per_sm_.emplace(kernel, per_sm).first;
  }
  std::size_t blocks = std::size_t(it->second) * sm_count_;
  blocks = std::min(blocks, std::max<std::size_t>(wanted_blocks, 1));
  if (max_blocks > 0) blocks = std::min(blocks, std::size_t(max_blocks));
  return int(blocks);
}

std::uint32_t* Workspace::partials(std::size_t threads) const {
  if (threads > max_partial_threads_)
    throw std::logic_error("histo::Workspace: room for " + std::to_string(max_partial_threads_) +
                           " per-thread histograms, " + std::to_string(threads) + " wanted");
  return partials_.data();
}

std::size_t cub_temp_bytes(std::size_t n) {
  const int count = int(std::max<std::size_t>(n, 1));
  std::size_t histogram = 0, sort = 0, runs = 0;
  HB_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(
      nullptr, histogram, static_cast<const std::uint8_t*>(nullptr),
      static_cast<std::uint32_t*>(nullptr), kBins + 1, 0, kBins, count));
  HB_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sort,
                                               static_cast<const std::uint8_t*>(nullptr),
                                               static_cast<std::uint8_t*>(nullptr), count, 0, 8));
  HB_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(
      nullptr, runs, static_cast<const std::uint8_t*>(nullptr), static_cast<std::uint8_t*>(nullptr),
      static_cast<std::uint32_t*>(nullptr), static_cast<int*>(nullptr), count));
  return std::max({histogram, sort, runs});
}

}  // namespace histo
