// Leapfrog on the host, and energy and momentum in double.
#include "nbody_integrate.h"

#include <algorithm>
#include <cmath>

#include "hb/timing.h"

namespace ch14 {

// [nbody-energy]
Energy measure_energy(const State& s, float softening_sq) {
  Energy e;
  const std::vector<float4>& b = s.bodies.aos;
  const long long n = static_cast<long long>(b.size());
  // The SOA copy, so that the inner loop vectorizes (4 doubles per AVX2 register).
  const float* x = s.bodies.x.data();
  const float* y = s.bodies.y.data();
  const float* z = s.bodies.z.data();
  const float* m = s.bodies.m.data();
  const double eps2 = softening_sq;
  double potential = 0.0;
  // Row i pairs with the bodies after it; the rows get shorter, so hand them out dynamically.
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : potential)
  for (long long i = 0; i < n; ++i) {
    const double xi = x[i], yi = y[i], zi = z[i];
    double row = 0.0;
#pragma omp simd reduction(+ : row)
    for (long long j = i + 1; j < n; ++j) {
      const double dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
      row += m[j] / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
    }
    potential -= m[i] * row;
  }
  e.potential = potential;
  for (long long i = 0; i < n; ++i) {
    const double mi = b[i].w;
    const double vx = s.vel[3 * i], vy = s.vel[3 * i + 1], vz = s.vel[3 * i + 2];
    const double v2 = vx * vx + vy * vy + vz * vz;
    e.kinetic += 0.5 * mi * v2;
    e.momentum[0] += mi * vx;
    e.momentum[1] += mi * vy;
    e.momentum[2] += mi * vz;
    e.momentum_scale += mi * std::sqrt(v2);
  }
  return e;
}
// [nbody-energy]

Drift drift_between(const Energy& before, const Energy& after) {
  Drift d;
  const double e0 = before.total();
  d.energy = e0 != 0.0 ? std::fabs(after.total() - e0) / std::fabs(e0) : std::fabs(after.total());
  double dp2 = 0.0;
  for (int c = 0; c < 3; ++c) {
    const double dp = after.momentum[c] - before.momentum[c];
    dp2 += dp * dp;
  }
  const double scale = std::max(before.momentum_scale, after.momentum_scale);
  d.momentum = scale > 0.0 ? std::sqrt(dp2) / scale : std::sqrt(dp2);
  return d;
}

// [nbody-leapfrog-host]
double simulate_host(State& s, const HostForces& forces, int steps, float dt) {
  const std::size_t n = s.bodies.n;
  std::vector<float> a(3 * n);
  hb::HostTimer timer;
  forces(s.bodies, a.data());
  for (int step = 0; step < steps; ++step) {
    for (std::size_t i = 0; i < n; ++i) kick_body(&s.vel[3 * i], &a[3 * i], 0.5f * dt);
    for (std::size_t i = 0; i < n; ++i) drift_body(s.bodies.aos[i], &s.vel[3 * i], dt);
    s.bodies.sync_soa();
    forces(s.bodies, a.data());
    for (std::size_t i = 0; i < n; ++i) kick_body(&s.vel[3 * i], &a[3 * i], 0.5f * dt);
  }
  return timer.elapsed_ms();
}
// [nbody-leapfrog-host]

}  // namespace ch14
