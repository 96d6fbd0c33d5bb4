/// \file
/// \brief Chapter 14, variant 7: GPU shared-memory tiles.
/* [changed]
Compared with variant 6: each block first copies a tile of blockDim.x bodies into shared memory,
one body per thread, and then every thread of the block reads the whole tile from there; all
threads of a warp read the same element, which shared memory broadcasts. The template parameter
unrolls the loop over the tile (Table 14.2).
[changed] */
#pragma once

#include "06_gpu_aos.cuh"  // unroll_factors, pick_unrolled
#include "interaction.h"

namespace ch14 {

// [nbody-gpu-shared-kernel]
/// Listing 14.4 with a compile-time unroll factor. Launch with
/// blockDim.x * sizeof(float4) bytes of dynamic shared memory.
template <int Unroll>
__global__ void ComputeNBodyGravitation_Shared(float* __restrict__ force,
                                               const float4* __restrict__ posMass, int n,
                                               float softeningSquared) {
  extern __shared__ float4 shPosMass[];
  // Every thread of a block runs the same number of iterations of both loops, also past the
  // last body, because all of them take part in loading the tiles and in __syncthreads().
  for (int base = blockIdx.x * blockDim.x; base < n; base += blockDim.x * gridDim.x) {
    const int i = base + threadIdx.x;
    float acc[3] = {0.0f, 0.0f, 0.0f};
    const float4 myPosMass = posMass[i < n ? i : n - 1];
    for (int j = 0; j < n; j += blockDim.x) {
      // The last tile is padded with massless bodies, which add exactly zero.
      const int k = j + threadIdx.x;
      shPosMass[threadIdx.x] = k < n ? posMass[k] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      __syncthreads();
#pragma unroll Unroll
      for (int t = 0; t < blockDim.x; t++) {
        const float4 bodyPosMass = shPosMass[t];
        float fx, fy, fz;
        bodyBodyInteraction(fx, fy, fz, myPosMass.x, myPosMass.y, myPosMass.z, bodyPosMass.x,
                            bodyPosMass.y, bodyPosMass.z, bodyPosMass.w, softeningSquared);
        acc[0] += fx;
        acc[1] += fy;
        acc[2] += fz;
      }
      __syncthreads();
    }
    if (i < n) {
      force[3 * i + 0] = acc[0];
      force[3 * i + 1] = acc[1];
      force[3 * i + 2] = acc[2];
    }
  }
}
// [nbody-gpu-shared-kernel]

// [nbody-gpu-shared-launch]
template <int U>
void shared(const GpuProblem& p, cudaStream_t stream) {
  const std::size_t bytes = kBookThreads * sizeof(float4);  // one tile of bodies
  const int blocks = resident_grid(ComputeNBodyGravitation_Shared<U>, p.n, kBookThreads, bytes);
  ComputeNBodyGravitation_Shared<U><<<blocks, kBookThreads, bytes, stream>>>(
      p.force, p.bodies, p.n, p.softening_sq);
  HB_CHECK_LAUNCH();
}
// [nbody-gpu-shared-launch]

void launch_gpu_shared(const GpuProblem& p, int unroll, cudaStream_t stream) {
  using Launch = void (*)(const GpuProblem&, cudaStream_t);
  static const Launch table[] = {shared<1>, shared<2>, shared<4>, shared<8>, shared<16>, shared<32>};
  const Launch launch = pick_unrolled(table, unroll);
  if (p.n > 0) launch(p, stream);
}

}  // namespace ch14
