/// \file
/// \brief Chapter 12, variant 11a: int4 loads, single pass, last block adds the partials.
/* [changed]
Compared with variant 10f: we leave the blog's detours and build on the fastest design so far,
variant 9's single pass with shuffles, and make its loads cheaper. Each thread reads 16 bytes
(an `int4`) per load instead of 4, and issues eight independent loads before it adds any of
them, so each thread keeps 128 bytes in flight. The grid has as many blocks as the occupancy API
says fit on the GPU (fewer for small inputs), so every block runs from start to end in one wave.
It stays one launch with no memset and no host synchronization: the block that takes the last
ticket adds the partials. Head and tail elements that do not fill a 16-byte vector (an input
pointer that is not 16-byte aligned, or n not a multiple of 4) are added one by one. Block sizes
are powers of two from 32 to 1024.
[changed] */
/* [notes]
Why this matters at both ends of the size range: for large inputs, fewer and wider loads leave
more of the memory system's queue to useful bytes; for small inputs the cost is the launch
itself, and a single launch with nothing before or after it is the cheapest possible reduction.
[notes] */
#pragma once

#include <cstdint>

#include "09_shuffle.cuh"

namespace ch12 {

// [reduction11-policy]
/// Tuning of variants 11a and 11b, as data. The starting point is the read-only kernel of
/// the common layer (`hb::measure_device_read`: 256 threads, eight 16-byte loads in flight,
/// one block per resident slot), which reads at 3069 GB/s on the H100 (platform page). The
/// block-size sweep (`reduction --variant 11a`) checks the block size on each GPU.
struct VectorizedPolicy {
  static constexpr int kUnroll = 8;  ///< int4 loads in flight per thread and iteration
};
// [reduction11-policy]

// [reduction11a-load]
/// This thread's share of the sum: its grid-stride share of the whole, aligned int4 vectors,
/// kUnroll loads in flight at a time, plus the int32 elements before the first and after
/// the last whole vector (at most 3 each; an unaligned in or n % 4 != 0 leaves them).
template <int kThreads>
__device__ __forceinline__ long long vectorized_thread_sum(const int* in, std::size_t n) {
  constexpr int kUnroll = VectorizedPolicy::kUnroll;
  const std::size_t misaligned = (reinterpret_cast<std::uintptr_t>(in) / sizeof(int)) % 4;
  const std::size_t head = misaligned == 0 ? 0 : (4 - misaligned < n ? 4 - misaligned : n);
  const int4* vec = reinterpret_cast<const int4*>(in + head);
  const std::size_t nvec = (n - head) / 4;
  const std::size_t tail = head + nvec * 4;

  const std::size_t tid = std::size_t(blockIdx.x) * kThreads + threadIdx.x;
  const std::size_t stride = std::size_t(gridDim.x) * kThreads;
  long long sum = 0;
  std::size_t i = tid;
  // All kUnroll loads are issued before the first add needs one of them.
  for (; i + (kUnroll - 1) * stride < nvec; i += kUnroll * stride) {
    int4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = __ldg(vec + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) sum += static_cast<long long>(v[u].x) + v[u].y + v[u].z + v[u].w;
  }
  // Fewer than kUnroll vectors are left for this thread: load them at once too (predicated)
  // rather than one round trip to memory after another.
  int4 rest[kUnroll - 1];
#pragma unroll
  for (int u = 0; u < kUnroll - 1; ++u) {
    const std::size_t j = i + u * stride;
    rest[u] = j < nvec ? __ldg(vec + j) : make_int4(0, 0, 0, 0);
  }
#pragma unroll
  for (int u = 0; u < kUnroll - 1; ++u)
    sum += static_cast<long long>(rest[u].x) + rest[u].y + rest[u].z + rest[u].w;
  if (tid < head) sum += in[tid];
  if (tid < n - tail) sum += in[tail + tid];
  return sum;
}
// [reduction11a-load]

// [reduction11a-kernel]
/// Single pass, vectorized loads, last block adds the partials.
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    reduction11a_kernel(const int* in, std::size_t n, long long* out, long long* partial,
                        unsigned* retirement_count) {
  const long long sum = block_reduce_sum(vectorized_thread_sum<kThreads>(in, n));
  if (gridDim.x == 1) {
    if (threadIdx.x == 0) *out = sum;
    return;
  }
  __shared__ bool last_block;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = sum;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*retirement_count);
    last_block = ticket.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();
  if (last_block) {
    long long total = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += kThreads) total += partial[b];
    total = block_reduce_sum(total);
    if (threadIdx.x == 0) {
      *out = total;
      *retirement_count = 0;
    }
  }
}
// [reduction11a-kernel]

// [reduction11a-grid]
/// Blocks for n elements: enough for every thread to issue its kUnroll loads once, but no
/// more than fit on the GPU at once (occupancy API, asked once per kernel and block size).
/// Fewer blocks for small inputs also means fewer tickets for the last block to wait on.
template <typename Kernel>
int vectorized_blocks(Kernel kernel, int threads, std::size_t n, const Scratch& scratch,
                      int& per_sm_cache) {
  if (per_sm_cache <= 0) {
    HB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_cache, kernel, threads, 0));
  }
  const std::size_t resident = std::size_t(per_sm_cache) * scratch.sm_count();
  const std::size_t wanted = ceil_div(n / 4, std::size_t(threads) * VectorizedPolicy::kUnroll);
  return static_cast<int>(std::max<std::size_t>(1, std::min(wanted, resident)));
}
// [reduction11a-grid]

template <int kThreads>
void reduction11a_template(const int* in, std::size_t n, long long* out, Scratch& scratch,
                           cudaStream_t stream) {
  static int per_sm = 0;  // blocks per SM, from the occupancy API on the first call
  const int blocks = vectorized_blocks(reduction11a_kernel<kThreads>, kThreads, n, scratch, per_sm);
  reduction11a_kernel<kThreads><<<blocks, kThreads, 0, stream>>>(
      in, n, out, scratch.partials_a<long long>(blocks), scratch.ticket());
  HB_CHECK_LAUNCH();
}

void reduce11a_vectorized(const int* in, std::size_t n, long long* out, int threads,
                          Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 11a", BlockRule::PowerOfTwoFrom32, threads);
  hb::with_power_of_two<32, 1024>(
      threads, [&](auto t) { reduction11a_template<t.value>(in, n, out, scratch, stream); });
}

}  // namespace ch12
