// The workspace: the image and the template on the device, as textures and in linear memory.
#include "correlation_launch.h"

#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "hb/capability.h"
#include "hb/error.h"

namespace ch15 {

const char* to_string(Path p) {
  switch (p) {
    case Path::Cpu: return "cpu";
    case Path::TexTex: return "tex_tex";
    case Path::TexConstant: return "tex_constant";
    case Path::Shared: return "shared";
    case Path::SharedUmul24: return "shared_umul24";
    case Path::Shared4: return "shared4";
    case Path::SharedFixed: return "shared_fixed";
    case Path::Dp4a: return "dp4a";
    case Path::Tensor: return "tensor";
    case Path::Fft: return "fft";
  }
  return "?";
}

namespace {

// A texture object over a 2D cudaArray of bytes, set up as the book's texture references
// were: unnormalized coordinates, point sampling, and clamping at the edges, so that a fetch
// outside the image returns the nearest edge pixel.
cudaTextureObject_t make_texture(cudaArray_t array) {
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc tex{};
  tex.addressMode[0] = cudaAddressModeClamp;
  tex.addressMode[1] = cudaAddressModeClamp;
  tex.filterMode = cudaFilterModePoint;
  tex.readMode = cudaReadModeElementType;
  tex.normalizedCoords = 0;
  cudaTextureObject_t obj = 0;
  HB_CUDA_CHECK(cudaCreateTextureObject(&obj, &res, &tex, nullptr));
  return obj;
}

}  // namespace

Workspace::TextureImage::TextureImage(const std::uint8_t* pixels, int width, int height) {
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
  HB_CUDA_CHECK(cudaMallocArray(&array, &desc, static_cast<std::size_t>(width),
                                static_cast<std::size_t>(height)));
  try {
    HB_CUDA_CHECK(cudaMemcpy2DToArray(array, 0, 0, pixels, static_cast<std::size_t>(width),
                                      static_cast<std::size_t>(width),
                                      static_cast<std::size_t>(height), cudaMemcpyHostToDevice));
    texture = make_texture(array);
  } catch (...) {
    (void)cudaFreeArray(array);
    throw;
  }
}

Workspace::TextureImage::~TextureImage() {
  if (texture != 0) (void)cudaDestroyTextureObject(texture);
  if (array != nullptr) (void)cudaFreeArray(array);
}

Workspace::TextureImage::TextureImage(TextureImage&& other) noexcept
    : array(std::exchange(other.array, nullptr)), texture(std::exchange(other.texture, 0)) {}

Workspace::TextureImage& Workspace::TextureImage::operator=(TextureImage&& other) noexcept {
  if (this != &other) {
    if (texture != 0) (void)cudaDestroyTextureObject(texture);
    if (array != nullptr) (void)cudaFreeArray(array);
    array = std::exchange(other.array, nullptr);
    texture = std::exchange(other.texture, 0);
  }
  return *this;
}

Workspace::Workspace(const hb::GrayImage& image) : width_(image.width), height_(image.height) {
  if (width_ < 1 || height_ < 1 || image.pixels.size() != static_cast<std::size_t>(width_) * height_)
    throw std::logic_error("ch15::Workspace: the image has no pixels or the wrong number");
  // What the GPU grants code of this program's architecture (a JIT run of old code keeps the
  // old GPU's limit).
  device_shared_limit_ = shared_limit_ = hb::shared_per_block_limit();

  image_ = TextureImage(image.pixels.data(), width_, height_);

  // Rows padded to a multiple of 128 bytes with at least 8 zero bytes at the end, so that a
  // kernel may read two aligned words that straddle the last pixel; zeroed first, so that
  // every byte a kernel can read is initialized (compute-sanitizer's initcheck).
  pitch_ = (static_cast<std::size_t>(width_) + 8 + 127) / 128 * 128;
  rows_ = hb::DeviceBuffer<std::uint8_t>(pitch_ * static_cast<std::size_t>(height_));
  HB_CUDA_CHECK(cudaMemset(rows_.data(), 0, rows_.bytes()));
  HB_CUDA_CHECK(cudaMemcpy2D(rows_.data(), pitch_, image.pixels.data(), static_cast<std::size_t>(width_),
                             static_cast<std::size_t>(width_), static_cast<std::size_t>(height_),
                             cudaMemcpyHostToDevice));
  // A copy from pageable memory may return before its data has landed, and the launches that
  // read it run in non-blocking streams, which do not wait for the default stream.
  HB_CUDA_CHECK(cudaDeviceSynchronize());
}

void Workspace::set_template(const Template& tmpl) {
  validate_template_size(tmpl.width, tmpl.height);
  if (tmpl.pixels.size() != static_cast<std::size_t>(tmpl.width) * tmpl.height)
    throw std::logic_error("ch15::Workspace::set_template: pixel count does not match the size");
  template_ = TextureImage(tmpl.pixels.data(), tmpl.width, tmpl.height);
  HB_CUDA_CHECK(cudaDeviceSynchronize());  // see the constructor
  tmpl_ = tmpl;
  static std::uint64_t next_id = 0;
  static std::mutex id_mutex;
  std::lock_guard<std::mutex> lock(id_mutex);
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

}  // namespace ch15
