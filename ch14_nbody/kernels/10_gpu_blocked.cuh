/// \file
/// \brief Chapter 14, variant 10: GPU several bodies per thread, split columns, rsqrt.
///
/// In detail, each of the three changes is aimed at the issue bound of 13 instructions per
/// interaction:
///  1. The inverse square root is one `rsqrt.approx.ftz.f32` (one MUFU.RSQ, at most 2 ulp off)
///     instead of the book's IEEE square root and IEEE division, which nvcc expands into a
///     dozen or more instructions with slow-path branches.
///  2. Each thread owns R bodies (rows), so one shared-memory load of a body feeds R
///     interactions, and the R independent chains give the scheduler work while the MUFU
///     result is on its way.
///  3. R rows per thread leave fewer threads: 65536 bodies at R = 4 make 512 warps, less than
///     one per warp scheduler of an H100. So each row block's columns are also cut into
///     `slices` ranges, one thread block each (gridDim.y), and a second small kernel adds the
///     partial sums, in a fixed order (the result does not depend on timing). plan_blocked()
///     picks the slice count that fills the last wave of blocks best.
/* [changed]
Compared with variant 9: back to shared-memory tiles, with one hardware rsqrt per interaction
instead of an IEEE square root and division, several bodies (rows) per thread so that one
shared-memory load feeds several interactions, and the columns of the force matrix split over
blocks so that the GPU stays full with fewer threads.
[changed] */
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "hb/error.h"
#include "nbody.h"

namespace ch14 {

// [nbody-fast-interaction]
/// The hardware reciprocal square root, MUFU.RSQ, with no extra instructions: the `.ftz`
/// form, which flushes denormal inputs to zero. (Without .ftz, rsqrtf() adds instructions that
/// rescale denormal inputs.) Our input is at least \f$\varepsilon^2\f$, never a
/// denormal, so flushing changes nothing.
__device__ __forceinline__ float rsqrt_ftz(float x) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

/// Adds the acceleration body b gives the body at (x0, y0, z0) to (ax, ay,
/// az) in the 13 instructions of the issue bound: 3 FADD, 3 FFMA, 1 MUFU, 3 FMUL, 3 FFMA.
__device__ __forceinline__ void accumulate_interaction(float& ax, float& ay, float& az, float x0,
                                                       float y0, float z0, const float4& b,
                                                       float softening_sq) {
  const float dx = b.x - x0;
  const float dy = b.y - y0;
  const float dz = b.z - z0;
  const float d2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, softening_sq)));
  const float inv = rsqrt_ftz(d2);
  const float s = b.w * (inv * inv * inv);
  ax = fmaf(dx, s, ax);
  ay = fmaf(dy, s, ay);
  az = fmaf(dz, s, az);
}
// [nbody-fast-interaction]

// [nbody-gpu-blocked-kernel]
/// Rows [row_begin, row_begin + rows) against the column tiles of slice blockIdx.y. Thread t
/// of block b owns rows b * kBlockedThreads * R + t + q * kBlockedThreads, q < R (so each of
/// the R loads and stores of a warp is coalesced).
template <int R>
__global__ void __launch_bounds__(kBlockedThreads)
    nbody_blocked(float* __restrict__ force_rows, float4* __restrict__ partial,
                  const float4* __restrict__ bodies, int n, int row_begin, int rows,
                  float softening_sq) {
  constexpr int T = kBlockedThreads;
  __shared__ float4 tile[T];
  const int first = blockIdx.x * (T * R) + threadIdx.x;
  float px[R], py[R], pz[R], ax[R], ay[R], az[R];
#pragma unroll
  for (int q = 0; q < R; ++q) {
    // Rows past the end compute on a copy of the last row and are not stored.
    const float4 me = bodies[row_begin + min(first + q * T, rows - 1)];
    px[q] = me.x;
    py[q] = me.y;
    pz[q] = me.z;
    ax[q] = ay[q] = az[q] = 0.0f;
  }
  // This block's column tiles: an equal share of them, by slice.
  const int tiles = (n + T - 1) / T;
  const int tile_begin = static_cast<int>(static_cast<long long>(tiles) * blockIdx.y / gridDim.y);
  const int tile_end =
      static_cast<int>(static_cast<long long>(tiles) * (blockIdx.y + 1) / gridDim.y);
  const auto load = [&](int k) {
    const int j = k * T + threadIdx.x;
    return j < n ? bodies[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);  // massless padding
  };
  float4 next = tile_begin < tile_end ? load(tile_begin) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int k = tile_begin; k < tile_end; ++k) {
    tile[threadIdx.x] = next;
    __syncthreads();
    // The next tile's load is in flight while we compute on this one.
    if (k + 1 < tile_end) next = load(k + 1);
#pragma unroll 8
    for (int c = 0; c < T; ++c) {
      const float4 b = tile[c];  // the same address in every lane: a broadcast
#pragma unroll
      for (int q = 0; q < R; ++q)
        accumulate_interaction(ax[q], ay[q], az[q], px[q], py[q], pz[q], b, softening_sq);
    }
    __syncthreads();
  }
