/// \file
/// \brief Strict reading and writing of 8-bit PGM images (binary P5 and ASCII P2): every
///        malformed file (bad magic number or field, zero or huge size, 16-bit maxval, pixels
///        above maxval, truncated data) is a UsageError naming the file and the problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hb {

/// A gray-scale image, row-major, one byte per pixel.
struct GrayImage {
  int width = 0, height = 0;
  int maxval = 255;                 ///< the brightest value the file declared
  std::vector<std::uint8_t> pixels;  ///< width x height values in 0..maxval

  std::uint8_t at(int x, int y) const { return pixels[std::size_t(y) * width + x]; }
};

/// Largest image we accept: 2^28 pixels (256 Mpixel), each side at most 2^20.
constexpr std::size_t kMaxPgmPixels = std::size_t(1) << 28;
constexpr int kMaxPgmSide = 1 << 20;

/// Parses PGM data held in memory; \p name is used in error messages. A comment may follow any
/// header field, maxval included (netpbm's reading: the raster starts after its newline).
GrayImage parse_pgm(const std::string& data, const std::string& name = "<memory>");
/// Reads a PGM file (hb::InputFile: "-" is standard input), never more than the header announces.
/// Throws UsageError when the file cannot be read or is malformed.
GrayImage read_pgm(const std::string& path);

enum class PgmFormat { Binary /* P5 */, Ascii /* P2 */ };

/// Serializes \p image (validated first: sizes and maxval as parse_pgm requires).
std::string format_pgm(const GrayImage& image, PgmFormat format = PgmFormat::Binary);
/// Writes \p image to \p path with hb::write_file (check the path first with
/// hb::check_output_path).
void write_pgm(const std::string& path, const GrayImage& image,
               PgmFormat format = PgmFormat::Binary);

}  // namespace hb
