// main() of chapter 14's programs. CMake builds this file once per row of the variant table,
// with HB_VARIANT_ID and HB_PROGRAM_NAME, as that variant's own program (nbody_gpu_shared ...);
// everything else lives in the chapter library. Built without HB_VARIANT_ID it is the driver.
//
// nbody: the chapter driver. In one run it reproduces the text's Table 14.4 on the machine it
// runs on (the CPU variants next to every GPU kernel, in interactions per second), then runs a
// short leapfrog simulation with the fastest kernel, reports how well it conserved energy and
// momentum, and can write a picture of the bodies. With --unroll-sweep it reproduces Table 14.1
// (gpu_aos) or Table 14.2 (gpu_shared), or sweeps the bodies per thread of our kernel.
//
// The CPU rows run on fewer bodies than the GPU rows (the scalar ones on 4K: at about 1e8
// interactions/s a 64K-body evaluation takes most of a minute). Interactions per second hardly
// depend on N once N is a few thousand, so the rows compare; the table says how many bodies
// each row used.
#include "nbody.h"

#ifdef HB_VARIANT_ID

#include <cstdlib>

int main(int argc, char** argv) {
  return ch14::variant_program_main(HB_PROGRAM_NAME, std::atoi(HB_VARIANT_ID), argc, argv);
}

#else

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "hb/device.h"
#include "hb/error.h"
#include "hb/pgm.h"
#include "hb/report.h"
#include "interaction.h"

