/// \file
/// \brief RAII owners for device, pinned and mapped memory, streams and events.
///
/// Chapters never call cudaFree or cudaFreeHost themselves: each buffer frees its memory when
/// it goes out of scope, also when a check throws. Buffers are move-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include <cuda_runtime_api.h>

#include "hb/error.h"

namespace hb {

/// "1.5 GiB", "512.0 MiB", "12.0 KiB" or "100 bytes".
std::string bytes_text(std::size_t bytes);

/// Bytes of host memory available for new allocations without swapping (Linux: MemAvailable
/// in /proc/meminfo); 0 when unknown.
std::size_t available_host_memory();
/// available_host_memory() as text, or "an unknown amount".
std::string available_host_memory_text();

/// Throws UsageError, before any work, when \p bytes of host memory are more than this machine
/// has available: "<what> needs 12.0 GiB of host memory; this machine has 7.5 GiB available".
void require_host_memory(std::size_t bytes, const std::string& what);
/// The same for the current device, against the free memory cudaMemGetInfo reports.
void require_device_memory(std::size_t bytes, const std::string& what);

/// Whether \p p is aligned for 16-byte vector accesses (float4, int4, bulk copies).
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

namespace detail {
/// One owner for every kind of allocation; \p Kind supplies allocate() and release().
template <typename T, typename Kind>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t count) : count_(count) {
    if (count > 0) ptr_ = static_cast<T*>(Kind::allocate(count * sizeof(T)));
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      reset();
      ptr_ = std::exchange(other.ptr_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  ~Buffer() { reset(); }

  T* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }
  bool empty() const noexcept { return count_ == 0; }

 protected:
  void reset() noexcept {
    if (ptr_ != nullptr) Kind::release(ptr_);
    ptr_ = nullptr;
    count_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

struct DeviceKind {
  static void* allocate(std::size_t bytes);
  static void release(void* p) noexcept;
};
struct PinnedKind {
  static void* allocate(std::size_t bytes);
  static void release(void* p) noexcept;
};
struct MappedKind {
  static void* allocate(std::size_t bytes);
  static void release(void* p) noexcept;
};
void* mapped_device_pointer(void* host);
}  // namespace detail

/// Device memory from cudaMalloc.
template <typename T>
class DeviceBuffer : public detail::Buffer<T, detail::DeviceKind> {
 public:
  using detail::Buffer<T, detail::DeviceKind>::Buffer;
  /// Sets every byte to zero (cudaMemset, ordered with the legacy default stream).
  void zero() const { HB_CUDA_CHECK(cudaMemset(this->data(), 0, this->bytes())); }
};

/// Untyped device memory that a caller sizes once, outside any timed region, and hands out as
/// an array of whatever type a launcher needs (a scratch arena of one slot).
class ScratchBytes : public DeviceBuffer<unsigned char> {
 public:
  using DeviceBuffer<unsigned char>::DeviceBuffer;
  /// The memory as \p count elements of T. Throws std::logic_error when they do not fit: a
  /// programming error (the arena was sized for a smaller input), not bad input.
  template <typename T>
  T* fit(std::size_t count, const char* what) const {
    if (count * sizeof(T) > bytes()) {
      throw std::logic_error(std::string("scratch ") + what + ": " +
                             std::to_string(count * sizeof(T)) + " bytes needed, " +
                             std::to_string(bytes()) + " allocated");
    }
    return reinterpret_cast<T*>(data());
  }
};

/// Page-locked ("pinned") host memory from cudaHostAlloc, portable to every device, so that
/// cudaMemcpyAsync can overlap with kernels and run at the full bus rate.
template <typename T>
class PinnedBuffer : public detail::Buffer<T, detail::PinnedKind> {
 public:
  using detail::Buffer<T, detail::PinnedKind>::Buffer;
  T& operator[](std::size_t i) const noexcept { return this->ptr_[i]; }
  T* begin() const noexcept { return this->ptr_; }
  T* end() const noexcept { return this->ptr_ + this->count_; }
};

/// Pinned host memory mapped into the device's address space (zero-copy): kernels read and
/// write it through device_data() across the bus, with no cudaMemcpy.
template <typename T>
class MappedBuffer : public detail::Buffer<T, detail::MappedKind> {
 public:
  MappedBuffer() = default;
  explicit MappedBuffer(std::size_t count) : detail::Buffer<T, detail::MappedKind>(count) {
    if (this->ptr_ != nullptr) device_ = static_cast<T*>(detail::mapped_device_pointer(this->ptr_));
  }
  T& operator[](std::size_t i) const noexcept { return this->ptr_[i]; }
  /// The pointer kernels use for this memory.
  T* device_data() const noexcept { return this->ptr_ == nullptr ? nullptr : device_; }

 private:
  T* device_ = nullptr;
};

/// A non-blocking CUDA stream.
class Stream {
 public:
  Stream();
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept;
  cudaStream_t get() const noexcept { return s_; }
  operator cudaStream_t() const noexcept { return s_; }  // NOLINT: used like the handle
  void synchronize() const;

 private:
  cudaStream_t s_ = nullptr;
};

/// A CUDA event that records timing.
class Event {
 public:
  Event();
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  Event& operator=(Event&& o) noexcept;
  cudaEvent_t get() const noexcept { return e_; }
  operator cudaEvent_t() const noexcept { return e_; }  // NOLINT: used like the handle
  void record(cudaStream_t stream = nullptr) const;
  void synchronize() const;
  /// Milliseconds from \p start to this event (both must have completed).
  float elapsed_since(const Event& start) const;

 private:
  cudaEvent_t e_ = nullptr;
};

/// Copies \p bytes from host memory to device memory and returns only when they have landed.
/// Use it instead of a bare cudaMemcpy before work on an hb::Stream: cudaMemcpy from pageable
/// memory may return once the data is staged, before the copy to the device has finished, and
/// hb::Stream is non-blocking, so it does not wait for the legacy stream that copy runs in.
void copy_to_device(void* device_dst, const void* host_src, std::size_t bytes);

/// Copies \p count elements from device memory to host memory on \p stream and waits for them.
template <typename T>
void copy_to_host(T* host_dst, const T* device_src, std::size_t count,
                  cudaStream_t stream = nullptr) {
  if (count > 0) {
    HB_CUDA_CHECK(cudaMemcpyAsync(host_dst, device_src, count * sizeof(T), cudaMemcpyDeviceToHost,
                                  stream));
  }
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

/// Fills device memory with a byte pattern ("poison") so that an element a kernel forgets
/// to write is caught by the check.
void poison(void* device_ptr, std::size_t bytes, unsigned char value = 0xA5,
            cudaStream_t stream = nullptr);

/// Whether every byte of \p v is still \p value: an element that poison() filled and no
/// kernel wrote (the guard element after an output, say).
template <typename T>
bool is_poisoned(const T& v, unsigned char value = 0xA5) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(&v);
  for (std::size_t i = 0; i < sizeof(T); ++i)
    if (bytes[i] != value) return false;
  return true;
}

}  // namespace hb
