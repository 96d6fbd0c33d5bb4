/// \file
/// \brief What chapter 15 correlates: an 8-bit image, a template cut from it (or given), the
///        template's statistics, and the convention that says which image pixels each
///        output coefficient compares with the template.
///
/// **The convention.** The output has the size of the image. The coefficient at output pixel
/// (x, y) compares the template with the image window whose top-left corner is
/// (x - wTemplate/2, y - hTemplate/2), so the template is centred on (x, y) (integer
/// division). Image pixels outside the image are those of the nearest edge ("clamp"), as
/// the texture unit delivers them in the book. A template cut from the image at (xT, yT)
/// therefore matches itself exactly at output (xT + wTemplate/2, yT + hTemplate/2).
///
/// **Exactness.** With \f$N \le 65536\f$ template pixels of at most 255, each of the three
/// sums \f$\sum I\f$, \f$\sum I^2\f$ and \f$\sum IT\f$ is below \f$65536 \cdot 65025 < 2^{32}\f$,
/// so unsigned 32-bit integers hold them exactly; templates are capped at kMaxTemplatePixels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hb/pgm.h"

namespace ch15 {

/// Largest template, in pixels: keeps every sum below \f$2^{32}\f$.
constexpr int kMaxTemplatePixels = 65536;
/// Largest template side, in pixels.
constexpr int kMaxTemplateSide = 1024;

/// The statistics of a template that do not depend on the image, computed once (15.1).
struct TemplateStats {
  std::int64_t n = 0;       ///< number of pixels, \f$N\f$
  std::int64_t sum = 0;     ///< \f$\sum T\f$ (the book's SumT)
  std::int64_t sum_sq = 0;  ///< \f$\sum T^2\f$ (SumTSq)
  /// \f$N \sum T^2 - (\sum T)^2\f$, exactly: \f$N^2\f$ times the template's variance.
  std::int64_t variance = 0;
  /// The book's `fDenomExp`, computed in double as the text advises; it equals variance
  /// exactly (both terms are below \f$2^{53}\f$).
  double denom_exp = 0.0;
};

/// A template: its pixels, row-major, and their statistics.
struct Template {
  int x = -1;  ///< where it was cut from the image (-1: not cut from it)
  int y = -1;  ///< top edge in the image (-1: not cut from it)
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;  ///< width x height values
  TemplateStats stats;

  /// Pixel (i, j) of the template: column i, row j.
  /// \param i column, 0 <= i < width
  /// \param j row, 0 <= j < height
  std::uint8_t at(int i, int j) const { return pixels[static_cast<std::size_t>(j) * width + i]; }
};

/// The statistics of \p count pixels.
/// \param pixels the template's pixels
/// \param count how many
TemplateStats template_stats(const std::uint8_t* pixels, std::size_t count);

/// Checks a template size: each side between 1 and kMaxTemplateSide, at most
/// kMaxTemplatePixels pixels. Throws hb::UsageError naming the flags otherwise.
/// \param width template width
/// \param height template height
void validate_template_size(int width, int height);

/// Cuts the template at (\p x, \p y) of size \p width x \p height out of \p image and
/// computes its statistics.
/// \param image the image
/// \param x left edge
/// \param y top edge
/// \param width template width
/// \param height template height
/// \throws hb::UsageError when the rectangle is empty, not inside the image, too large, or
///         the template is flat (all pixels equal: its variance is zero and the coefficient
///         is undefined everywhere)
Template cut_template(const hb::GrayImage& image, int x, int y, int width, int height);

/// A template made from given pixels (tests plant such templates in images).
/// \param pixels width x height values, row-major
/// \param width template width
/// \param height template height
Template make_template(std::vector<std::uint8_t> pixels, int width, int height);

/// Horizontal offset of the window of output x: the window starts at x + x_offset().
/// \param template_width the template's width
constexpr int window_x_offset(int template_width) { return -(template_width / 2); }
/// Vertical offset of the window of output y.
/// \param template_height the template's height
constexpr int window_y_offset(int template_height) { return -(template_height / 2); }

/// The three image sums of one output pixel, as the "sums" twin of every kernel writes them
/// (section 15.6). Exact: see the file's note on exactness.
struct CorrSums {
  std::uint32_t sum_i = 0;    ///< \f$\sum I\f$ over the window (SumI)
  std::uint32_t sum_isq = 0;  ///< \f$\sum I^2\f$ (SumISq)
  std::uint32_t sum_it = 0;   ///< \f$\sum I T\f$ (SumIT)
};

/// Absolute tolerance of a GPU coefficient (float) against the CPU's (double). Every GPU
/// variant computes the numerator and both variance terms exactly in 64-bit integers and
/// only then rounds: three roundings to float, one product and rsqrtf (at most 2 ulp)
/// give at most about \f$6 \cdot 10^{-7}\f$ for coefficients of magnitude up to 1.
constexpr double kCoefficientTolerance = 2e-6;

/// Where the template matches best: the largest coefficient and its position.
struct Peak {
  int x = -1;
  int y = -1;
  double value = 0.0;
};

}  // namespace ch15
