// The CPU reference: the chapter's inputs, the float64 forces and their tolerance, and the
// leapfrog on the host with the energy and momentum in double.
#include "reference.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "hb/random.h"
#include "hb/timing.h"
#include "interaction.h"

namespace ch14 {

HostBodies::HostBodies(std::vector<float4> bodies) : n(bodies.size()), aos(std::move(bodies)) {
  sync_soa();
}

void HostBodies::sync_soa() {
  const std::size_t padded = (n + kSoaPad - 1) / kSoaPad * kSoaPad;
  x.assign(padded, 0.0f);
  y.assign(padded, 0.0f);
  z.assign(padded, 0.0f);
  m.assign(padded, 0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = aos[i].x;
    y[i] = aos[i].y;
    z[i] = aos[i].z;
    m[i] = aos[i].w;
  }
}

HostBodies random_bodies(std::size_t n, std::uint64_t seed) {
  std::vector<float4> b(n);
  const float mass_scale = 1.0f / static_cast<float>(std::max<std::size_t>(n, 1));
  for (std::size_t i = 0; i < n; ++i) {
    b[i].x = hb::uniform_float(seed, 4 * i + 0, -1.0f, 1.0f);
    b[i].y = hb::uniform_float(seed, 4 * i + 1, -1.0f, 1.0f);
    b[i].z = hb::uniform_float(seed, 4 * i + 2, -1.0f, 1.0f);
    b[i].w = hb::uniform_float(seed, 4 * i + 3, 0.5f, 1.5f) * mass_scale;
  }
  return HostBodies(std::move(b));
}

State disk_galaxy(std::size_t n, std::uint64_t seed, float softening_sq) {
  State s;
  std::vector<float4> b(n);
  s.vel.assign(3 * n, 0.0f);
  const double mass = 1.0 / static_cast<double>(std::max<std::size_t>(n, 1));
  const double two_pi = 6.283185307179586;
  double px = 0, py = 0, pz = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto u = [&](int k) { return double(hb::uniform_float(seed, 8 * i + k, 0.0f, 1.0f)); };
    // Uniform surface density: the mass inside radius r is r^2.
    const double r = std::sqrt(u(0));
    const double phi = two_pi * u(1);
    const double zpos = 0.02 * (u(2) - 0.5);
    // Circular speed for the (softened) mass inside r, as if it sat at the centre.
    const double v = std::sqrt(r * r * r * r / std::pow(r * r + softening_sq, 1.5));
    const double jitter = 0.05;
    const double vx = -v * std::sin(phi) + jitter * (u(3) - 0.5);
    const double vy = v * std::cos(phi) + jitter * (u(4) - 0.5);
    const double vz = jitter * (u(5) - 0.5);
    b[i] = make_float4(float(r * std::cos(phi)), float(r * std::sin(phi)), float(zpos),
                       float(mass));
    s.vel[3 * i + 0] = float(vx);
    s.vel[3 * i + 1] = float(vy);
    s.vel[3 * i + 2] = float(vz);
    px += vx;
    py += vy;
    pz += vz;
  }
  // Equal masses: zero total momentum means zero mean velocity.
  if (n > 0) {
    for (std::size_t i = 0; i < n; ++i) {
      s.vel[3 * i + 0] -= float(px / double(n));
      s.vel[3 * i + 1] -= float(py / double(n));
      s.vel[3 * i + 2] -= float(pz / double(n));
    }
  }
  s.bodies = HostBodies(std::move(b));
  return s;
}

// [nbody-reference]
Reference reference_forces(const HostBodies& bodies, float softening_sq,
                           std::vector<std::size_t> rows) {
  Reference ref;
  ref.n = bodies.n;
  if (rows.empty()) {
    rows.resize(bodies.n);
    for (std::size_t i = 0; i < bodies.n; ++i) rows[i] = i;
  }
  ref.rows = std::move(rows);
  ref.accel.assign(3 * ref.rows.size(), 0.0);
  ref.magnitude.assign(ref.rows.size(), 0.0);
  const double eps2 = softening_sq;
  const long long count = static_cast<long long>(ref.rows.size());
#pragma omp parallel for schedule(dynamic, 16)
  for (long long r = 0; r < count; ++r) {
    const float4 me = bodies.aos[ref.rows[r]];
    double ax = 0, ay = 0, az = 0, mag = 0;
    for (std::size_t j = 0; j < bodies.n; ++j) {
      const float4 b = bodies.aos[j];
      double fx, fy, fz;
      bodyBodyInteraction<double>(fx, fy, fz, me.x, me.y, me.z, b.x, b.y, b.z, b.w, eps2);
      ax += fx;
      ay += fy;
      az += fz;
      mag += std::sqrt(fx * fx + fy * fy + fz * fz);
    }
    ref.accel[3 * r + 0] = ax;
    ref.accel[3 * r + 1] = ay;
    ref.accel[3 * r + 2] = az;
    ref.magnitude[r] = mag;
  }
  return ref;
}
// [nbody-reference]

std::vector<std::size_t> sample_rows(std::size_t n, std::size_t count) {
  std::vector<std::size_t> rows;
  if (n == 0) return rows;
  if (count >= n) {
    for (std::size_t i = 0; i < n; ++i) rows.push_back(i);
    return rows;
  }
  for (std::size_t k = 0; k < count; ++k) rows.push_back(k * (n - 1) / std::max<std::size_t>(count - 1, 1));
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

double tolerance_factor(std::size_t n) {
  const double u = std::ldexp(1.0, -24);
  return u * (32.0 + 4.0 * std::sqrt(static_cast<double>(n)));
}

hb::CompareResult check_forces(const float* got, const Reference& ref) {
  hb::detail::MismatchLog log;
  const double tau = tolerance_factor(ref.n);
  double worst = 0.0;
  for (std::size_t r = 0; r < ref.rows.size(); ++r) {
    const std::size_t i = ref.rows[r];
    const double tol = tau * ref.magnitude[r];
    for (int c = 0; c < 3; ++c) {
      const double g = got[3 * i + c];
      const double w = ref.accel[3 * r + c];
      const double err = std::fabs(g - w);
      const double scaled = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0.0);
      if (std::isnan(err)) {
        worst = INFINITY;
      } else {
        worst = std::max(worst, scaled);
      }
      if (!(err <= tol)) {
        std::ostringstream e;
        e.precision(3);
        e << scaled << " x tolerance (body " << i << ", " << "xyz"[c] << ")";
        log.add(3 * i + c, hb::detail::to_text(g), hb::detail::to_text(w), e.str());
      }
    }
  }
  return log.finish(3 * ref.rows.size(), worst, "force components");
}


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
