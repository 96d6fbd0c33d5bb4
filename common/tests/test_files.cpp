// Inputs only from regular files (or standard input, asked for), outputs whole or not at all.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hb/error.h"
#include "hb/files.h"
#include "hb/pgm.h"

namespace {
// A fresh folder of this test's own under the working directory.
std::string fresh_folder(const std::string& name) {
  const std::string dir = "hb_test_files_" + name + "_" + std::to_string(::getpid());
  ::mkdir(dir.c_str(), 0755);
  return dir;
}

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Every entry of \p dir but . and ..
int entries(const std::string& dir) {
  int count = 0;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") ++count;
    ::closedir(d);
  }
  return count;
}
}  // namespace

TEST_CASE("inputs that are not regular files are refused before they are opened", "[files]") {
  const std::string dir = fresh_folder("inputs");
  CHECK_THROWS_WITH(hb::InputFile(dir), Catch::Contains("is a directory"));
  // A FIFO with no writer would block the open forever; it is refused by its type first.
  const std::string fifo = dir + "/fifo.pgm";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(hb::InputFile(fifo), Catch::Contains("not a regular file"));
  CHECK_THROWS_WITH(hb::read_pgm(fifo), Catch::Contains("not a regular file"));
  CHECK_THROWS_AS(hb::InputFile("/dev/zero"), hb::UsageError);
  CHECK_THROWS_AS(hb::InputFile("/dev/null"), hb::UsageError);
  CHECK_THROWS_WITH(hb::InputFile(dir + "/none.pgm"), Catch::Contains("No such file"));
  CHECK_THROWS_AS(hb::InputFile(""), hb::UsageError);
  ::unlink(fifo.c_str());
  ::rmdir(dir.c_str());
}

TEST_CASE("a regular input reports its size; standard input is asked for as '-'", "[files]") {
  const std::string dir = fresh_folder("size");
  const std::string path = dir + "/a.bin";
  std::ofstream(path) << "12345";
  hb::InputFile f(path);
  CHECK(f.size() == 5);
  hb::InputFile in("-");
  CHECK(in.size() == hb::InputFile::kUnknownSize);
  ::unlink(path.c_str());
  ::rmdir(dir.c_str());
}

TEST_CASE("output paths are checked before the work without creating anything", "[files]") {
  const std::string dir = fresh_folder("outputs");
  CHECK_THROWS_WITH(hb::check_output_path(dir, "--output"), Catch::Contains("is a directory"));
  CHECK_THROWS_WITH(hb::check_output_path(dir + "/missing/x.pgm", "--output"),
                    Catch::Contains("does not exist"));
  CHECK_THROWS_AS(hb::check_output_path("", "--output"), hb::UsageError);
  CHECK_NOTHROW(hb::check_output_path(dir + "/new.pgm", "--output"));
  CHECK_NOTHROW(hb::check_output_path("/dev/null", "--output"));
  CHECK(entries(dir) == 0);  // the check created nothing
  if (::geteuid() != 0) {    // root may write anywhere
    ::chmod(dir.c_str(), 0555);
    CHECK_THROWS_WITH(hb::check_output_path(dir + "/new.pgm", "--output"),
                      Catch::Contains("cannot create files"));
    ::chmod(dir.c_str(), 0755);
  }
  ::rmdir(dir.c_str());
}

TEST_CASE("write_file replaces a file whole and leaves no temporary file behind", "[files]") {
  const std::string dir = fresh_folder("write");
  const std::string path = dir + "/out.txt";
  std::ofstream(path) << "old contents";
  hb::write_file(path, "new");
  CHECK(read_all(path) == "new");
  CHECK(entries(dir) == 1);
  hb::write_file(path, std::string(3 << 20, 'z'));  // larger than any stream buffer
  CHECK(read_all(path).size() == std::size_t(3) << 20);
  CHECK(entries(dir) == 1);
  ::unlink(path.c_str());
  ::rmdir(dir.c_str());
}

TEST_CASE("a write to a full device fails loudly, however small", "[files]") {
  if (::access("/dev/full", W_OK) != 0) return;  // Linux only
  CHECK_THROWS_WITH(hb::write_file("/dev/full", "P5\n1 1\n255\nx"),
                    Catch::Contains("/dev/full") && Catch::Contains("write error"));
  CHECK_NOTHROW(hb::write_file("/dev/null", "discarded"));
}
