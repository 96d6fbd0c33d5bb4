/// \file
/// \brief Chapter 15's host side: templates and their statistics, the workspace the launchers
///        read, the variant table, the CPU reference (variant 0) and the programs.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <cuda_runtime_api.h>

#include "hb/capability.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/pgm.h"
#include "hb/variants.h"

namespace ch15 {

/// Largest template: each sum stays below \f$65536 \cdot 65025 < 2^{32}\f$ (the page, "Exactness").
constexpr int kMaxTemplatePixels = 65536;
constexpr int kMaxTemplateSide = 1024;

/// The statistics of a template that do not depend on the image, computed once (15.1).
struct TemplateStats {
  std::int64_t n = 0;         ///< \f$N\f$
  std::int64_t sum = 0;       ///< \f$\sum T\f$ (the book's SumT)
  std::int64_t sum_sq = 0;    ///< \f$\sum T^2\f$ (SumTSq)
  std::int64_t variance = 0;  ///< \f$N \sum T^2 - (\sum T)^2\f$, exactly
  double denom_exp = 0.0;     ///< the book's `fDenomExp`, in double; equals variance exactly
};

/// A template: its pixels, row-major, and their statistics.
struct Template {
  int x = -1, y = -1;  ///< where it was cut from the image (-1: not cut from it)
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;
  TemplateStats stats;
  std::uint8_t at(int i, int j) const { return pixels[static_cast<std::size_t>(j) * width + i]; }
};

/// Throws hb::UsageError for a side outside 1..kMaxTemplateSide or more than kMaxTemplatePixels.
void validate_template_size(int width, int height);
/// Throws hb::UsageError when the template is not inside \p image, too large, or flat (zero
/// variance: the coefficient is undefined everywhere).
Template cut_template(const hb::GrayImage& image, int x, int y, int width, int height);
Template make_template(std::vector<std::uint8_t> pixels, int width, int height);

/// The window of output (x, y) starts at (x + window_x_offset(), y + window_y_offset()) (the
/// page, "The convention").
constexpr int window_x_offset(int template_width) { return -(template_width / 2); }
constexpr int window_y_offset(int template_height) { return -(template_height / 2); }

/// The three image sums of one output pixel's window, \f$\sum I\f$, \f$\sum I^2\f$ and \f$\sum I T\f$
/// (the book's SumI, SumISq and SumIT).
template <typename T>
struct Sums {
  T sum_i = 0, sum_isq = 0, sum_it = 0;
};
using CorrSums = Sums<std::uint32_t>;  ///< as the "sums" twin of every kernel writes them (15.6)
using ExactSums = Sums<std::int64_t>;  ///< as the CPU reference computes them

/// Absolute tolerance of a GPU coefficient against the CPU's: three roundings to float, one
/// product and rsqrtf give at most about \f$6 \cdot 10^{-7}\f$ (the page, "Exactness").
constexpr double kCoefficientTolerance = 2e-6;

/// Where the template matches best: the largest coefficient and its position.
struct Peak {
  int x = -1, y = -1;
  double value = 0.0;
};

/// Which kernel a call actually ran, named as the variant whose kernel it is: a launcher whose
/// kernel cannot run for the template at hand (too much shared memory, a size it was not
/// compiled for) runs a simpler one instead and says so.
struct Path {
  const char* name;  ///< the variant's name: the report's "path" column
  static const Path Cpu, TexTex, TexConstant, Shared, SharedUmul24, Shared4, SharedFixed, Dp4a,
      Tensor, Fft;
};
inline constexpr Path Path::Cpu{"cpu"}, Path::TexTex{"tex_tex"}, Path::TexConstant{"tex_constant"},
    Path::Shared{"shared"}, Path::SharedUmul24{"shared_umul24"}, Path::Shared4{"shared4"},
    Path::SharedFixed{"shared_fixed"}, Path::Dp4a{"dp4a"}, Path::Tensor{"tensor"}, Path::Fft{"fft"};
inline bool operator==(Path a, Path b) { return std::string_view(a.name) == b.name; }
inline const char* to_string(Path p) { return p.name; }

/// Where a launch writes: exactly one of the two pointers is set, to one element per image
/// pixel, row-major, without padding.
struct Output {
  float* coefficients = nullptr;
  CorrSums* sums = nullptr;  ///< the raw sums (the "sums" twin kernels, section 15.6)
};

/// Variant 9's template-dependent state, defined in kernels/09_fft.cuh.
struct FftState;
void destroy_fft_state(FftState* state);

/// The device copies of one image and one template, and the template-dependent state of
/// the variants. Building it allocates and uploads; launches never allocate.
class Workspace {
 public:
  /// Uploads \p image as a texture (the book's texImage) and as linear rows.
  explicit Workspace(const hb::GrayImage& image);
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  /// Makes \p tmpl the template of the following launches (a texture for variant 1) under a
  /// new id, so that every variant prepares itself again.
  void set_template(const Template& tmpl);

