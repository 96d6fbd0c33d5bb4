/// \file
/// \brief Chapter 12, variant 0: CUB DeviceReduce::Sum (reference).
/* [changed]
Variant 0 is the reference. Its result is checked against the CPU (an exact 64-bit sum in input
order), and its speed is CUB's `cub::DeviceReduce::Sum` from the CUDA Toolkit, the library every
later variant is measured against as "% of CUB".
[changed] */
/* [notes]
CUB sums the int32 input in the type of its output, long long, so it computes exactly what our
variants compute. It runs two kernels for all but the smallest inputs (a grid-stride pass that
writes one partial per block, then one block that adds the partials): the book's two-pass
design, tuned per architecture. Its temporary storage comes from the caller's Scratch, sized
once for the largest input.
[notes] */
#pragma once

#include <cub/cub.cuh>

#include "reduction.h"

namespace ch12 {

// [reduction0-cub]
void reduce0_cub(const int* in, std::size_t n, long long* out, int threads, Scratch& scratch,
                 cudaStream_t stream) {
  require_threads("variant 0", BlockRule::Library, threads);
  std::size_t bytes = scratch.cub_bytes();
  HB_CUDA_CHECK(cub::DeviceReduce::Sum(scratch.cub_storage(), bytes, in, out, n, stream));
}
// [reduction0-cub]

}  // namespace ch12
