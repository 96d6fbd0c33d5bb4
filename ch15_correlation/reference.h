/// \file
/// \brief Chapter 15, variant 0: the CPU reference, and the host-side pieces of the chapter.
///
/// This header also holds the other host-side pieces of the chapter: summed-area tables, the
/// peak, and the log transform that turns coefficients into a picture (figure 15.2).
/* [changed]
Variant 0 is the reference: the CPU computes the three sums of every output pixel directly, one
template pixel at a time, as 64-bit integers, and the coefficient in double from them and the
template's statistics, which it computes once (section 15.1). Every GPU variant is checked
against it: the sums bit for bit, the coefficients within kCoefficientTolerance. Its rate is the
"x CPU" column's reference (all hardware threads).
[changed] */
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "correlation.h"
#include "hb/pgm.h"

namespace ch15 {

/// The sums of every output pixel (row-major, image size), computed directly: for each
/// output, every template pixel times its image pixel (clamped at the edges), in 64-bit
/// integers. Rows are shared among \p threads threads (0: all hardware threads).
/// \param image the image
/// \param tmpl the template
/// \param threads worker threads, 0 for std::thread::hardware_concurrency()
std::vector<ExactSums> cpu_sums(const hb::GrayImage& image, const Template& tmpl, int threads = 0);

/// The correlation coefficient from exact sums and the template's precomputed statistics
/// (section 15.1), in double:
/// \f[ \gamma = \frac{N\sum IT - \sum I \sum T}
///     {\sqrt{\left(N\sum I^2 - (\sum I)^2\right)\left(N \sum T^2 - (\sum T)^2\right)}} \f]
/// The numerator and both factors of the denominator are exact integers; a window or
/// template of zero variance gives 0 (the coefficient is undefined there).
/// \param s the window's sums
/// \param t the template's statistics
double cpu_coefficient(const ExactSums& s, const TemplateStats& t);

/// cpu_coefficient() of every element of \p sums.
/// \param sums exact sums, as cpu_sums() returns them
/// \param t the template's statistics
std::vector<double> cpu_coefficients(const std::vector<ExactSums>& sums, const TemplateStats& t);

/// The summed-area tables (integral images) of an image clamp-padded for a template of
/// \p template_width x \p template_height: P(u, v) = I(clamp(u + x_offset), clamp(v + y_offset))
/// for 0 <= u < W + template_width - 1 and 0 <= v < H + template_height - 1, and
/// S(u, v) = the sum of P over [0, u) x [0, v), with S(0, .) = S(., 0) = 0; the same for P^2.
struct SummedAreaTables {
  int width = 0;   ///< columns of S: W + template_width
  int height = 0;  ///< rows of S: H + template_height
  std::vector<std::uint64_t> sum;     ///< S of P, row-major, width x height
  std::vector<std::uint64_t> sum_sq;  ///< S of P^2

  /// Sum of P over the template-sized window of output (x, y).
  /// \param x output column
  /// \param y output row
  /// \param w template width
  /// \param h template height
  std::uint64_t box(int x, int y, int w, int h) const { return box_of(sum, x, y, w, h); }
  /// Sum of P^2 over the window of output (x, y).
  /// \param x output column
  /// \param y output row
  /// \param w template width
  /// \param h template height
  std::uint64_t box_sq(int x, int y, int w, int h) const { return box_of(sum_sq, x, y, w, h); }

 private:
  std::uint64_t box_of(const std::vector<std::uint64_t>& s, int x, int y, int w, int h) const {
    const auto at = [&](int u, int v) { return s[static_cast<std::size_t>(v) * width + u]; };
    return at(x + w, y + h) - at(x, y + h) - at(x + w, y) + at(x, y);
  }
};

/// Builds the summed-area tables of \p image for templates of the given size (the
/// denominator of the FFT route, section 15.8).
/// \param image the image
/// \param template_width template width
/// \param template_height template height
SummedAreaTables summed_area_tables(const hb::GrayImage& image, int template_width,
                                    int template_height);

/// The largest value and its position; ties go to the first in row-major order, NaN never
/// wins.
/// \param values width x height values, row-major
/// \param width columns
Peak cpu_peak(const std::vector<double>& values, int width);

/// As cpu_peak() for float values (a GPU variant's coefficients).
/// \param values width x height values, row-major
/// \param width columns
Peak cpu_peak(const std::vector<float>& values, int width);

/// The log transform of Gonzalez and Woods that the book's program applies before writing
/// the coefficients as a picture (section 15.8, figure 15.2): a coefficient \f$c\f$ becomes
/// \f$s = 255 \log(1 + 255 \max(c, 0)) / \log 256\f$, rounded. Negative coefficients (no
/// match) are black, 1 is white, and the logarithm brightens weak matches so that the
/// other coins stay visible.
/// \param c a coefficient (NaN gives 0)
std::uint8_t log_transform_pixel(double c);

/// The picture of \p values (width x height coefficients) with log_transform_pixel().
/// \param values coefficients, row-major
/// \param width columns
/// \param height rows
hb::GrayImage log_transform_image(const std::vector<float>& values, int width, int height);

}  // namespace ch15
