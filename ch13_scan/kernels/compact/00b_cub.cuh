/// \file
/// \brief Chapter 13, compaction variant 0b: CUB DeviceSelect::If, the library reference.
/* [changed]
Compared with variant 0a: CUB's `cub::DeviceSelect::If` with the same predicate, the library
reference of the compaction table, measured on the same buffers in the same run.
[changed] */
#pragma once

#include <cub/device/device_select.cuh>

#include "../common.h"

namespace ch13 {

// [compact0b-cub]
/// Compaction variant 0b: CUB's stream compaction with the predicate IsOdd.
void compact0b_cub(const int* in, int* out, std::size_t n, int* count, int threads,
                   Scratch& scratch, cudaStream_t stream) {
  require_threads("compaction variant 0b", BlockRule::Library, threads);
  std::size_t bytes = scratch.cub_bytes();
  if (n > 0x7fffffff) throw std::logic_error("compact0b_cub: more than 2^31 - 1 elements");
  HB_CUDA_CHECK(cub::DeviceSelect::If(scratch.cub_storage(), bytes, in, out, count,
                                      static_cast<int>(n), IsOdd{}, stream));
}
// [compact0b-cub]

}  // namespace ch13
