/// \file
/// \brief Chapter 12, variant 2: warp-synchronous tail with __syncwarp (listing 12.2).
///
/// Why the book's form is unsafe now: `volatile` only stops the compiler from keeping shared
/// values in registers; it says nothing about the order in which different threads run. In
/// `wsSum[tid] += wsSum[tid + 16]` executed by all 32 lanes, lane 0 reads `wsSum[16]` while
/// lane 16 writes it. In lock step every lane loaded before any lane stored, so the race never
/// showed; with independent thread scheduling lane 16 may store first. `__syncwarp()` is a
/// barrier and a memory fence for the lanes of the warp, and restricting each step to `tid <
/// offset` removes the read/write overlap within a step.
/* [changed]
Compared with variant 1: the last five halving steps, where at most 32 threads are active, run
in warp 0 alone without `__syncthreads()` (listing 12.2's warp-synchronous tail). The book
relied on the 32 threads of a warp executing in lock step and on a `volatile` pointer to shared
memory. Since Volta, the threads of a warp are scheduled independently, so that form is a data
race; we keep the idea and write the steps with `__syncwarp()` between them, and only the
threads that add read and write. The block size must be a power of two of at least 32.
[changed] */
#pragma once

#include "reduction.h"

namespace ch12 {

// [reduction2-kernel]
/// Listing 12.2 in the modern form: shared-memory halving steps down to 64 values, then the
/// last steps in warp 0 with `__syncwarp()` instead of `__syncthreads()` and `volatile`.
template <typename T>
__global__ void reduction2_kernel(long long* out, const T* in, std::size_t n) {
  long long* partials = dynamic_shared<long long>();
  const unsigned tid = threadIdx.x;
  long long sum = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid; i < n;
       i += std::size_t(blockDim.x) * gridDim.x) {
    sum += in[i];
  }
  partials[tid] = sum;
  __syncthreads();

  for (unsigned active = blockDim.x >> 1; active > 32; active >>= 1) {
    if (tid < active) partials[tid] += partials[tid + active];
    __syncthreads();
  }

  // Warp 0 finishes alone. Each step: the lanes below `offset` add the value `offset`
  // above them; nobody writes what another lane reads in the same step, and __syncwarp()
  // makes the step's stores visible to the whole warp before the next step reads them.
  if (tid < 32) {
    if (blockDim.x > 32) partials[tid] += partials[tid + 32];
    __syncwarp();
    if (tid < 16) partials[tid] += partials[tid + 16];
    __syncwarp();
    if (tid < 8) partials[tid] += partials[tid + 8];
    __syncwarp();
    if (tid < 4) partials[tid] += partials[tid + 4];
    __syncwarp();
    if (tid < 2) partials[tid] += partials[tid + 2];
    __syncwarp();
    if (tid == 0) out[blockIdx.x] = partials[0] + partials[1];
  }
}
// [reduction2-kernel]

/// Two passes, as in variant 1.
void reduce2_warp_sync(const int* in, std::size_t n, long long* out, int threads,
                       Scratch& scratch, cudaStream_t stream) {
  require_threads("variant 2", BlockRule::PowerOfTwoFrom32, threads);
  const int blocks = grid_stride_blocks(n, threads, scratch);
  long long* partial = scratch.partials_a<long long>(blocks);
  const std::size_t shared = threads * sizeof(long long);
  reduction2_kernel<int><<<blocks, threads, shared, stream>>>(partial, in, n);
  HB_CHECK_LAUNCH();
  reduction2_kernel<long long><<<1, threads, shared, stream>>>(out, partial, blocks);
  HB_CHECK_LAUNCH();
}

}  // namespace ch12
