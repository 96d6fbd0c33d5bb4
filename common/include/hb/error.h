/// \file
/// \brief Errors shared by every program: CUDA failures, usage errors, failed checks, and the
///        wrapper that turns each into the project's exit code.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

namespace hb {

/// Exit codes of every program in the repository.
enum ExitCode : int {
  kExitOk = 0,        ///< every check passed
  kExitFailed = 1,    ///< a check failed, or CUDA reported an error
  kExitUsage = 2,     ///< bad flags, sizes or files; nothing was run
  kExitLeftOut = 3,   ///< the variant needs a newer GPU or more shared memory: "SKIPPED: ..."
  kExitNoDevice = 77  ///< no CUDA device: nothing was run or checked (ctest reports "Skipped")
};

/// A CUDA runtime call failed. what() names the call, the file and line, and CUDA's message.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* call, const char* file, int line);
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

/// Bad input from the user: a flag, a size, a file. Programs exit with kExitUsage.
class UsageError : public std::runtime_error { using runtime_error::runtime_error; };

/// A result did not match its reference. Programs exit with kExitFailed.
class CheckFailed : public std::runtime_error { using runtime_error::runtime_error; };

/// There is no usable CUDA device. Programs exit with kExitNoDevice.
class NoDevice : public std::runtime_error { using runtime_error::runtime_error; };

/// \p text with control characters (newlines, tabs, escapes) written as \\n, \\t or \\xNN, so that
/// echoing a user's argument can never break a one-line message or a CSV header.
std::string printable(const std::string& text);

/// \p text in single quotes for a message, printable(), and cut after 32 characters with its
/// length ("'1111...' (5000 characters)") so that an argument can never flood a usage line.
std::string quote_arg(const std::string& text);

/// The work of HB_CUDA_CHECK.
void cuda_check(cudaError_t code, const char* call, const char* file, int line);

/// Runs \p body and maps what it throws to an exit code, printing a one-line message to
/// stderr prefixed with \p program. Every main() in the repository is `return hb::run_main(...)`.
int run_main(const char* program, const std::function<int()>& body);

}  // namespace hb

/// Throws hb::CudaError, with the call's text, file and line, unless \p call returns cudaSuccess.
#define HB_CUDA_CHECK(call) ::hb::cuda_check((call), #call, __FILE__, __LINE__)

/// After a kernel launch: checks the launch itself (configuration errors) without
/// synchronizing. Errors inside the kernel surface at the next synchronizing call.
#define HB_CHECK_LAUNCH() ::hb::cuda_check(cudaPeekAtLastError(), "kernel launch", __FILE__, __LINE__)
