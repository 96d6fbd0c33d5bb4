/// \file
/// \brief Variant 10, beyond the text: several bodies per thread, the columns of the force
///        matrix split over blocks, and one hardware rsqrt per interaction.
///
/// Compared with variant 9: back to shared-memory tiles, with one hardware rsqrt per
/// interaction instead of an IEEE square root and division, several bodies (rows) per thread so
/// that one shared-memory load feeds several interactions, and the columns of the force matrix
/// split over blocks so that the GPU stays full with fewer threads.
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
#pragma once

#include "nbody_gpu.h"

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

/// Adds the acceleration body \p b gives the body at (\p x0, \p y0, \p z0) to (\p ax, \p ay,
/// \p az) in the 13 instructions of the issue bound: 3 FADD, 3 FFMA, 1 MUFU, 3 FMUL, 3 FFMA.
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
/// \tparam R bodies (rows) per thread
/// \param force_rows 3 floats per row; written when gridDim.y == 1
/// \param partial    gridDim.y x rows partial sums; written when gridDim.y > 1
/// \param bodies     all n bodies (x, y, z, mass)
/// \param n          bodies, the columns of the force matrix
/// \param row_begin  the first row (body) of this launch
/// \param rows       rows of this launch
/// \param softening_sq \f$\varepsilon^2 > 0\f$
/// \pre blockDim.x == kBlockedThreads, rows >= 1
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

/// Adds the \p slices partial sums of each row, slice 0 first.
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

}  // namespace ch14
