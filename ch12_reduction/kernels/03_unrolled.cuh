/// \file
/// \brief Chapter 12, variant 3: block size as template parameter, unrolled (listings 12.3, 12.4).
/* [changed]
Compared with variant 2: the block size becomes a template parameter (listings 12.3 and 12.4),
so the compiler knows every loop bound, unrolls the whole log-step reduction and drops the steps
and tests that a given block size does not need. A `switch` at run time picks one of the eleven
instantiations, for every power of two from 1 to 1024; any other block size is rejected with an
error.
[changed] */
/* [notes]
Blocks of fewer than 32 threads form a partial warp, so the `__syncwarp()` of the tail names
only the lanes that exist (a mask computed at compile time).
[notes] */
#pragma once

#include "reduction.h"

namespace ch12 {

// [reduction3-kernel]
/// Listing 12.3: the log-step reduction fully unrolled for a block size known at compile
/// time. Code that depends only on kThreads is evaluated by the compiler.
template <unsigned kThreads, typename T>
__global__ void __launch_bounds__(kThreads) reduction3_kernel(long long* out, const T* in,
                                                              std::size_t n) {
  long long* partials = dynamic_shared<long long>();
  const unsigned tid = threadIdx.x;
  long long sum = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * kThreads + tid; i < n;
       i += std::size_t(kThreads) * gridDim.x) {
    sum += in[i];
  }
  partials[tid] = sum;
  __syncthreads();

  if (kThreads >= 1024) {
    if (tid < 512) partials[tid] += partials[tid + 512];
    __syncthreads();
  }
  if (kThreads >= 512) {
    if (tid < 256) partials[tid] += partials[tid + 256];
    __syncthreads();
  }
  if (kThreads >= 256) {
    if (tid < 128) partials[tid] += partials[tid + 128];
    __syncthreads();
  }
  if (kThreads >= 128) {
    if (tid < 64) partials[tid] += partials[tid + 64];
    __syncthreads();
  }

  // Warp-synchronous tail, as in variant 2, with the mask of the lanes that exist.
  constexpr unsigned kMask = kThreads >= 32 ? 0xffffffffu : (1u << (kThreads % 32)) - 1u;
  if (tid < 32) {
    if (kThreads >= 64) partials[tid] += partials[tid + 32];
    __syncwarp(kMask);
    if (kThreads >= 32 && tid < 16) partials[tid] += partials[tid + 16];
    __syncwarp(kMask);
    if (kThreads >= 16 && tid < 8) partials[tid] += partials[tid + 8];
    __syncwarp(kMask);
    if (kThreads >= 8 && tid < 4) partials[tid] += partials[tid + 4];
    __syncwarp(kMask);
    if (kThreads >= 4 && tid < 2) partials[tid] += partials[tid + 2];
    __syncwarp(kMask);
    if (kThreads >= 2 && tid < 1) partials[tid] += partials[tid + 1];
    if (tid == 0) out[blockIdx.x] = partials[0];
  }
}
// [reduction3-kernel]

// [reduction3-dispatch]
/// Listing 12.4: both passes for one block size known at compile time.
template <unsigned kThreads>
void reduction3_template(const int* in, std::size_t n, long long* out, Scratch& scratch,
                         cudaStream_t stream) {
  const int blocks = grid_stride_blocks(n, kThreads, scratch);
  long long* partial = scratch.partials_a<long long>(blocks);
  const std::size_t shared = kThreads * sizeof(long long);
  reduction3_kernel<kThreads, int><<<blocks, kThreads, shared, stream>>>(partial, in, n);
  HB_CHECK_LAUNCH();
  reduction3_kernel<kThreads, long long><<<1, kThreads, shared, stream>>>(out, partial, blocks);
  HB_CHECK_LAUNCH();
}

/// Picks the instantiation for the block size asked for at run time.
void reduce3_unrolled(const int* in, std::size_t n, long long* out, int threads,
                      Scratch& scratch, cudaStream_t stream) {
  switch (threads) {
    case 1: return reduction3_template<1>(in, n, out, scratch, stream);
    case 2: return reduction3_template<2>(in, n, out, scratch, stream);
    case 4: return reduction3_template<4>(in, n, out, scratch, stream);
    case 8: return reduction3_template<8>(in, n, out, scratch, stream);
    case 16: return reduction3_template<16>(in, n, out, scratch, stream);
    case 32: return reduction3_template<32>(in, n, out, scratch, stream);
    case 64: return reduction3_template<64>(in, n, out, scratch, stream);
    case 128: return reduction3_template<128>(in, n, out, scratch, stream);
    case 256: return reduction3_template<256>(in, n, out, scratch, stream);
    case 512: return reduction3_template<512>(in, n, out, scratch, stream);
    case 1024: return reduction3_template<1024>(in, n, out, scratch, stream);
    default: require_threads("variant 3", BlockRule::PowerOfTwo, threads);  // throws
  }
}
// [reduction3-dispatch]

}  // namespace ch12
