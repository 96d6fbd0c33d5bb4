// The variants that call CUB (9: sort then reduce by key, 10: CUB's histogram), and the size
// of CUB's temporary storage, in one translation unit: CUB's templates are compiled once.
#include <algorithm>

#include "histogram_launchers.h"
#include "histogram9_sort_reduce.cuh"
#include "histogram10_cub.cuh"

namespace histo {

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