namespace {

using ch14::Kind;
using ch14::Variant;

// What a row's variant column says: its title, knob, column slices, SIMD level and threads.
std::string describe(const ch14::Measurement& m, const ch14::Options& opt) {
  const Variant& v = *m.variant;
  std::string t = v.title;
  if (v.param_name != nullptr) t += ", " + std::string(v.param_name) + " " + std::to_string(m.param);
  if (m.slices > 0) t += ", " + std::to_string(m.slices) + " column slices";
  if (v.cpu == ch14::forces_cpu_simd_threads)
    t += " (" + ch14::isa_name(ch14::best_isa()) + ", " +
         std::to_string(ch14::cpu_threads(opt.threads)) + " threads)";
  if (v.kind == Kind::MultiGpu) t += ", " + std::to_string(m.gpus) + " GPU(s)";
  return t;
}

// "1.23e-06"
std::string scientific(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

int gpu_count_for(const ch14::Options& opt) {
  const int available = hb::device_count();
  const int g = opt.gpus > 0 ? opt.gpus : available;
  if (g > available)
    throw hb::UsageError("--gpus " + std::to_string(g) + ": this machine has " +
                         std::to_string(available) + " GPU(s)");
  return g;
}

// [nbody-table-14-4]
// Table 14.4: one row per variant, interactions/s, x the CPU reference, % of the FP32 issue bound.
void variant_table(hb::Report& r, const std::vector<const Variant*>& selected,
                   const ch14::Options& opt, const std::optional<hb::DeviceInfo>& dev,
                   ch14::ReferenceCache& refs, std::optional<hb::CompareResult>& failure) {
  double reference = 0.0;  // variant 0's interactions/s, when it ran
  for (const Variant* v : selected) {
    const std::size_t n = ch14::bodies_for(*v, opt, true);
    if (!v->cpu_supported()) {
      r.row({std::to_string(v->id), v->title, std::to_string(n), "-", "-", "-", "-", "-",
             "skipped: this CPU has no " + ch14::isa_name(v->isa)});
      continue;
    }
    const ch14::HostBodies bodies = ch14::random_bodies(n, opt.common.seed);
    const std::vector<int> devices =
        v->kind == Kind::MultiGpu ? ch14::first_devices(gpu_count_for(opt)) : std::vector<int>{};
    const ch14::Measurement m = ch14::measure(*v, bodies, ch14::knob_for(*v, opt), opt, refs, devices);
    const double ips = m.interactions_per_s();
    if (v->id == 0) reference = ips;
    const std::string bound =
        v->on_gpu() && dev ? hb::fixed(100.0 * ips / (m.gpus * ch14::issue_bound(*dev)), 1) : "-";
    r.row({std::to_string(v->id), describe(m, opt), std::to_string(n), hb::fixed(m.median_ms, 3),
           hb::fixed(ips / 1e9, 3), hb::fixed(ips * ch14::kFlopsPerInteraction / 1e9, 1), bound,
           reference > 0 ? hb::fixed(ips / reference, 1) : "-", ch14::check_text(m.check)});
    if (m.check && !m.check->ok && !failure) failure = m.check;
  }
}
// [nbody-table-14-4]

// [nbody-sweep]
// Tables 14.1 and 14.2 (and our bodies-per-thread sweep): one row per value of the knob.
void sweep_table(hb::Report& r, const Variant& v, const ch14::Options& opt,
                 const hb::DeviceInfo& dev, ch14::ReferenceCache& refs,
                 std::optional<hb::CompareResult>& failure) {
  const std::size_t n = ch14::bodies_for(v, opt, true);
  const ch14::HostBodies bodies = ch14::random_bodies(n, opt.common.seed);
  const bool blocked = v.gpu == ch14::launch_gpu_blocked;
  double first = 0.0, best = 0.0;
  std::vector<ch14::Measurement> rows;
  for (const int param : v.params) {
    rows.push_back(ch14::measure(v, bodies, param, opt, refs));
    // Our kernel once more without splitting the columns (no scratch: one slice).
    if (blocked) rows.push_back(ch14::measure(v, bodies, param, opt, refs, {}, std::size_t(0)));
  }
  for (const auto& m : rows) best = std::max(best, m.interactions_per_s());
  for (const auto& m : rows) {
    const double ips = m.interactions_per_s();
    if (first == 0.0) first = ips;
    std::vector<std::string> row{std::to_string(m.param)};
    if (blocked) row.push_back(std::to_string(m.slices));
    for (const std::string& cell :
         {std::to_string(n), hb::fixed(m.median_ms, 3), hb::fixed(ips / 1e9, 3),
          hb::fixed(ips * ch14::kFlopsPerInteraction / 1e9, 1),
          hb::fixed(100.0 * ips / ch14::issue_bound(dev), 1), hb::fixed(ips / first, 2),
          hb::fixed(100.0 * ips / best, 1), ch14::check_text(m.check)})
      row.push_back(cell);
    r.row(row);
    if (m.check && !m.check->ok && !failure) failure = m.check;
  }
}
// [nbody-sweep]

// [nbody-simulation]
// The simulation after the table: a cold disk, --steps leapfrog steps, energy and momentum
// before and after, and optionally the picture.
// The picture is written after the report is printed, and a drift that is not finite fails
// the run after it.
void simulate(hb::Report& r, const Variant& v, const ch14::Options& opt, hb::GrayImage& image,
              std::string& simulation_failure) {
  const std::size_t n = ch14::bodies_for(v, opt, true);
  const float eps2 = opt.softening_sq();
  const int param = ch14::knob_for(v, opt);
  ch14::State s = ch14::disk_galaxy(n, opt.common.seed, eps2);
  const ch14::Energy before = ch14::measure_energy(s, eps2);
  double ms = 0.0;
  if (v.kind == Kind::Gpu) {
    ms = ch14::simulate_device(s, v.gpu, param, v.scratch, opt.steps, opt.dt, eps2, v.steps);
  } else if (v.kind == Kind::Cpu) {
    ms = ch14::simulate_host(
        s, [&](const ch14::HostBodies& b, float* f) { v.cpu(b, f, eps2, opt.threads); },
        opt.steps, opt.dt);
  } else {
    ch14::MultiGpu ctx(ch14::first_devices(gpu_count_for(opt)), n, eps2, param);
    ms = ch14::simulate_host(
        s,
        [&](const ch14::HostBodies& b, float* f) {
          std::copy(b.aos.begin(), b.aos.end(), ctx.host_bodies());
          v.multi(ctx);
          std::copy(ctx.host_force(), ctx.host_force() + 3 * n, f);
        },
        opt.steps, opt.dt);
  }
  const ch14::Energy after = ch14::measure_energy(s, eps2);
  const ch14::Drift d = ch14::drift_between(before, after);
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
    image = ch14::render_bodies(s.bodies.aos, opt.image_size, 1.5f);
    r.fact("image", opt.image + " (" + std::to_string(opt.image_size) +
                        " pixels square, x-y plane from -1.5 to 1.5, log of bodies per pixel)");
  }
}
// [nbody-simulation]

}  // namespace