#pragma unroll
  for (int q = 0; q < R; ++q) {
    const int r = first + q * T;
    if (r >= rows) continue;
    if (gridDim.y == 1) {
      force_rows[3 * r + 0] = ax[q];
      force_rows[3 * r + 1] = ay[q];
      force_rows[3 * r + 2] = az[q];
    } else {
      partial[static_cast<std::size_t>(blockIdx.y) * rows + r] = make_float4(ax[q], ay[q], az[q], 0.0f);
    }
  }
}

/// Adds the slices partial sums of each row, slice 0 first.
__global__ void sum_slices(float* __restrict__ force_rows, const float4* __restrict__ partial,
                           int rows, int slices) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    for (int s = 0; s < slices; ++s) {
      const float4 p = partial[static_cast<std::size_t>(s) * rows + r];
      sx += p.x;
      sy += p.y;
      sz += p.z;
    }
    force_rows[3 * r + 0] = sx;
    force_rows[3 * r + 1] = sy;
    force_rows[3 * r + 2] = sz;
  }
}
// [nbody-gpu-blocked-kernel]

using BlockedKernel = void (*)(float*, float4*, const float4*, int, int, int, float);

inline BlockedKernel blocked_kernel(int r) {
  switch (r) {
    case 1: return nbody_blocked<1>;
    case 2: return nbody_blocked<2>;
    case 4: return nbody_blocked<4>;
    case 8: return nbody_blocked<8>;
    default: break;
  }
  throw std::out_of_range("no blocked kernel for " + std::to_string(r) + " bodies per thread");
}


const std::vector<int>& blocked_factors() {
  static const std::vector<int> f{1, 2, 4, 8};
  return f;
}

std::size_t blocked_scratch(std::size_t n) { return std::size_t(kMaxSlices) * n; }

// [nbody-blocked-plan]
BlockedPlan plan_blocked(int rows, int n, int bodies_per_thread, int resident, int max_slices) {
  BlockedPlan best;
  const int rows_per_block = kBlockedThreads * bodies_per_thread;
  const int grid_x = (rows + rows_per_block - 1) / rows_per_block;
  const int tiles = (n + kBlockedThreads - 1) / kBlockedThreads;
  resident = std::max(resident, 1);
  const auto evaluate = [&](int slices) {
    BlockedPlan p;
    p.grid_x = grid_x;
    p.slices = slices;
    p.waves = double(grid_x) * slices / resident;
    p.fill = p.waves / std::ceil(p.waves);
    return p;
  };
  const int most = std::max(1, std::min(max_slices, tiles));
  double best_fill = 0.0;
  for (int s = 1; s <= most; ++s) best_fill = std::max(best_fill, evaluate(s).fill);
  for (int s = 1; s <= most; ++s) {
    best = evaluate(s);
    if (best.fill >= best_fill - 0.02) break;
  }
  return best;
}
// [nbody-blocked-plan]

BlockedPlan blocked_plan_for(int rows, int n, int bodies_per_thread, std::size_t scratch_count) {
  const BlockedKernel kernel = blocked_kernel(bodies_per_thread);
  int per_sm = 0;
  HB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlockedThreads, 0));
  const int resident = std::max(per_sm, 1) * sm_count();
  // No more slices than the caller's scratch holds partial sums for.
  const std::size_t fit = rows > 0 ? scratch_count / std::size_t(rows) : 0;
  const int most = static_cast<int>(std::clamp<std::size_t>(fit, 1, kMaxSlices));
  return plan_blocked(rows, n, bodies_per_thread, resident, most);
}

// [nbody-gpu-blocked-launch]
void launch_gpu_blocked_rows(const float4* bodies, int n, int row_begin, int rows,
                             float* force_rows, float softening_sq, int bodies_per_thread,
                             float4* scratch, std::size_t scratch_count, cudaStream_t stream) {
  const BlockedKernel kernel = blocked_kernel(bodies_per_thread);
  if (rows <= 0 || n <= 0) return;
  const BlockedPlan plan = blocked_plan_for(rows, n, bodies_per_thread, scratch_count);
  const dim3 grid(plan.grid_x, plan.slices);
  kernel<<<grid, kBlockedThreads, 0, stream>>>(force_rows, scratch, bodies, n, row_begin, rows,
                                               softening_sq);
  HB_CHECK_LAUNCH();
  if (plan.slices > 1) {
    const int threads = 256;
    sum_slices<<<(rows + threads - 1) / threads, threads, 0, stream>>>(force_rows, scratch, rows,
                                                                       plan.slices);
    HB_CHECK_LAUNCH();
  }
}
// [nbody-gpu-blocked-launch]

void launch_gpu_blocked(const GpuProblem& p, int bodies_per_thread, cudaStream_t stream) {
  launch_gpu_blocked_rows(p.bodies, p.n, 0, p.n, p.force, p.softening_sq, bodies_per_thread,
                          p.scratch, p.scratch_count, stream);
}

}  // namespace ch14
