// The caller-owned scratch memory, the block-size rules, and variant 0 (CUB), which needs its
// temporary storage size when the scratch is built.
#include <algorithm>

#include "hb/error.h"
#include "reduction0_cub.cuh"
#include "reduction_launch.h"

namespace ch12 {

Scratch::Scratch(std::size_t max_n) : max_n_(max_n) {
  int device = 0;
  HB_CUDA_CHECK(cudaGetDevice(&device));
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, device));
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&max_threads_per_sm_,
                                       cudaDevAttrMaxThreadsPerMultiProcessor, device));

  // First-level partials: one per resident block for the grid-stride variants (up to 16
  // bytes each, variant 7), one int per 32 elements for 10a-10d, one long long or double per
  // 64 elements for 10e/10f (their smallest block of 32 threads covers 64 elements).
  const std::size_t resident = std::size_t(sm_count_) * 32;
  const std::size_t a_bytes = std::max({resident * 16, 4 * ceil_div(max_n, 32),
                                        8 * ceil_div(max_n, 64)}) + 256;
  // Second level of the relaunching variants.
  const std::size_t b_bytes = std::max(4 * ceil_div(ceil_div(max_n, 32), 32),
                                       8 * ceil_div(ceil_div(max_n, 64), 64)) + 4096;
  a_ = hb::DeviceBuffer<unsigned char>(a_bytes);
  b_ = hb::DeviceBuffer<unsigned char>(b_bytes);
  // Variant 10c's work array: half a block's elements per block.
  work_ = hb::DeviceBuffer<unsigned char>(4 * (max_n / 2 + 1024));

  // The counters must start at zero; the kernels leave them at zero.
  counters_ = hb::DeviceBuffer<unsigned>(1);
  accumulator_ = hb::DeviceBuffer<long long>(1);
  HB_CUDA_CHECK(cudaMemset(counters_.data(), 0, counters_.bytes()));
  HB_CUDA_CHECK(cudaMemset(accumulator_.data(), 0, accumulator_.bytes()));

  // CUB's temporary storage grows with n, so the size for max_n covers every smaller input.
  HB_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, cub_bytes_, static_cast<const int*>(nullptr),
                                       static_cast<long long*>(nullptr), max_n));
  cub_ = hb::DeviceBuffer<unsigned char>(std::max<std::size_t>(cub_bytes_, 1));
  HB_CUDA_CHECK(cudaDeviceSynchronize());
}

int Scratch::resident_blocks(int threads) const {
  const int per_sm = std::min(32, std::max(1, max_threads_per_sm_ / std::max(1, threads)));
  return sm_count_ * per_sm;
}

bool accepts(BlockRule rule, int threads) {
  const bool in_range = threads >= 1 && threads <= 1024;
  const bool power_of_two = in_range && (threads & (threads - 1)) == 0;
  switch (rule) {
    case BlockRule::Library: return true;
    case BlockRule::PowerOfTwo: return power_of_two;
    case BlockRule::PowerOfTwoFrom32: return power_of_two && threads >= 32;
    case BlockRule::MultipleOf32: return in_range && threads % 32 == 0;
    case BlockRule::Any: return in_range;
  }
  return false;
}

std::string describe(BlockRule rule) {
  switch (rule) {
    case BlockRule::Library: return "chosen by the library";
    case BlockRule::PowerOfTwo: return "a power of two from 1 to 1024";
    case BlockRule::PowerOfTwoFrom32: return "a power of two from 32 to 1024";
    case BlockRule::MultipleOf32: return "a multiple of 32 from 32 to 1024";
    case BlockRule::Any: return "any number from 1 to 1024";
  }
  return "?";
}

void require_threads(const char* variant_id, BlockRule rule, int threads) {
  if (!accepts(rule, threads)) {
    throw hb::UsageError("--threads " + std::to_string(threads) + ": variant " + variant_id +
                         " needs " + describe(rule) + " threads per block");
  }
}

int grid_stride_blocks(std::size_t n, int threads, const Scratch& scratch) {
  const std::size_t wanted = ceil_div(n, static_cast<std::size_t>(threads));
  const std::size_t resident = static_cast<std::size_t>(scratch.resident_blocks(threads));
  return static_cast<int>(std::max<std::size_t>(1, std::min(wanted, resident)));
}

}  // namespace ch12
