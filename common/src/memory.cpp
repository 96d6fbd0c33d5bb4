#include "hb/memory.h"

#include <cstdio>
#include <fstream>
#include <limits>

namespace hb {

namespace {

// "1.5 GiB", "512.0 MiB", "12.0 KiB" or "100 bytes".
std::string bytes_text(std::size_t bytes) {
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  double value = double(bytes) / 1024.0;
  int unit = 0;
  for (; value >= 1024.0 && unit < 3; ++unit) value /= 1024.0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", value, units[unit]);
  return buf;
}

// MemAvailable from /proc/meminfo (Linux); 0 when unknown.
std::size_t available_host_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  while (meminfo >> key >> kib && key != "MemAvailable:")
    meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');  // the unit, if any
  return meminfo && key == "MemAvailable:" ? kib * 1024 : 0;
}

// The current device's free memory; \p text receives "device 0 has 1.0 GiB free of 140.0 GiB".
std::size_t free_device_memory(std::string& text) {
  std::size_t free = 0, total = 0;
  int device = 0;
  HB_CUDA_CHECK(cudaGetDevice(&device));
  HB_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  text = "device " + std::to_string(device) + " has " + bytes_text(free) + " free of " +
         bytes_text(total);
  return free;
}

}  // namespace

std::string available_host_memory_text() {
  const std::size_t bytes = available_host_memory();
  return bytes == 0 ? "an unknown amount" : bytes_text(bytes);
}

void require_host_memory(std::size_t bytes, const std::string& what) {
  const std::size_t available = available_host_memory();
  if (available != 0 && bytes > available)
    throw UsageError(what + " needs " + bytes_text(bytes) + " of host memory; this machine has " +
                     bytes_text(available) + " available");
}

void require_device_memory(std::size_t bytes, const std::string& what) {
  std::string free_text;
  if (bytes > free_device_memory(free_text))
    throw UsageError(what + " needs " + bytes_text(bytes) + " of device memory; " + free_text);
}

namespace detail {

void* allocate(Memory kind, std::size_t bytes) {
  void* p = nullptr;
  const unsigned mapped = kind == Memory::Mapped ? cudaHostAllocMapped : 0;
  const cudaError_t code = kind == Memory::Device
                               ? cudaMalloc(&p, bytes)
                               : cudaHostAlloc(&p, bytes, mapped | cudaHostAllocPortable);
  if (code == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    std::string free_text;
    if (kind == Memory::Device) {
      free_device_memory(free_text);
      throw std::runtime_error("out of device memory: cannot allocate " + bytes_text(bytes) +
                               "; " + free_text + " (try a smaller size)");
    }
    throw std::runtime_error("out of host memory: cannot allocate " + bytes_text(bytes) + " of " +
                             (mapped ? "mapped" : "pinned") + " host memory; this machine has " +
                             available_host_memory_text() + " available (try a smaller size)");
  }
  HB_CUDA_CHECK(code);
  return p;
}

void release(Memory kind, void* p) noexcept {
  (void)(kind == Memory::Device ? cudaFree(p) : cudaFreeHost(p));
}

void* mapped_device_pointer(void* host) {
  void* d = nullptr;
  HB_CUDA_CHECK(cudaHostGetDevicePointer(&d, host, 0));
  return d;
}

}  // namespace detail

Stream::Stream() {
  cudaStream_t s = nullptr;
  HB_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  h_.reset(s);
}

Event::Event() {
  cudaEvent_t e = nullptr;
  HB_CUDA_CHECK(cudaEventCreate(&e));
  h_.reset(e);
}
float Event::elapsed_since(const Event& start) const {
  float ms = 0.0f;
  HB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), get()));
  return ms;
}

void copy_to_device(void* device_dst, const void* host_src, std::size_t bytes) {
  if (bytes == 0) return;
  HB_CUDA_CHECK(cudaMemcpy(device_dst, host_src, bytes, cudaMemcpyHostToDevice));
  // The whole device, not only the legacy stream: that holds whichever default stream the
  // program was built with (--default-stream per-thread too).
  HB_CUDA_CHECK(cudaDeviceSynchronize());
}

void poison(void* device_ptr, std::size_t bytes, unsigned char value, cudaStream_t stream) {
  if (bytes == 0) return;
  HB_CUDA_CHECK(cudaMemsetAsync(device_ptr, value, bytes, stream));
}

}  // namespace hb
