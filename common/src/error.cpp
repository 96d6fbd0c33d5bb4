#include "hb/error.h"

#include "hb/capability.h"

#include <cstdio>
#include <exception>

namespace hb {

namespace {
std::string describe(cudaError_t code, const char* call, const char* file, int line) {
  return std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
         cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")";
}
}  // namespace

CudaError::CudaError(cudaError_t code, const char* call, const char* file, int line)
    : std::runtime_error(describe(code, call, file, line)), code_(code) {}

void cuda_check(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) {
    // Clear the sticky "last error" so that a caller who handles the exception can go on.
    (void)cudaGetLastError();
    throw CudaError(code, call, file, line);
  }
}

int run_main(const char* program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return kExitUsage;
  } catch (const LeftOut& e) {
    std::printf("SKIPPED: %s %s\n", program, e.what());
    std::fflush(stdout);
    return kExitLeftOut;
  } catch (const NoDevice& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return kExitNoDevice;
  } catch (const CheckFailed& e) {
    std::fprintf(stderr, "%s: CHECK FAILED: %s\n", program, e.what());
    return kExitFailed;
  } catch (const CudaError& e) {
    std::fprintf(stderr, "%s: CUDA error: %s\n", program, e.what());
    return kExitFailed;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return kExitFailed;
  }
}

}  // namespace hb
