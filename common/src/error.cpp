#include "hb/error.h"

#include "hb/capability.h"
#include "hb/memory.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

namespace hb {

namespace {
// A report that never reached standard output is a failure: exit 1 unless the run had
// already failed.
int check_stdout(const char* program, int rc) {
  errno = 0;
  std::cout.flush();
  if (std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout)) return rc;
  const int error = errno;
  std::fprintf(stderr, "%s: error: could not write to standard output%s%s\n", program,
               error != 0 ? ": " : "", error != 0 ? std::strerror(error) : "");
  return rc == kExitOk || rc == kExitLeftOut ? kExitFailed : rc;
}
}  // namespace

CudaError::CudaError(cudaError_t code, const char* call, const char* file, int line)
    : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call +
                         " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) +
                         ")"),
      code_(code) {}

void cuda_check(cudaError_t code, const char* call, const char* file, int line) {
  if (code == cudaSuccess) return;
  // Clear the sticky "last error" so that a caller who handles the exception can go on.
  (void)cudaGetLastError();
  throw CudaError(code, call, file, line);
}

int run_main(const char* program, const std::function<int()>& body) {
  const std::string name = program;
  const auto say = [](std::FILE* to, const std::string& line, int rc) {
    std::fprintf(to, "%s\n", line.c_str());
    return rc;
  };
  int rc = kExitFailed;
  try {
    rc = body();
  } catch (const UsageError& e) {
    rc = say(stderr, name + ": error: " + printable(e.what()), kExitUsage);
  } catch (const LeftOut& e) {
    rc = say(stdout, "SKIPPED: " + name + " " + printable(e.what()), kExitLeftOut);
  } catch (const NoDevice& e) {
    rc = say(stderr, name + ": " + printable(e.what()), kExitNoDevice);
  } catch (const CheckFailed& e) {
    rc = say(stderr, name + ": CHECK FAILED: " + e.what(), kExitFailed);
  } catch (const CudaError& e) {
    rc = say(stderr, name + ": CUDA error: " + e.what(), kExitFailed);
  } catch (const std::bad_alloc&) {
    const std::string memory = available_host_memory_text() + " of memory available";
    rc = say(stderr, name + ": error: out of host memory: an allocation failed (" + memory +
                         " on this machine); try a smaller size", kExitFailed);
  } catch (const std::exception& e) {
    rc = say(stderr, name + ": error: " + printable(e.what()), kExitFailed);
  }
  return check_stdout(program, rc);
}

}  // namespace hb
