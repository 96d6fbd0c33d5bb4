/// \file
/// \brief Files a program reads and writes, checked before any work: inputs must be regular
///        files (or standard input, asked for as "-"), outputs are written whole or not at all.
#pragma once

#include <cstddef>
#include <istream>
#include <memory>
#include <string>

namespace hb {

/// An input file opened for reading after the checks that keep a program from hanging or
/// reading without end: the path must name a regular file (not a directory, FIFO, device or
/// socket); "-" asks for standard input instead. Throws UsageError naming the file and the
/// problem.
class InputFile {
 public:
  explicit InputFile(const std::string& path);
  ~InputFile();
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
  std::unique_ptr<std::istream> owned_;
  std::istream* stream_ = nullptr;
};

/// Checks, before any work, that \p path can be written at the end of the run, without creating
/// it: not empty, not a directory, its folder exists and takes new files, and an existing file
/// of that name may be replaced (which is what every writer here does). Devices and FIFOs the
/// user names (/dev/null, /dev/stdout) are accepted as they are. Throws UsageError naming
/// \p flag.
void check_output_path(const std::string& path, const std::string& flag);

/// Writes \p data to \p path whole or not at all: a regular file (new or replaced) is written
/// to a temporary file in the same folder, flushed, closed and then renamed over \p path, so a
/// failed write leaves the old file, or none, never a half-written one; a device or FIFO is
/// written directly. Throws std::runtime_error (exit 1) with the system's reason on any
/// failure, also when the device is full.
void write_file(const std::string& path, const std::string& data);

}  // namespace hb
