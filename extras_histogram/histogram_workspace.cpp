// The Workspace of histogram_launch.h: every buffer allocated once, before any timing, and the
// occupancy of each kernel looked up once.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "hb/capability.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "histogram_launch.h"
#include "histogram_launchers.h"

namespace histo {

namespace {
// Variant 7 keeps 1 KiB of counters per thread in global memory; we give it at most 512
// threads per SM and at least 1 KiB of input per thread (histogram7_per_thread.cuh).
constexpr std::size_t kPartialThreadsPerSm = 512;
constexpr std::size_t kPartialMinBytesPerThread = 1024;
constexpr std::size_t kPartialGranule = 128;  // threads per block of its counting kernel
}  // namespace

Workspace::Workspace(std::size_t max_n) : max_n_(max_n) {
  if (max_n > kMaxBytes)
    throw std::logic_error("histo::Workspace: " + std::to_string(max_n) + " bytes is more than " +
                           std::to_string(kMaxBytes));
  int device = 0;
  HB_CUDA_CHECK(cudaGetDevice(&device));
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, device));

  const std::size_t by_size = ceil_div(std::max<std::size_t>(max_n, 1), kPartialMinBytesPerThread);
  max_partial_threads_ = std::min(kPartialThreadsPerSm * sm_count_, by_size);
  max_partial_threads_ = ceil_div(max_partial_threads_, kPartialGranule) * kPartialGranule;
  partials_ = hb::DeviceBuffer<std::uint32_t>(max_partial_threads_ * kBins);

  sorted_ = hb::DeviceBuffer<std::uint8_t>(std::max<std::size_t>(max_n, 1));
  run_keys_ = hb::DeviceBuffer<std::uint8_t>(kBins);
  run_counts_ = hb::DeviceBuffer<std::uint32_t>(kBins);
  run_count_ = hb::DeviceBuffer<int>(1);
  // CUB picks different algorithms for small and large inputs, so we size its storage for
  // the largest need over max_n and every power of two below it, not for max_n alone.
  std::size_t storage = cub_temp_bytes(max_n);
  for (std::size_t n = 1; n < max_n; n *= 2) storage = std::max(storage, cub_temp_bytes(n));
  cub_ = hb::DeviceBuffer<unsigned char>(std::max<std::size_t>(storage, 1));

  // Every buffer starts zeroed. No variant relies on it (each writes what it reads), but CUB's
  // decoupled look-back reads status words next to the ones its own init kernel set, which
  // compute-sanitizer's initcheck reports as reads of uninitialized memory (NVIDIA/cccl
  // issues 1790, 2104); memory that was zeroed once is initialized for good.
  HB_CUDA_CHECK(cudaMemset(partials_.data(), 0, partials_.bytes()));
  HB_CUDA_CHECK(cudaMemset(sorted_.data(), 0, sorted_.bytes()));
  HB_CUDA_CHECK(cudaMemset(run_keys_.data(), 0, run_keys_.bytes()));
  HB_CUDA_CHECK(cudaMemset(run_counts_.data(), 0, run_counts_.bytes()));
  HB_CUDA_CHECK(cudaMemset(run_count_.data(), 0, run_count_.bytes()));
  HB_CUDA_CHECK(cudaMemset(cub_.data(), 0, cub_.bytes()));
  HB_CUDA_CHECK(cudaDeviceSynchronize());
}

void Workspace::require(const void* d_in, std::size_t n) const {
  if (n > max_n_)
    throw std::logic_error("histo::Workspace: input of " + std::to_string(n) +
                           " bytes, but the workspace was made for " + std::to_string(max_n_));
  if (!hb::aligned16(d_in))
    throw std::logic_error("histo: the input must be 16-byte aligned");
}

void Workspace::require_cub(std::size_t bytes, const char* what) const {
  if (bytes > cub_.bytes())
    throw std::logic_error(std::string("histo::Workspace: ") + what + " needs " +
                           std::to_string(bytes) + " bytes of temporary storage, " +
                           std::to_string(cub_.bytes()) + " allocated");
}

int counter_block_warps(int full) {
  return hb::shared_per_block_limit() >= kCounterBlockSharedBytes ? full : full / 2;
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
    throw std::logic_error("histo::Workspace: " + std::to_string(threads) +
                           " per-thread histograms wanted, room for " +
                           std::to_string(max_partial_threads_));
  return partials_.data();
}

}  // namespace histo
