// The variant table of chapter 15, the workspace and the GPU's peak finder. Every kernel file
// of kernels/ is compiled here, once (CMake lists them in corr_kernels.cuh): one translation
// unit, so one `__constant__` template (g_Tpix) for variants 2 to 6, and no declarations.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "corr_kernels.cuh"
#include "correlation.h"
#include "hb/capability.h"
#include "hb/error.h"

namespace ch15 {

const std::vector<Variant>& variants() {
  constexpr Preparer constant = prepare_constant_template;
  static const std::vector<Variant> table = {
      {"0", "cpu", "CPU reference: exact 64-bit sums, coefficient in double (15.1)", nullptr, nullptr},
      {"1", "tex_tex", "image and template in textures (listings 15.1, 15.2)", corr1_tex_tex, prepare_nothing},
      {"2", "tex_constant", "template in constant memory (listings 15.3, 15.4)", corr2_tex_constant, constant},
      {"3", "shared", "image tile in shared memory (listings 15.5, 15.6)", corr3_shared, constant},
      {"4", "shared_umul24", "24-bit multiplies, the SM 1.x path (15.5.1)", corr4_shared_umul24, constant},
      {"5", "shared4", "inner loop unrolled by 4 (15.5.2)", corr5_shared4, constant},
      {"6", "shared_fixed", "template size known at compile time (15.7)", corr6_shared_fixed, constant},
      {"7", "dp4a", "packed byte dot products, box sums (beyond the text)", corr7_dp4a, prepare7_dp4a},
      {"8", "tensor", "8-bit tensor cores, box sums (beyond the text)", corr8_tensor, prepare8_tensor,
       {80, "variant 7's byte dot products (__dp4a): no 8-bit mma.sync before 8.0"}, Path::Dp4a},
      {"9", "fft", "FFT numerator, summed-area tables (15.8, Lewis)", corr9_fft, prepare9_fft},
      {"10", "shared_async", "image tiles staged by cuda::memcpy_async, double-buffered", corr10_shared_async,
       constant},
  };
  return table;
}

Workspace::TextureImage::TextureImage(const std::uint8_t* pixels, int width, int height) {
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<std::uint8_t>();
  HB_CUDA_CHECK(cudaMallocArray(&array, &desc, width, height));
  try {
    HB_CUDA_CHECK(cudaMemcpy2DToArray(array, 0, 0, pixels, width, width, height, cudaMemcpyHostToDevice));
    // The book's texture references: unnormalized coordinates, point sampling, and clamping at
    // the edges, so that a fetch outside the image returns the nearest edge pixel.
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc tex{};
    tex.addressMode[0] = tex.addressMode[1] = cudaAddressModeClamp;
    tex.filterMode = cudaFilterModePoint;
    tex.readMode = cudaReadModeElementType;
    tex.normalizedCoords = 0;
    HB_CUDA_CHECK(cudaCreateTextureObject(&texture, &res, &tex, nullptr));
  } catch (...) {
    (void)cudaFreeArray(array);
    throw;
  }
}

Workspace::TextureImage::~TextureImage() {
  if (texture != 0) (void)cudaDestroyTextureObject(texture);
  if (array != nullptr) (void)cudaFreeArray(array);
}

Workspace::Workspace(const hb::GrayImage& image) : width_(image.width), height_(image.height) {
  if (width_ < 1 || height_ < 1 || image.pixels.size() != static_cast<std::size_t>(width_) * height_)
    throw std::logic_error("ch15::Workspace: the image has no pixels or the wrong number");
  // What the GPU grants code of this program's architecture (a JIT run of old code keeps the
  // old GPU's limit).
  device_shared_limit_ = shared_limit_ = hb::shared_per_block_limit();
  image_ = std::make_unique<TextureImage>(image.pixels.data(), width_, height_);
  // Rows padded to a multiple of 128 bytes with at least 8 zero bytes at the end, so that a
  // kernel may read two aligned words that straddle the last pixel; zeroed first, so that
  // every byte a kernel can read is initialized (compute-sanitizer's initcheck).
  pitch_ = (static_cast<std::size_t>(width_) + 8 + 127) / 128 * 128;
  rows_ = hb::DeviceBuffer<std::uint8_t>(pitch_ * height_);
  rows_.zero();
  HB_CUDA_CHECK(cudaMemcpy2D(rows_.data(), pitch_, image.pixels.data(), width_, width_, height_,
                             cudaMemcpyHostToDevice));
  // A copy from pageable memory may return before its data has landed, and the launches that
  // read it run in non-blocking streams, which do not wait for the default stream.
  HB_CUDA_CHECK(cudaDeviceSynchronize());
}

void Workspace::set_template(const Template& tmpl) {
  validate_template_size(tmpl.width, tmpl.height);
  if (tmpl.pixels.size() != static_cast<std::size_t>(tmpl.width) * tmpl.height)
    throw std::logic_error("ch15::Workspace::set_template: pixel count does not match the size");
  template_ = std::make_unique<TextureImage>(tmpl.pixels.data(), tmpl.width, tmpl.height);
  HB_CUDA_CHECK(cudaDeviceSynchronize());  // see the constructor
  tmpl_ = tmpl;
  static std::atomic<std::uint64_t> next_id{0};
  template_id_ = ++next_id;
}

void Workspace::set_shared_limit(std::size_t bytes) {
  if (bytes > device_shared_limit_)
    throw std::logic_error("ch15::Workspace::set_shared_limit: above the device's opt-in limit");
  shared_limit_ = bytes;
}

void allow_shared_memory(const void* kernel, std::size_t bytes) {
  constexpr std::size_t kDefaultLimit = 48 * 1024;
  if (bytes <= kDefaultLimit) return;
  int device = 0;
  HB_CUDA_CHECK(cudaGetDevice(&device));
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, std::size_t> allowed;
  std::lock_guard<std::mutex> lock(mutex);
  std::size_t& have = allowed[{kernel, device}];
  if (have >= bytes) return;
  HB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(bytes)));
  have = bytes;
}

// ---- The peak ----------------------------------------------------------------------------
// A key packs the coefficient, mapped to an unsigned integer that sorts like the float, above
// the complement of the index: the largest key is the largest value and, among equal values,
// the first index (the chapter page, "Finding the peak").

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
  const std::size_t blocks = std::clamp<std::size_t>((count + 255) / 256, 1, 2048);
  peak_kernel<<<static_cast<int>(blocks), 256, 0, stream>>>(coefficients, count, scratch);
  HB_CHECK_LAUNCH();
  unsigned long long key = 0;
  HB_CUDA_CHECK(cudaMemcpyAsync(&key, scratch, sizeof key, cudaMemcpyDeviceToHost, stream));
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (key == 0) return Peak{};
  const unsigned index = 0xffffffffu - static_cast<unsigned>(key & 0xffffffffu);
  const unsigned ordered = static_cast<unsigned>(key >> 32);
  const unsigned bits = (ordered & 0x80000000u) ? (ordered & 0x7fffffffu) : ~ordered;
  float value = 0.0f;
  std::memcpy(&value, &bits, sizeof value);
  const auto w = static_cast<unsigned>(width);
  return Peak{static_cast<int>(index % w), static_cast<int>(index / w), value};
}

}  // namespace ch15
