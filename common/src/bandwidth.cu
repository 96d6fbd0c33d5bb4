#include "hb/bandwidth.h"

#include <fstream>
#include <regex>
#include <vector>

#include "hb/bench.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/timing.h"

namespace hb {

namespace {

constexpr int kFoldThreads = 256;

// Reads n16 16-byte vectors with a grid-stride loop, eight loads in flight per thread, and
// XOR-folds them so the compiler cannot drop the loads. The block combines its lanes
// (shuffles, then shared memory) so that only one atomic per block reaches memory: one per
// warp was measured to cost about 8% of a 1 GiB read on an H200 (all on one address).
__global__ void __launch_bounds__(kFoldThreads)
    xor_fold_kernel(const uint4* __restrict__ in, std::size_t n16, unsigned* __restrict__ out) {
  constexpr int kInFlight = 8;
  unsigned acc = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (kInFlight - 1) * stride < n16; i += kInFlight * stride) {
    uint4 v[kInFlight];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) v[k] = in[i + k * stride];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
  }
  for (; i < n16; i += stride) {
    const uint4 a = in[i];
    acc ^= a.x ^ a.y ^ a.z ^ a.w;
  }
  for (int offset = 16; offset > 0; offset /= 2) acc ^= __shfl_xor_sync(0xffffffffu, acc, offset);
  __shared__ unsigned warp_acc[kFoldThreads / 32];
  if ((threadIdx.x & 31) == 0) warp_acc[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned block_acc = 0;
    for (int w = 0; w < kFoldThreads / 32; ++w) block_acc ^= warp_acc[w];
    atomicXor(out, block_acc);
  }
}

int fold_blocks() {
  int per_sm = 0;
  HB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, xor_fold_kernel,
                                                              kFoldThreads, 0));
  return Residency::of_current_device().sm_count * per_sm;
}

// The rate of \p repetition, timed on \p stream after \p warmup untimed repetitions.
template <typename F>
Bandwidth timed(std::size_t bytes_counted, cudaStream_t stream, int warmup, int iters,
                F repetition) {
  const double ms = time_events(repetition, stream, warmup, iters).median_ms;
  return {gbs(double(bytes_counted), ms), ms, bytes_counted};
}

// A pageable or pinned host buffer, filled so the pages exist before timing.
struct HostBytes {
  HostBytes(std::size_t bytes, HostMemory kind)
      : pinned(kind == HostMemory::Pinned ? bytes : 0),
        pageable(kind == HostMemory::Pinned ? 0 : bytes),
        ptr(kind == HostMemory::Pinned ? pinned.data() : pageable.data()) {
    for (std::size_t i = 0; i < bytes; i += 4096) ptr[i] = static_cast<unsigned char>(i >> 12);
  }
  PinnedBuffer<unsigned char> pinned;
  std::vector<unsigned char> pageable;
  unsigned char* ptr = nullptr;
};

Bandwidth measure_transfer(std::size_t bytes, HostMemory host, int iters, cudaMemcpyKind kind) {
  HostBytes h(bytes, host);
  DeviceBuffer<unsigned char> d(bytes);
  const bool up = kind == cudaMemcpyHostToDevice;
  if (!up) {
    poison(d.data(), bytes, 0x5A);
    HB_CUDA_CHECK(cudaDeviceSynchronize());
  }
  unsigned char* dst = up ? d.data() : h.ptr;
  const unsigned char* src = up ? h.ptr : d.data();
  Stream s;
  return timed(bytes, s, 1, iters, [&](cudaStream_t st) {
    HB_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, st));
  });
}

}  // namespace

std::uint32_t device_xor_fold(const void* device_data, std::size_t n16, cudaStream_t stream) {
  DeviceBuffer<unsigned> out(1);
  HB_CUDA_CHECK(cudaMemsetAsync(out.data(), 0, sizeof(unsigned), stream));
  xor_fold_kernel<<<fold_blocks(), kFoldThreads, 0, stream>>>(
      static_cast<const uint4*>(device_data), n16, out.data());
  HB_CHECK_LAUNCH();
  unsigned result = 0;
  copy_to_host(&result, out.data(), 1, stream);
  return result;
}

