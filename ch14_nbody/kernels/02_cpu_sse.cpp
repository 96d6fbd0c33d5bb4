/// \file
/// \brief Chapter 14, variant 2: CPU SSE, one thread.
///
/// The file holds listing 14.8 (the SIMD interaction) and the single-thread worker of listing
/// 14.10.
/* [changed]
Compared with variant 1: four bodies at a time in SSE registers (listing 14.8), and the inverse
square root from the RSQRTPS estimate refined by one Newton-Raphson step instead of a square
root and a division.
[changed] */
#include "nbody.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ch14 {

#if defined(__x86_64__)
namespace {

// [nbody-sse-kernel]
// 1/sqrt(x): the 12-bit hardware estimate nr, then one Newton-Raphson step
// nr * (3 - x nr^2) / 2, which roughly doubles the correct bits (to about 22).
inline __m128 rcp_sqrt_nr_ps(const __m128 x) {
  const __m128 nr = _mm_rsqrt_ps(x);
  const __m128 muls = _mm_mul_ps(_mm_mul_ps(nr, nr), x);
  const __m128 beta = _mm_mul_ps(_mm_set1_ps(0.5f), nr);
  const __m128 gamma = _mm_sub_ps(_mm_set1_ps(3.0f), muls);
  return _mm_mul_ps(beta, gamma);
}

// The sum of the four floats of x, in the lowest lane.
inline __m128 horizontal_sum_ps(const __m128 x) {
  const __m128 t = _mm_add_ps(x, _mm_movehl_ps(x, x));
  return _mm_add_ss(t, _mm_shuffle_ps(t, t, 1));
}

// Four interactions at once: body 0 (broadcast into every lane of x0, y0, z0) with four
// bodies 1. The printed listing adds to undeclared a0, a1, a2; we accumulate into f0, f1, f2.
inline void bodyBodyInteraction(__m128& f0, __m128& f1, __m128& f2, const __m128& x0,
                                const __m128& y0, const __m128& z0, const __m128& x1,
                                const __m128& y1, const __m128& z1, const __m128& mass1,
                                const __m128& softeningSquared) {
  const __m128 dx = _mm_sub_ps(x1, x0);
  const __m128 dy = _mm_sub_ps(y1, y0);
  const __m128 dz = _mm_sub_ps(z1, z0);
  __m128 distSq =
      _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)), _mm_mul_ps(dz, dz));
  distSq = _mm_add_ps(distSq, softeningSquared);
  const __m128 invDist = rcp_sqrt_nr_ps(distSq);
  const __m128 invDistCube = _mm_mul_ps(invDist, _mm_mul_ps(invDist, invDist));
  const __m128 s = _mm_mul_ps(mass1, invDistCube);
  f0 = _mm_add_ps(f0, _mm_mul_ps(dx, s));
  f1 = _mm_add_ps(f1, _mm_mul_ps(dy, s));
  f2 = _mm_add_ps(f2, _mm_mul_ps(dz, s));
}
// [nbody-sse-kernel]

}  // namespace

// [nbody-sse-rows]
void rows_sse(const HostBodies& b, float* force, float softening_sq, std::size_t row_begin,
              std::size_t row_end) {
  const __m128 eps2 = _mm_set1_ps(softening_sq);
  // The SOA arrays are padded with massless bodies to a multiple of 16, so whole vectors
  // cover every body and no scalar tail loop is needed (the book required N % 4 == 0).
  const std::size_t vectors = b.padded() / 4;
  for (std::size_t i = row_begin; i < row_end; i++) {
    __m128 ax = _mm_setzero_ps();
    __m128 ay = _mm_setzero_ps();
    __m128 az = _mm_setzero_ps();
    const __m128 x0 = _mm_set1_ps(b.x[i]);
    const __m128 y0 = _mm_set1_ps(b.y[i]);
    const __m128 z0 = _mm_set1_ps(b.z[i]);
    for (std::size_t j = 0; j < vectors; j++) {
      bodyBodyInteraction(ax, ay, az, x0, y0, z0, _mm_load_ps(&b.x[4 * j]),
                          _mm_load_ps(&b.y[4 * j]), _mm_load_ps(&b.z[4 * j]),
                          _mm_load_ps(&b.m[4 * j]), eps2);
    }
    _mm_store_ss(&force[3 * i + 0], horizontal_sum_ps(ax));
    _mm_store_ss(&force[3 * i + 1], horizontal_sum_ps(ay));
    _mm_store_ss(&force[3 * i + 2], horizontal_sum_ps(az));
  }
}
// [nbody-sse-rows]

#else
void rows_sse(const HostBodies&, float*, float, std::size_t, std::size_t) {}
#endif

void forces_cpu_sse(const HostBodies& bodies, float* force, float softening_sq, int /*threads*/) {
  rows_sse(bodies, force, softening_sq, 0, bodies.n);
}

}  // namespace ch14
