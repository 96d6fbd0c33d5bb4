// The host side of chapter 14: inputs, the float64 reference, the host leapfrog and energy, the
// CPU's SIMD levels, measuring, the command line and the programs (main.cpp is their main()).
//
// The driver's CPU rows run on fewer bodies than its GPU rows (a scalar 64K-body evaluation
// takes most of a minute); interactions/s hardly depend on N past a few thousand, so they compare.
#include "nbody.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>

#include <omp.h>

#include "hb/bench.h"
#include "hb/files.h"
#include "hb/random.h"
#include "hb/report.h"
#include "hb/timing.h"
#include "kernels/interaction.h"

namespace ch14 {

// ------------------------------------------------------------------ inputs and the reference

HostBodies::HostBodies(std::vector<float4> bodies) : n(bodies.size()), aos(std::move(bodies)) {
  sync_soa();
}

void HostBodies::sync_soa() {
  const std::size_t padded = (n + kSoaPad - 1) / kSoaPad * kSoaPad;
  for (AlignedFloats* a : {&x, &y, &z, &m}) a->assign(padded, 0.0f);
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
  double p[3] = {0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    const auto u = [&](int k) { return double(hb::uniform_float(seed, 8 * i + k, 0.0f, 1.0f)); };
    // Uniform surface density: the mass inside radius r is r^2.
    const double r = std::sqrt(u(0));
    const double phi = two_pi * u(1);
    const double zpos = 0.02 * (u(2) - 0.5);
    // Circular speed for the (softened) mass inside r, as if it sat at the centre.
    const double v = std::sqrt(r * r * r * r / std::pow(r * r + softening_sq, 1.5));
    const double jitter = 0.05;
    const double vel[3] = {-v * std::sin(phi) + jitter * (u(3) - 0.5),
                           v * std::cos(phi) + jitter * (u(4) - 0.5), jitter * (u(5) - 0.5)};
    b[i] = make_float4(float(r * std::cos(phi)), float(r * std::sin(phi)), float(zpos),
                       float(mass));
    for (int c = 0; c < 3; ++c) {
      s.vel[3 * i + c] = float(vel[c]);
      p[c] += vel[c];
    }
  }
  // Equal masses: zero total momentum means zero mean velocity.
  for (std::size_t i = 0; i < 3 * n; ++i) s.vel[i] -= float(p[i % 3] / double(n));
  s.bodies = HostBodies(std::move(b));
  return s;
}

// [nbody-reference]
Reference reference_forces(const HostBodies& bodies, float softening_sq,
                           std::vector<std::size_t> rows) {
  Reference ref;
  ref.n = bodies.n;
  if (rows.empty()) rows = sample_rows(bodies.n, bodies.n);  // every row
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
  count = std::min(count, n);  // count == n: every row
  std::vector<std::size_t> rows;
  for (std::size_t k = 0; k < count; ++k) rows.push_back(k * (n - 1) / std::max<std::size_t>(count - 1, 1));
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

double tolerance_factor(std::size_t n) {
  const double u = std::ldexp(1.0, -24);
  return u * (32.0 + 4.0 * std::sqrt(static_cast<double>(n)));
}

hb::CompareResult check_forces(const float* got, const Reference& ref) {
  const double tau = tolerance_factor(ref.n);
  // Element k is component k % 3 of sampled row k / 3: element index(k) of got.
  const auto index = [&](std::size_t k) { return 3 * ref.rows[k / 3] + k % 3; };
  const auto error = [&](std::size_t k) { return std::fabs(got[index(k)] - ref.accel[k]); };
  const auto tol = [&](std::size_t k) { return tau * ref.magnitude[k / 3]; };
  const auto scaled = [&](std::size_t k) {
    return tol(k) > 0 ? error(k) / tol(k) : (error(k) > 0 ? INFINITY : 0.0);
  };
  const auto check = [&](std::size_t k) -> hb::ElementCheck {
    return {std::isnan(error(k)) ? INFINITY : scaled(k), !(error(k) <= tol(k))};
  };
  const auto describe = [&](std::size_t k) {
    std::ostringstream e;
    e.precision(3);
    e << scaled(k) << " x tolerance (body " << ref.rows[k / 3] << ", " << "xyz"[k % 3] << ")";
    return hb::mismatch_line(index(k), got[index(k)], ref.accel[k], e.str());
  };
  return hb::compare_each(3 * ref.rows.size(), "force components", check, describe);
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

// ------------------------------------------------------------------ the CPU's SIMD levels

namespace {

// Name, floats per register and row function of each Isa, in the order of the enum.
constexpr struct {
  const char* name;
  int width;
  CpuRows rows;
} kIsas[] = {{"scalar", 1, nullptr}, {"SSE", 4, rows_sse}, {"AVX2+FMA", 8, rows_avx2},
             {"AVX-512F", 16, rows_avx512}};

}  // namespace

std::string isa_name(Isa isa) { return kIsas[static_cast<int>(isa)].name; }

int isa_width(Isa isa) { return kIsas[static_cast<int>(isa)].width; }

bool isa_available(Isa isa) {
#if defined(__x86_64__)
  // Also checks that the operating system saves the wide registers; SSE is part of x86-64.
  return isa == Isa::None || isa == Isa::Sse ||
         (isa == Isa::Avx2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) ||
         (isa == Isa::Avx512 && __builtin_cpu_supports("avx512f"));
#else
  return isa == Isa::None;
#endif
}

Isa best_isa() {
  for (const Isa isa : {Isa::Avx512, Isa::Avx2, Isa::Sse})
    if (isa_available(isa)) return isa;
  return Isa::None;
}

// Off x86-64 the row functions are empty stubs, and no level but None is available.
CpuRows isa_rows(Isa isa) {
  return isa_available(isa) ? kIsas[static_cast<int>(isa)].rows : nullptr;
}

int cpu_threads(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

// ------------------------------------------------------------------ the command line

namespace {

/// The range of --dt: the cold disk stays together for thousands of steps of the default 0.005.
constexpr double kMinDt = 1e-7;
constexpr double kMaxDt = 1.0;

std::string knob_flag(const Variant& v) {
  if (v.param_name == nullptr) return "";
  return std::string(v.param_name) == "unroll" ? "--unroll" : "--bodies-per-thread";
}

std::size_t parse_bodies(const std::string& text, const std::string& flag) {
  const std::size_t n = hb::parse_size(text, flag);
  if (n < 1 || n > kMaxBodies)
    throw hb::UsageError(flag + " " + hb::quote_arg(text) + ": must be between 1 and " +
                         std::to_string(kMaxBodies));
  return n;
}

void require_knob(const Variant& v, int value, const std::string& flag) {
  if (std::find(v.params.begin(), v.params.end(), value) == v.params.end()) {
    std::string list;
    for (int p : v.params) list += (list.empty() ? "" : ", ") + std::to_string(p);
    throw hb::UsageError(flag + " " + std::to_string(value) + ": variant " + v.name +
                         " is compiled for " + list);
  }
}

}  // namespace

std::optional<Options> parse_options(const std::string& program, const Variant* v, int argc,
                                     const char* const* argv) {
  const bool driver = v == nullptr;
  const std::string knob = driver ? "" : knob_flag(*v);
  const std::string description =
      driver ? "Chapter 14 driver: Table 14.4 (every variant in interactions/s), a leapfrog "
               "simulation with its energy drift and a picture; --unroll-sweep for Tables 14.1 "
               "and 14.2"
             : std::string(v->title) + " (" + v->source +
                   "): checks against a float64 reference, prints interactions/s";
  // program, description, default, smallest and largest --n, what it counts
  hb::Cli cli({program, description, driver ? 64 * 1024 : v->default_bodies, 1, kMaxBodies,
               "bodies"});
  CLI::App& app = cli.app();
  Options o;
  std::string bodies_text, cpu_bodies_text;
  app.add_option("--bodies", bodies_text,
                 driver ? "bodies of the GPU rows and the simulation (same as --n; K/M = 2^10/2^20)"
                        : "bodies (same as --n; K/M = 2^10/2^20); default " +
                              std::to_string(v->default_bodies));
  if (driver || knob == "--unroll")
    app.add_option("--unroll", o.unroll,
                   "#pragma unroll factor of the naive and shared-memory kernels (1, 2, 4, 8, "
                   "16, 32); default: the book's best");
  if (driver || knob == "--bodies-per-thread")
    app.add_option("--bodies-per-thread", o.bodies_per_thread,
                   "bodies per thread of variant 10, also on every GPU of the multi-GPU "
                   "variants (1, 2, 4, 8); default 4");
  if (driver || v->kind == Kind::MultiGpu)
    app.add_option("--gpus", o.gpus, "GPUs of the multi-GPU variants (default: every visible GPU)")
        ->check(CLI::Range(1, 64));
  if (driver || v->cpu == forces_cpu_simd_threads)
    app.add_option("--threads", o.threads, "CPU threads of the all-core variant (default: OpenMP's)")
        ->check(CLI::Range(1, 4096));
  app.add_option("--softening", o.softening, "softening length epsilon (the kernels use its square)")
      ->capture_default_str();
  if (driver) {
    app.add_option("--cpu-bodies", cpu_bodies_text,
                   "bodies of the CPU rows (default: 4K scalar, 8K SIMD one thread, 16K all "
                   "cores, so the slow rows stay short)");
    app.add_option("--variant", o.variant,
                   "run only this variant: an id or one of " + variant_names());
    app.add_option("--unroll-sweep", o.sweep,
                   "instead of the variant table, sweep this variant's knob: gpu_aos (Table "
                   "14.1), gpu_shared (Table 14.2) or gpu_blocked");
    app.add_option("--steps", o.steps, "leapfrog steps of the simulation after the table (0: none)")
        ->check(CLI::Range(0, 1000000))
        ->capture_default_str();
    app.add_option("--dt", o.dt, "time step of the simulation")->capture_default_str();
    app.add_option("--image", o.image,
                   "write the bodies after the simulation to this PGM file (an existing file of "
                   "that name is replaced)");
    app.add_option("--image-size", o.image_size, "width and height of the image in pixels")
        ->check(CLI::Range(16, 8192))
        ->capture_default_str();
  }
  if (!cli.parse(argc, argv)) return std::nullopt;
  o.common = cli.options();
  o.command_line = cli.command_line();

  // --bodies and --n are the same flag by two names.
  if (!bodies_text.empty()) {
    const std::size_t b = parse_bodies(bodies_text, "--bodies");
    if (app.count("--n") > 0 && b != o.common.n)
      throw hb::UsageError("--bodies and --n disagree; give one of them");
    o.bodies = b;
  } else if (app.count("--n") > 0) {
    o.bodies = o.common.n;
  }
  if (!cpu_bodies_text.empty()) o.cpu_bodies = parse_bodies(cpu_bodies_text, "--cpu-bodies");
  hb::require_range(o.softening, kMinSoftening, kMaxSoftening, "--softening",
                    "the kernels use its square, which must stay a normal float and leave the "
                    "forces of the unit-sized disk measurable");
  hb::require_range(o.dt, kMinDt, kMaxDt, "--dt",
                    "larger steps throw the cold disk apart within a few steps");

  if (driver) {
    if (!o.variant.empty()) find_variant(o.variant);  // throws on an unknown name
    if (!o.sweep.empty()) {
      if (!o.variant.empty()) throw hb::UsageError("give either --variant or --unroll-sweep");
      const Variant& s = find_variant(o.sweep, "--unroll-sweep");
      if (s.kind != Kind::Gpu || s.params.empty())
        throw hb::UsageError(std::string("--unroll-sweep ") + o.sweep +
                             ": only gpu_aos, gpu_shared and gpu_blocked have a knob to sweep");
    }
    if (app.count("--unroll") > 0) require_knob(find_variant("6"), o.unroll, "--unroll");
    if (app.count("--bodies-per-thread") > 0)
      require_knob(find_variant("10"), o.bodies_per_thread, "--bodies-per-thread");
    if (!o.image.empty()) {
      if (o.steps == 0 || !o.sweep.empty())
        throw hb::UsageError("--image draws the bodies after the simulation, which --steps 0 and "
                             "--unroll-sweep leave out");
      hb::check_output_path(o.image, "--image");
    }
  } else if (!knob.empty() && app.count(knob) > 0) {
    // The value as given (0 too), the same rule as the driver's.
    require_knob(*v, knob == "--unroll" ? o.unroll : o.bodies_per_thread, knob);
  }
  return o;
}

int knob_for(const Variant& v, const Options& opt) {
  if (v.param_name == nullptr) return 0;
  const int given = knob_flag(v) == "--unroll" ? opt.unroll : opt.bodies_per_thread;
  return given > 0 ? given : v.default_param;
}

std::size_t bodies_for(const Variant& v, const Options& opt, bool driver) {
  if (driver && v.kind == Kind::Cpu) return opt.cpu_bodies > 0 ? opt.cpu_bodies : v.default_bodies;
  return opt.bodies > 0 ? opt.bodies : v.default_bodies;
}

// ------------------------------------------------------------------ measuring and reporting

namespace {

/// "About 20 flops" per interaction: the text's and GPU Gems 3's count, for GFLOP/s only.
constexpr double kFlopsPerInteraction = 20.0;

/// Instructions the GPU must issue per interaction at best (the chapter page counts them): the
/// "% of FP32 issue bound" column's bound is hb::DeviceInfo::fp32_lanes_per_second() / 13.
constexpr double kIssueSlotsPerInteraction = 13.0;

struct Measurement {
  std::size_t bodies = 0;
  int param = 0;         // the knob's value (0 when the variant has none)
  int gpus = 1;          // GPUs used (multi-GPU variants)
  int slices = 0;        // variant 10's column slices (0: not applicable)
  double median_ms = 0;  // one force evaluation
  std::optional<hb::CompareResult> check;  // empty with --no-check
  double interactions_per_s() const {
    return median_ms > 0 ? double(bodies) * double(bodies) / (median_ms * 1e-3) : 0.0;
  }
};

// The references of the checked rows (sample_rows(n, 256)), one per body count, and the first
// failed check, which fails the run once its table is printed.
struct Checks {
  std::map<std::size_t, Reference> refs;
  std::optional<hb::CompareResult> failure;

  hb::CompareResult compare(const float* got, const HostBodies& bodies, float softening_sq) {
    auto it = refs.find(bodies.n);
    if (it == refs.end())
      it = refs.emplace(bodies.n, reference_forces(bodies, softening_sq, sample_rows(bodies.n, 256)))
               .first;
    hb::CompareResult c = check_forces(got, it->second);
    if (!c.ok && !failure) failure = c;
    return c;
  }
  void require_ok(const std::string& what) const {
    if (failure) throw hb::CheckFailed(what + ": " + failure->report);
  }
};

// Variant v on bodies with knob param, as the chapter page says: GPU variants on the current
// device, multi-GPU ones on devices; scratch_count is variant 10's in float4 (0: one slice).
// [nbody-measure]
Measurement measure(const Variant& v, const HostBodies& bodies, int param, const Options& opt,
                    Checks& checks, const std::vector<int>& devices = {},
                    std::optional<std::size_t> scratch_count = std::nullopt) {
  Measurement m;
  m.bodies = bodies.n;
  m.param = v.param_name != nullptr ? param : 0;
  const std::size_t n = bodies.n;
  const float eps2 = opt.softening_sq();
  const int iters = opt.common.iters;
  const bool check = !opt.common.no_check;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  switch (v.kind) {
    case Kind::Cpu: {
      std::vector<float> out(3 * n, nan);  // an element the variant forgets stays NaN
      v.cpu(bodies, out.data(), eps2, opt.threads);
      if (check) m.check = checks.compare(out.data(), bodies, eps2);
      // The checked run was the warm-up.
      m.median_ms =
          hb::time_host([&] { v.cpu(bodies, out.data(), eps2, opt.threads); }, 0, iters).median_ms;
      break;
    }
    case Kind::Gpu: {
      const std::size_t sc = scratch_count.value_or(v.scratch != nullptr ? v.scratch(n) : 0);
      hb::DeviceBuffer<float4> d_bodies(n), d_scratch(sc);
      hb::DeviceBuffer<float> d_force(3 * n);
      hb::Stream stream;
      HB_CUDA_CHECK(cudaMemcpyAsync(d_bodies.data(), bodies.aos.data(), d_bodies.bytes(),
                                    cudaMemcpyHostToDevice, stream));
      hb::poison(d_force.data(), d_force.bytes(), 0xFF, stream);  // 0xFFFFFFFF is a NaN
      const GpuProblem p{d_force.data(), d_bodies.data(), static_cast<int>(n), eps2,
                         d_scratch.data(), sc};
      v.gpu(p, param, stream);
      std::vector<float> out(3 * n);
      hb::copy_to_host(out.data(), d_force.data(), out.size(), stream);
      if (check) m.check = checks.compare(out.data(), bodies, eps2);
      m.median_ms =
          hb::time_events([&](cudaStream_t s) { v.gpu(p, param, s); }, stream, 1, iters).median_ms;
      if (v.gpu == launch_gpu_blocked)
        m.slices = blocked_plan_for(static_cast<int>(n), static_cast<int>(n), param, sc).slices;
      break;
    }
    case Kind::MultiGpu: {
      MultiGpu ctx(devices, n, eps2, param);
      std::copy(bodies.aos.begin(), bodies.aos.end(), ctx.host_bodies());
      std::fill(ctx.host_force(), ctx.host_force() + 3 * n, nan);
      v.multi(ctx);
      if (check) m.check = checks.compare(ctx.host_force(), bodies, eps2);
      // Host clock: the copies in and out and every GPU's kernel, until the last GPU is done.
      m.median_ms = hb::time_host([&] { v.multi(ctx); }, 1, iters).median_ms;
      m.gpus = static_cast<int>(devices.size());
      break;
    }
  }
  return m;
}
// [nbody-measure]

double issue_bound(const hb::DeviceInfo& dev) {
  return dev.fp32_lanes_per_second() / kIssueSlotsPerInteraction;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    const auto colon = line.find(':');
    if (line.rfind("model name", 0) == 0 && colon != std::string::npos)
      return line.substr(line.find_first_not_of(" \t", colon + 1));
  }
  return "unknown";
}

void add_facts(hb::Report& r, const std::string& program, const Options& opt,
               const hb::DeviceInfo* dev) {
  hb::add_run_facts(r, program, opt.command_line, dev);
  if (dev != nullptr) {
    r.fact("SM clock (MHz)", std::to_string(dev->clock_khz / 1000));
    r.fact("FP32 issue bound (1e9 interactions/s)",
           hb::fixed(issue_bound(*dev) / 1e9, 1) + " = SMs x 128 lanes x clock / 13 instructions");
    hb::add_form_notes(r, variants());
  }
  r.fact("cpu", cpu_model());
  r.fact("cpu threads (all-core variant)", std::to_string(cpu_threads(opt.threads)));
  r.fact("cpu SIMD", isa_name(best_isa()) + " (widest this CPU supports)");
  r.fact("softening", hb::fixed(opt.softening, 4) + " (epsilon^2 = " +
                          hb::fixed(double(opt.softening_sq()), 6) + ")");
  r.fact("bodies", "uniform in [-1,1)^3, masses uniform in [0.5,1.5)/N, seed " +
                       std::to_string(opt.common.seed));
  r.fact("iterations", std::to_string(opt.common.iters) + " (median reported)");
  r.fact("interactions", "N^2 per force evaluation (the diagonal included, as in the text)");
  r.fact("GFLOP/s", "1e9 x 20 flops per interaction (the text's count)");
  r.fact("check", opt.common.no_check
                      ? std::string("skipped (--no-check)")
                      : std::string("256 rows against a float64 reference, within (32 + 4 sqrt N) "
                                    "2^-24 x sum of |terms| per row"));
}

// "ok (0.12 of tol)", "FAILED (3 of 768)", or "not checked".
std::string check_text(const std::optional<hb::CompareResult>& c) {
  if (!c) return "not checked";
  if (c->ok) return "ok (" + hb::fixed(c->max_error, 3) + " of tol)";
  return "FAILED (" + std::to_string(c->mismatches) + " of " + std::to_string(c->count) + ")";
}

std::string scientific(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

// --gpus, or every GPU; more than the machine has is a usage error.
int gpu_count_for(const Options& opt) {
  const int available = hb::device_count();
  const int g = opt.gpus > 0 ? opt.gpus : available;
  if (g > available)
    throw hb::UsageError("--gpus " + std::to_string(g) + ": this machine has " +
                         std::to_string(available) + " GPU(s)");
  return g;
}

// What a row's variant column says: its title, knob, column slices, SIMD level and threads.
std::string describe(const Variant& v, const Measurement& m, const Options& opt) {
  std::string t = v.title;
  if (v.param_name != nullptr) t += ", " + std::string(v.param_name) + " " + std::to_string(m.param);
  if (m.slices > 0) t += ", " + std::to_string(m.slices) + " column slices";
  if (v.cpu == forces_cpu_simd_threads)
    t += " (" + isa_name(best_isa()) + ", " + std::to_string(cpu_threads(opt.threads)) + " threads)";
  if (v.kind == Kind::MultiGpu) t += ", " + std::to_string(m.gpus) + " GPU(s)";
  return t;
}

// The columns that the variant table and the knob sweep share, and their cells: \p head (the
// row's own first cells), then bodies, time, rate, GFLOP/s and % of the FP32 issue bound of
// m.gpus GPUs ("-" without \p dev: a CPU row).
const std::vector<std::string> kRateColumns{"bodies", "ms (median)", "1e9 interactions/s",
                                            "GFLOP/s (20 flops)", "% of FP32 issue bound"};

std::vector<std::string> rate_cells(std::vector<std::string> head, const Measurement& m,
                                    const hb::DeviceInfo* dev) {
  const double ips = m.interactions_per_s();
  head.insert(head.end(),
              {std::to_string(m.bodies), hb::fixed(m.median_ms, 3), hb::fixed(ips / 1e9, 3),
               hb::fixed(ips * kFlopsPerInteraction / 1e9, 1),
               dev ? hb::fixed(100.0 * ips / (m.gpus * issue_bound(*dev)), 1) : "-"});
  return head;
}

// Table 14.4: one row per variant, interactions/s, % of the FP32 issue bound and (in the
// driver; the per-variant programs' tables have no such column) x the CPU reference.
hb::Report variant_table(const std::string& program, const std::vector<const Variant*>& selected,
                         const Options& opt, const std::optional<hb::DeviceInfo>& dev,
                         Checks& checks, bool driver) {
  std::vector<std::string> columns{"id", "variant"};
  columns.insert(columns.end(), kRateColumns.begin(), kRateColumns.end());
  if (driver) columns.push_back("x CPU reference");
  columns.push_back("check");
  hb::Report r(columns);
  add_facts(r, program, opt, dev ? &*dev : nullptr);
  double reference = 0.0;  // variant 0's interactions/s, when it ran
  for (const Variant* v : selected) {
    const std::size_t n = bodies_for(*v, opt, driver);
    if (!v->cpu_supported()) {
      r.row({std::to_string(v->id), v->title, std::to_string(n), "-", "-", "-", "-", "-",
             "skipped: this CPU has no " + isa_name(v->isa)});
      continue;
    }
    const std::vector<int> devices =
        v->kind == Kind::MultiGpu ? first_devices(gpu_count_for(opt)) : std::vector<int>{};
    const Measurement m =
        measure(*v, random_bodies(n, opt.common.seed), knob_for(*v, opt), opt, checks, devices);
    const double ips = m.interactions_per_s();
    if (v->id == 0) reference = ips;
    auto row = rate_cells({std::to_string(v->id), describe(*v, m, opt)}, m,
                          v->on_gpu() && dev ? &*dev : nullptr);
    if (driver) row.push_back(reference > 0 ? hb::fixed(ips / reference, 1) : "-");
    row.push_back(check_text(m.check));
    r.row(row);
  }
  return r;
}

// Tables 14.1 and 14.2 (and our bodies-per-thread sweep): one row per value of the knob.
hb::Report sweep_table(const Variant& v, const Options& opt, const hb::DeviceInfo& dev,
                       Checks& checks) {
  const bool blocked = v.gpu == launch_gpu_blocked;
  std::vector<std::string> columns{v.param_name};
  if (blocked) columns.push_back("column slices");
  columns.insert(columns.end(), kRateColumns.begin(), kRateColumns.end());
  columns.insert(columns.end(), {"x first row", "% of best", "check"});
  hb::Report r(columns);
  add_facts(r, "nbody", opt, &dev);
  r.fact("variant", std::to_string(v.id) + " " + v.name + " (" + v.title + ", " + v.source + ")");
  const HostBodies bodies = random_bodies(bodies_for(v, opt, true), opt.common.seed);
  std::vector<Measurement> rows;
  for (const int param : v.params) {
    rows.push_back(measure(v, bodies, param, opt, checks));
    // Our kernel once more without splitting the columns (no scratch: one slice).
    if (blocked) rows.push_back(measure(v, bodies, param, opt, checks, {}, std::size_t(0)));
  }
  double first = 0.0, best = 0.0;
  for (const auto& m : rows) best = std::max(best, m.interactions_per_s());
  for (const auto& m : rows) {
    const double ips = m.interactions_per_s();
    if (first == 0.0) first = ips;
    std::vector<std::string> head{std::to_string(m.param)};
    if (blocked) head.push_back(std::to_string(m.slices));
    auto row = rate_cells(head, m, &dev);
    row.insert(row.end(), {hb::fixed(ips / first, 2), hb::fixed(100.0 * ips / best, 1),
                           check_text(m.check)});
    r.row(row);
  }
  return r;
}

// [nbody-simulation]
// The simulation after the table: a cold disk, --steps leapfrog steps, energy and momentum
// before and after; the picture is written, and a drift that is not finite fails the run,
// after the report is printed.
void simulate(hb::Report& r, const Variant& v, const Options& opt, hb::GrayImage& image,
              std::string& simulation_failure) {
  const std::size_t n = bodies_for(v, opt, true);
  const float eps2 = opt.softening_sq();
  const int param = knob_for(v, opt);
  State s = disk_galaxy(n, opt.common.seed, eps2);
  const Energy before = measure_energy(s, eps2);
  double ms = 0.0;
  if (v.kind == Kind::Gpu) {
    ms = simulate_device(s, v.gpu, param, v.scratch, opt.steps, opt.dt, eps2, v.steps);
  } else if (v.kind == Kind::Cpu) {
    ms = simulate_host(
        s, [&](const HostBodies& b, float* f) { v.cpu(b, f, eps2, opt.threads); }, opt.steps,
        opt.dt);
  } else {
    MultiGpu ctx(first_devices(gpu_count_for(opt)), n, eps2, param);
    ms = simulate_host(
        s,
        [&](const HostBodies& b, float* f) {
          std::copy(b.aos.begin(), b.aos.end(), ctx.host_bodies());
          v.multi(ctx);
          std::copy(ctx.host_force(), ctx.host_force() + 3 * n, f);
        },
        opt.steps, opt.dt);
  }
  const Energy after = measure_energy(s, eps2);
  const Drift d = drift_between(before, after);
  r.fact("simulation", std::to_string(opt.steps) + " leapfrog steps of dt " + hb::fixed(opt.dt, 4) +
                           ", " + std::to_string(n) + " bodies (cold disk), forces by variant " +
                           std::to_string(v.id) + " " + v.name);
  r.fact("simulation time (ms)", hb::fixed(ms, 1) + " (" +
                                     hb::fixed(opt.steps > 0 ? ms / opt.steps : 0.0, 3) +
                                     " per step)");
  r.fact("energy before, after", hb::fixed(before.total(), 9) + ", " + hb::fixed(after.total(), 9));
  r.fact("energy drift |E1 - E0| / |E0|", scientific(d.energy));
  r.fact("momentum drift |P1 - P0| / sum m|v|", scientific(d.momentum));
  if (!std::isfinite(d.energy) || !std::isfinite(d.momentum))
    simulation_failure = "the simulation blew up: the energy drift is " + scientific(d.energy) +
                         " (a smaller --dt or a larger --softening keeps it finite)";
  if (!opt.image.empty()) {
    image = render_bodies(s.bodies.aos, opt.image_size, 1.5f);
    r.fact("image", opt.image + " (" + std::to_string(opt.image_size) +
                        " pixels square, x-y plane from -1.5 to 1.5, log of bodies per pixel)");
  }
}
// [nbody-simulation]

// The multi-GPU programs: Table 14.3, one row per GPU count 1 .. G.
hb::Report scaling_table(const Variant& v, const Options& opt, const std::string& program,
                         Checks& checks) {
  const int g = gpu_count_for(opt);
  const hb::DeviceInfo dev = hb::query_device(0);
  const std::size_t n = bodies_for(v, opt, false);
  const HostBodies bodies = random_bodies(n, opt.common.seed);
  const int param = knob_for(v, opt);
  hb::Report r({"GPUs", "bodies", "ms (median)", "1e9 interactions/s", "speedup vs 1 GPU",
                "efficiency %", "% of FP32 issue bound", "check"});
  add_facts(r, program, opt, &dev);
  r.fact("variant", std::to_string(v.id) + " " + v.name + " (" + v.title + "), bodies per thread " +
                        std::to_string(param));
  r.fact("ms", "host wall clock of one force evaluation: bodies in, kernels, rows out");
  double one = 0.0;
  for (int k = 1; k <= g; ++k) {
    const Measurement m = measure(v, bodies, param, opt, checks, first_devices(k));
    if (k == 1) one = m.interactions_per_s();
    const double speedup = one > 0 ? m.interactions_per_s() / one : 0.0;
    r.row({std::to_string(k), std::to_string(n), hb::fixed(m.median_ms, 3),
           hb::fixed(m.interactions_per_s() / 1e9, 1), hb::fixed(speedup, 2),
           hb::fixed(100.0 * speedup / k, 1),
           hb::fixed(100.0 * m.interactions_per_s() / (k * issue_bound(dev)), 1),
           check_text(m.check)});
  }
  return r;
}

// A variant's own program (\p only: its row of the table) or the driver (\p only: nullptr).
int run_program(const char* program, const Variant* only, int argc, char** argv) {
  const bool driver = only == nullptr;
  const auto opt = parse_options(program, only, argc, argv);
  if (!opt) return 0;
  // What to measure: the program's variant; in the driver the one named, else every variant.
  const std::string& named = opt->sweep.empty() ? opt->variant : opt->sweep;  // never both
  std::vector<const Variant*> selected;
  for (const Variant& v : variants())
    if (driver ? named.empty() || &v == &find_variant(named) : &v == only) selected.push_back(&v);
  // The simulation uses the one variant asked for, else our fastest single-GPU kernel.
  const Variant& sim = opt->variant.empty() ? find_variant("gpu_blocked") : *selected.front();
  const bool simulate_now = driver && opt->sweep.empty() && opt->steps > 0;
  // One variant asked for that this CPU cannot run: like a missing GPU, nothing to do.
  if (const Variant& v = *selected.front(); selected.size() == 1 && !v.cpu_supported())
    throw hb::NoDevice("this CPU has no " + isa_name(v.isa) +
                       (driver ? ", so variant " + std::string(v.name) + " cannot run"
                               : std::string(", so there is nothing to run")));
  const bool need_gpu =
      std::any_of(selected.begin(), selected.end(), [](const Variant* v) { return v->on_gpu(); }) ||
      (simulate_now && sim.on_gpu());
  std::optional<hb::DeviceInfo> dev;
  if (need_gpu) {
    hb::select_device(opt->common.device);
    dev = hb::query_device(opt->common.device);
    gpu_count_for(*opt);  // --gpus larger than the machine: exit 2 before any work
  }

  Checks checks;
  if (!opt->sweep.empty()) {
    sweep_table(*selected.front(), *opt, *dev, checks).print(std::cout, opt->common.csv);
  } else if (!driver && only->kind == Kind::MultiGpu) {
    scaling_table(*only, *opt, program, checks).print(std::cout, opt->common.csv);
  } else {
    hb::Report r = variant_table(program, selected, *opt, dev, checks, driver);
    if (driver)
      r.fact("bodies per row",
             "GPU rows " + std::to_string(opt->bodies > 0 ? opt->bodies : 65536) + "; CPU rows " +
                 (opt->cpu_bodies > 0 ? std::to_string(opt->cpu_bodies)
                                      : std::string("4096 scalar, 8192 SIMD one thread, 16384 all "
                                                    "cores, since the scalar code would take "
                                                    "minutes on the GPU's count")));
    hb::GrayImage image;
    std::string simulation_failure;
    if (simulate_now) simulate(r, sim, *opt, image, simulation_failure);
    r.print(std::cout, opt->common.csv);
    if (!image.pixels.empty()) hb::write_pgm(opt->image, image);
    if (!simulation_failure.empty()) throw hb::CheckFailed(simulation_failure);
  }
  checks.require_ok(program);
  return 0;
}

}  // namespace

// ------------------------------------------------------------------ the programs

int variant_program_main(const char* program, const char* id, int argc, char** argv) {
  return hb::run_main(program, [&] { return run_program(program, &find_variant(id), argc, argv); });
}

int driver_main(int argc, char** argv) {
  return hb::run_main("nbody", [&] { return run_program("nbody", nullptr, argc, argv); });
}

// [nbody-image]
hb::GrayImage render_bodies(const std::vector<float4>& bodies, int size, float extent) {
  std::vector<std::uint32_t> count(std::size_t(size) * size, 0);
  for (const float4& b : bodies) {
    const double u = (double(b.x) + extent) / (2.0 * extent);  // 0 at the left edge
    const double v = (extent - double(b.y)) / (2.0 * extent);  // 0 at the top edge
    if (!(u >= 0.0 && u < 1.0 && v >= 0.0 && v < 1.0)) continue;  // also drops NaN
    const int px = std::min(size - 1, static_cast<int>(u * size));
    const int py = std::min(size - 1, static_cast<int>(v * size));
    ++count[std::size_t(py) * size + px];
  }
  const std::uint32_t most = count.empty() ? 0 : *std::max_element(count.begin(), count.end());
  hb::GrayImage img;
  img.width = img.height = size;
  img.maxval = 255;
  img.pixels.resize(count.size());
  const double scale = most > 0 ? 255.0 / std::log1p(double(most)) : 0.0;
  for (std::size_t k = 0; k < count.size(); ++k)
    img.pixels[k] = static_cast<std::uint8_t>(std::lround(scale * std::log1p(double(count[k]))));
  return img;
}
// [nbody-image]

}  // namespace ch14
