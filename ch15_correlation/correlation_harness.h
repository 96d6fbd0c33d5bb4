/// \file
/// \brief How chapter 15 sets up, measures and checks a variant, and the two kinds of
///        programs built on that: one small program per variant (corr_tex_tex ...) and the
///        driver normalized_cross_correlation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "correlation.h"
#include "correlation_cpu.h"
#include "correlation_launch.h"
#include "correlation_variants.h"
#include "hb/memory.h"
#include "hb/pgm.h"

namespace ch15 {

/// The chapter's own flags (the book's option table), beyond the shared ones of hb::Cli.
struct ProblemOptions {
  std::string input;        ///< --input FILE.pgm; empty: the generated coin scene
  int x_template = 0;       ///< --xTemplate (used when given, see given)
  int y_template = 0;       ///< --yTemplate
  int w_template = 0;       ///< --wTemplate
  int h_template = 0;       ///< --hTemplate
  int pad_width = 0;        ///< --padWidth (0: no padding)
  int pad_height = 0;       ///< --padHeight
  std::string output;       ///< --output FILE.pgm: the coefficients as a picture
  std::string write_input;  ///< --write-input FILE.pgm: the (padded) input image
  bool given_x = false, given_y = false, given_w = false, given_h = false;  ///< which were set
  bool given_pad_width = false, given_pad_height = false;                   ///< which were set
};

/// Adds the chapter's flags to \p app (--input, --xTemplate, --yTemplate, --wTemplate,
/// --hTemplate, --padWidth, --padHeight, --output, --write-input).
/// \param app the program's CLI11 application (hb::Cli::app())
/// \param options receives the values
void add_problem_options(CLI::App& app, ProblemOptions& options);

/// Records which of the chapter's flags were given (call after parsing).
/// \param app the parsed application
/// \param options the values to complete
void note_given_options(const CLI::App& app, ProblemOptions& options);

/// What a program correlates.
struct Problem {
  hb::GrayImage image;       ///< the image, padded if asked
  Template tmpl;             ///< the template, cut from the image
  std::string source;        ///< where the image came from, for reports
  int original_width = 0;    ///< before padding
  int original_height = 0;   ///< before padding
  int focus_x = 0;           ///< centre of the default template (the sweep centres on it)
  int focus_y = 0;           ///< centre of the default template
};

/// Enlarges \p image to \p width x \p height pixels (the book's --padWidth / --padHeight):
/// the image keeps its place at the top left, and the new pixels are deterministic noise
/// (the correlation has no data dependence, so any content measures the same).
/// \param image the image to pad
/// \param width new width, at least image.width
/// \param height new height, at least image.height
/// \param seed seed of the noise
/// \throws hb::UsageError when the new size is smaller than the image or too large
hb::GrayImage pad_image(const hb::GrayImage& image, int width, int height, std::uint64_t seed);

/// Builds the image and the template from \p options: the coin scene (seed \p seed) or
/// --input, padding, and the template (by default the scene's dime at (210, 148), 52 x 52;
/// with --input a 52 x 52 square at the image's centre). Throws hb::UsageError for every bad
/// combination: one of --padWidth/--padHeight alone, padding smaller than the image, a
/// template outside the image, of zero or negative size, too large, or flat; a missing or
/// malformed PGM file.
/// \param options the chapter's flags
/// \param seed the seed of the coin scene and of the padding
Problem make_problem(const ProblemOptions& options, std::uint64_t seed);

/// The CPU reference for one template: exact sums and coefficients, and how long they took.
struct Reference {
  std::vector<ExactSums> sums;
  std::vector<double> coefficients;
  Peak peak;
  double ms = 0.0;   ///< wall time of computing both
  int threads = 0;   ///< CPU threads used
};

/// Computes the CPU reference of \p image and \p tmpl with all hardware threads.
/// \param image the image
/// \param tmpl the template
Reference compute_reference(const hb::GrayImage& image, const Template& tmpl);

/// One measured variant.
struct Measurement {
  Path path = Path::Cpu;     ///< the kernel that ran
  double median_ms = 0.0;    ///< median time of one call
  bool checked = false;      ///< false with --no-check
  bool sums_exact = true;    ///< every sum equals the CPU's
  bool coefficients_ok = true;     ///< every coefficient within kCoefficientTolerance
  double max_error = 0.0;          ///< largest |GPU - CPU| coefficient difference
  std::string failure;             ///< what differed (first and last mismatches)
  Peak peak;                       ///< the GPU's peak (argmax of its coefficients)
  bool ok() const { return sums_exact && coefficients_ok; }
};

/// Runs GPU variants on one image: owns the workspace, the stream and the output buffers.
class Bench {
 public:
  /// Uploads \p image (needs a current device).
  /// \param image the image to correlate
  explicit Bench(const hb::GrayImage& image);
  /// Makes \p tmpl the template of the following runs.
  /// \param tmpl the template
  void set_template(const Template& tmpl);
  /// Runs variant \p v: its preparation (untimed); with a reference, one call of its sums
  /// twin and one of its coefficient kernel into poisoned buffers, both checked; then
  /// \p iters timed calls (CUDA events, median, after 2 untimed); then the last call's
  /// coefficients are checked again and its peak found.
  /// \param v a GPU variant
  /// \param iters timed repetitions (0: only the checked calls, no timing)
  /// \param reference the CPU reference, or null to skip the checks
  Measurement run(const Variant& v, int iters, const Reference* reference);
  /// The coefficients of the last run (host copy).
  const std::vector<float>& coefficients() const { return host_coefficients_; }
  /// The workspace (tests lower its shared-memory limit).
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

/// Compares GPU sums with the CPU's exactly; returns an empty string when all agree, else
/// how many differ and the first and last few.
/// \param got the GPU's sums
/// \param want the CPU's
/// \param width image width (for positions)
std::string compare_sums(const std::vector<CorrSums>& got, const std::vector<ExactSums>& want, int width);

/// The 9 x 9 coefficients around (\p cx, \p cy), clamped to the image (section 15.2's table).
/// \param coefficients width x height values
/// \param width columns
/// \param height rows
/// \param cx centre column
/// \param cy centre row
std::vector<std::vector<double>> neighbourhood(const std::vector<double>& coefficients, int width,
                                               int height, int cx, int cy);

/// main() of the per-variant programs: runs variant \p id alone on the default scene (or
/// the flags' image and template), checks it against the CPU and prints its rate.
/// \param program the program's name
/// \param id the variant's id
/// \param argc argument count
/// \param argv arguments
int variant_program_main(const char* program, const char* id, int argc, char** argv);

/// main() of the driver normalized_cross_correlation: the neighbourhood table, every
/// variant's rate, and with --sweep the template-size sweep.
/// \param argc argument count
/// \param argv arguments
int driver_main(int argc, char** argv);

}  // namespace ch15