int main(int argc, char** argv) {
  return hb::run_main("nbody", [&] {
    const ch14::ProgramSpec spec{
        "nbody",
        "Chapter 14 driver: Table 14.4 (every variant in interactions/s), a leapfrog simulation "
        "with its energy drift and a picture; --unroll-sweep for Tables 14.1 and 14.2",
        nullptr};
    const auto opt = ch14::parse_options(spec, argc, argv);
    if (!opt) return 0;

    std::vector<const Variant*> selected;
    if (!opt->sweep.empty()) {
      selected.push_back(&ch14::find_variant(opt->sweep));
    } else if (!opt->variant.empty()) {
      selected.push_back(&ch14::find_variant(opt->variant));
    } else {
      for (const Variant& v : ch14::variants()) selected.push_back(&v);
    }
    // The simulation uses the one variant asked for, else our fastest single-GPU kernel.
    const Variant& sim = opt->variant.empty() ? ch14::find_variant("gpu_blocked")
                                              : ch14::find_variant(opt->variant);
    const bool simulate_now = opt->sweep.empty() && opt->steps > 0;
    // A variant asked for by name that this CPU cannot run: like a missing GPU, nothing to do.
    if (!opt->variant.empty() && !sim.cpu_supported())
      throw hb::NoDevice("this CPU has no " + ch14::isa_name(sim.isa) + ", so variant " +
                         sim.name + " cannot run");
    const bool need_gpu =
        std::any_of(selected.begin(), selected.end(), [](const Variant* v) { return v->on_gpu(); }) ||
        (simulate_now && sim.on_gpu());
    std::optional<hb::DeviceInfo> dev;
    if (need_gpu) {
      hb::select_device(opt->common.device);
      dev = hb::query_device(opt->common.device);
      gpu_count_for(*opt);  // --gpus larger than the machine: exit 2 before any work
    }

    ch14::ReferenceCache refs;
    std::optional<hb::CompareResult> failure;
    if (!opt->sweep.empty()) {
      const Variant& v = *selected.front();
      const bool blocked = v.gpu == ch14::launch_gpu_blocked;
      std::vector<std::string> columns{v.param_name};
      if (blocked) columns.push_back("column slices");
      for (const char* c : {"bodies", "ms (median)", "1e9 interactions/s", "GFLOP/s (20 flops)",
                            "% of FP32 issue bound", "x first row", "% of best", "check"})
        columns.push_back(c);
      hb::Report r(columns);
      ch14::add_facts(r, "nbody", *opt, &*dev);
      r.fact("variant", std::to_string(v.id) + " " + v.name + " (" + v.title + ", " + v.source + ")");
      sweep_table(r, v, *opt, *dev, refs, failure);
      r.print(std::cout, opt->common.csv);
    } else {
      hb::Report r({"id", "variant", "bodies", "ms (median)", "1e9 interactions/s",
                    "GFLOP/s (20 flops)", "% of FP32 issue bound", "x CPU reference", "check"});
      ch14::add_facts(r, "nbody", *opt, dev ? &*dev : nullptr);
      r.fact("bodies per row",
             "GPU rows " + std::to_string(opt->bodies > 0 ? opt->bodies : 65536) + "; CPU rows " +
                 (opt->cpu_bodies > 0 ? std::to_string(opt->cpu_bodies)
                                      : std::string("4096 scalar, 8192 SIMD one thread, 16384 all "
                                                    "cores, since the scalar code would take "
                                                    "minutes on the GPU's count")));
      variant_table(r, selected, *opt, dev, refs, failure);
      hb::GrayImage image;
      std::string simulation_failure;
      if (simulate_now) simulate(r, sim, *opt, image, simulation_failure);
      r.print(std::cout, opt->common.csv);
      if (!opt->image.empty() && !image.pixels.empty()) hb::write_pgm(opt->image, image);
      if (!simulation_failure.empty()) throw hb::CheckFailed(simulation_failure);
    }
    ch14::require_ok(failure, "nbody");
    return 0;
  });
}

#endif  // HB_VARIANT_ID