  int width() const { return width_; }
  int height() const { return height_; }
  cudaTextureObject_t image_texture() const { return image_->texture; }
  cudaTextureObject_t template_texture() const { return template_ ? template_->texture : 0; }
  /// Row y starts at image_rows() + y * image_pitch(), 16-byte aligned, and has at least 8
  /// zero bytes after its last pixel.
  const std::uint8_t* image_rows() const { return rows_.data(); }
  std::size_t image_pitch() const { return pitch_; }
  const Template& tmpl() const { return tmpl_; }
  std::uint64_t template_id() const { return template_id_; }  ///< 0 before the first template

  /// The most dynamic shared memory a block may use: the device's opt-in limit unless lowered
  /// with set_shared_limit(), which tests use to reach the launchers' fallbacks (listing 15.6).
  std::size_t shared_limit() const { return shared_limit_; }
  void set_shared_limit(std::size_t bytes);  ///< at most device_shared_limit()
  std::size_t device_shared_limit() const { return device_shared_limit_; }

  /// Variant 7's packed template (kernels/07_dp4a.cuh).
  struct PackedTemplate {
    std::uint64_t template_id = 0;  ///< the template it was built for
    int words_per_band = 0;         ///< NQ: 4-byte words per band (a compiled kernel size)
    int bands = 0;                  ///< bands of NQ words that cover a template row
    hb::DeviceBuffer<uint4> words;  ///< [row][band][word] x 4 shifts
  } packed;

  /// Variant 8's tensor-core fragments of the template (kernels/08_tensor.cuh).
  struct TensorTemplate {
    std::uint64_t template_id = 0;      ///< the template they were built for
    int chunks = 0;                     ///< 32-byte chunks of K per template row
    hb::DeviceBuffer<uint2> fragments;  ///< [row][chunk][lane]: the two B registers
  } tensor;

  std::unique_ptr<FftState, void (*)(FftState*)> fft{nullptr, destroy_fft_state};  ///< variant 9's

 private:
  struct TextureImage {  // a 2D cudaArray of bytes and the texture object over it
    cudaArray_t array = nullptr;
    cudaTextureObject_t texture = 0;
    TextureImage(const std::uint8_t* pixels, int width, int height);
    ~TextureImage();
  };

