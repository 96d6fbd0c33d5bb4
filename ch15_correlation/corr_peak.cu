// Peak finding: where does the template match best? One pass over the coefficients; each
// warp reduces (value, index) keys with shuffles and one lane per warp takes a 64-bit
// atomicMax. A key packs the coefficient, mapped to an unsigned integer that sorts like the
// float, above the complement of the index, so that the largest key is the largest value
// and, among equal values, the first index.
#include "correlation_launchers.h"

#include <cstring>
#include <stdexcept>

#include "corr_common.cuh"

namespace ch15 {

namespace {

__device__ __forceinline__ unsigned long long peak_key(float v, unsigned index) {
  const unsigned bits = __float_as_uint(v);
  const unsigned ordered = (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
  return (static_cast<unsigned long long>(ordered) << 32) | (0xffffffffu - index);
}

// [corr-peak-kernel]
__global__ void peak_kernel(const float* __restrict__ values, std::size_t n, unsigned long long* best) {
  unsigned long long key = 0;  // below every real key: "nothing found"
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const float v = values[i];
    if (v == v) {  // NaN never wins
      const unsigned long long k = peak_key(v, static_cast<unsigned>(i));
      key = k > key ? k : key;
    }
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    const unsigned long long other = __shfl_down_sync(0xffffffffu, key, offset);
    key = other > key ? other : key;
  }
  if ((threadIdx.x & 31) == 0 && key != 0) atomicMax(best, key);
}
// [corr-peak-kernel]

}  // namespace

Peak gpu_peak(const float* coefficients, int width, std::size_t count, unsigned long long* scratch,
              cudaStream_t stream) {
  if (count >= 0xffffffffull) throw std::logic_error("gpu_peak: at most 2^32 - 1 values");
  HB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, sizeof(unsigned long long), stream));
  const std::size_t blocks = (count + 255) / 256;
  peak_kernel<<<static_cast<int>(blocks > 2048 ? 2048 : (blocks < 1 ? 1 : blocks)), 256, 0, stream>>>(
      coefficients, count, scratch);
  HB_CHECK_LAUNCH();
  unsigned long long key = 0;
  HB_CUDA_CHECK(cudaMemcpyAsync(&key, scratch, sizeof key, cudaMemcpyDeviceToHost, stream));
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
  Peak p;
  if (key == 0) return p;
  const unsigned index = 0xffffffffu - static_cast<unsigned>(key & 0xffffffffu);
  const unsigned ordered = static_cast<unsigned>(key >> 32);
  const unsigned bits = (ordered & 0x80000000u) ? (ordered & 0x7fffffffu) : ~ordered;
  float value = 0.0f;
  std::memcpy(&value, &bits, sizeof value);
  p.x = static_cast<int>(index % static_cast<unsigned>(width));
  p.y = static_cast<int>(index / static_cast<unsigned>(width));
  p.value = value;
  return p;
}

}  // namespace ch15
