#include "hb/memory.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace hb {

std::string bytes_text(std::size_t bytes) {
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  double value = double(bytes) / 1024.0;
  int unit = 0;
  while (value >= 1024.0 && unit < 3) {
    value /= 1024.0;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", value, units[unit]);
  return buf;
}

std::size_t available_host_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    std::size_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

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

namespace {
// Free and total memory of the current device.
void device_memory(std::size_t& free, std::size_t& total, int& device) {
  HB_CUDA_CHECK(cudaGetDevice(&device));
  HB_CUDA_CHECK(cudaMemGetInfo(&free, &total));
}
}  // namespace

void require_device_memory(std::size_t bytes, const std::string& what) {
  std::size_t free = 0, total = 0;
  int device = 0;
  device_memory(free, total, device);
  if (bytes > free)
    throw UsageError(what + " needs " + bytes_text(bytes) + " of device memory; device " +
                     std::to_string(device) + " has " + bytes_text(free) + " free of " +
                     bytes_text(total));
}

namespace detail {

void* DeviceKind::allocate(std::size_t bytes) {
  void* p = nullptr;
  const cudaError_t code = cudaMalloc(&p, bytes);
  if (code == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    std::size_t free = 0, total = 0;
    int device = 0;
    device_memory(free, total, device);
    throw std::runtime_error("out of device memory: cannot allocate " + bytes_text(bytes) +
                             "; device " + std::to_string(device) + " has " + bytes_text(free) +
                             " free of " + bytes_text(total) + " (try a smaller size)");
  }
  HB_CUDA_CHECK(code);
  return p;
}
void DeviceKind::release(void* p) noexcept { (void)cudaFree(p); }

namespace {
// cudaHostAlloc with a clear message when the host has too little memory to pin.
void* host_alloc(std::size_t bytes, unsigned flags, const char* kind) {
  void* p = nullptr;
  const cudaError_t code = cudaHostAlloc(&p, bytes, flags);
  if (code == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw std::runtime_error(std::string("out of host memory: cannot allocate ") +
                             bytes_text(bytes) + " of " + kind + " host memory; this machine has " +
                             available_host_memory_text() + " available (try a smaller size)");
  }
  HB_CUDA_CHECK(code);
  return p;
}
}  // namespace

void* PinnedKind::allocate(std::size_t bytes) {
  return host_alloc(bytes, cudaHostAllocPortable, "pinned");
}
void PinnedKind::release(void* p) noexcept { (void)cudaFreeHost(p); }

void* MappedKind::allocate(std::size_t bytes) {
  return host_alloc(bytes, cudaHostAllocMapped | cudaHostAllocPortable, "mapped");
}
void MappedKind::release(void* p) noexcept { (void)cudaFreeHost(p); }

void* mapped_device_pointer(void* host) {
  void* d = nullptr;
  HB_CUDA_CHECK(cudaHostGetDevicePointer(&d, host, 0));
  return d;
}

}  // namespace detail

Stream::Stream() { HB_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
Stream::~Stream() {
  if (s_ != nullptr) (void)cudaStreamDestroy(s_);
}
Stream& Stream::operator=(Stream&& o) noexcept {
  if (this != &o) {
    if (s_ != nullptr) (void)cudaStreamDestroy(s_);
    s_ = std::exchange(o.s_, nullptr);
  }
  return *this;
}
void Stream::synchronize() const { HB_CUDA_CHECK(cudaStreamSynchronize(s_)); }

Event::Event() { HB_CUDA_CHECK(cudaEventCreate(&e_)); }
Event::~Event() {
  if (e_ != nullptr) (void)cudaEventDestroy(e_);
}
Event& Event::operator=(Event&& o) noexcept {
  if (this != &o) {
    if (e_ != nullptr) (void)cudaEventDestroy(e_);
    e_ = std::exchange(o.e_, nullptr);
  }
  return *this;
}
void Event::record(cudaStream_t stream) const { HB_CUDA_CHECK(cudaEventRecord(e_, stream)); }
void Event::synchronize() const { HB_CUDA_CHECK(cudaEventSynchronize(e_)); }
float Event::elapsed_since(const Event& start) const {
  float ms = 0.0f;
  HB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, e_));
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
