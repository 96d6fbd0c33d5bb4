// Strict PGM: round trips in both formats, and a clear error for every malformed file.
#include <catch2/catch.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "hb/error.h"
#include "hb/pgm.h"

namespace {
hb::GrayImage sample(int w, int h, int maxval = 255) {
  hb::GrayImage img;
  img.width = w;
  img.height = h;
  img.maxval = maxval;
  for (int i = 0; i < w * h; ++i) img.pixels.push_back(static_cast<std::uint8_t>((i * 37) % (maxval + 1)));
  return img;
}

void expect_error(const std::string& data, const std::string& fragment) {
  INFO("file: " << data.substr(0, 40));
  CHECK_THROWS_WITH(hb::parse_pgm(data, "test.pgm"),
                    Catch::Contains("test.pgm") && Catch::Contains(fragment));
}
}  // namespace

TEST_CASE("binary and ASCII PGM round trip", "[pgm]") {
  for (auto fmt : {hb::PgmFormat::Binary, hb::PgmFormat::Ascii}) {
    for (const auto& img : {sample(1, 1), sample(17, 5), sample(3, 40, 15)}) {
      const auto back = hb::parse_pgm(hb::format_pgm(img, fmt));
      CHECK(back.width == img.width);
      CHECK(back.height == img.height);
      CHECK(back.maxval == img.maxval);
      CHECK(back.pixels == img.pixels);
    }
  }
}

TEST_CASE("PGM headers may carry comments and any white space", "[pgm]") {
  const auto img = hb::parse_pgm("P2\n# made by hand\n3  # width\n\t2\r\n9\n0 1 2\n# row 2\n7 8 9\n");
  CHECK(img.width == 3);
  CHECK(img.height == 2);
  CHECK(img.maxval == 9);
  CHECK(img.at(2, 1) == 9);
  const auto bin = hb::parse_pgm(std::string("P5 2 1 255\n") + char(200) + char(7));
  CHECK(bin.at(0, 0) == 200);
  CHECK(bin.at(1, 0) == 7);
}

TEST_CASE("malformed PGM headers are rejected with a reason", "[pgm]") {
  expect_error("", "magic number");
  expect_error("P6\n1 1\n255\nx", "magic number");
  expect_error("P52 2\n255\nxxxx", "white space");
  expect_error("P5\n", "width");
  expect_error("P5\nabc 2\n255\nxx", "width");
  expect_error("P5\n2\n", "height");
  expect_error("P5\n2 2\n", "maxval");
  expect_error("P5\n0 2\n255\n", "at least 1");
  expect_error("P5\n2 2\n0\n", "maxval must be at least 1");
  expect_error("P5\n2x 2\n255\nxxxx", "unexpected character");
}

TEST_CASE("16-bit PGM (maxval above 255) is refused", "[pgm]") {
  expect_error("P5\n1 1\n65535\nxx", "16-bit");
  expect_error("P5\n1 1\n256\nxx", "16-bit");
  expect_error("P5\n1 1\n70000\nxx", "larger than");
}

TEST_CASE("huge PGM sizes are refused before any allocation", "[pgm]") {
  expect_error("P5\n2000000 2\n255\n", "larger than");
  expect_error("P5\n1048576 1048576\n255\n", "more than");
  expect_error("P5\n99999999999999999999 1\n255\n", "larger than");
}

TEST_CASE("truncated PGM pixel data is reported with counts", "[pgm]") {
  expect_error("P5\n4 4\n255", "no pixel data");
  expect_error("P5\n4 4\n255\nabc", "expected 16 bytes of pixel data, found 3");
  expect_error("P2\n2 2\n255\n1 2 3", "expected 4 pixel values, found 3");
}

TEST_CASE("PGM pixel values above maxval are rejected", "[pgm]") {
  expect_error("P2\n2 1\n10\n5 11\n", "above maxval");
  expect_error(std::string("P5\n1 1\n100\n") + char(101), "above maxval");
}

TEST_CASE("read_pgm and write_pgm go through files and report missing files", "[pgm]") {
  const std::string path = "hb_test_roundtrip.pgm";
  const auto img = sample(31, 7);
  hb::write_pgm(path, img);
  const auto back = hb::read_pgm(path);
  CHECK(back.pixels == img.pixels);
  std::remove(path.c_str());
  CHECK_THROWS_AS(hb::read_pgm("/nonexistent/dir/none.pgm"), hb::UsageError);
  // A write that fails at the end of a run is a failure (exit 1), not a usage error.
  CHECK_THROWS_AS(hb::write_pgm("/nonexistent/dir/out.pgm", img), std::runtime_error);
}

TEST_CASE("a comment after maxval ends with its newline, which is the separator", "[pgm]") {
  // As netpbm reads it: the raster starts right after the comment's newline.
  const auto img = hb::parse_pgm(std::string("P5\n4 1\n255#c\n") + char(10) + char(20) +
                                 char(30) + char(40));
  REQUIRE(img.pixels.size() == 4);
  CHECK(img.pixels[0] == 10);
  CHECK(img.pixels[3] == 40);
}

TEST_CASE("a plain PGM header that promises more pixels than its file holds fails as truncated", "[pgm]") {
  // 18 bytes announce 2^28 pixels; the reader reserves memory only for what follows.
  expect_error("P2\n16384 16384\n255\n", "expected 268435456 pixel values, found 0");
}

TEST_CASE("a P5 file is read only as far as its header says", "[pgm]") {
  std::string data = std::string("P5\n2 1\n255\n") + char(1) + char(2);
  data += std::string(1000, 'x');  // trailing bytes are left unread, as netpbm does
  const auto img = hb::parse_pgm(data);
  CHECK(img.pixels == std::vector<std::uint8_t>{1, 2});
}

TEST_CASE("format_pgm refuses an inconsistent image", "[pgm]") {
  auto img = sample(4, 4);
  img.pixels.pop_back();
  CHECK_THROWS_AS(hb::format_pgm(img), hb::UsageError);
  img = sample(4, 4);
  img.maxval = 300;
  CHECK_THROWS_AS(hb::format_pgm(img), hb::UsageError);
}