  int width_ = 0, height_ = 0;
  std::unique_ptr<TextureImage> image_, template_;
  hb::DeviceBuffer<std::uint8_t> rows_;
  std::size_t pitch_ = 0;
  Template tmpl_;
  std::uint64_t template_id_ = 0;
  std::size_t shared_limit_ = 0, device_shared_limit_ = 0;
};

/// The chapter's launchers: correlate the workspace's image with its template into \p out,
/// asynchronously; return the path taken. A launcher prepares itself if it has not yet.
using Launcher = Path (*)(Workspace& ws, const Output& out, cudaStream_t stream);
/// A variant's preparation: everything that depends only on the template (the book's
/// CopyToTemplate(): constant memory, packing, the template's FFT, plans), outside the clock.
using Preparer = void (*)(Workspace& ws, cudaStream_t stream);

/// Lets \p kernel use \p bytes of dynamic shared memory: above 48 KB a kernel must opt in
/// (cudaFuncAttributeMaxDynamicSharedMemorySize); we do that once per kernel and size.
void allow_shared_memory(const void* kernel, std::size_t bytes);

/// Bytes of `__constant__` memory for the template of variants 2 to 6 (listing 15.3's g_Tpix):
/// 64 KB less the unit's other constants. Larger templates make them fall back to variant 1.
constexpr std::size_t kConstantTemplateBytes = 65280;
inline bool fits_constant_memory(const Template& t) { return t.pixels.size() <= kConstantTemplateBytes; }

/// Dynamic shared memory of variants 3 to 6 (listing 15.6), 7 and 8 (image tile and box sums).
std::size_t book_shared_bytes(int template_width, int template_height);
std::size_t dp4a_shared_bytes(int template_width, int template_height);
std::size_t tensor_shared_bytes(int template_width, int template_height);

/// The smallest even m >= \p n whose only prime factors are 2, 3, 5 and 7: the FFT sizes of
/// variant 9 (cuFFT transforms such sizes fastest).
inline int good_fft_size(int n) {
  for (int m = n < 2 ? 2 : n;; ++m) {
    if (m % 2 != 0) continue;
    int r = m;
    for (int p : {2, 3, 5, 7})
      while (r % p == 0) r /= p;
    if (r == 1) return m;
  }
}

/// The peak of \p count (below 2^32) coefficients, found on the GPU: the largest value, ties
/// to the lowest index, NaN never. \p scratch is one word of device memory. Synchronizes.
Peak gpu_peak(const float* coefficients, int width, std::size_t count,
              unsigned long long* scratch, cudaStream_t stream);

/// One row of the variant table (variants.cu); its file is `kernels/NN_name.cuh` (NN the id in
/// two digits), kernels/00_cpu.cpp for variant 0.
struct Variant {
  const char* id;
  const char* name;     ///< "tex_tex": the program is "corr_" + name
  const char* title;    ///< one line for tables and --help
  Launcher launch;      ///< null for variant 0 (the CPU)
  Preparer prepare;     ///< null for variant 0
  hb::Needs needs = {};  ///< the GPU its headline form (path()) needs, and what runs below it
  Path path_below = Path::Cpu;  ///< the path it takes below needs.cc (when needs.below is set)

  /// The path the launcher takes when it does not fall back: named as its variant.
  Path path() const { return Path{name}; }
  /// The path the launcher takes here when shared memory does not force a fallback.
  Path path_here() const { return hb::form_here(needs) == hb::Form::Headline ? path() : path_below; }
  std::string program() const { return std::string("corr_") + name; }
  bool is_cpu() const { return launch == nullptr; }
};

/// Every variant, variant 0 (the reference) first.
const std::vector<Variant>& variants();
/// The variant with id \p id ("4"); throws hb::UsageError listing the valid ids.
inline const Variant& find_variant(std::string_view id) { return hb::find_row(variants(), id); }

using hb::ceil_div;
constexpr int round_up(int a, int b) { return (a + b - 1) / b * b; }

// ---- Variant 0, the CPU reference (kernels/00_cpu.cpp), and the other host-side pieces -------

/// The sums of every output pixel (row-major, image size), in 64-bit integers, on \p threads
/// threads (0: all the hardware has).
std::vector<ExactSums> cpu_sums(const hb::GrayImage& image, const Template& tmpl, int threads = 0);
/// The coefficient of every element of \p sums in double (section 15.1); a window or template
/// of zero variance gives 0.
std::vector<double> cpu_coefficients(const std::vector<ExactSums>& sums, const TemplateStats& t);

/// The largest of \p values (width columns, row-major) and its position; ties go to the first
/// in row-major order, NaN never wins.
template <typename T>
Peak cpu_peak(const std::vector<T>& values, int width) {
  Peak p;
  const auto w = static_cast<std::size_t>(width);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = static_cast<double>(values[i]);
    if (!std::isnan(v) && (p.x < 0 || v > p.value)) p = {static_cast<int>(i % w), static_cast<int>(i / w), v};
  }
  return p;
}

