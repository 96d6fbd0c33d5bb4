/// \file
/// \brief Chapter 14, variant 16: GPU symmetric tiles, two rows per lane (k = 64).
///
/// Variant 11's walk over the upper triangle of tiles, with tiles of 64 bodies: lane l holds
/// the two row bodies 64 I + l and 64 I + 32 + l, and takes the column tile in two halves of
/// 32, each with variant 11's rotation of the column sums.
/* [changed]
Compared with variant 11: each lane holds two row bodies instead of one, so one shared-memory
load of a column body and one round of three shuffles serve two pairs instead of one. Variant
11 is bound by that memory-instruction path (a 16-byte load of 32 different bodies takes four
of its cycles, each shuffle one), not by arithmetic; here the arithmetic bound comes first.
[changed] */
#pragma once

#include "11_gpu_symmetric.cuh"  // atomic_add_xyz, launch_symmetric_tiles, rsqrt_ftz

namespace ch14 {

/// Threads per block of variant 16: four independent warps.
inline constexpr int kSymmetricRowsThreads = 128;
/// Row bodies per lane, and bodies per tile (two halves of 32 columns).
inline constexpr int kRowsPerLane = 2;
inline constexpr int kRowsTile = 32 * kRowsPerLane;

// [nbody-gpu-symmetric-rows-pair]
/// One pair of variant 11's inner loop: the row body \p me and the column body \p b pull on
/// each other; the row sum gets +s_row d, the column sum -s_col d.
__device__ __forceinline__ void pair_interaction(float& ax, float& ay, float& az, float& cx,
                                                 float& cy, float& cz, const float4& me,
                                                 const float4& b, float softening_sq) {
  const float dx = b.x - me.x;
  const float dy = b.y - me.y;
  const float dz = b.z - me.z;
  const float d2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, softening_sq)));
  const float inv = rsqrt_ftz(d2);
  const float w = inv * inv * inv;
  const float s_row = b.w * w;
  const float s_col = me.w * w;
  ax = fmaf(dx, s_row, ax);
  ay = fmaf(dy, s_row, ay);
  az = fmaf(dz, s_row, az);
  cx = fmaf(-dx, s_col, cx);
  cy = fmaf(-dy, s_col, cy);
  cz = fmaf(-dz, s_col, cz);
}
// [nbody-gpu-symmetric-rows-pair]

// [nbody-gpu-symmetric-rows-kernel]
/// Pairs [warp * run, warp * run + run) of the upper triangle of 64-body tiles, in row order.
__global__ void __launch_bounds__(kSymmetricRowsThreads)
    nbody_symmetric_rows(float4* __restrict__ sums, const float4* __restrict__ bodies, int n,
                         float softening_sq, int tiles, long long pairs, int run) {
  constexpr unsigned kAllLanes = 0xffffffffu;
  // Each warp's column tile: two halves of 32 bodies, each stored twice in a row as in
  // variant 11, so that lane l reads element l + s of its half.
  __shared__ float4 columns[kSymmetricRowsThreads / 32][kRowsPerLane][64];
  const int lane = threadIdx.x & 31;
  auto& col = columns[threadIdx.x / 32];
  const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const long long q_begin = warp * run;
  if (q_begin >= pairs) return;  // the whole warp: q_begin is the same in every lane
  const long long q_end = min(q_begin + run, pairs);
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  const auto body = [&](int i) { return i < n ? bodies[i] : zero; };  // massless padding

  int I = symmetric_row_of(q_begin, tiles);
  int J = I + static_cast<int>(q_begin - symmetric_row_start(I, tiles));
  float4 me[kRowsPerLane];
  float ax[kRowsPerLane] = {}, ay[kRowsPerLane] = {}, az[kRowsPerLane] = {};
  for (int r = 0; r < kRowsPerLane; ++r) me[r] = body(I * kRowsTile + 32 * r + lane);
  for (long long q = q_begin; q < q_end; ++q) {
    __syncwarp();  // every lane is done reading the previous tile
    for (int h = 0; h < kRowsPerLane; ++h) {
      const float4 c = body(J * kRowsTile + 32 * h + lane);
      col[h][lane] = c;
      col[h][lane + 32] = c;
    }
    __syncwarp();
    if (I == J) {
      // Diagonal tile: rows only, every lane reads the same column (a broadcast).
      for (int h = 0; h < kRowsPerLane; ++h) {
#pragma unroll 8
        for (int s = 0; s < 32; ++s) {
          const float4 b = col[h][s];
#pragma unroll
          for (int r = 0; r < kRowsPerLane; ++r)
            accumulate_interaction(ax[r], ay[r], az[r], me[r].x, me[r].y, me[r].z, b, softening_sq);
        }
      }
    } else {
      for (int h = 0; h < kRowsPerLane; ++h) {
        float cx = 0.0f, cy = 0.0f, cz = 0.0f;
#pragma unroll 8
        for (int s = 0; s < 32; ++s) {
          const float4 b = col[h][lane + s];  // column (lane + s) mod 32 of half h
#pragma unroll
          for (int r = 0; r < kRowsPerLane; ++r)
            pair_interaction(ax[r], ay[r], az[r], cx, cy, cz, me[r], b, softening_sq);
          if (s < 31) {
            cx = __shfl_sync(kAllLanes, cx, (lane + 1) & 31);
            cy = __shfl_sync(kAllLanes, cy, (lane + 1) & 31);
            cz = __shfl_sync(kAllLanes, cz, (lane + 1) & 31);
          }
        }
        const int j = J * kRowsTile + 32 * h + ((lane + 31) & 31);
        if (j < n) atomic_add_xyz(&sums[j], cx, cy, cz);
      }
    }
    const bool row_done = J == tiles - 1 || q + 1 == q_end;
    if (row_done) {
      for (int r = 0; r < kRowsPerLane; ++r) {
        const int i = I * kRowsTile + 32 * r + lane;
        if (i < n) atomic_add_xyz(&sums[i], ax[r], ay[r], az[r]);
        ax[r] = ay[r] = az[r] = 0.0f;
      }
    }
    if (++J == tiles) {
      ++I;
      J = I;
      if (I < tiles)
        for (int r = 0; r < kRowsPerLane; ++r) me[r] = body(I * kRowsTile + 32 * r + lane);
    }
  }
}
// [nbody-gpu-symmetric-rows-kernel]

void launch_gpu_symmetric_rows(const GpuProblem& p, int /*unused*/, cudaStream_t stream) {
  launch_symmetric_tiles(p, nbody_symmetric_rows, kRowsTile, kSymmetricRowsThreads, "variant 16",
                         stream);
}

}  // namespace ch14
