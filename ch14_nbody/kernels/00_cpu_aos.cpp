/// \file
/// \brief Chapter 14, variant 0: CPU scalar, AOS (the reference).
/* [changed]
The reference of every table: listing 14.2, one CPU thread, scalar code, the bodies as an array
of structures (x, y, z, mass), and `bodyBodyInteraction<float>` of listing 14.1 for each of the
N^2 interactions.
[changed] */
#include "nbody.h"
#include "interaction.h"

namespace ch14 {

// [nbody-cpu-aos]
void forces_cpu_aos(const HostBodies& bodies, float* force, float softening_sq, int /*threads*/) {
  const float* posMass = &bodies.aos.data()->x;  // 4 floats per body: x, y, z, mass
  const std::size_t N = bodies.n;
  for (std::size_t i = 0; i < N; i++) {
    float ax = 0.0f;
    float ay = 0.0f;
    float az = 0.0f;
    const float myX = posMass[i * 4 + 0];
    const float myY = posMass[i * 4 + 1];
    const float myZ = posMass[i * 4 + 2];
    for (std::size_t j = 0; j < N; j++) {
      const float bodyX = posMass[j * 4 + 0];
      const float bodyY = posMass[j * 4 + 1];
      const float bodyZ = posMass[j * 4 + 2];
      const float bodyMass = posMass[j * 4 + 3];
      // The printed listing passes ax, ay, az here and then adds an uninitialized acc[];
      // we receive this interaction's acceleration in fx, fy, fz and add that.
      float fx, fy, fz;
      bodyBodyInteraction<float>(fx, fy, fz, myX, myY, myZ, bodyX, bodyY, bodyZ, bodyMass,
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
// [nbody-cpu-aos]

}  // namespace ch14
