// The table of the device-wide scans (scan.h says how the tables are built), and the scratch
// memory they share.
#include <algorithm>

#include <cub/device/device_select.cuh>

#include "scan.h"
#include "scan_kernels.cuh"

namespace ch13 {

const std::vector<ScanVariant>& scan_variants() {
  // clang-format off
  static const std::vector<ScanVariant> table = {
    {"0a", "cpu", "CPU scan, the reference (listings 13.1, 13.2)", {}, BlockRule::Cpu},
    {"0b", "cub", "CUB DeviceScan, the library reference",
     {scan0b_cub<int>, scan0b_cub<float>}, BlockRule::Library},
    {"1", "hillis_steele", "Hillis-Steele, double-buffered, recursive block sums (scan post)",
     {scan1_hillis_steele<int>, scan1_hillis_steele<float>}, BlockRule::MultipleOf32},
    {"2", "blelloch", "Blelloch up-sweep/down-sweep, recursive block sums (13.2, scan post)",
     {scan2_blelloch<int>, scan2_blelloch<float>}, BlockRule::PowerOfTwoFrom32, 2},
    {"3", "scan_then_fan", "scan-then-fan, recursive (listings 13.3-13.6)",
     {scan3_scan_then_fan<int>, scan3_scan_then_fan<float>}, BlockRule::MultipleOf32},
    {"4", "reduce_then_scan", "reduce-then-scan, recursive (listings 13.7-13.9)",
     {scan4_reduce_then_scan<int>, scan4_reduce_then_scan<float>}, BlockRule::PowerOfTwoFrom32},
    {"5a", "two_level", "two-level reduce-then-scan (listings 13.10-13.12)",
     {scan5a_two_level<int>, scan5a_two_level<float>}, BlockRule::PowerOfTwoFrom32},
    {"5b", "two_level_zero_pad", "two-level, zero-padded warp scans (listings 13.14-13.16)",
     {scan5b_two_level_zero_pad<int>, scan5b_two_level_zero_pad<float>}, BlockRule::PowerOfTwoFrom32},
    {"5c", "two_level_shuffle", "two-level, warp-shuffle block scan (listings 13.17, 13.18)",
     {scan5c_two_level_shuffle<int>, scan5c_two_level_shuffle<float>}, BlockRule::PowerOfTwoFrom32},
    {"6", "decoupled_lookback", "single pass, decoupled look-back (beyond the text)",
     {scan6_decoupled_lookback<int>, scan6_decoupled_lookback<float>}, BlockRule::PowerOfTwoFrom32,
     kLookbackItems, {}, 0, true},
    {"7", "bulk_copy_lookback", "single pass, one tile per block, staged by bulk copy (beyond the text)",
     {scan7_bulk_copy_lookback<int>, scan7_bulk_copy_lookback<float>}, BlockRule::PowerOfTwoFrom32,
     kBulkItems, kBulkCopyNeeds, kBulkTileBytesPerThread, true},
    {"8", "bulk_copy_ring", "single pass, persistent blocks, a ring of tiles in and out by bulk copy (beyond the text)",
     {scan8_bulk_copy_ring<int>, scan8_bulk_copy_ring<float>}, BlockRule::PowerOfTwo32To512,
     kBulkItems, kBulkCopyNeeds, kRingBytesPerThread, true},
    {"9", "tile_from_n", "single pass, variant 8 with its tile chosen from n (beyond the text)",
     {scan9_tile_from_n<int>, scan9_tile_from_n<float>}, BlockRule::Own, kBulkItems,
     kBulkCopyNeeds, 0, true},
    {"10", "early_refill", "single pass, results leave from registers, each slot refilled once read (beyond the text)",
     {scan10_early_refill<int>, scan10_early_refill<float>}, BlockRule::Own, kEarlyRefillItems,
     kBulkCopyNeeds, 0, true},
    {"11", "anchored_lookback", "single pass, variant 10 with each look-back anchored at the block's own last tile (beyond the text)",
     {scan11_anchored_lookback<int>, scan11_anchored_lookback<float>}, BlockRule::Own,
     kEarlyRefillItems, kBulkCopyNeeds, 0, true},
  };
  // clang-format on
  return table;
}

// ---------------------------------------------------------------------------------------
// The scratch memory.

namespace {

// Puts the look-back into its initial state: every status word cleared (epoch 0, which no
// launch uses) and the counter at tile 0 of epoch 1.
__global__ void restart_lookback_kernel(unsigned long long* status, std::size_t words,
                                        unsigned long long* counter) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += std::size_t(blockDim.x) * gridDim.x) {
    status[i] = 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) *counter = 1ull << 32;
}

