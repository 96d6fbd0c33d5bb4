/// \file
/// \brief Chapter 14, variant 4: CPU AVX-512, one thread.
/* [changed]
Compared with variant 3: sixteen bodies at a time in AVX-512's 512-bit registers, and a 14-bit
inverse square root estimate (VRSQRT14PS), so that one Newton-Raphson step reaches full single
precision.
[changed] */
#include "nbody.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ch14 {

#if defined(__x86_64__)
#define CH14_AVX512 __attribute__((target("avx512f")))

namespace {

// The sum of the sixteen floats of x, once per row. (We avoid _mm512_reduce_add_ps and the
// unmasked _mm512_rsqrt14_ps: with GCC 12 they trip -Wmaybe-uninitialized on the "undefined"
// register they start from.)
CH14_AVX512 inline float horizontal_sum(__m512 x) {
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, x);
  float s = 0.0f;
  for (float v : lanes) s += v;
  return s;
}

}  // namespace

// [nbody-avx512-rows]
CH14_AVX512 void rows_avx512(const HostBodies& b, float* force, float softening_sq,
                             std::size_t row_begin, std::size_t row_end) {
  const __m512 eps2 = _mm512_set1_ps(softening_sq);
  const __m512 three = _mm512_set1_ps(3.0f);
  const __m512 half = _mm512_set1_ps(0.5f);
  const std::size_t vectors = b.padded() / 16;
  for (std::size_t i = row_begin; i < row_end; i++) {
    __m512 ax = _mm512_setzero_ps(), ay = _mm512_setzero_ps(), az = _mm512_setzero_ps();
    const __m512 x0 = _mm512_set1_ps(b.x[i]);
    const __m512 y0 = _mm512_set1_ps(b.y[i]);
    const __m512 z0 = _mm512_set1_ps(b.z[i]);
    for (std::size_t j = 0; j < vectors; j++) {
      const __m512 dx = _mm512_sub_ps(_mm512_load_ps(&b.x[16 * j]), x0);
      const __m512 dy = _mm512_sub_ps(_mm512_load_ps(&b.y[16 * j]), y0);
      const __m512 dz = _mm512_sub_ps(_mm512_load_ps(&b.z[16 * j]), z0);
      const __m512 d2 =
          _mm512_fmadd_ps(dx, dx, _mm512_fmadd_ps(dy, dy, _mm512_fmadd_ps(dz, dz, eps2)));
      const __m512 nr = _mm512_maskz_rsqrt14_ps(0xFFFF, d2);  // all 16 lanes
      const __m512 gamma = _mm512_fnmadd_ps(_mm512_mul_ps(nr, nr), d2, three);
      const __m512 inv = _mm512_mul_ps(_mm512_mul_ps(half, nr), gamma);
      const __m512 s = _mm512_mul_ps(_mm512_load_ps(&b.m[16 * j]),
                                     _mm512_mul_ps(inv, _mm512_mul_ps(inv, inv)));
      ax = _mm512_fmadd_ps(dx, s, ax);
      ay = _mm512_fmadd_ps(dy, s, ay);
      az = _mm512_fmadd_ps(dz, s, az);
    }
    force[3 * i + 0] = horizontal_sum(ax);
    force[3 * i + 1] = horizontal_sum(ay);
    force[3 * i + 2] = horizontal_sum(az);
  }
}
// [nbody-avx512-rows]

#undef CH14_AVX512
#else
void rows_avx512(const HostBodies&, float*, float, std::size_t, std::size_t) {}
#endif

void forces_cpu_avx512(const HostBodies& bodies, float* force, float softening_sq,
                       int /*threads*/) {
  rows_avx512(bodies, force, softening_sq, 0, bodies.n);
}

}  // namespace ch14
