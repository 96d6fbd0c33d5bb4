// The library rows: CUB's DeviceScan (scan variant 0b) and DeviceSelect (compaction variant
// 0b), and the size of their temporary storage. CUB's dispatch templates take a while to
// compile, so they have a translation unit of their own.
#include <algorithm>

#include "kernels/compact/00b_cub.cuh"
#include "kernels/device/00b_cub.cuh"

namespace ch13 {

template void scan0b_cub<int>(const int*, int*, std::size_t, ScanKind, int, Scratch&, cudaStream_t);
template void scan0b_cub<float>(const float*, float*, std::size_t, ScanKind, int, Scratch&, cudaStream_t);

std::size_t cub_temp_bytes(std::size_t max_n) {
  const unsigned n = static_cast<unsigned>(std::min<std::size_t>(max_n, 0x7fffffff));
  std::size_t most = 1;
  std::size_t bytes = 0;
  HB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const int*>(nullptr),
                                              static_cast<int*>(nullptr), n));
  most = std::max(most, bytes);
  HB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const int*>(nullptr),
                                              static_cast<int*>(nullptr), n));
  most = std::max(most, bytes);
  HB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const float*>(nullptr),
                                              static_cast<float*>(nullptr), n));
  most = std::max(most, bytes);
  HB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const float*>(nullptr),
                                              static_cast<float*>(nullptr), n));
  most = std::max(most, bytes);
  HB_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, static_cast<const int*>(nullptr),
                                      static_cast<int*>(nullptr), static_cast<int*>(nullptr),
                                      static_cast<int>(n), IsOdd{}));
  most = std::max(most, bytes);
  return most;
}

}  // namespace ch13
