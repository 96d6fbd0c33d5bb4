/// \file
/// \brief Chapter 12, variant 7: templated reduction type (listings 12.9, 12.10).
/* [changed]
Compared with variant 6: the kernel no longer knows it adds integers (listings 12.9 and 12.10).
Two template parameters separate the input type T from the reduction type R, which holds the
partial results: R's default value is the identity, `r += x` folds in an input and `r += r2`
combines two partials. With R = long long and T = int it is variant 1 again (that is the table's
row); with the types of 07_reduction_ops.h the same code computes a sum in a wider type, the sum
and the sum of squares in one pass, the minimum or the maximum, of int, float or double. The
block size must be a power of two.
[changed] */
/* [notes]
The shared memory of type R comes from `dynamic_shared<R>()`, the modern form of the
`SharedMemory<T>` specializations the book needed to avoid misaligned-access errors.
[notes] */
#pragma once

#include "reduction.h"
#include "07_reduction_ops.h"

namespace ch12 {

// [reduction7-kernel]
/// Listing 12.9: one pass of the two-pass reduction for any reduction type.
template <typename R, typename T>
__global__ void reduction7_kernel(R* out, const T* in, std::size_t n) {
  R* partials = dynamic_shared<R>();
  const unsigned tid = threadIdx.x;
  R sum{};  // the identity (the book's `ReductionType sum;` left a built-in type undefined)
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + tid; i < n;
       i += std::size_t(blockDim.x) * gridDim.x) {
    sum += in[i];
  }
  partials[tid] = sum;
  __syncthreads();
  for (unsigned active = blockDim.x >> 1; active > 0; active >>= 1) {
    if (tid < active) partials[tid] += partials[tid + active];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partials[0];
}
// [reduction7-kernel]

// [reduction7-launch]
template <typename R, typename T>
void reduce7_typed(const T* in, std::size_t n, R* out, int threads, Scratch& scratch,
                   cudaStream_t stream) {
  require_threads("variant 7", BlockRule::PowerOfTwo, threads);
  const int blocks = grid_stride_blocks(n, threads, scratch);
  R* partial = scratch.partials_a<R>(blocks);
  const std::size_t shared = threads * sizeof(R);
  reduction7_kernel<R, T><<<blocks, threads, shared, stream>>>(partial, in, n);
  HB_CHECK_LAUNCH();
  reduction7_kernel<R, R><<<1, threads, shared, stream>>>(out, partial, blocks);
  HB_CHECK_LAUNCH();
}

/// The table's row: R = long long, T = int.
void reduce7_templated(const int* in, std::size_t n, long long* out, int threads,
                       Scratch& scratch, cudaStream_t stream) {
  reduce7_typed<long long, int>(in, n, out, threads, scratch, stream);
}
// [reduction7-launch]

// The instantiations the programs and tests use: four reduction types over three element
// types, compiled once here.
#define CH12_REDUCE7(R, T)                                                                 \
  template void reduce7_typed<R, T>(const T*, std::size_t, R*, int, Scratch&, cudaStream_t);
CH12_REDUCE7(long long, int)
CH12_REDUCE7(Sum<int>, int)
CH12_REDUCE7(SumSquares<int>, int)
CH12_REDUCE7(Min<int>, int)
CH12_REDUCE7(Max<int>, int)
CH12_REDUCE7(Sum<float>, float)
CH12_REDUCE7(SumSquares<float>, float)
CH12_REDUCE7(Min<float>, float)
CH12_REDUCE7(Max<float>, float)
CH12_REDUCE7(Sum<double>, double)
CH12_REDUCE7(SumSquares<double>, double)
CH12_REDUCE7(Min<double>, double)
CH12_REDUCE7(Max<double>, double)
#undef CH12_REDUCE7

}  // namespace ch12
