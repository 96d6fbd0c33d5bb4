/// \file
/// \brief Chapter 14, variant 9: GPU warp shuffle.
/* [changed]
Compared with variant 8: no constant and no shared memory. Each lane of a warp loads one body of
a 32-body tile into registers, and the warp walks the tile with `__shfl_sync`, which hands one
lane's registers to every lane: four shuffles per interaction replace the shared-memory store
and load.
[changed] */
#pragma once

#include "hb/error.h"
#include "nbody.h"
#include "interaction.h"

namespace ch14 {

// [nbody-gpu-shuffle-kernel]
/// Listing 14.7 in CUDA 13's form. blockDim.x must be a multiple of 32.
__global__ void ComputeNBodyGravitation_Shuffle(float* __restrict__ force,
                                                const float4* __restrict__ posMass, int n,
                                                float softeningSquared) {
  constexpr unsigned kAllLanes = 0xffffffffu;
  const int laneid = threadIdx.x & 31;
  // The loop runs per warp, not per thread: all 32 lanes stay in it until the warp is done,
  // because __shfl_sync with a full mask requires every lane to take part.
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int warps = blockDim.x * gridDim.x / 32;
  for (int base = warp * 32; base < n; base += warps * 32) {
    const int i = base + laneid;
    float acc[3] = {0.0f, 0.0f, 0.0f};
    const float4 myPosMass = posMass[i < n ? i : n - 1];
    for (int j = 0; j < n; j += 32) {
      // Past the last body a lane holds a massless body, which adds exactly zero.
      const int k = j + laneid;
      const float4 shufSrcPosMass = k < n ? posMass[k] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll 32
      for (int t = 0; t < 32; t++) {
        float4 shufDstPosMass;
        shufDstPosMass.x = __shfl_sync(kAllLanes, shufSrcPosMass.x, t);
        shufDstPosMass.y = __shfl_sync(kAllLanes, shufSrcPosMass.y, t);
        shufDstPosMass.z = __shfl_sync(kAllLanes, shufSrcPosMass.z, t);
        shufDstPosMass.w = __shfl_sync(kAllLanes, shufSrcPosMass.w, t);
        float fx, fy, fz;
        bodyBodyInteraction(fx, fy, fz, myPosMass.x, myPosMass.y, myPosMass.z, shufDstPosMass.x,
                            shufDstPosMass.y, shufDstPosMass.z, shufDstPosMass.w,
                            softeningSquared);
        acc[0] += fx;
        acc[1] += fy;
        acc[2] += fz;
      }
    }
    if (i < n) {
      force[3 * i + 0] = acc[0];
      force[3 * i + 1] = acc[1];
      force[3 * i + 2] = acc[2];
    }
  }
}
// [nbody-gpu-shuffle-kernel]

void launch_gpu_shuffle(const GpuProblem& p, int /*unused*/, cudaStream_t stream) {
  if (p.n <= 0) return;
  const int blocks = resident_grid(ComputeNBodyGravitation_Shuffle, p.n, kBookThreads, 0);
  ComputeNBodyGravitation_Shuffle<<<blocks, kBookThreads, 0, stream>>>(p.force, p.bodies, p.n,
                                                                       p.softening_sq);
  HB_CHECK_LAUNCH();
}

}  // namespace ch14
