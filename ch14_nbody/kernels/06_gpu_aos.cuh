/// \file
/// \brief Chapter 14, variant 6: GPU naive, AOS from global memory.
/* [changed]
Compared with variant 5: the rows of the force matrix go to GPU threads instead of CPU cores,
one row per thread, and the inner loop reads each body as one 16-byte float4 load from global
memory, where the caches serve the many repeated reads. The template parameter is the factor of
`#pragma unroll` on that loop (Table 14.1).
[changed] */
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "hb/error.h"
#include "interaction.h"
#include "nbody.h"

namespace ch14 {

// [nbody-gpu-aos-kernel]
/// Listing 14.3 with a compile-time unroll factor: thread i (grid-stride) sums row i.
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

const std::vector<int>& unroll_factors() {
  static const std::vector<int> f{1, 2, 4, 8, 16, 32};
  return f;
}

/// The kernel of unroll factor \p unroll from \p table (one entry per unroll_factors()).
template <typename Launch>
Launch pick_unrolled(const Launch* table, int unroll) {
  const auto& f = unroll_factors();
  const auto it = std::find(f.begin(), f.end(), unroll);
  if (it == f.end()) throw std::out_of_range("no kernel for unroll factor " + std::to_string(unroll));
  return table[it - f.begin()];
}

template <int U>
void aos(const GpuProblem& p, cudaStream_t stream) {
  const int blocks = resident_grid(ComputeNBodyGravitation_GPU_AOS<U>, p.n, kBookThreads, 0);
  ComputeNBodyGravitation_GPU_AOS<U><<<blocks, kBookThreads, 0, stream>>>(p.force, p.bodies, p.n,
                                                                          p.softening_sq);
  HB_CHECK_LAUNCH();
}

void launch_gpu_aos(const GpuProblem& p, int unroll, cudaStream_t stream) {
  using Launch = void (*)(const GpuProblem&, cudaStream_t);
  static const Launch table[] = {aos<1>, aos<2>, aos<4>, aos<8>, aos<16>, aos<32>};
  const Launch launch = pick_unrolled(table, unroll);
  if (p.n > 0) launch(p, stream);
}

}  // namespace ch14
