/// \file
/// \brief Chapter 14, variant 11: GPU symmetric tiles (k = 32).
///
/// A warp takes a 32 x 32 tile (I, J), I < J: lane l holds row body 32 I + l in registers and
/// the 32 column bodies in shared memory. In step s (0..31) lane l pairs its row with column
/// (l + s) mod 32, so the 32 lanes touch 32 different columns, and each column's running sum
/// moves one lane down after each step (one __shfl_sync per component) so that it always sits
/// in the lane that works on that column. After the tile, the column sums go to memory with
/// one vector atomic add per lane (float4, compute capability 9.0; three scalar atomics on
/// older GPUs). A diagonal tile (I == J) is done the brute force way, rows only: its k(k-1)
/// off-diagonal interactions, as in the text's count.
///
/// Each warp walks a run of consecutive tiles of the upper triangle in row order, so its row
/// sums stay in registers across the run and are flushed once per row.
/* [changed]
Compared with variant 10: the symmetry f_ji = -f_ij halves the interactions: warps compute only
the 32 x 32 tiles on and above the diagonal (figures 14.3 and 14.4), one inverse square root
serves both bodies of a pair, row sums are added and column sums subtracted, and column sums
meet in global memory through atomic adds.
[changed] */
#pragma once

#include "10_gpu_blocked.cuh"  // accumulate_interaction, rsqrt_ftz

namespace ch14 {

/// Threads per block of variant 11: four independent warps.
inline constexpr int kSymmetricThreads = 128;

// [nbody-gpu-symmetric-add]
/// Adds (x, y, z) to sum in global memory, atomically: one float4 vector atomic on compute
/// capability 9.0 and newer, three scalar float atomics before it (each component is atomic
/// on its own, which is all the sums need: they are only read after the kernel).
__device__ __forceinline__ void atomic_add_xyz(float4* sum, float x, float y, float z) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  atomicAdd(sum, make_float4(x, y, z, 0.0f));
#else
  atomicAdd(&sum->x, x);
  atomicAdd(&sum->y, y);
  atomicAdd(&sum->z, z);
#endif
}
// [nbody-gpu-symmetric-add]

// [nbody-gpu-symmetric-kernel]
/// Pairs [warp * run, warp * run + run) of the upper triangle of tiles, in row order.
__global__ void __launch_bounds__(kSymmetricThreads)
    nbody_symmetric(float4* __restrict__ sums, const float4* __restrict__ bodies, int n,
                    float softening_sq, int tiles, long long pairs, int run) {
  constexpr unsigned kAllLanes = 0xffffffffu;
  // Each warp's column tile, stored twice in a row: lane l reads element l + s (s < 32), a
  // constant offset from its own element, instead of computing (l + s) mod 32 in every step.
  __shared__ float4 columns[kSymmetricThreads / 32][64];
  const int lane = threadIdx.x & 31;
  float4* col = columns[threadIdx.x / 32];
  const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const long long q_begin = warp * run;
  if (q_begin >= pairs) return;  // the whole warp: q_begin is the same in every lane
  const long long q_end = min(q_begin + run, pairs);
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  const auto body = [&](int i) { return i < n ? bodies[i] : zero; };  // massless padding

  int I = symmetric_row_of(q_begin, tiles);
  int J = I + static_cast<int>(q_begin - symmetric_row_start(I, tiles));
  float4 me = body(I * 32 + lane);
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (long long q = q_begin; q < q_end; ++q) {
    __syncwarp();  // every lane is done reading the previous tile
    const float4 c = body(J * 32 + lane);
    col[lane] = c;
    col[lane + 32] = c;
    __syncwarp();
    if (I == J) {
      // Diagonal tile: rows only, every lane reads the same column (a broadcast).
#pragma unroll 8
      for (int s = 0; s < 32; ++s) accumulate_interaction(ax, ay, az, me.x, me.y, me.z, col[s], softening_sq);
    } else {
      float cx = 0.0f, cy = 0.0f, cz = 0.0f;
#pragma unroll 8
      for (int s = 0; s < 32; ++s) {
        const float4 b = col[lane + s];  // column (lane + s) mod 32
        const float dx = b.x - me.x;
        const float dy = b.y - me.y;
        const float dz = b.z - me.z;
        const float d2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, softening_sq)));
        const float inv = rsqrt_ftz(d2);
        const float w = inv * inv * inv;
        const float s_row = b.w * w;   // the column body pulls the row body towards it
        const float s_col = me.w * w;  // and the row body pulls the column body back
        ax = fmaf(dx, s_row, ax);
        ay = fmaf(dy, s_row, ay);
        az = fmaf(dz, s_row, az);
        cx = fmaf(-dx, s_col, cx);
        cy = fmaf(-dy, s_col, cy);
        cz = fmaf(-dz, s_col, cz);
        if (s < 31) {
          // Column (lane + s + 1) mod 32's sum is in the next lane: take it.
          cx = __shfl_sync(kAllLanes, cx, (lane + 1) & 31);
          cy = __shfl_sync(kAllLanes, cy, (lane + 1) & 31);
          cz = __shfl_sync(kAllLanes, cz, (lane + 1) & 31);
        }
      }
      // After 31 moves, lane l holds the sum of column (l + 31) mod 32.
      const int j = J * 32 + ((lane + 31) & 31);
      if (j < n) atomic_add_xyz(&sums[j], cx, cy, cz);
    }
    // Flush the row at the end of a tile row or of this warp's run; then move on.
    const bool row_done = J == tiles - 1 || q + 1 == q_end;
    if (row_done) {
      const int i = I * 32 + lane;
      if (i < n) atomic_add_xyz(&sums[i], ax, ay, az);
      ax = ay = az = 0.0f;
    }
    if (++J == tiles) {
      ++I;
      J = I;
      if (I < tiles) me = body(I * 32 + lane);
    }
  }
}

