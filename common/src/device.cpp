#include "hb/device.h"

#include <cuda_runtime_api.h>

#include "hb/error.h"

namespace hb {

int device_count(std::string* why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    if (why) *why = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
    return 0;
  }
  if (count == 0 && why) *why = "the CUDA driver reports no devices";
  return count;
}

void select_device(int index) {
  std::string why;
  const int count = device_count(&why);
  if (count == 0)
    throw NoDevice("no CUDA device found (" + why +
                   "). Nothing was run. Run this program on a machine with an NVIDIA GPU "
                   "and driver (see README.md, 'Running on a GPU machine').");
  if (index < 0 || index >= count)
    throw UsageError("--device " + std::to_string(index) + ": this machine has " +
                     std::to_string(count) + " CUDA device(s), numbered 0.." +
                     std::to_string(count - 1));
  HB_CUDA_CHECK(cudaSetDevice(index));
}

Residency Residency::of_current_device() {
  int device = 0;
  HB_CUDA_CHECK(cudaGetDevice(&device));
  Residency r;
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&r.sm_count, cudaDevAttrMultiProcessorCount, device));
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&r.max_threads_per_sm,
                                       cudaDevAttrMaxThreadsPerMultiProcessor, device));
  return r;
}

DeviceInfo query_device(int index) {
  DeviceInfo d;
  d.index = index;
  cudaDeviceProp prop{};
  HB_CUDA_CHECK(cudaGetDeviceProperties(&prop, index));
  d.name = prop.name;
  d.global_memory_bytes = prop.totalGlobalMem;
  auto attr = [index](cudaDeviceAttr a) {
    int v = 0;
    HB_CUDA_CHECK(cudaDeviceGetAttribute(&v, a, index));
    return v;
  };
  d.cc_major = attr(cudaDevAttrComputeCapabilityMajor);
  d.cc_minor = attr(cudaDevAttrComputeCapabilityMinor);
  d.sm_count = attr(cudaDevAttrMultiProcessorCount);
  d.clock_khz = attr(cudaDevAttrClockRate);
  d.memory_clock_khz = attr(cudaDevAttrMemoryClockRate);
  d.memory_bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth);
  d.l2_bytes = static_cast<std::size_t>(attr(cudaDevAttrL2CacheSize));
  d.shared_per_block_optin = static_cast<std::size_t>(attr(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  d.max_threads_per_sm = attr(cudaDevAttrMaxThreadsPerMultiProcessor);
  d.async_engines = attr(cudaDevAttrAsyncEngineCount);
  HB_CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  HB_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  return d;
}

}  // namespace hb
