/// \file
/// \brief Chapter 14, variant 1: CPU scalar, SOA.
/* [changed]
Compared with variant 0: the same scalar loop reads the structure of arrays (one array each of
x, y, z and mass, section 14.7) that the SIMD variants need, so the next steps change one thing
at a time.
[changed] */
#include "nbody.h"
#include "interaction.h"

namespace ch14 {

// [nbody-cpu-soa]
void forces_cpu_soa(const HostBodies& bodies, float* force, float softening_sq, int /*threads*/) {
  const float* x = bodies.x.data();
  const float* y = bodies.y.data();
  const float* z = bodies.z.data();
  const float* m = bodies.m.data();
  for (std::size_t i = 0; i < bodies.n; i++) {
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (std::size_t j = 0; j < bodies.n; j++) {
      float fx, fy, fz;
      bodyBodyInteraction<float>(fx, fy, fz, x[i], y[i], z[i], x[j], y[j], z[j], m[j],
                                 softening_sq);
      ax += fx;
      ay += fy;
      az += fz;
    }
    force[3 * i + 0] = ax;
    force[3 * i + 1] = ay;
    force[3 * i + 2] = az;
  }
}
// [nbody-cpu-soa]

}  // namespace ch14
