/// \file
/// \brief What several GPU kernels share besides the interaction: the block size and the grid
///        of the text's kernels, the bodies per pass of variant 8, and variant 11's numbering of
///        the tile pairs (which figures/ draws and the CPU tests check).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

#include <cuda_runtime.h>  // __host__ __device__, also for g++

#include "hb/error.h"

namespace ch14 {

/// Threads per block of the text's kernels (listing 14.6 launches <<<300, 256>>>).
inline constexpr int kBookThreads = 256;

/// The current device's number of SMs.
inline int sm_count() {
  int device = 0, sms = 0;
  HB_CUDA_CHECK(cudaGetDevice(&device));
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

#if defined(__CUDACC__)
/// As many blocks of \p threads threads as the current GPU holds at once, and no more than
/// \p n bodies need: the grid of the text's grid-stride kernels.
template <typename Kernel>
int resident_grid(Kernel kernel, int n, int threads, std::size_t shared_bytes) {
  int per_sm = 0;
  HB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
  return std::max(1, std::min((n + threads - 1) / threads, std::max(per_sm, 1) * sm_count()));
}
#endif

/// Bodies per constant-memory pass of variant 8 (listing 14.5's g_bodiesPerPass).
inline constexpr int kConstBodies = 4000;

/// The first tile pair of tile row \p I of variant 11, whose pairs (I, J), I <= J < tiles, are
/// numbered row by row: row I holds (I, I), (I, I+1), ..., (I, tiles-1).
__host__ __device__ inline long long symmetric_row_start(long long I, long long tiles) {
  return I * tiles - I * (I - 1) / 2;
}

/// The tile row that holds pair number \p q (the inverse of symmetric_row_start).
__host__ __device__ inline int symmetric_row_of(long long q, int tiles) {
  const double b = 2.0 * tiles + 1.0;
  long long I = static_cast<long long>((b - std::sqrt(b * b - 8.0 * static_cast<double>(q))) / 2.0);
  // The square root is a guess that can be off by one either way; correct it exactly.
  if (I < 0) I = 0;
  if (I > tiles - 1) I = tiles - 1;
  while (I > 0 && symmetric_row_start(I, tiles) > q) --I;
  while (I + 1 < tiles && symmetric_row_start(I + 1, tiles) <= q) ++I;
  return static_cast<int>(I);
}

}  // namespace ch14
