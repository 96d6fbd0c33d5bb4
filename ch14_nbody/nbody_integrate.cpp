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
  const double eps2 = softening_sq;
  double potential = 0.0;
  // Row i pairs with the bodies after it; the rows get shorter, so hand them out dynamically.
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : potential)
  for (long long i = 0; i < n; ++i) {
    const double xi = b[i].x, yi = b[i].y, zi = b[i].z;
    double row = 0.0;
    for (long long j = i + 1; j < n; ++j) {
      const double dx = b[j].x - xi, dy = b[j].y - yi, dz = b[j].z - zi;
      row += b[j].w / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
    }
    potential -= b[i].w * row;
  }
  e.potential = potential;
  for (long long i = 0; i < n; ++i) {
    const double m = b[i].w;
    const double vx = s.vel[3 * i], vy = s.vel[3 * i + 1], vz = s.vel[3 * i + 2];
    const double v2 = vx * vx + vy * vy + vz * vz;
    e.kinetic += 0.5 * m * v2;
    e.momentum[0] += m * vx;
    e.momentum[1] += m * vy;
    e.momentum[2] += m * vz;
    e.momentum_scale += m * std::sqrt(v2);
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
