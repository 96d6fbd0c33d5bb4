/// \file
/// \brief Measured ceilings every chapter compares against: device copy and read bandwidth,
///        and host<->device transfer rates (pinned, pageable, both directions at once), in
///        decimal GB/s over the median time, counting the bytes that must move (a copy of B
///        bytes counts 2B).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

namespace hb {

struct Bandwidth {
  double gbs = 0.0;      ///< decimal GB/s over the median time
  double median_ms = 0.0;
  std::size_t bytes_counted = 0;  ///< bytes one repetition moves
};

/// Device-to-device cudaMemcpyAsync of \p bytes; counts 2 x bytes (read and write).
Bandwidth measure_device_copy(std::size_t bytes, int iters);

/// A kernel that only reads \p bytes of device memory, the ceiling of reductions. The rate
/// depends on where the buffer lands, so two buffers are timed and the faster is returned;
/// \p per_buffer_gbs, if given, receives both rates.
Bandwidth measure_device_read(std::size_t bytes, int iters,
                              std::vector<double>* per_buffer_gbs = nullptr);

enum class HostMemory { Pinned, Pageable };

/// Host-to-device cudaMemcpyAsync of \p bytes.
Bandwidth measure_host_to_device(std::size_t bytes, HostMemory host, int iters);
/// Device-to-host cudaMemcpyAsync of \p bytes.
Bandwidth measure_device_to_host(std::size_t bytes, HostMemory host, int iters);
/// Pinned copies of \p up_bytes to and \p down_bytes from the device at the same time, in two
/// streams; counts both (the total that crosses the bus) over the time of the slower one.
Bandwidth measure_bidirectional(std::size_t up_bytes, std::size_t down_bytes, int iters);
/// The symmetric case: \p bytes each way; counts 2 x bytes.
inline Bandwidth measure_bidirectional(std::size_t bytes, int iters) {
  return measure_bidirectional(bytes, bytes, iters);
}

/// XOR of the 32-bit words of \p n16 16-byte vectors, by the kernel measure_device_read() times.
std::uint32_t device_xor_fold(const void* device_data, std::size_t n16, cudaStream_t stream);

/// The NVIDIA driver version ("580.159.04") from /proc/driver/nvidia/version, or the CUDA
/// driver API version ("CUDA 13.0 driver API") where that file does not exist.
std::string driver_version_text();

}  // namespace hb
