// The machinery of chapter 11's pipelines (pipeline.h): the steps the strategies
// (kernels/04_pipelines.cpp) are made of, their measurement, and what the programs share.
#include "pipeline.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <stdexcept>

#include "hb/bench.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/random.h"
#include "hb/timing.h"
#include "streaming.h"

namespace ch11 {

HostArray::HostArray(std::size_t n, HostKind kind)
    : pageable(kind == HostKind::Pageable ? n : 0),
      pinned(kind == HostKind::Pinned ? n : 0),
      mapped(kind == HostKind::Mapped ? n : 0),
      ptr(kind == HostKind::Pageable ? pageable.data()
          : kind == HostKind::Pinned ? pinned.data()
                                     : mapped.data()) {}

std::string describe(const StrategyConfig& c) {
  std::string s = strategy_info(c.strategy).name;
  if (c.strategy == Strategy::Streams) {
    s += std::string(", ") + issue_order_name(c.order) + ", " + std::to_string(c.streams) +
         (c.streams == 1 ? " stream" : " streams");
  } else if (c.strategy == Strategy::Pipelined) {
    const bool whole_m = c.chunk % (std::size_t(1) << 20) == 0;
    s += ", chunks of " +
         (whole_m ? std::to_string(c.chunk >> 20) + "M" : std::to_string(c.chunk)) + " floats";
    if (c.chunk > kSmallestChunk) s += " halving to 256K at the end";
  }
  return s;
}

std::vector<std::size_t> pipeline_chunk_candidates(std::size_t n, std::size_t chunk) {
  std::vector<std::size_t> chunks = {chunk};
  if (chunk == 0) chunks = {1 << 20, 2 << 20, 4 << 20, 8 << 20, 16 << 20, 32 << 20};
  for (std::size_t& c : chunks) c = std::min(c, n);
  chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
  return chunks;
}

Pipeline::Pipeline(std::size_t n_, HostKind host_, int stream_count)
    : n(n_),
      host(host_),
      hx(n_, host_),
      hy(n_, host_),
      hout(n_, host_),
      dx(host_ == HostKind::Mapped ? 0 : n_),
      dy(host_ == HostKind::Mapped ? 0 : n_),
      dout(host_ == HostKind::Mapped ? 0 : n_),
      streams(static_cast<std::size_t>(std::max(stream_count, 3))) {}

void Pipeline::load(const float* x, const float* y) {
  std::copy_n(x, n, hx.data());
  std::copy_n(y, n, hy.data());
}

void Pipeline::poison_output() {
  std::fill(hout.data(), hout.data() + n, std::numeric_limits<float>::quiet_NaN());
  if (!dout.empty()) {
    hb::poison(dout.data(), dout.bytes(), 0xFF);
    HB_CUDA_CHECK(cudaDeviceSynchronize());
  }
}

void Pipeline::require_device_arrays(const char* what, bool pinned) const {
  if (host == HostKind::Mapped)
    throw std::invalid_argument(std::string(what) + " needs device arrays (not a Mapped pipeline)");
  if (pinned && host == HostKind::Pageable)
    throw std::invalid_argument(std::string(what) + " needs pinned host memory");
}

namespace {
void copy_async(float* dst, const float* src, std::size_t count, cudaMemcpyKind kind,
                cudaStream_t s) {
  if (count > 0) HB_CUDA_CHECK(cudaMemcpyAsync(dst, src, count * sizeof(float), kind, s));
}
}  // namespace

void Pipeline::copy_in(Range r, cudaStream_t s) {
  copy_async(dx.data() + r.begin, hx.data() + r.begin, r.size(), cudaMemcpyHostToDevice, s);
  copy_async(dy.data() + r.begin, hy.data() + r.begin, r.size(), cudaMemcpyHostToDevice, s);
}

void Pipeline::compute(Range r, float alpha, cudaStream_t s) {
  launch_pipeline_kernel(dout.data() + r.begin, dx.data() + r.begin, dy.data() + r.begin,
                         r.size(), alpha, s);
}

void Pipeline::copy_out(Range r, cudaStream_t s) {
  copy_async(hout.data() + r.begin, dout.data() + r.begin, r.size(), cudaMemcpyDeviceToHost, s);
}

StageTimes Pipeline::times(double wall_ms, bool stages) const {
  StageTimes t;
  if (stages) {
    t.h2d_ms = after_h2d.elapsed_since(start);
    t.kernel_ms = after_kernel.elapsed_since(after_h2d);
    t.d2h_ms = stop.elapsed_since(after_kernel);
  }
  t.events_ms = stop.elapsed_since(start);
  t.wall_ms = wall_ms;
  return t;
}

StageTimes run_strategy(Pipeline& p, const StrategyConfig& c, float alpha) {
  switch (c.strategy) {
    case Strategy::Synchronous: return run_synchronous(p, alpha);
    case Strategy::Async: return run_async(p, alpha);
    case Strategy::Streams: return run_streams(p, alpha, c.streams, c.order);
    case Strategy::Mapped: return run_mapped(p, alpha);
    case Strategy::Pipelined: return run_pipelined(p, alpha, c.chunk);
  }
  throw std::invalid_argument("unknown strategy");
}

StageTimes median_times(const std::vector<StageTimes>& runs) {
  StageTimes m;
  for (double StageTimes::*field : {&StageTimes::h2d_ms, &StageTimes::kernel_ms,
                                    &StageTimes::d2h_ms, &StageTimes::events_ms,
                                    &StageTimes::wall_ms}) {
    std::vector<double> v;
    for (const auto& r : runs)
      if (!std::isnan(r.*field)) v.push_back(r.*field);
    m.*field = v.empty() ? StageTimes::kUnknown : hb::summarize(v).median_ms;
  }
  return m;
}

StageTimes measure_strategy(Pipeline& p, const StrategyConfig& c, float alpha, int warmup,
                            int iters) {
  for (int i = 0; i < warmup; ++i) run_strategy(p, c, alpha);
  std::vector<StageTimes> runs;
  for (int i = 0; i < iters; ++i) runs.push_back(run_strategy(p, c, alpha));
  return median_times(runs);
}

TransferBound transfer_bound(std::size_t n, double h2d_gbs, double d2h_gbs) {
  if (!(h2d_gbs > 0) || !(d2h_gbs > 0))
    throw std::invalid_argument("transfer_bound: rates must be positive");
  auto ms = [n](std::size_t bytes_per_element, double gbs) {
    return double(bytes_per_element) * double(n) / (gbs * 1e9) * 1e3;
  };
  const double up = ms(kH2DBytesPerElement, h2d_gbs), down = ms(kD2HBytesPerElement, d2h_gbs);
  return down > up ? TransferBound{down, "device->host"} : TransferBound{up, "host->device"};
}

std::optional<StreamingOptions> parse_options(const ProgramSpec& spec, int argc,
                                              const char* const* argv) {
  // --n from 1 to 2^30 floats (12 GiB per set of x, y, out).
  hb::Cli cli({spec.program, spec.description, spec.default_n, 1, std::size_t(1) << 30, "floats"});
  StreamingOptions opt;
  std::string chunk_text = "auto";
  cli.app()
      .add_option("--alpha", opt.alpha, "the scale factor a in out = a * x + y")
      ->capture_default_str();
  if (spec.max_streams_flag)
    cli.app()
        .add_option("--max-streams,--maxStreams", opt.max_streams,
                    "stream3: try 1 to this many streams (--maxStreams: the book's spelling)")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
  if (spec.chunk_flag)
    cli.app()
        .add_option("--chunk", chunk_text,
                    "pipelined strategy: floats per chunk (K/M/G suffixes), or auto to "
                    "try 1M, 2M, 4M, 8M, 16M and 32M")
        ->capture_default_str();
  if (!cli.parse(argc, argv)) return std::nullopt;
  opt.common = cli.options();
  opt.command = cli.command_line();
  hb::require_range(opt.alpha, -1e6, 1e6, "--alpha",
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
    // The inputs and the CPU reference first, then the copy into the pipeline's host arrays,
    // so that neither shows in the timings.
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
