/// \file
/// \brief Leapfrog time stepping (section 14.1) on the host and on the GPU, and the energy
///        and momentum that tell whether it is right.
///
/// The book's leapfrog Verlet updates the velocities with the accelerations and then the
/// positions with the new velocities, positions and velocities half a step apart. We split
/// each velocity update into two half kicks ("kick-drift-kick"), which is the same
/// trajectory but keeps positions and velocities at the same instants, so that the energy
/// can be measured:
/// \f[
///   \mathbf{v} \mathrel{+}= \tfrac{\Delta t}{2}\,\mathbf{a}(\mathbf{x}), \qquad
///   \mathbf{x} \mathrel{+}= \Delta t\,\mathbf{v}, \qquad
///   \mathbf{v} \mathrel{+}= \tfrac{\Delta t}{2}\,\mathbf{a}(\mathbf{x}),
/// \f]
/// one force evaluation per step (the last one is reused by the next step's first kick).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

#include "nbody_bodies.h"
#include "nbody_gpu.h"

namespace ch14 {

/// Kick: \f$\mathbf{v} \mathrel{+}= h\,\mathbf{a}\f$ for one body (3 floats each).
__host__ __device__ inline void kick_body(float* v, const float* a, float h) {
  v[0] += h * a[0];
  v[1] += h * a[1];
  v[2] += h * a[2];
}

/// Drift: \f$\mathbf{x} \mathrel{+}= \Delta t\,\mathbf{v}\f$ for one body; the mass stays.
__host__ __device__ inline void drift_body(float4& p, const float* v, float dt) {
  p.x += dt * v[0];
  p.y += dt * v[1];
  p.z += dt * v[2];
}

/// Energy and momentum of a state, summed in double. With softening, the potential energy
/// that matches our accelerations is
/// \f$U = -\sum_{i<j} m_i m_j / \sqrt{\lVert\mathbf{x}_i - \mathbf{x}_j\rVert^2 + \varepsilon^2}\f$.
struct Energy {
  double kinetic = 0.0;
  double potential = 0.0;
  double momentum[3] = {0.0, 0.0, 0.0};
  double momentum_scale = 0.0;  ///< \f$\sum_i m_i \lVert\mathbf{v}_i\rVert\f$, to make momentum drift relative
  double total() const { return kinetic + potential; }
};

/// Energy and momentum of \p s (all CPU cores; \f$O(N^2)\f$ for the potential).
Energy measure_energy(const State& s, float softening_sq);

/// How far a simulation drifted: \f$|E_1 - E_0| / |E_0|\f$ and
/// \f$\lVert\mathbf{P}_1 - \mathbf{P}_0\rVert / \sum_i m_i\lVert\mathbf{v}_i\rVert\f$.
struct Drift {
  double energy = 0.0;
  double momentum = 0.0;
};
Drift drift_between(const Energy& before, const Energy& after);

/// Forces of all bodies on the host: 3 floats per body into the second argument.
using HostForces = std::function<void(const HostBodies&, float*)>;

/// Runs \p steps leapfrog steps of \p dt on the host, with \p forces for the accelerations.
/// Returns the wall-clock milliseconds of the steps.
double simulate_host(State& s, const HostForces& forces, int steps, float dt);

/// Runs \p steps leapfrog steps on the current GPU with launcher \p launch (tuning \p param),
/// keeping the bodies on the GPU throughout; \p s is read before and written after.
/// Returns the milliseconds of the steps (CUDA events).
double simulate_device(State& s, GpuLauncher launch, int param, GpuScratch scratch, int steps,
                       float dt, float softening_sq);

}  // namespace ch14
