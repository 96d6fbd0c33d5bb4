#include "hb/files.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hb/error.h"

namespace hb {

namespace {

std::string reason(int error) { return std::strerror(error); }

// What a path names: nothing, a regular file, a directory, or something else.
enum class Kind { Missing, Regular, Directory, Other };

Kind kind_of(const std::string& path, struct stat* st_out = nullptr, int* error = nullptr) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (error != nullptr) *error = errno;
    return Kind::Missing;
  }
  if (st_out != nullptr) *st_out = st;
  if (S_ISREG(st.st_mode)) return Kind::Regular;
  if (S_ISDIR(st.st_mode)) return Kind::Directory;
  return Kind::Other;
}

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// A hidden name beside \p path that no other writer of this process or another uses:
// ".<name>.<what>-<process id>-<counter>".
std::string temporary_name(const std::string& path, const char* what) {
  static std::atomic<unsigned> counter{0};
  const std::size_t base = path.find_last_of('/') + 1;  // 0 without a slash
  return path.substr(0, base) + "." + path.substr(base) + "." + what + "-" +
         std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

// Writes all of \p data to \p fd; returns 0 or the errno of the failure.
int write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

[[noreturn]] void write_failed(const std::string& path, int error) {
  throw std::runtime_error(printable(path) + ": write error: " + reason(error));
}

}  // namespace

InputFile::InputFile(const std::string& path) : path_(path) {
  if (path.empty()) throw UsageError("an empty file name was given as input");
  if (path == "-") {
    stream_ = &std::cin;
    return;
  }
  const std::string name = printable(path);
  struct stat st {};
  int error = 0;
  switch (kind_of(path, &st, &error)) {
    case Kind::Missing:
      throw UsageError(name + ": cannot open the file for reading: " + reason(error));
    case Kind::Directory: throw UsageError(name + ": is a directory, not a file");
    case Kind::Other:
      throw UsageError(name + ": is not a regular file (a FIFO, device or socket); to read "
                              "from a pipe, give '-' and send the data to standard input");
    case Kind::Regular: break;
  }
  file_.open(path, std::ios::binary);
  if (!file_) throw UsageError(name + ": cannot open the file for reading: " + reason(errno));
  size_ = static_cast<std::size_t>(st.st_size);
}

void check_output_path(const std::string& path, const std::string& flag) {
  const std::string name = flag + " " + printable(path);
  if (path.empty()) throw UsageError(flag + ": an empty file name was given");
  switch (kind_of(path)) {
    case Kind::Directory:
      throw UsageError(name + ": is a directory; give the name of a file to write");
    case Kind::Other: return;  // a device or FIFO the user named: written directly
    case Kind::Regular:
      if (::access(path.c_str(), W_OK) != 0)
        throw UsageError(name + ": the file exists and cannot be replaced: " + reason(errno));
      break;
    case Kind::Missing: break;
  }
  const std::string folder = folder_of(path);
  if (kind_of(folder) != Kind::Directory)
    throw UsageError(name + ": the folder " + printable(folder) + " does not exist");
  // The write at the end goes through a new file in this folder: make one now, and remove it
  // (access() alone says yes to root in places like /proc, where nothing can be created).
  const std::string probe = temporary_name(path, "probe");
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    throw UsageError(name + ": cannot create files in " + printable(folder) + ": " +
                     reason(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

void write_file(const std::string& path, const std::string& data) {
  // A device or FIFO is written directly, a regular file through a temporary one.
  const bool direct = kind_of(path) == Kind::Other;
  const std::string temp = direct ? path : temporary_name(path, "tmp");
  const int fd = direct ? ::open(path.c_str(), O_WRONLY | O_CLOEXEC)
                        : ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) write_failed(path, errno);
  int error = write_all(fd, data);
  if (!direct && error == 0 && ::fsync(fd) != 0 && errno != EINVAL) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (!direct && error == 0 && std::rename(temp.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    if (!direct) ::unlink(temp.c_str());
    write_failed(path, error);
  }
}

}  // namespace hb
