// libFuzzer harness of the PGM reader: every input either is refused with a one-line
// UsageError that names it, or gives an image that keeps every promise of hb/pgm.h and comes
// back unchanged through both formats we write. Anything else aborts (a finding).
//
//   build/common/fuzz_pgm -runs=1000000 build/common/fuzz_pgm_corpus common/fuzz/pgm_seeds
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "hb/error.h"
#include "hb/pgm.h"

namespace {
[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_pgm: %s: %s\n", what, detail.c_str());
  std::abort();
}

void check_image(const hb::GrayImage& img) {
  if (img.width < 1 || img.height < 1 || img.width > hb::kMaxPgmSide || img.height > hb::kMaxPgmSide)
    finding("size out of range", std::to_string(img.width) + " x " + std::to_string(img.height));
  if (std::size_t(img.width) * img.height > hb::kMaxPgmPixels) finding("too many pixels", "");
  if (img.pixels.size() != std::size_t(img.width) * img.height) finding("pixel count", "");
  if (img.maxval < 1 || img.maxval > 255) finding("maxval", std::to_string(img.maxval));
  for (std::uint8_t p : img.pixels)
    if (p > img.maxval) finding("pixel above maxval", std::to_string(p));
  for (const auto format : {hb::PgmFormat::Binary, hb::PgmFormat::Ascii}) {
    const hb::GrayImage back = hb::parse_pgm(hb::format_pgm(img, format), "round trip");
    if (back.width != img.width || back.height != img.height || back.maxval != img.maxval ||
        back.pixels != img.pixels)
      finding("round trip", format == hb::PgmFormat::Binary ? "P5" : "P2");
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  hb::GrayImage img;
  try {
    img = hb::parse_pgm(text, "input.pgm");
  } catch (const hb::UsageError& e) {
    const std::string message = e.what();
    if (message.rfind("input.pgm: not a valid PGM image: ", 0) != 0)
      finding("message does not name the file", message);
    if (hb::printable(message) != message) finding("message is not one printable line", message);
    return 0;
  }
  check_image(img);
  return 0;
}
