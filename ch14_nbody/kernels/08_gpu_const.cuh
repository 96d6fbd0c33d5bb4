/// \file
/// \brief Chapter 14, variant 8: GPU constant memory, 4000 bodies per pass.
///
/// The kernel and its launcher share this file because a __constant__ variable belongs to the
/// translation unit that defines it (we do not compile with relocatable device code).
/* [changed]
Compared with variant 7: no shared memory at all. The host copies the bodies into constant
memory, at most 4000 (64,000 bytes) per pass, and launches one kernel per pass; every thread of
a warp reads the same body, which the constant cache broadcasts. The first pass writes the
accelerations, the later passes add to them.
[changed] */
#pragma once

#include <algorithm>

#include "hb/error.h"
#include "interaction.h"
#include "nbody.h"

namespace ch14 {

// [nbody-gpu-const-kernel]
__constant__ float4 g_constantBodies[kConstBodies];

/// Listing 14.5: adds the acceleration due to the count bodies in g_constantBodies to each
/// of the n bodies (writes it instead on the first pass, where accumulate is false).
__global__ void ComputeNBodyGravitation_GPU_AOS_const(float* __restrict__ force,
                                                      const float4* __restrict__ posMass,
                                                      float softeningSquared, int count, int n,
                                                      bool accumulate) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float acc[3] = {0.0f, 0.0f, 0.0f};
    const float4 me = posMass[i];
    for (int j = 0; j < count; j++) {
      const float4 body = g_constantBodies[j];
      float fx, fy, fz;
      bodyBodyInteraction(fx, fy, fz, me.x, me.y, me.z, body.x, body.y, body.z, body.w,
                          softeningSquared);
      acc[0] += fx;
      acc[1] += fy;
      acc[2] += fz;
    }
    if (accumulate) {
      force[3 * i + 0] += acc[0];
      force[3 * i + 1] += acc[1];
      force[3 * i + 2] += acc[2];
    } else {
      force[3 * i + 0] = acc[0];
      force[3 * i + 1] = acc[1];
      force[3 * i + 2] = acc[2];
    }
  }
}
// [nbody-gpu-const-kernel]

// [nbody-gpu-const-host]
void launch_gpu_const(const GpuProblem& p, int /*unused*/, cudaStream_t stream) {
  if (p.n <= 0) return;
  const int blocks = resident_grid(ComputeNBodyGravitation_GPU_AOS_const, p.n, kBookThreads, 0);
  // Listing 14.6: one copy into constant memory and one kernel per pass. Both go into the
  // same stream, so a pass's copy cannot overwrite bodies the previous kernel still reads.
  for (int first = 0; first < p.n; first += kConstBodies) {
    const int count = std::min(kConstBodies, p.n - first);
    HB_CUDA_CHECK(cudaMemcpyToSymbolAsync(g_constantBodies, p.bodies + first,
                                          count * sizeof(float4), 0, cudaMemcpyDeviceToDevice,
                                          stream));
    ComputeNBodyGravitation_GPU_AOS_const<<<blocks, kBookThreads, 0, stream>>>(
        p.force, p.bodies, p.softening_sq, count, p.n, first > 0);
    HB_CHECK_LAUNCH();
  }
}
// [nbody-gpu-const-host]

}  // namespace ch14
