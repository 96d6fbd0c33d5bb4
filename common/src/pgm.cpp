#include "hb/pgm.h"

#include <algorithm>
#include <cctype>
#include <istream>
#include <sstream>

#include "hb/error.h"
#include "hb/files.h"

namespace hb {

namespace {

// Reads a PGM image from a stream, byte by byte for the header and P2 data and in one block
// for P5 data: never more than the header asks for, and nothing is allocated beyond what the
// input holds (a header promising 2^28 pixels in an 18-byte file fails before any allocation).
class Parser {
 public:
  Parser(std::istream& in, std::size_t size, const std::string& name)
      : in_(in), size_(size), name_(printable(name)) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw UsageError(name_ + ": not a valid PGM image: " + why);
  }

  GrayImage parse() {
    const int p = get(), digit = get();
    if (p != 'P' || (digit != '5' && digit != '2'))
      fail("it does not start with the magic number P5 (binary) or P2 (ASCII)");
    const bool binary = digit == '5';
    if (!at_end() && !std::isspace(peek()) && peek() != '#')
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
    if (binary) read_raster(img, count);
    else read_plain(img, count);
    return img;
  }

 private:
  bool at_end() { return peek() == std::char_traits<char>::eof(); }
  int peek() { return in_.peek(); }
  int get() {
    const int c = in_.get();
    if (c != std::char_traits<char>::eof()) ++pos_;
    return c;
  }
  // Bytes left in the input, when its size is known.
  std::size_t left() const { return size_ == InputFile::kUnknownSize ? size_ : size_ - pos_; }

  // Skips a comment: from '#' through the end of its line (the newline included).
  void skip_comment() {
    for (int c = get(); c != std::char_traits<char>::eof() && c != '\n' && c != '\r'; c = get()) {
    }
  }
  void skip_space() {
    for (int c = peek(); c == '#' || std::isspace(c); c = peek()) {
      if (c == '#') skip_comment();
      else get();
    }
  }

  // A decimal field of the header or of P2 pixel data; at most \p max.
  unsigned long number(const char* what, unsigned long max) {
    skip_space();
    if (at_end()) fail(std::string("file ends before the ") + what);
    if (!std::isdigit(peek()))
      fail(std::string("expected the ") + what + " (a decimal number), found " + shown(peek()));
    unsigned long v = 0;
    while (!at_end() && std::isdigit(peek())) {
      v = v * 10 + static_cast<unsigned long>(get() - '0');
      if (v > max) fail(std::string(what) + " is larger than " + std::to_string(max));
    }
    if (!at_end() && !std::isspace(peek()) && peek() != '#')
      fail("unexpected character " + shown(peek()) + " after the " + what);
    return v;
  }

  static std::string shown(int c) {
    return c >= 0x20 && c < 0x7f ? std::string("'") + char(c) + "'" : "byte " + std::to_string(c);
  }

  // P5: one white-space character (or a comment through its newline, as netpbm reads it)
  // after maxval, then exactly \p count bytes.
  void read_raster(GrayImage& img, std::size_t count) {
    if (at_end()) fail("file ends after the header: no pixel data");
    if (peek() == '#') skip_comment();
    else get();
    const auto truncated = [&](std::size_t found) {
      fail("truncated: expected " + std::to_string(count) + " bytes of pixel data, found " +
           std::to_string(found));
    };
    if (left() != InputFile::kUnknownSize && left() < count) truncated(left());
    // Read in blocks, so that an input of unknown size (standard input) costs memory only for
    // the bytes it really holds.
    constexpr std::size_t kBlock = std::size_t(1) << 24;
    std::size_t have = 0;
    while (have < count) {
      const std::size_t want = std::min(kBlock, count - have);
      img.pixels.resize(have + want);
      in_.read(reinterpret_cast<char*>(img.pixels.data() + have), std::streamsize(want));
      const auto got = static_cast<std::size_t>(in_.gcount());
      have += got;
      pos_ += got;
      if (got < want) break;
    }
    if (in_.bad()) fail("read error");
    if (have < count) truncated(have);
    img.pixels.resize(count);
    for (std::size_t i = 0; i < count; ++i) check_pixel(img, i, img.pixels[i]);
  }

  void check_pixel(const GrayImage& img, std::size_t i, unsigned long v) const {
    if (v > static_cast<unsigned long>(img.maxval))
      fail("pixel " + std::to_string(i) + " has value " + std::to_string(v) + ", above maxval " +
           std::to_string(img.maxval));
  }

  // P2: \p count decimal values separated by white space (and comments).
  void read_plain(GrayImage& img, std::size_t count) {
    // Each value takes at least one digit and one separator, so memory is reserved for no
    // more values than the input can hold (an 18-byte header promising 2^28 pixels reserves
    // nothing, then fails as truncated).
    const std::size_t room = left() == InputFile::kUnknownSize ? std::size_t(1) << 20
                                                               : left() / 2 + 1;
    img.pixels.reserve(std::min(count, room));
    for (std::size_t i = 0; i < count; ++i) {
      skip_space();
      if (at_end())
        fail("truncated: expected " + std::to_string(count) + " pixel values, found " +
             std::to_string(i));
      const auto v = number("pixel value", 65535);
      check_pixel(img, i, v);
      img.pixels.push_back(static_cast<std::uint8_t>(v));
    }
    if (in_.bad()) fail("read error");
  }

  std::istream& in_;
  std::size_t size_, pos_ = 0;
  std::string name_;
};

}  // namespace

GrayImage parse_pgm(const std::string& data, const std::string& name) {
  std::istringstream in(data);
  return Parser(in, data.size(), name).parse();
}

GrayImage read_pgm(const std::string& path) {
  InputFile file(path);
  return Parser(file.stream(), file.size(), path == "-" ? "standard input" : path).parse();
}

std::string format_pgm(const GrayImage& image, PgmFormat format) {
  const auto out_of_range = [](int side) { return side < 1 || side > kMaxPgmSide; };
  if (out_of_range(image.width) || out_of_range(image.height))
    throw UsageError("PGM: image size " + std::to_string(image.width) + " x " +
                     std::to_string(image.height) + " is out of range");
  if (image.maxval < 1 || image.maxval > 255)
    throw UsageError("PGM: maxval " + std::to_string(image.maxval) + " is out of range 1..255");
  if (image.pixels.size() != std::size_t(image.width) * image.height)
    throw UsageError("PGM: image holds " + std::to_string(image.pixels.size()) +
                     " pixels, not width x height");
  std::string out = (format == PgmFormat::Binary ? "P5\n" : "P2\n") +
                    std::to_string(image.width) + " " + std::to_string(image.height) + "\n" +
                    std::to_string(image.maxval) + "\n";
  if (format == PgmFormat::Binary) return out.append(image.pixels.begin(), image.pixels.end());
  // Plain PGM lines should stay under 70 characters: 16 values a line.
  for (std::size_t i = 0; i < image.pixels.size(); ++i)
    out += std::to_string(image.pixels[i]) + (i % 16 == 15 ? '\n' : ' ');
  if (image.pixels.size() % 16 != 0) out += '\n';
  return out;
}

void write_pgm(const std::string& path, const GrayImage& image, PgmFormat format) {
  write_file(path, format_pgm(image, format));
}

}  // namespace hb
