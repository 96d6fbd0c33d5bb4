/// \file
/// \brief Chapter 14, variant 3: CPU AVX2+FMA, one thread.
/* [changed]
Compared with variant 2: eight bodies at a time in AVX2's 256-bit registers, and fused
multiply-adds (FMA3), which also shorten the Newton-Raphson step.
[changed] */
#include "nbody.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ch14 {

#if defined(__x86_64__)
#define CH14_AVX2 __attribute__((target("avx2,fma")))

namespace {

// The sum of the eight floats of x.
CH14_AVX2 inline float horizontal_sum(__m256 x) {
  const __m128 q = _mm_add_ps(_mm256_castps256_ps128(x), _mm256_extractf128_ps(x, 1));
  const __m128 t = _mm_add_ps(q, _mm_movehl_ps(q, q));
  return _mm_cvtss_f32(_mm_add_ss(t, _mm_shuffle_ps(t, t, 1)));
}

}  // namespace

// [nbody-avx2-rows]
CH14_AVX2 void rows_avx2(const HostBodies& b, float* force, float softening_sq,
                         std::size_t row_begin, std::size_t row_end) {
  const __m256 eps2 = _mm256_set1_ps(softening_sq);
  const __m256 three = _mm256_set1_ps(3.0f);
  const __m256 half = _mm256_set1_ps(0.5f);
  const std::size_t vectors = b.padded() / 8;
  for (std::size_t i = row_begin; i < row_end; i++) {
    __m256 ax = _mm256_setzero_ps(), ay = _mm256_setzero_ps(), az = _mm256_setzero_ps();
    const __m256 x0 = _mm256_set1_ps(b.x[i]);
    const __m256 y0 = _mm256_set1_ps(b.y[i]);
    const __m256 z0 = _mm256_set1_ps(b.z[i]);
    for (std::size_t j = 0; j < vectors; j++) {
      const __m256 dx = _mm256_sub_ps(_mm256_load_ps(&b.x[8 * j]), x0);
      const __m256 dy = _mm256_sub_ps(_mm256_load_ps(&b.y[8 * j]), y0);
      const __m256 dz = _mm256_sub_ps(_mm256_load_ps(&b.z[8 * j]), z0);
      const __m256 d2 =
          _mm256_fmadd_ps(dx, dx, _mm256_fmadd_ps(dy, dy, _mm256_fmadd_ps(dz, dz, eps2)));
      // 1/sqrt(d2): estimate, then nr * (3 - d2 nr^2) / 2 with one FMA.
      const __m256 nr = _mm256_rsqrt_ps(d2);
      const __m256 gamma = _mm256_fnmadd_ps(_mm256_mul_ps(nr, nr), d2, three);
      const __m256 inv = _mm256_mul_ps(_mm256_mul_ps(half, nr), gamma);
      const __m256 s =
          _mm256_mul_ps(_mm256_load_ps(&b.m[8 * j]), _mm256_mul_ps(inv, _mm256_mul_ps(inv, inv)));
      ax = _mm256_fmadd_ps(dx, s, ax);
      ay = _mm256_fmadd_ps(dy, s, ay);
      az = _mm256_fmadd_ps(dz, s, az);
    }
    force[3 * i + 0] = horizontal_sum(ax);
    force[3 * i + 1] = horizontal_sum(ay);
    force[3 * i + 2] = horizontal_sum(az);
  }
}
// [nbody-avx2-rows]

#undef CH14_AVX2
#else
void rows_avx2(const HostBodies&, float*, float, std::size_t, std::size_t) {}
#endif

void forces_cpu_avx2(const HostBodies& bodies, float* force, float softening_sq, int /*threads*/) {
  rows_avx2(bodies, force, softening_sq, 0, bodies.n);
}

}  // namespace ch14
