/// \file
/// \brief Files a program reads and writes, checked before any work: inputs must be regular
///        files (or standard input, asked for as "-"), outputs are written whole or not at all.
#pragma once

#include <cstddef>
#include <fstream>
#include <istream>
#include <string>

namespace hb {

/// An input file, opened after the checks that keep a program from hanging or reading without
/// end: \p path must name a regular file (not a directory, FIFO, device or socket), or be "-"
/// for standard input. Throws UsageError naming the file and the problem.
class InputFile {
 public:
  explicit InputFile(const std::string& path);
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  std::istream& stream() { return *stream_; }
  /// The file's size in bytes, or kUnknownSize for standard input.
  std::size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  static constexpr std::size_t kUnknownSize = ~std::size_t(0);

 private:
  std::string path_;
  std::size_t size_ = kUnknownSize;
  std::ifstream file_;
  std::istream* stream_ = &file_;
};

/// Checks, before any work, that \p path can be written at the end of the run, without creating
/// it: not empty, not a directory, in a folder that takes new files, replaceable if it exists;
/// devices and FIFOs (/dev/null, /dev/stdout) pass as they are. Throws UsageError naming \p flag.
void check_output_path(const std::string& path, const std::string& flag);

/// Writes \p data to \p path whole or not at all: through a temporary file in the same folder,
/// flushed and renamed over \p path, so a failed write leaves the old file, or none; a device
/// or FIFO directly. Throws std::runtime_error (exit 1) with the system's reason on any failure.
void write_file(const std::string& path, const std::string& data);

}  // namespace hb
