// What chapter 11's programs share besides the pipelines (declared in pipeline.h): flags,
// inputs, the check, reports, and the main of the three one-strategy programs.
#include <cmath>
#include <iostream>
#include <stdexcept>

#include "hb/bench.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/random.h"
#include "pipeline.h"
#include "streaming.h"

namespace ch11 {

// The largest |--alpha|: the data's values are of order one, so a * x + y stays far from float
// overflow and the check's tolerance stays meaningful.
constexpr double kMaxAlpha = 1e6;

std::optional<StreamingOptions> parse_options(const ProgramSpec& spec, int argc,
                                              const char* const* argv) {
  // --n from 1 to 2^30 floats (12 GiB per set of x, y, out).
  hb::Cli cli({spec.program, spec.description, spec.default_n, 1, std::size_t(1) << 30, "floats"});
  StreamingOptions opt;
  std::string chunk_text = "auto";
  cli.app()
      .add_option("--alpha", opt.alpha, "the scale factor a in out = a * x + y")
      ->capture_default_str();
  if (spec.max_streams_flag) {
    cli.app()
        .add_option("--max-streams,--maxStreams", opt.max_streams,
                    "stream3: try 1 to this many streams (--maxStreams: the book's spelling)")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
  }
  if (spec.chunk_flag) {
    cli.app()
        .add_option("--chunk", chunk_text,
                    "pipelined strategy: floats per chunk (K/M/G suffixes), or auto to "
                    "try 1M, 2M, 4M, 8M, 16M and 32M")
        ->capture_default_str();
  }
  if (!cli.parse(argc, argv)) return std::nullopt;
  opt.common = cli.options();
  opt.command = cli.command_line();
  hb::require_range(opt.alpha, -kMaxAlpha, kMaxAlpha, "--alpha",
                    "a * x + y of the data's values stays far from float overflow");
  if (chunk_text != "auto") {
    opt.chunk = hb::parse_size(chunk_text, "--chunk");
    if (opt.chunk == 0) throw hb::UsageError("--chunk 0: must be at least 1, or auto");
  }
  return opt;
}

Inputs make_inputs(std::size_t n, std::uint64_t seed, float alpha, bool with_reference) {
  Inputs in{hb::uniform_vector<float>(n, seed), hb::uniform_vector<float>(n, seed + 1), {}, 0};
  in.max_abs_x = max_abs(in.x.data(), n);
  if (with_reference) {
    in.reference.resize(n);
    saxpy_cpu(in.reference.data(), in.x.data(), in.y.data(), n, alpha);
  }
  return in;
}

hb::CompareResult compare_output(const float* out, const Inputs& in, float alpha) {
  if (in.reference.size() != in.x.size())
    throw std::logic_error("compare_output: the inputs were made without a reference");
  const SaxpyTolerance tol = tolerance_vs_cpu(alpha, in.max_abs_x);
  return hb::compare_relative(out, in.reference.data(), in.reference.size(), tol.rtol, tol.atol,
                              "outputs");
}

void require_ok(const hb::CompareResult& result, const std::string& what) {
  if (!result.ok) throw hb::CheckFailed(what + ": " + result.report);
}

std::string check_text(const std::optional<hb::CompareResult>& result) {
  if (!result) return "skipped (--no-check)";
  if (result->ok) return "ok";
  return "FAILED (" + std::to_string(result->mismatches) + " of " + std::to_string(result->count) +
         " outputs)";
}

Outcome measure_and_check(Pipeline& p, const StrategyConfig& config, const StreamingOptions& opt,
                          const Inputs& in) {
  p.poison_output();
  Outcome o{config, measure_strategy(p, config, opt.alpha, 1, opt.common.iters), std::nullopt};
  if (!opt.common.no_check) o.check = compare_output(p.hout.data(), in, opt.alpha);
  return o;
}

void add_facts(hb::Report& r, const std::string& program, const StreamingOptions& opt,
               const std::string& host_memory) {
  const hb::DeviceInfo dev = hb::query_device(opt.common.device);
  const std::size_t n = opt.common.n;
  hb::add_run_facts(r, program, opt.command, dev);
  r.fact("copy engines", std::to_string(dev.async_engines));
  r.fact("N (floats)",
         std::to_string(n) + (n % (1 << 20) == 0 ? " (" + std::to_string(n >> 20) + "M)" : ""));
  r.fact("bytes moved",
         std::to_string(kBytesPerElement * n) + " (8 per element host->device, 4 back)");
  r.fact("host memory", host_memory);
  r.fact("alpha", hb::fixed(opt.alpha, 6));
  r.fact("seed", std::to_string(opt.common.seed));
  r.fact("iterations", std::to_string(opt.common.iters) + " after 1 warm-up (median reported)");
  r.fact("GB/s", "decimal (1e9 bytes/s)");
}

hb::Report stage_report(const StageTimes& t, std::size_t n) {
  hb::Report r({"id", "stage", "MB moved", "ms (median)", "GB/s"});
  auto row = [&](const char* id, const char* stage, std::size_t bytes_per_element, double ms) {
    if (std::isnan(ms)) return;
    const double bytes = double(bytes_per_element) * double(n);
    r.row({id, stage, hb::fixed(bytes / 1e6, 1), hb::fixed(ms, 3),
           hb::fixed(hb::gbs(bytes, ms), 2)});
  };
  row("h2d", "memcpy host->device (x, y)", kH2DBytesPerElement, t.h2d_ms);
  row("kernel", "kernel", kBytesPerElement, t.kernel_ms);
  row("d2h", "memcpy device->host (out)", kD2HBytesPerElement, t.d2h_ms);
  row("events", "total (CUDA events)", kBytesPerElement, t.events_ms);
  row("wall", "total (wall clock)", kBytesPerElement, t.wall_ms);
  return r;
}

int program_main(const ProgramSpec& spec, int argc, char** argv,
                 const std::function<void(const StreamingOptions&)>& body) {
  return hb::run_main(spec.program.c_str(), [&] {
    const auto opt = parse_options(spec, argc, argv);
    if (!opt) return 0;
    hb::select_device(opt->common.device);
    body(*opt);
    return 0;
  });
}

int run_one_strategy(Strategy strategy, const char* description, const char* memory, int argc,
                     char** argv) {
  const StrategyInfo& info = strategy_info(strategy);
  return program_main({info.program, description}, argc, argv, [&](const StreamingOptions& opt) {
    const std::size_t n = opt.common.n;
    // We make the inputs and the CPU reference first, then copy the inputs into the pipeline's
    // host arrays, so that neither shows in the timings.
    const Inputs in = make_inputs(n, opt.common.seed, opt.alpha, !opt.common.no_check);
    Pipeline p(n, info.host, 1);
    p.load(in.x.data(), in.y.data());
    const Outcome o = measure_and_check(p, {strategy}, opt, in);

    hb::Report r = stage_report(o.times, n);
    add_facts(r, info.program, opt, memory);
    r.fact("check", check_text(o.check));
    r.print(std::cout, opt.common.csv);
    if (o.check) require_ok(*o.check, info.program);
  });
}

}  // namespace ch11
