/// \file
/// \brief The GPU variants' shared signature and their host launchers (variants 6-11).
///
/// Every launcher takes device pointers, a stream and any scratch memory from the caller,
/// enqueues its work on the stream, never allocates and never synchronizes. The kernels live
/// in the numbered headers (nbody6_gpu_aos.cuh ...) and are compiled once, in nbody_gpu_book.cu
/// (the text's kernels) and nbody_gpu_fast.cu (ours).
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <cuda_runtime.h>  // float4 and __host__ __device__, also for g++

namespace ch14 {

/// One force evaluation on the current device: the acceleration of all n bodies.
struct GpuProblem {
  float* force = nullptr;          ///< 3 floats per body (x, y, z), n bodies
  const float4* bodies = nullptr;  ///< n bodies: x, y, z, mass
  int n = 0;                       ///< bodies
  float softening_sq = 0.0f;       ///< \f$\varepsilon^2 > 0\f$
  float4* scratch = nullptr;       ///< the caller's scratch memory (see GpuScratch)
  std::size_t scratch_count = 0;   ///< float4 elements at \p scratch
};

/// The signature of every GPU variant. \p param is the variant's tuning knob (the unroll
/// factor of variants 6 and 7, bodies per thread of variant 10; see Variant::params) and is
/// ignored by the others.
using GpuLauncher = void (*)(const GpuProblem& p, int param, cudaStream_t stream);

/// Scratch a variant needs for n bodies, in float4 elements (0: none).
using GpuScratch = std::size_t (*)(std::size_t n);

/// Threads per block of the text's kernels (listing 14.6 launches <<<300, 256>>>).
inline constexpr int kBookThreads = 256;

/// Variant 6, listing 14.3: one body per thread, every other body read from global memory.
void launch_gpu_aos(const GpuProblem& p, int unroll, cudaStream_t stream);
/// Variant 7, listing 14.4: bodies staged through shared memory, one tile per block.
void launch_gpu_shared(const GpuProblem& p, int unroll, cudaStream_t stream);
/// Variant 8, listings 14.5-14.6: bodies in constant memory, kConstBodies per pass.
void launch_gpu_const(const GpuProblem& p, int unused, cudaStream_t stream);
/// Variant 9, listing 14.7: warp-sized tiles broadcast with __shfl_sync.
void launch_gpu_shuffle(const GpuProblem& p, int unused, cudaStream_t stream);
/// Variant 10: several bodies per thread, the columns split over blocks, rsqrt.
void launch_gpu_blocked(const GpuProblem& p, int bodies_per_thread, cudaStream_t stream);
/// Variant 11: the symmetric tiled form of figures 14.3-14.4 with k = 32.
void launch_gpu_symmetric(const GpuProblem& p, int unused, cudaStream_t stream);

/// Bodies per constant-memory pass of variant 8 (listing 14.5's g_bodiesPerPass).
inline constexpr int kConstBodies = 4000;

/// Unroll factors that variants 6 and 7 are compiled for (the rows of Tables 14.1 and 14.2).
const std::vector<int>& unroll_factors();
/// Bodies per thread that variant 10 is compiled for.
const std::vector<int>& blocked_factors();

/// Variant 10 on a range of rows: the acceleration of bodies [row_begin, row_begin + rows)
/// due to all n bodies, written to \p force_rows (3 floats per row, row_begin first). The
/// multi-GPU variants give each GPU one such range.
void launch_gpu_blocked_rows(const float4* bodies, int n, int row_begin, int rows,
                             float* force_rows, float softening_sq, int bodies_per_thread,
                             float4* scratch, std::size_t scratch_count, cudaStream_t stream);

/// How variant 10 splits the force matrix: grid_x blocks of rows, each row block cut into
/// `slices` ranges of columns, each (row block, column range) one thread block.
struct BlockedPlan {
  int grid_x = 0;     ///< blocks over the rows
  int slices = 1;     ///< column ranges (gridDim.y)
  double waves = 0;   ///< blocks / blocks resident at once
  double fill = 0;    ///< fraction of the resident slots busy, averaged over the waves
};

/// Picks the number of column slices for \p rows rows and \p n columns on a GPU that holds
/// \p resident blocks at once: the smallest count in 1 .. \p max_slices whose last wave is as
/// full as any (fill within 2% of the best), and never more slices than column tiles. Pure host
/// arithmetic, tested on the CPU.
BlockedPlan plan_blocked(int rows, int n, int bodies_per_thread, int resident, int max_slices);

/// The plan launch_gpu_blocked_rows() uses on the current device for \p rows rows, \p n
/// columns and \p scratch_count float4 of scratch (no scratch: one slice).
BlockedPlan blocked_plan_for(int rows, int n, int bodies_per_thread, std::size_t scratch_count);

/// Threads per block of variant 10 (one column tile is as many bodies).
inline constexpr int kBlockedThreads = 128;
/// Largest column-slice count of variant 10; its scratch holds this many partial sums per row.
inline constexpr int kMaxSlices = 16;
/// Variant 10's scratch: kMaxSlices partial accelerations per body.
std::size_t blocked_scratch(std::size_t n);
/// Variant 11's scratch: one float4 sum per body.
std::size_t symmetric_scratch(std::size_t n);

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
