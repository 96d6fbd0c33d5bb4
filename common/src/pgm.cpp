#include "hb/pgm.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include "hb/error.h"

namespace hb {

namespace {

class Parser {
 public:
  Parser(const std::string& data, const std::string& name) : d_(data), name_(name) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw UsageError(name_ + ": not a valid PGM image: " + why);
  }

  // Skips whitespace and '#' comments (which run to the end of the line).
  void skip_space() {
    while (pos_ < d_.size()) {
      const char c = d_[pos_];
      if (c == '#') {
        while (pos_ < d_.size() && d_[pos_] != '\n' && d_[pos_] != '\r') ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else {
        break;
      }
    }
  }

  // A decimal field of the header or of P2 pixel data; at most \p max.
  unsigned long number(const char* what, unsigned long max) {
    skip_space();
    if (pos_ >= d_.size()) fail(std::string("file ends before the ") + what);
    if (!std::isdigit(static_cast<unsigned char>(d_[pos_])))
      fail(std::string("expected the ") + what + " (a decimal number), found '" + d_[pos_] + "'");
    unsigned long v = 0;
    while (pos_ < d_.size() && std::isdigit(static_cast<unsigned char>(d_[pos_]))) {
      v = v * 10 + static_cast<unsigned long>(d_[pos_] - '0');
      if (v > max) fail(std::string(what) + " is larger than " + std::to_string(max));
      ++pos_;
    }
    if (pos_ < d_.size() && !std::isspace(static_cast<unsigned char>(d_[pos_])) && d_[pos_] != '#')
      fail(std::string("unexpected character '") + d_[pos_] + "' after the " + what);
    return v;
  }

  GrayImage parse() {
    if (d_.size() < 2 || d_[0] != 'P' || (d_[1] != '5' && d_[1] != '2'))
      fail("it does not start with the magic number P5 (binary) or P2 (ASCII)");
    const bool binary = d_[1] == '5';
    pos_ = 2;
    if (pos_ < d_.size() && !std::isspace(static_cast<unsigned char>(d_[pos_])) && d_[pos_] != '#')
      fail("the magic number must be followed by white space");
    GrayImage img;
    const auto w = number("width", kMaxPgmSide);
    const auto h = number("height", kMaxPgmSide);
    if (w == 0 || h == 0) fail("width and height must be at least 1");
    if (std::size_t(w) * h > kMaxPgmPixels)
      fail(std::to_string(w) + " x " + std::to_string(h) + " pixels is more than the " +
           std::to_string(kMaxPgmPixels) + " we accept");
    const auto maxval = number("maxval", 65535);
    if (maxval == 0) fail("maxval must be at least 1");
    if (maxval > 255)
      fail("maxval " + std::to_string(maxval) +
           " means 16-bit samples, which are not supported (maxval must be 1..255)");
    img.width = static_cast<int>(w);
    img.height = static_cast<int>(h);
    img.maxval = static_cast<int>(maxval);
    const std::size_t count = std::size_t(w) * h;
    if (binary) {
      // Exactly one white-space character separates the header from the pixel bytes.
      if (pos_ >= d_.size()) fail("file ends after the header: no pixel data");
      ++pos_;
      const std::size_t have = d_.size() - pos_;
      if (have < count)
        fail("truncated: expected " + std::to_string(count) + " bytes of pixel data, found " +
             std::to_string(have));
      img.pixels.assign(d_.begin() + static_cast<std::ptrdiff_t>(pos_),
                        d_.begin() + static_cast<std::ptrdiff_t>(pos_ + count));
      for (std::size_t i = 0; i < count; ++i)
        if (img.pixels[i] > maxval)
          fail("pixel " + std::to_string(i) + " has value " + std::to_string(img.pixels[i]) +
               ", above maxval " + std::to_string(maxval));
    } else {
      img.pixels.resize(count);
      for (std::size_t i = 0; i < count; ++i) {
        skip_space();
        if (pos_ >= d_.size())
          fail("truncated: expected " + std::to_string(count) + " pixel values, found " +
               std::to_string(i));
        const auto v = number("pixel value", 65535);
        if (v > maxval)
          fail("pixel " + std::to_string(i) + " has value " + std::to_string(v) +
               ", above maxval " + std::to_string(maxval));
        img.pixels[i] = static_cast<std::uint8_t>(v);
      }
    }
    return img;
  }

 private:
  const std::string& d_;
  std::string name_;
  std::size_t pos_ = 0;
};

void validate(const GrayImage& img) {
  if (img.width < 1 || img.height < 1 || img.width > kMaxPgmSide || img.height > kMaxPgmSide)
    throw UsageError("PGM: image size " + std::to_string(img.width) + " x " +
                     std::to_string(img.height) + " is out of range");
  if (img.maxval < 1 || img.maxval > 255)
    throw UsageError("PGM: maxval " + std::to_string(img.maxval) + " is out of range 1..255");
  if (img.pixels.size() != std::size_t(img.width) * img.height)
    throw UsageError("PGM: image holds " + std::to_string(img.pixels.size()) +
                     " pixels, not width x height");
}

}  // namespace

GrayImage parse_pgm(const std::string& data, const std::string& name) {
  return Parser(data, name).parse();
}

GrayImage read_pgm(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw UsageError(path + ": cannot open the file for reading");
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) throw UsageError(path + ": read error");
  return parse_pgm(ss.str(), path);
}

std::string format_pgm(const GrayImage& image, PgmFormat format) {
  validate(image);
  std::string out = (format == PgmFormat::Binary ? "P5\n" : "P2\n") +
                    std::to_string(image.width) + " " + std::to_string(image.height) + "\n" +
                    std::to_string(image.maxval) + "\n";
  if (format == PgmFormat::Binary) {
    out.append(image.pixels.begin(), image.pixels.end());
  } else {
    // Plain PGM lines should stay under 70 characters.
    int on_line = 0;
    for (std::uint8_t p : image.pixels) {
      out += std::to_string(p);
      out += (++on_line == 16) ? '\n' : ' ';
      if (on_line == 16) on_line = 0;
    }
    if (on_line != 0) out += '\n';
  }
  return out;
}

void write_pgm(const std::string& path, const GrayImage& image, PgmFormat format) {
  const std::string data = format_pgm(image, format);
  std::ofstream f(path, std::ios::binary);
  if (!f) throw UsageError(path + ": cannot open the file for writing");
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!f) throw UsageError(path + ": write error");
}

}  // namespace hb
