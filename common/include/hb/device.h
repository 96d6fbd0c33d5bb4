/// \file
/// \brief Device facts (read with cudaDeviceGetAttribute: CUDA 13 removed several
///        cudaDeviceProp fields such as clockRate) and "is there a GPU at all?".
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

namespace hb {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;     ///< compute capability
  int sm_count = 0;                   ///< streaming multiprocessors
  int clock_khz = 0;                  ///< peak SM clock
  int memory_clock_khz = 0;           ///< peak memory clock
  int memory_bus_bits = 0;            ///< memory bus width
  std::size_t global_memory_bytes = 0, l2_bytes = 0;
  std::size_t shared_per_block_optin = 0;  ///< largest shared memory a block may opt in to
  int max_threads_per_sm = 0;
  int async_engines = 0;   ///< copy engines: 2 means H2D and D2H can overlap
  int driver_version = 0;  ///< e.g. 13000 for CUDA 13.0
  int runtime_version = 0;

  /// "9.0"
  std::string compute_capability() const {
    return std::to_string(cc_major) + "." + std::to_string(cc_minor);
  }
  /// Datasheet DRAM bandwidth in GB/s (1e9): 2 (double data rate) x clock x bus width.
  /// A lead, not a ceiling: programs compare against measured bandwidth.
  double theoretical_bandwidth_gbs() const {
    return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0) / 1e9;
  }
  /// FP32 FMA issue bound in operations/s: SMs x 128 FP32 lanes x clock (Hopper and Ampere).
  double fp32_lanes_per_second() const { return double(sm_count) * 128.0 * clock_khz * 1e3; }
};

/// "13.0" from 13000.
inline std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

/// Number of CUDA devices; 0, with CUDA's explanation in \p why, when there is no device or no
/// driver. Never throws.
int device_count(std::string* why = nullptr);
inline bool device_available(std::string* why = nullptr) { return device_count(why) > 0; }

/// Makes \p index the current device. Throws NoDevice when the machine has none (with a
/// message that says so plainly), UsageError when \p index is out of range.
void select_device(int index);

/// Reads the facts of device \p index (which must exist).
DeviceInfo query_device(int index);

/// How many blocks the current device holds at once when threads are the only limit: the
/// grid of the book's grid-stride kernels, which the scratch memory of chapters 12 and 13 is
/// sized for. Read once, when a chapter's scratch memory is made.
struct Residency {
  int sm_count = 0;
  int max_threads_per_sm = 0;
  static Residency of_current_device();
  /// Blocks of \p threads threads that fit on the GPU at once (at least 1, at most 32 per SM).
  int blocks(int threads) const {
    return sm_count * std::min(32, std::max(1, max_threads_per_sm / std::max(1, threads)));
  }
};

}  // namespace hb