Bandwidth measure_device_copy(std::size_t bytes, int iters) {
  DeviceBuffer<unsigned char> src(bytes), dst(bytes);
  poison(src.data(), bytes, 0x5A);
  HB_CUDA_CHECK(cudaDeviceSynchronize());  // poison ran on the legacy stream
  Stream s;
  return timed(2 * bytes, s, 2, iters, [&](cudaStream_t st) {
    HB_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, st));
  });
}

// The read rate depends on where the buffer lands: on an H200 we saw one 1 GiB allocation
// read about 13% slower than another in the same process (handbook_info prints both). A
// ceiling should be the rate the device can reach, so we time two buffers, both held at
// once, and report the faster.
Bandwidth measure_device_read(std::size_t bytes, int iters, std::vector<double>* per_buffer_gbs) {
  const std::size_t n16 = bytes / 16;
  DeviceBuffer<uint4> first(n16), second(n16);
  DeviceBuffer<unsigned> out(1);
  poison(first.data(), first.bytes(), 0x5A);
  poison(second.data(), second.bytes(), 0x5A);
  poison(out.data(), out.bytes(), 0);  // the kernel XORs into it
  HB_CUDA_CHECK(cudaDeviceSynchronize());
  Stream s;
  const int blocks = fold_blocks();
  Bandwidth best;
  for (const DeviceBuffer<uint4>* src : {&first, &second}) {
    const Bandwidth b = timed(n16 * 16, s, 2, iters, [&](cudaStream_t st) {
      xor_fold_kernel<<<blocks, kFoldThreads, 0, st>>>(src->data(), n16, out.data());
      HB_CHECK_LAUNCH();
    });
    if (per_buffer_gbs != nullptr) per_buffer_gbs->push_back(b.gbs);
    if (b.gbs > best.gbs) best = b;
  }
  return best;
}

Bandwidth measure_host_to_device(std::size_t bytes, HostMemory host, int iters) {
  return measure_transfer(bytes, host, iters, cudaMemcpyHostToDevice);
}

Bandwidth measure_device_to_host(std::size_t bytes, HostMemory host, int iters) {
  return measure_transfer(bytes, host, iters, cudaMemcpyDeviceToHost);
}

Bandwidth measure_bidirectional(std::size_t up_bytes, std::size_t down_bytes, int iters) {
  HostBytes up(up_bytes, HostMemory::Pinned), down(down_bytes, HostMemory::Pinned);
  DeviceBuffer<unsigned char> d_up(up_bytes), d_down(down_bytes);
  poison(d_down.data(), down_bytes, 0x5A);
  HB_CUDA_CHECK(cudaDeviceSynchronize());
  Stream main, side;
  Event fork, join;
  // The timed region forks onto a second stream and joins back, so the events on the main
  // stream bracket both copies.
  return timed(up_bytes + down_bytes, main, 1, iters, [&](cudaStream_t st) {
    fork.record(st);
    HB_CUDA_CHECK(cudaStreamWaitEvent(side, fork, 0));
    HB_CUDA_CHECK(cudaMemcpyAsync(d_up.data(), up.ptr, up_bytes, cudaMemcpyHostToDevice, st));
    HB_CUDA_CHECK(
        cudaMemcpyAsync(down.ptr, d_down.data(), down_bytes, cudaMemcpyDeviceToHost, side));
    join.record(side);
    HB_CUDA_CHECK(cudaStreamWaitEvent(st, join, 0));
  });
}

std::string driver_version_text() {
  std::ifstream f("/proc/driver/nvidia/version");
  std::string line;
  const std::regex version(R"(([0-9]+\.[0-9]+(\.[0-9]+)?))");
  if (f && std::getline(f, line)) {
    std::smatch m;
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  ..."
    const auto pos = line.find("Module");
    const std::string tail = pos == std::string::npos ? line : line.substr(pos);
    if (std::regex_search(tail, m, version)) return m[1].str();
  }
  int v = 0;
  if (cudaDriverGetVersion(&v) != cudaSuccess) return "unknown";
  return "CUDA " + cuda_version_text(v) + " driver API";
}

}  // namespace hb
