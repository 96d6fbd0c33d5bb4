/// \file
/// \brief Bodies on the host in both layouts of the text (AOS for the GPU and the scalar CPU
///        code, padded SOA for SIMD), the generators of the chapter's inputs, and the float64
///        reference with the tolerance every check uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
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

}  // namespace ch14
