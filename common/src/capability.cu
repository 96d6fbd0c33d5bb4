#include "hb/capability.h"

#include <algorithm>
#include <map>
#include <mutex>

#include <cuda_runtime_api.h>

#include "hb/error.h"

namespace hb {

namespace {
// Built with the program's architectures like every other kernel: its ptxVersion is the
// virtual architecture the driver loaded for this GPU.
__global__ void probe_kernel() {}

std::vector<std::string> skips;

int current_device() {
  int device = 0;
  HB_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

// compute(device) for the current device, once per device: launchers ask on every call.
template <typename T, typename F>
T per_device(F compute) {
  static std::mutex mutex;
  static std::map<int, T> cache;
  const int device = current_device();
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(device); it != cache.end()) return it->second;
  }
  const T value = compute(device);
  const std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(device, value).first->second;
}

std::string kib_text(std::size_t bytes) { return std::to_string((bytes + 1023) / 1024) + " KiB"; }

}  // namespace

std::string needs_text(const Needs& needs) {
  std::string text;
  if (needs.cc > kOldestCapability) text = "compute capability " + capability_text(needs.cc);
  if (needs.shared_bytes > architecture_shared_limit(kOldestCapability))
    text += (text.empty() ? "" : " and ") + kib_text(needs.shared_bytes) +
            " of shared memory per block";
  return text.empty() ? "any GPU" : text;
}

std::string form_note(const Needs& needs) {
  switch (form_here(needs)) {
    case Form::Headline: return "";
    case Form::Portable:
      return std::string("portable form: ") + needs.below + " (the headline form needs " +
             needs_text(needs) + ")";
    case Form::None: return "left out: " + left_out_reason(needs);
  }
  return "";
}

Capability device_capability(int device) {
  int major = 0, minor = 0;
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return major * 10 + minor;
}

Capability code_capability() {
  return per_device<Capability>([](int) {
    cudaFuncAttributes attr{};
    HB_CUDA_CHECK(cudaFuncGetAttributes(&attr, probe_kernel));
    return attr.ptxVersion > 0 ? attr.ptxVersion : attr.binaryVersion;
  });
}

std::string capability_summary() {
  const Capability gpu = device_capability(current_device()), code = code_capability();
  return capability_text(gpu) +
         (gpu == code ? "" : ", running code built for " + capability_text(code));
}

std::size_t shared_per_block_limit() {
  return per_device<std::size_t>([](int device) {
    int optin = 0;
    HB_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    return std::min(static_cast<std::size_t>(optin), architecture_shared_limit(code_capability()));
  });
}

Form form_here(const Needs& needs) {
  return needs_anything(needs) ? form_for(needs, code_capability(), shared_per_block_limit())
                               : Form::Headline;
}

std::string left_out_reason(const Needs& needs) {
  const Capability code = code_capability();
  if (code < needs.cc) {
    const Capability gpu = device_capability(current_device());
    std::string text = "needs compute capability " + capability_text(needs.cc) + ", this GPU ";
    if (gpu == code) return text + "is " + capability_text(gpu);
    return text + "runs code built for " + capability_text(code) + " (the GPU is " +
           capability_text(gpu) + ")";
  }
  const std::size_t limit = shared_per_block_limit();
  if (limit < needs.shared_bytes)
    return "needs " + kib_text(needs.shared_bytes) + " of shared memory per block, this GPU " +
           "grants " + std::to_string(limit / 1024) + " KiB to code built for " +
           capability_text(code);
  return "runs here";
}

bool test_runs_here(const Needs& needs, const std::string& what) {
  if (form_here(needs) != Form::None) return true;
  skips.push_back(what + ": " + left_out_reason(needs));
  return false;
}

const std::vector<std::string>& noted_test_skips() { return skips; }

}  // namespace hb
