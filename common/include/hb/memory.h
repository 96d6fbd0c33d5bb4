/// \file
/// \brief RAII owners for device, pinned and mapped memory, streams and events: chapters never
///        free memory themselves, each owner frees it when it goes out of scope, also when a
///        check throws. Owners are move-only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>

#include "hb/error.h"

namespace hb {

/// Host memory available without swapping (MemAvailable), "7.5 GiB" or "an unknown amount".
std::string available_host_memory_text();

/// Throws UsageError, before any work, when \p bytes of host memory are more than this machine
/// has available: "<what> needs 12.0 GiB of host memory; this machine has 7.5 GiB available".
void require_host_memory(std::size_t bytes, const std::string& what);
/// The same for the current device, against the free memory cudaMemGetInfo reports.
void require_device_memory(std::size_t bytes, const std::string& what);

/// Whether \p p is aligned for 16-byte vector accesses (float4, int4, bulk copies).
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

namespace detail {
enum class Memory { Device, Pinned, Mapped };
/// cudaMalloc or cudaHostAlloc, with a clear message when the memory runs out.
void* allocate(Memory kind, std::size_t bytes);
void release(Memory kind, void* p) noexcept;
void* mapped_device_pointer(void* host);

/// One owner for every kind of allocation.
template <typename T, Memory M>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t count)
      : ptr_(count > 0 ? static_cast<T*>(allocate(M, count * sizeof(T))) : nullptr),
        count_(count) {}

  T* data() const noexcept { return ptr_.get(); }
  std::size_t size() const noexcept { return ptr_ ? count_ : 0; }  // 0 once moved from
  std::size_t bytes() const noexcept { return size() * sizeof(T); }
  bool empty() const noexcept { return size() == 0; }

 protected:
  struct Release { void operator()(T* p) const noexcept { release(M, p); } };
  std::unique_ptr<T, Release> ptr_;
  std::size_t count_ = 0;
};

/// A CUDA handle (stream, event) destroyed with its owner; move-only.
template <typename H, cudaError_t (*Destroy)(H)>
class Handle {
 public:
  H get() const noexcept { return h_.get(); }
  operator H() const noexcept { return h_.get(); }  // NOLINT: used like the handle

 protected:
  struct Release { void operator()(H h) const noexcept { (void)Destroy(h); } };
  std::unique_ptr<std::remove_pointer_t<H>, Release> h_;
};
inline cudaError_t destroy_stream(cudaStream_t s) { return cudaStreamDestroy(s); }
inline cudaError_t destroy_event(cudaEvent_t e) { return cudaEventDestroy(e); }
}  // namespace detail

/// Device memory from cudaMalloc.
template <typename T>
class DeviceBuffer : public detail::Buffer<T, detail::Memory::Device> {
 public:
  using detail::Buffer<T, detail::Memory::Device>::Buffer;
  /// Sets every byte to zero (cudaMemset, ordered with the legacy default stream).
  void zero() const { HB_CUDA_CHECK(cudaMemset(this->data(), 0, this->bytes())); }
};

/// Device memory sized once, outside any timed region, and handed out as an array of whatever
/// type a launcher needs (a scratch arena of one slot).
class ScratchBytes : public DeviceBuffer<unsigned char> {
 public:
  using DeviceBuffer<unsigned char>::DeviceBuffer;
  /// The memory as \p count elements of T; std::logic_error (a programming error, not bad input)
  /// when they do not fit.
  template <typename T>
  T* fit(std::size_t count, const char* what) const {
    if (count * sizeof(T) > bytes())
      throw std::logic_error(std::string("scratch ") + what + ": " +
                             std::to_string(count * sizeof(T)) + " bytes needed, " +
                             std::to_string(bytes()) + " allocated");
    return reinterpret_cast<T*>(data());
  }
};

/// Page-locked ("pinned") host memory from cudaHostAlloc, portable to every device, so that
/// cudaMemcpyAsync can overlap with kernels and run at the full bus rate.
template <typename T>
class PinnedBuffer : public detail::Buffer<T, detail::Memory::Pinned> {
 public:
  using detail::Buffer<T, detail::Memory::Pinned>::Buffer;
  T& operator[](std::size_t i) const noexcept { return this->data()[i]; }
  T* begin() const noexcept { return this->data(); }
  T* end() const noexcept { return this->data() + this->size(); }
};

/// Pinned host memory mapped into the device's address space (zero-copy): kernels reach it
/// across the bus through device_data().
template <typename T>
class MappedBuffer : public detail::Buffer<T, detail::Memory::Mapped> {
 public:
  MappedBuffer() = default;
  explicit MappedBuffer(std::size_t count) : detail::Buffer<T, detail::Memory::Mapped>(count) {
    if (this->data() != nullptr)
      device_ = static_cast<T*>(detail::mapped_device_pointer(this->data()));
  }
  T& operator[](std::size_t i) const noexcept { return this->data()[i]; }
  T* device_data() const noexcept { return this->data() == nullptr ? nullptr : device_; }

 private:
  T* device_ = nullptr;
};

/// A non-blocking CUDA stream.
class Stream : public detail::Handle<cudaStream_t, detail::destroy_stream> {
 public:
  Stream();
  void synchronize() const { HB_CUDA_CHECK(cudaStreamSynchronize(get())); }
};

/// A CUDA event that records timing.
class Event : public detail::Handle<cudaEvent_t, detail::destroy_event> {
 public:
  Event();
  void record(cudaStream_t s = nullptr) const { HB_CUDA_CHECK(cudaEventRecord(get(), s)); }
  void synchronize() const { HB_CUDA_CHECK(cudaEventSynchronize(get())); }
  /// Milliseconds from \p start to this event (both must have completed).
  float elapsed_since(const Event& start) const;
};

/// Copies \p bytes from host to device memory and returns only when they have landed: a bare
/// cudaMemcpy from pageable memory may return once the data is staged, and a non-blocking
/// hb::Stream does not wait for the legacy stream that copy runs in.
void copy_to_device(void* device_dst, const void* host_src, std::size_t bytes);

/// Copies \p count elements from device memory to host memory on \p stream and waits for them.
template <typename T>
void copy_to_host(T* host_dst, const T* device_src, std::size_t count,
                  cudaStream_t stream = nullptr) {
  if (count > 0)
    HB_CUDA_CHECK(cudaMemcpyAsync(host_dst, device_src, count * sizeof(T), cudaMemcpyDeviceToHost,
                                  stream));
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

/// Fills device memory with a byte pattern, so that an element a kernel forgets to write is
/// caught by the check.
void poison(void* device_ptr, std::size_t bytes, unsigned char value = 0xA5,
            cudaStream_t stream = nullptr);

/// Whether every byte of \p v is still \p value: poisoned and never written (a guard element).
template <typename T>
bool is_poisoned(const T& v, unsigned char value = 0xA5) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(&v);
  return std::all_of(bytes, bytes + sizeof(T), [value](unsigned char b) { return b == value; });
}

}  // namespace hb