// Bytes of temporary storage CUB needs for up to max_n elements, with the counts the launchers
// pass: DeviceScan of int and float, both kinds (scan 0b), and DeviceSelect::If (compaction 0b).
std::size_t cub_temp_bytes(std::size_t max_n) {
  const std::size_t n = std::min<std::size_t>(max_n, 0x7fffffff);
  std::size_t most = 1, bytes = 0;
  const auto grow = [&](auto* out) {
    const auto* in = out;
    HB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, unsigned(n)));
    most = std::max(most, bytes);
    HB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, unsigned(n)));
    most = std::max(most, bytes);
  };
  grow(static_cast<int*>(nullptr));
  grow(static_cast<float*>(nullptr));
  HB_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, static_cast<const int*>(nullptr),
                                      static_cast<int*>(nullptr), static_cast<int*>(nullptr),
                                      int(n), IsOdd{}));
  return std::max(most, bytes);
}

// Static shared memory of the tile kernels (barrier, ticket, warp totals), with room to spare.
constexpr std::size_t kStaticSharedAllowance = 1024;

}  // namespace

std::size_t recursion_elements(std::size_t n, std::size_t tile) {
  std::size_t total = 0;
  for (std::size_t level = ceil_div(n, tile); n > tile; level = ceil_div(level, tile)) {
    total += level;
    n = level;
  }
  return total;
}

Scratch::Scratch(std::size_t max_n)
    : max_n_(max_n), residency_(hb::Residency::of_current_device()) {
  // Recursive variants: the totals of every level, for tiles of at least 32 elements.
  levels_ = hb::ScratchBytes(4 * (recursion_elements(max_n, 32) + 64));
  // Two-level variants: one partial per resident block (at most 32 per SM).
  max_partials_ = std::size_t(sm_count()) * 32;
  partials_ = hb::ScratchBytes(4 * (max_partials_ + 64));
  // Look-back: one status word per tile of the smallest tile (32 threads x 16 elements).
  status_ = hb::DeviceBuffer<unsigned long long>(ceil_div(max_n, 32 * kLookbackItems) + 1);
  counter_ = hb::DeviceBuffer<unsigned long long>(1);
  restart_epochs(nullptr);
  // CUB's temporary storage grows with n, so the size for max_n covers every smaller input.
  // We clear it once: CUB initializes what it reads, but initcheck then has nothing to say
  // about look-back polls of tile states CUB's init kernel set in an earlier call.
  cub_ = hb::ScratchBytes(cub_temp_bytes(max_n));
  cub_.zero();
  // Scratch memory for the levels and partials is written before it is read by every
  // variant; we clear it anyway, so that a bug reads zeros rather than last call's values.
  levels_.zero();
  partials_.zero();
  HB_CUDA_CHECK(cudaDeviceSynchronize());
}

void Scratch::restart_epochs(cudaStream_t stream) {
  const std::size_t words = status_.size();
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>(ceil_div(words, 256), 1024));
  restart_lookback_kernel<<<blocks, 256, 0, stream>>>(status_.data(), words, counter_.data());
  HB_CHECK_LAUNCH();
  lookback_calls_ = 0;
}

unsigned long long* Scratch::lookback_status(std::size_t tiles, cudaStream_t stream) {
  if (tiles > status_.size()) {
    throw std::logic_error("ch13::Scratch::lookback_status: " + std::to_string(tiles) +
                           " tiles, room for " + std::to_string(status_.size()) +
                           " (Scratch built for n = " + std::to_string(max_n_) + ")");
  }
  // Launch k (counting from 0 after a restart) runs in epoch k + 1; after epoch_period_
  // launches we start over before the epoch could outgrow its 31 bits or repeat.
  if (lookback_calls_ == epoch_period_) restart_epochs(stream);
  ++lookback_calls_;
  return status_.data();
}

void Scratch::set_epoch_period(std::uint32_t calls) {
  if (calls < 1 || calls > (1u << 31) - 2) throw std::logic_error("epoch period out of range");
  epoch_period_ = calls;
}

bool fits_shared_memory(unsigned bytes_per_thread, int threads) {
  if (bytes_per_thread == 0) return true;
  return std::size_t(bytes_per_thread) * std::size_t(threads) + kStaticSharedAllowance <=
         hb::shared_per_block_limit();
}

void require_shared_memory(const std::string& variant, unsigned bytes_per_thread, int threads) {
  if (!fits_shared_memory(bytes_per_thread, threads)) {
    throw hb::UsageError("--threads " + std::to_string(threads) + ": " + variant + " needs " +
                         std::to_string(std::size_t(bytes_per_thread) * threads / 1024) +
                         " KiB of shared memory per block at this block size; this GPU grants " +
                         std::to_string(hb::shared_per_block_limit() / 1024) + " KiB");
  }
}

}  // namespace ch13
