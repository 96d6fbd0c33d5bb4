/// \file
/// \brief Variant 7, listing 14.4: the bodies of the inner loop staged through shared memory,
///        one block-sized tile at a time.
///
/// Compared with variant 6: each block first copies a tile of blockDim.x bodies into shared
/// memory, one body per thread, and then every thread of the block reads the whole tile from
/// there; all threads of a warp read the same element, which shared memory broadcasts. The
/// template parameter unrolls the loop over the tile (Table 14.2).
#pragma once

#include "nbody_interaction.h"

namespace ch14 {

// [nbody-gpu-shared-kernel]
/// Listing 14.4 with a compile-time unroll factor. Launch with
/// blockDim.x * sizeof(float4) bytes of dynamic shared memory.
/// \tparam Unroll the factor of `#pragma unroll` on the loop over a tile
/// \param force   3 floats per body, written
/// \param posMass n bodies (x, y, z, mass)
/// \param n       number of bodies
/// \param softeningSquared \f$\varepsilon^2 > 0\f$
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

}  // namespace ch14
