// How chapter 14 measures and checks a variant, the command line of its programs, the report
// facts, and the host side of the CPU variants: the SIMD level, thread counts, the CPU's name.
#include "nbody.h"

#include "hb/bandwidth.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

#include <omp.h>

#include "hb/capability.h"
#include "hb/cli.h"
#include "hb/error.h"
#include "hb/files.h"
#include "hb/memory.h"
#include "hb/timing.h"
#include "interaction.h"

namespace ch14 {

namespace {

// "bodies per thread" -> "--bodies-per-thread"
std::string knob_flag(const char* param_name) {
  std::string f = "--";
  for (const char* c = param_name; *c; ++c) f += *c == ' ' ? '-' : *c;
  return f;
}

std::size_t parse_bodies(const std::string& text, const std::string& flag) {
  const std::size_t n = hb::parse_size(text, flag);
  if (n < 1 || n > kMaxBodies)
    throw hb::UsageError(flag + " " + hb::quote_arg(text) + ": must be between 1 and " +
                         std::to_string(kMaxBodies));
  return n;
}


int knob_value(const Variant& v, int unroll, int bodies_per_thread) {
  if (v.param_name == nullptr) return 0;
  const int given = std::string(v.param_name) == "unroll" ? unroll : bodies_per_thread;
  return given > 0 ? given : v.default_param;
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

std::optional<Options> parse_options(const ProgramSpec& spec, int argc, const char* const* argv) {
  const bool driver = spec.variant == nullptr;
  const Variant* v = spec.variant;
  hb::CliSpec cs;
  cs.program = spec.program;
  cs.description = spec.description;
  cs.default_n = driver ? 64 * 1024 : v->default_bodies;
  cs.min_n = 1;
  cs.max_n = kMaxBodies;
  cs.n_unit = "bodies";
  hb::Cli cli(cs);
  CLI::App& app = cli.app();
  Options o;
  std::string bodies_text, cpu_bodies_text;
  int unroll = 0, bodies_per_thread = 0;
  app.add_option("--bodies", bodies_text,
                 driver ? "bodies of the GPU rows and the simulation (same as --n; K/M = 2^10/2^20)"
                        : "bodies (same as --n; K/M = 2^10/2^20); default " +
                              std::to_string(v->default_bodies));
  const bool knob_unroll = driver || (v->param_name && std::string(v->param_name) == "unroll");
  const bool knob_r = driver || (v->param_name && std::string(v->param_name) != "unroll");
  if (knob_unroll)
    app.add_option("--unroll", unroll,
                   "#pragma unroll factor of the naive and shared-memory kernels (1, 2, 4, 8, "
                   "16, 32); default: the book's best");
  if (knob_r)
    app.add_option("--bodies-per-thread", bodies_per_thread,
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
  // The kernels use the square of the softening length: it must stay a normal float, and far
  // enough from overflow that forces between bodies a unit apart do not vanish.
  hb::require_range(o.softening, kMinSoftening, kMaxSoftening, "--softening",
                    "the kernels use its square, which must stay a normal float and leave the "
                    "forces of the unit-sized disk measurable");
  hb::require_range(o.dt, kMinDt, kMaxDt, "--dt",
                    "larger steps throw the cold disk apart within a few steps");
  o.unroll = unroll;
  o.bodies_per_thread = bodies_per_thread;

  if (driver) {
    if (!o.variant.empty()) find_variant(o.variant);  // throws on an unknown name
    if (!o.sweep.empty()) {
      if (!o.variant.empty()) throw hb::UsageError("give either --variant or --unroll-sweep");
      const Variant& s = find_variant(o.sweep, "--unroll-sweep");
      if (s.kind != Kind::Gpu || s.params.empty())
        throw hb::UsageError(std::string("--unroll-sweep ") + o.sweep +
                             ": only gpu_aos, gpu_shared and gpu_blocked have a knob to sweep");
    }
    if (app.count("--unroll") > 0) require_knob(find_variant("6"), unroll, "--unroll");
    if (app.count("--bodies-per-thread") > 0)
      require_knob(find_variant("10"), bodies_per_thread, "--bodies-per-thread");
    if (!o.image.empty()) {
      if (o.steps == 0 || !o.sweep.empty())
        throw hb::UsageError("--image draws the bodies after the simulation, which --steps 0 and "
                             "--unroll-sweep leave out");
      hb::check_output_path(o.image, "--image");
    }
  } else if (v->param_name != nullptr) {
    // The value as given (0 too), the same rule as the driver's.
    const std::string flag = knob_flag(v->param_name);
    if (app.count(flag) > 0)
      require_knob(*v, std::string(v->param_name) == "unroll" ? unroll : bodies_per_thread, flag);
  }
  return o;
}

int knob_for(const Variant& v, const Options& opt) {
  return knob_value(v, opt.unroll, opt.bodies_per_thread);
}

std::size_t bodies_for(const Variant& v, const Options& opt, bool driver) {
  if (driver && v.kind == Kind::Cpu) return opt.cpu_bodies > 0 ? opt.cpu_bodies : v.default_bodies;
  return opt.bodies > 0 ? opt.bodies : v.default_bodies;
}

double Measurement::interactions_per_s() const {
  return median_ms > 0 ? double(bodies) * double(bodies) / (median_ms * 1e-3) : 0.0;
}

const Reference& ReferenceCache::get(const HostBodies& bodies, float softening_sq) {
  auto it = cache_.find(bodies.n);
  if (it == cache_.end())
    it = cache_.emplace(bodies.n, reference_forces(bodies, softening_sq, sample_rows(bodies.n, 256)))
             .first;
  return it->second;
}

// [nbody-measure]
Measurement measure(const Variant& v, const HostBodies& bodies, int param, const Options& opt,
                    ReferenceCache& refs, const std::vector<int>& devices,
                    std::optional<std::size_t> scratch_count) {
  Measurement m;
  m.variant = &v;
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
      if (check) m.check = check_forces(out.data(), refs.get(bodies, eps2));
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
      HB_CUDA_CHECK(cudaMemcpyAsync(out.data(), d_force.data(), d_force.bytes(),
                                    cudaMemcpyDeviceToHost, stream));
      stream.synchronize();
      if (check) m.check = check_forces(out.data(), refs.get(bodies, eps2));
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
      if (check) m.check = check_forces(ctx.host_force(), refs.get(bodies, eps2));
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

void add_facts(hb::Report& r, const std::string& program, const Options& opt,
               const hb::DeviceInfo* dev) {
  r.fact("program", program);
  r.fact("command", opt.command_line);
  r.fact("date", hb::today_utc());
  if (dev != nullptr) {
    r.fact("gpu", dev->name);
    r.fact("compute capability", hb::capability_summary());
    for (const auto& v : variants())
      if (const std::string note = hb::form_note(v.needs); !note.empty())
        r.fact("variant " + std::to_string(v.id) + " " + v.name, note);
    r.fact("SMs", std::to_string(dev->sm_count));
    r.fact("SM clock (MHz)", std::to_string(dev->clock_khz / 1000));
    r.fact("driver", hb::driver_version_text());
    r.fact("CUDA runtime", hb::cuda_version_text(dev->runtime_version));
    r.fact("FP32 issue bound (1e9 interactions/s)",
           hb::fixed(issue_bound(*dev) / 1e9, 1) + " = SMs x 128 lanes x clock / 13 instructions");
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

std::string check_text(const std::optional<hb::CompareResult>& c) {
  if (!c) return "not checked";
  if (c->ok) return "ok (" + hb::fixed(c->max_error, 3) + " of tol)";
  return "FAILED (" + std::to_string(c->mismatches) + " of " + std::to_string(c->count) + ")";
}

void require_ok(const std::optional<hb::CompareResult>& c, const std::string& what) {
  if (c && !c->ok) throw hb::CheckFailed(what + ": " + c->report);
}

namespace {

// The multi-GPU programs: Table 14.3, one row per GPU count 1 .. G.
int scaling_table(const Variant& v, const Options& opt, const std::string& program) {
  const int available = hb::device_count();
  const int g = opt.gpus > 0 ? opt.gpus : available;
  if (g > available)
    throw hb::UsageError("--gpus " + std::to_string(g) + ": this machine has " +
                         std::to_string(available) + " GPU(s)");
  const hb::DeviceInfo dev = hb::query_device(0);
  const std::size_t n = bodies_for(v, opt, false);
  const HostBodies bodies = random_bodies(n, opt.common.seed);
  ReferenceCache refs;
  const int param = knob_for(v, opt);
  hb::Report r({"GPUs", "bodies", "ms (median)", "1e9 interactions/s", "speedup vs 1 GPU",
                "efficiency %", "% of FP32 issue bound", "check"});
  add_facts(r, program, opt, &dev);
  r.fact("variant", std::to_string(v.id) + " " + v.name + " (" + v.title + "), bodies per thread " +
                        std::to_string(param));
  r.fact("ms", "host wall clock of one force evaluation: bodies in, kernels, rows out");
  double one = 0.0;
  std::optional<hb::CompareResult> failure;
  for (int k = 1; k <= g; ++k) {
    const Measurement m = measure(v, bodies, param, opt, refs, first_devices(k));
    if (k == 1) one = m.interactions_per_s();
    const double speedup = one > 0 ? m.interactions_per_s() / one : 0.0;
    r.row({std::to_string(k), std::to_string(n), hb::fixed(m.median_ms, 3),
           hb::fixed(m.interactions_per_s() / 1e9, 1), hb::fixed(speedup, 2),
           hb::fixed(100.0 * speedup / k, 1),
           hb::fixed(100.0 * m.interactions_per_s() / (k * issue_bound(dev)), 1),
           check_text(m.check)});
    if (m.check && !m.check->ok && !failure) failure = m.check;
  }
  r.print(std::cout, opt.common.csv);
  require_ok(failure, program);
  return 0;
}

}  // namespace

int variant_program_main(const char* program, int id, int argc, char** argv) {
  return hb::run_main(program, [&] {
    const Variant& v = find_variant(std::to_string(id));
    const ProgramSpec spec{program,
                           std::string(v.title) + " (" + v.source +
                               "): checks against a float64 reference, prints interactions/s",
                           &v};
    const auto opt = parse_options(spec, argc, argv);
    if (!opt) return 0;
    if (!v.cpu_supported())
      throw hb::NoDevice("this CPU has no " + isa_name(v.isa) + ", so there is nothing to run");
    std::optional<hb::DeviceInfo> dev;
    if (v.on_gpu()) {
      hb::select_device(opt->common.device);
      dev = hb::query_device(opt->common.device);
    }
    if (v.kind == Kind::MultiGpu) return scaling_table(v, *opt, program);

    const std::size_t n = bodies_for(v, *opt, false);
    const HostBodies bodies = random_bodies(n, opt->common.seed);
    ReferenceCache refs;
    const int param = knob_for(v, *opt);
    const Measurement m = measure(v, bodies, param, *opt, refs);
    hb::Report r({"id", "variant", "bodies", "ms (median)", "1e9 interactions/s",
                  "GFLOP/s (20 flops)", "% of FP32 issue bound", "check"});
    add_facts(r, program, *opt, dev ? &*dev : nullptr);
    std::string title = v.title;
    if (v.param_name != nullptr) title += ", " + std::string(v.param_name) + " " + std::to_string(param);
    if (m.slices > 0) title += ", " + std::to_string(m.slices) + " column slices";
    if (v.kind == Kind::Cpu && v.cpu == forces_cpu_simd_threads)
      title += " (" + isa_name(best_isa()) + ", " + std::to_string(cpu_threads(opt->threads)) +
               " threads)";
    r.row({std::to_string(v.id), title, std::to_string(n), hb::fixed(m.median_ms, 3),
           hb::fixed(m.interactions_per_s() / 1e9, 3),
           hb::fixed(m.interactions_per_s() * kFlopsPerInteraction / 1e9, 1),
           dev ? hb::fixed(100.0 * m.interactions_per_s() / issue_bound(*dev), 1) : "-",
           check_text(m.check)});
    r.print(std::cout, opt->common.csv);
    require_ok(m.check, program);
    return 0;
  });
}


std::string isa_name(Isa isa) {
  switch (isa) {
    case Isa::Sse: return "SSE";
    case Isa::Avx2: return "AVX2+FMA";
    case Isa::Avx512: return "AVX-512F";
    case Isa::None: break;
  }
  return "scalar";
}

int isa_width(Isa isa) {
  switch (isa) {
    case Isa::Sse: return 4;
    case Isa::Avx2: return 8;
    case Isa::Avx512: return 16;
    case Isa::None: break;
  }
  return 1;
}

bool isa_available(Isa isa) {
#if defined(__x86_64__)
  // __builtin_cpu_supports also checks that the operating system saves the wide registers.
  switch (isa) {
    case Isa::None: return true;
    case Isa::Sse: return true;  // part of x86-64
    case Isa::Avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::Avx512: return __builtin_cpu_supports("avx512f");
  }
  return false;
#else
  return isa == Isa::None;
#endif
}

Isa best_isa() {
  for (const Isa isa : {Isa::Avx512, Isa::Avx2, Isa::Sse})
    if (isa_available(isa)) return isa;
  return Isa::None;
}

CpuRows isa_rows(Isa isa) {
#if defined(__x86_64__)
  switch (isa) {
    case Isa::Sse: return rows_sse;
    case Isa::Avx2: return rows_avx2;
    case Isa::Avx512: return rows_avx512;
    case Isa::None: break;
  }
#else
  (void)isa;
#endif
  return nullptr;
}

int cpu_threads(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown";
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