/// The log transform (Gonzalez and Woods) of the coefficients in figure 15.2: weak matches stay
/// visible.
std::uint8_t log_transform_pixel(double c);
hb::GrayImage log_transform_image(const std::vector<float>& values, int width, int height);

// ---- The programs: problem, reference, measurement (harness.cpp) ---------------------------

/// The chapter's own flags (the book's option table), empty where not given.
struct ProblemOptions {
  std::string input;  ///< empty: the generated coin scene
  std::optional<int> x_template, y_template, w_template, h_template, pad_width, pad_height;
  std::string output, write_input;
};

/// What a program correlates.
struct Problem {
  hb::GrayImage image;  ///< padded if asked
  Template tmpl;
  std::string source;   ///< where the image came from, for reports
  int original_width = 0, original_height = 0;  ///< before padding
  int focus_x = 0, focus_y = 0;  ///< the template's centre (the sweep centres on it)
};

/// Enlarges \p image to \p width x \p height at its top left with noise from \p seed (the
/// correlation has no data dependence: any content measures the same). Throws hb::UsageError
/// when smaller than the image or too large.
hb::GrayImage pad_image(const hb::GrayImage& image, int width, int height, std::uint64_t seed);

/// The image and template of \p options: the coin scene of \p seed and its dime, or --input and
/// a 52 x 52 square at its centre. Throws hb::UsageError for every bad flag, an unwritable
/// output, and a missing or malformed PGM file.
Problem make_problem(const ProblemOptions& options, std::uint64_t seed);

/// The CPU reference for one template, and its time on all the hardware's threads.
struct Reference {
  std::vector<ExactSums> sums;
  std::vector<double> coefficients;
  Peak peak;
  double ms = 0.0;
  int threads = 0;
};
Reference compute_reference(const hb::GrayImage& image, const Template& tmpl);

/// One measured variant.
struct Measurement {
  Path path = Path::Cpu;        ///< the kernel that ran
  double median_ms = 0.0;
  bool checked = false;         ///< false with --no-check
  bool sums_exact = true;       ///< every sum equals the CPU's
  bool coefficients_ok = true;  ///< every coefficient within kCoefficientTolerance
  double max_error = 0.0;       ///< largest |GPU - CPU| coefficient difference
  std::string failure;          ///< what differed (first and last mismatches)
  Peak peak;                    ///< the GPU's peak (argmax of its coefficients)
  bool ok() const { return sums_exact && coefficients_ok; }
};

/// Runs GPU variants on one image, with their workspace, stream and output buffers.
class Bench {
 public:
  explicit Bench(const hb::GrayImage& image);  ///< needs a current device
  void set_template(const Template& tmpl) { ws_.set_template(tmpl); }
  /// Runs GPU variant \p v: its preparation (untimed); with a \p reference, its sums twin and
  /// its coefficients into poisoned buffers, checked; \p iters timed calls (median, after 2
  /// untimed; none for 0); the coefficients checked again and their peak found.
  Measurement run(const Variant& v, int iters, const Reference* reference);
  const std::vector<float>& coefficients() const { return host_coefficients_; }  ///< the last run's
  Workspace& workspace() { return ws_; }

 private:
  Workspace ws_;
  hb::Stream stream_;
  hb::DeviceBuffer<float> coefficients_;
  hb::DeviceBuffer<CorrSums> sums_;
  hb::DeviceBuffer<unsigned long long> peak_scratch_;
  std::vector<float> host_coefficients_;
  std::vector<CorrSums> host_sums_;
};

/// The 9 x 9 coefficients around (\p cx, \p cy), clamped to the image (section 15.2's table).
std::vector<std::vector<double>> neighbourhood(const std::vector<double>& coefficients, int width,
                                               int height, int cx, int cy);

/// main() of variant \p id's program \p program (that variant alone, checked, with its rate) or,
/// for a null \p id, of the driver (the neighbourhood table, every rate, --sweep).
int program_main(const char* program, const char* id, int argc, char** argv);

}  // namespace ch15
