/// \file
/// \brief The CPU reference of chapter 14: bodies on the host in both layouts of the text (AOS
///        for the GPU and the scalar CPU code, padded SOA for SIMD), the generators of the
///        chapter's inputs, the float64 forces with the tolerance every check uses, and the
///        leapfrog with the energy and momentum that tell whether a simulation is right.
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
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "hb/compare.h"

namespace ch14 {

/// SIMD code reads whole vectors of up to 16 floats (AVX-512); the SOA arrays are padded to a
/// multiple of this with bodies of mass 0 at the origin, which add exactly 0 to every sum.
inline constexpr std::size_t kSoaPad = 16;

/// Largest body count the programs accept (\f$N^2 \approx 1.8 \cdot 10^{13}\f$ interactions,
/// about ten seconds per force evaluation on an H200).
inline constexpr std::size_t kMaxBodies = std::size_t(1) << 22;

/// A std::allocator that aligns to \p Align bytes (64: a cache line, one AVX-512 vector).
template <typename T, std::size_t Align>
struct AlignedAllocator {
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = AlignedAllocator<U, Align>;
  };
  AlignedAllocator() = default;
  template <typename U>
  AlignedAllocator(const AlignedAllocator<U, Align>&) noexcept {}  // NOLINT: rebinding
  T* allocate(std::size_t count) {
    return static_cast<T*>(::operator new(count * sizeof(T), std::align_val_t(Align)));
  }
  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, std::align_val_t(Align)); }
  template <typename U>
  bool operator==(const AlignedAllocator<U, Align>&) const noexcept { return true; }
  template <typename U>
  bool operator!=(const AlignedAllocator<U, Align>&) const noexcept { return false; }
};

/// 64-byte aligned floats.
using AlignedFloats = std::vector<float, AlignedAllocator<float, 64>>;

/// N bodies on the host. `aos` is what the GPU and listing 14.2 read: one float4
/// (x, y, z, mass) per body. `x`, `y`, `z`, `m` are the same bodies as a structure of arrays
/// (section 14.7), padded with massless bodies to a multiple of kSoaPad.
struct HostBodies {
  std::size_t n = 0;
  std::vector<float4> aos;
  AlignedFloats x, y, z, m;

  HostBodies() = default;
  /// Takes the bodies in AOS form and builds the padded SOA copy.
  explicit HostBodies(std::vector<float4> bodies);
  /// Rebuilds the SOA copy after `aos` changed (the integrator moves the bodies).
  void sync_soa();
  /// Length of the padded SOA arrays: n rounded up to a multiple of kSoaPad.
  std::size_t padded() const { return x.size(); }
};

/// The benchmark and test input of the text: positions uniform in \f$[-1, 1)^3\f$, masses
/// uniform in \f$[0.5, 1.5) / N\f$ (total mass about 1), all from (seed, index).
HostBodies random_bodies(std::size_t n, std::uint64_t seed);

/// Positions and velocities of a simulation.
struct State {
  HostBodies bodies;
  std::vector<float> vel;  ///< 3 per body (vx, vy, vz)
};

/// The simulation's start: a thin, cold disk of radius 1 and total mass 1, each body on a
/// circular orbit for the mass inside its radius, plus a small random velocity; the total
/// momentum is made zero. Cold disks are unstable, so it soon forms rings and clumps, which
/// makes a picture worth looking at.
State disk_galaxy(std::size_t n, std::uint64_t seed, float softening_sq);

/// The float64 reference of a set of rows of the force matrix: each row's acceleration,
/// summed in double from the float inputs with bodyBodyInteraction<double>, and the row's
/// "magnitude sum" \f$A_i = \sum_j |m_j|\,\lVert\mathbf{d}_{ij}\rVert /
/// (\lVert\mathbf{d}_{ij}\rVert^2 + \varepsilon^2)^{3/2}\f$, which scales its tolerance.
struct Reference {
  std::size_t n = 0;               ///< bodies in the problem
  std::vector<std::size_t> rows;   ///< which rows
  std::vector<double> accel;       ///< 3 per row in `rows`
  std::vector<double> magnitude;   ///< \f$A_i\f$ per row in `rows`
};

/// The reference for \p rows of \p bodies (every row when \p rows is empty). Runs on all CPU
/// cores (OpenMP).
Reference reference_forces(const HostBodies& bodies, float softening_sq,
                           std::vector<std::size_t> rows = {});

/// About \p count rows spread evenly over [0, n), always including the first and the last:
/// the programs check these, so checking 64K bodies costs \p count x N, not N^2, interactions.
std::vector<std::size_t> sample_rows(std::size_t n, std::size_t count);

/// The tolerance factor \f$\tau(N) = u\,(C_0 + C_1\sqrt{N})\f$ with \f$u = 2^{-24}\f$,
/// \f$C_0 = 32\f$, \f$C_1 = 4\f$: a component of a float result passes when it is within
/// \f$\tau(N) A_i\f$ of the float64 reference. \f$C_0 u\f$ covers the rounding of one
/// interaction (a dozen roundings, the inverse square root's error of up to a few units
/// tripled by the cube, and the 22-23 bit rsqrt + Newton step of the SIMD code);
/// \f$C_1 \sqrt{N} u\f$ covers the sum of N terms, whose rounding errors add up like a random
/// walk (Higham, "Accuracy and Stability of Numerical Algorithms", 2.8), with a margin of 7
/// standard deviations even when every partial sum is as large as \f$A_i\f$. See the chapter
/// page for the measured errors and why one missing body still fails.
double tolerance_factor(std::size_t n);

/// Compares rows `ref.rows` of \p got (3 floats per body, all n bodies) with \p ref within
/// tolerance_factor(ref.n) x magnitude. max_error is the largest |error| / (A_i tau(N)), so
/// 1.0 is the edge of the tolerance.
hb::CompareResult check_forces(const float* got, const Reference& ref);

// ------------------------------------------------------------------ the leapfrog

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

}  // namespace ch14
