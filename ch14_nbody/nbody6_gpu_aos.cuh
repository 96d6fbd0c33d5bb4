/// \file
/// \brief Variant 6, listing 14.3: the naive GPU kernel, one body per thread, every other
///        body read straight from global memory.
///
/// Compared with variant 5: the rows of the force matrix go to GPU threads instead of CPU
/// cores, one row per thread, and the inner loop reads each body as one 16-byte float4 load
/// from global memory, where the caches serve the many repeated reads. The template parameter
/// is the factor of `#pragma unroll` on that loop (Table 14.1).
#pragma once

#include "nbody_interaction.h"

namespace ch14 {

// [nbody-gpu-aos-kernel]
/// Listing 14.3 with a compile-time unroll factor: thread i (grid-stride) sums row i.
/// \tparam Unroll the factor of `#pragma unroll` on the inner loop (1: not unrolled)
/// \param force   3 floats per body, written
/// \param posMass n bodies (x, y, z, mass)
/// \param n       number of bodies
/// \param softeningSquared \f$\varepsilon^2 > 0\f$
template <int Unroll>
__global__ void ComputeNBodyGravitation_GPU_AOS(float* __restrict__ force,
                                                const float4* __restrict__ posMass, int n,
                                                float softeningSquared) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float acc[3] = {0.0f, 0.0f, 0.0f};
    const float4 me = posMass[i];
#pragma unroll Unroll
    for (int j = 0; j < n; j++) {
      const float4 body = posMass[j];
      float fx, fy, fz;
      bodyBodyInteraction(fx, fy, fz, me.x, me.y, me.z, body.x, body.y, body.z, body.w,
                          softeningSquared);
      acc[0] += fx;
      acc[1] += fy;
      acc[2] += fz;
    }
    force[3 * i + 0] = acc[0];
    force[3 * i + 1] = acc[1];
    force[3 * i + 2] = acc[2];
  }
}
// [nbody-gpu-aos-kernel]

}  // namespace ch14
