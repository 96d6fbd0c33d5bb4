#include "hb/memory.h"

namespace hb {
namespace detail {

void* DeviceKind::allocate(std::size_t bytes) {
  void* p = nullptr;
  HB_CUDA_CHECK(cudaMalloc(&p, bytes));
  return p;
}
void DeviceKind::release(void* p) noexcept { (void)cudaFree(p); }

void* PinnedKind::allocate(std::size_t bytes) {
  void* p = nullptr;
  HB_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocPortable));
  return p;
}
void PinnedKind::release(void* p) noexcept { (void)cudaFreeHost(p); }

void* MappedKind::allocate(std::size_t bytes) {
  void* p = nullptr;
  HB_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  return p;
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
