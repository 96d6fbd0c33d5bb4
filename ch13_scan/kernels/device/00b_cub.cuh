/// \file
/// \brief Chapter 13, scan variant 0b: CUB DeviceScan, the library reference.
/* [changed]
Compared with variant 0a: the library. CUB's `cub::DeviceScan::InclusiveSum` and `ExclusiveSum`
from the CUDA Toolkit scan in one pass over the data with decoupled look-back (after a small
kernel that initializes its tile states), tuned per architecture. Every later variant is
measured against it as "% of CUB", on the same buffers in the same run.
[changed] */
#pragma once

#include <cub/device/device_scan.cuh>

#include "../common.h"

namespace ch13 {

// [scan0b-cub]
/// Variant 0b: CUB's device-wide scan. Its temporary storage comes from the caller's Scratch,
/// sized once for the largest input. We pass the size as a 32-bit count, as most callers do
/// (CUB then uses 32-bit offsets), whenever it fits.
template <typename T>
void scan0b_cub(const T* in, T* out, std::size_t n, ScanKind kind, int threads, Scratch& scratch,
                cudaStream_t stream) {
  require_threads("scan variant 0b", BlockRule::Library, threads);
  std::size_t bytes = scratch.cub_bytes();
  if (n > 0xffffffffu) throw std::logic_error("scan0b_cub: more than 2^32 - 1 elements");
  const unsigned count = static_cast<unsigned>(n);
  if (kind == ScanKind::Inclusive) {
    HB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scratch.cub_storage(), bytes, in, out, count, stream));
  } else {
    HB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.cub_storage(), bytes, in, out, count, stream));
  }
}
// [scan0b-cub]

}  // namespace ch13
