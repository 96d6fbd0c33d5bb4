/// \file
/// \brief What every GPU variant of chapter 15 shares: the workspace that holds the image
///        and the template on the device, the output, the one launcher signature, and the
///        record of which code path a call took (the book's launchers fall back to simpler
///        kernels when a fast one cannot run).
///
/// **Timing rule.** Everything that depends only on the template is done once, by a
/// variant's prepare function, outside the timed region (the book's CopyToTemplate():
/// uploading the template to constant memory, packing it for packed-byte or tensor-core
/// products, its FFT). The image is uploaded once when the workspace is built, as a texture
/// and as a linear copy. A timed launch does all work that depends on the image.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include <cuda_runtime_api.h>

#include "correlation.h"
#include "hb/memory.h"
#include "hb/pgm.h"

namespace ch15 {

/// Which kernel a call actually ran. A launcher whose kernel cannot run for the template
/// at hand (too much shared memory, a size it was not compiled for) runs a simpler one
/// instead and says so.
enum class Path { Cpu, TexTex, TexConstant, Shared, SharedUmul24, Shared4, SharedFixed, Dp4a, Tensor, Fft };

/// "tex_tex", "shared4", ...: the name of the variant whose kernel ran.
/// \param p the path
const char* to_string(Path p);

/// Where a launch writes: exactly one of the two pointers is set. Both arrays have one
/// element per image pixel, row-major, without padding.
struct Output {
  float* coefficients = nullptr;  ///< the correlation coefficients
  CorrSums* sums = nullptr;       ///< the raw sums (the "sums" twin kernels, section 15.6)
};

/// The FFT route's template-dependent state (plans, the template's spectrum, buffers);
/// defined in corr_fft.cu.
struct FftState;
/// Destroys an FftState (cuFFT plans and device buffers).
/// \param state the state to destroy (may be null)
void destroy_fft_state(FftState* state);

/// The device copies of one image and one template, and the template-dependent state of
/// the variants. Building it allocates and uploads; launches never allocate.
class Workspace {
 public:
  /// Uploads \p image (on the current device) as a texture over a cudaArray (clamp
  /// addressing, point sampling, unnormalized coordinates: the book's texImage) and as a
  /// linear copy whose rows are padded with at least 8 zero bytes.
  /// \param image the image to correlate
  explicit Workspace(const hb::GrayImage& image);
  ~Workspace() = default;
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  /// Makes \p tmpl the template of the following launches: uploads it as a texture (for
  /// variant 1) and gives it a new id, so that every variant prepares itself again.
  /// \param tmpl the template (at most kMaxTemplatePixels pixels)
  void set_template(const Template& tmpl);

  int width() const { return width_; }
  int height() const { return height_; }
  /// The image as a texture object (clamp addressing, point sampling, element reads).
  cudaTextureObject_t image_texture() const { return image_.texture; }
  /// The template as a texture object (variant 1).
  cudaTextureObject_t template_texture() const { return template_.texture; }
  /// The image in linear memory: row y starts at image_rows() + y * image_pitch(); every row
  /// has at least 8 zero bytes after its last pixel, and rows start 16-byte aligned.
  const std::uint8_t* image_rows() const { return rows_.data(); }
  /// Bytes from one row of image_rows() to the next.
  std::size_t image_pitch() const { return pitch_; }
  /// The current template (set_template()).
  const Template& tmpl() const { return tmpl_; }
  /// Changes with every set_template(); 0 before the first.
  std::uint64_t template_id() const { return template_id_; }

  /// The most dynamic shared memory a block may use: the device's opt-in limit
  /// (cudaDevAttrMaxSharedMemoryPerBlockOptin, 227 KB on Hopper) unless lowered with
  /// set_shared_limit(). Launchers whose kernel would need more fall back (listing 15.6).
  std::size_t shared_limit() const { return shared_limit_; }
  /// Lowers (or restores) the shared-memory limit; tests use it to reach the fallbacks.
  /// \param bytes the new limit, at most the device's opt-in limit
  void set_shared_limit(std::size_t bytes);
  /// The device's opt-in limit of dynamic shared memory per block.
  std::size_t device_shared_limit() const { return device_shared_limit_; }

  /// Variant 7's packed template (see corr7_dp4a.cuh), built by its prepare function.
  struct PackedTemplate {
    std::uint64_t template_id = 0;  ///< the template it was built for
    int words_per_band = 0;         ///< NQ: 4-byte words per band (a compiled kernel size)
    int bands = 0;                  ///< bands of NQ words that cover a template row
    hb::DeviceBuffer<uint4> words;  ///< [row][band][word] x 4 shifts
  };
  PackedTemplate packed;  ///< variant 7's state

  /// Variant 8's tensor-core fragments of the template (see corr8_tensor.cuh).
  struct TensorTemplate {
    std::uint64_t template_id = 0;  ///< the template they were built for
    int chunks = 0;                 ///< 32-byte chunks of K per template row
    hb::DeviceBuffer<uint2> fragments;  ///< [row][chunk][lane]: the two B registers
  };
  TensorTemplate tensor;  ///< variant 8's state

  /// Variant 9's state (cuFFT plans, the template's spectrum, buffers).
  std::unique_ptr<FftState, void (*)(FftState*)> fft{nullptr, destroy_fft_state};

 private:
  // A 2D cudaArray of bytes and the texture object over it; frees both.
  struct TextureImage {
    cudaArray_t array = nullptr;
    cudaTextureObject_t texture = 0;
    TextureImage() = default;
    TextureImage(const std::uint8_t* pixels, int width, int height);
    ~TextureImage();
    TextureImage(TextureImage&& other) noexcept;
    TextureImage& operator=(TextureImage&& other) noexcept;
  };

  int width_ = 0, height_ = 0;
  TextureImage image_, template_;
  hb::DeviceBuffer<std::uint8_t> rows_;
  std::size_t pitch_ = 0;
  Template tmpl_;
  std::uint64_t template_id_ = 0;
  std::size_t shared_limit_ = 0, device_shared_limit_ = 0;
};

/// The one signature of the chapter's launchers: correlate the workspace's image with its
/// template and write every output pixel to \p out, on \p stream. Asynchronous: it enqueues
/// work and returns the path it took. Needs the variant's prepare function to have run for
/// the current template (launchers check, and prepare if it has not).
using Launcher = Path (*)(Workspace& ws, const Output& out, cudaStream_t stream);

/// A variant's preparation: everything that depends only on the template (uploads to
/// constant memory, packing, the template's FFT, plans). Not timed.
using Preparer = void (*)(Workspace& ws, cudaStream_t stream);

/// Allows \p kernel to use \p bytes of dynamic shared memory. Above 48 KB a kernel must
/// opt in with cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize) before
/// its launch; we do that once per kernel and size.
/// \param kernel the kernel's address
/// \param bytes dynamic shared memory per block
void allow_shared_memory(const void* kernel, std::size_t bytes);

}  // namespace ch15