/// Copies the float4 sums into the 3-floats-per-body output.
__global__ void unpack_sums(float* __restrict__ force, const float4* __restrict__ sums, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float4 a = sums[i];
    force[3 * i + 0] = a.x;
    force[3 * i + 1] = a.y;
    force[3 * i + 2] = a.z;
  }
}
// [nbody-gpu-symmetric-kernel]

std::size_t symmetric_scratch(std::size_t n) { return n; }

// [nbody-gpu-symmetric-launch]
/// Launches a symmetric-tile kernel \p kernel (tiles of \p tile bodies, blocks of \p threads)
/// over the upper triangle of tiles, its sums in the scratch, then unpacks them into p.force.
template <typename Kernel>
void launch_symmetric_tiles(const GpuProblem& p, Kernel kernel, int tile, int threads,
                            const char* variant, cudaStream_t stream) {
  if (p.n <= 0) return;
  if (p.scratch_count < std::size_t(p.n))
    throw std::invalid_argument(std::string(variant) + " needs n float4 of scratch for its sums");
  const int tiles = (p.n + tile - 1) / tile;
  const long long pairs = static_cast<long long>(tiles) * (tiles + 1) / 2;
  // Runs of up to 32 tile pairs per warp, but short enough for about 64 warps per SM.
  const long long target_warps = 64LL * sm_count();
  const int run = static_cast<int>(std::clamp<long long>(pairs / target_warps, 1, 32));
  const long long warps = (pairs + run - 1) / run;
  const int warps_per_block = threads / 32;
  const long long blocks = (warps + warps_per_block - 1) / warps_per_block;
  HB_CUDA_CHECK(cudaMemsetAsync(p.scratch, 0, std::size_t(p.n) * sizeof(float4), stream));
  kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(
      p.scratch, p.bodies, p.n, p.softening_sq, tiles, pairs, run);
  HB_CHECK_LAUNCH();
  const int unpack_threads = 256;
  unpack_sums<<<(p.n + unpack_threads - 1) / unpack_threads, unpack_threads, 0, stream>>>(
      p.force, p.scratch, p.n);
  HB_CHECK_LAUNCH();
}

void launch_gpu_symmetric(const GpuProblem& p, int /*unused*/, cudaStream_t stream) {
  launch_symmetric_tiles(p, nbody_symmetric, 32, kSymmetricThreads, "variant 11", stream);
}
// [nbody-gpu-symmetric-launch]

}  // namespace ch14
