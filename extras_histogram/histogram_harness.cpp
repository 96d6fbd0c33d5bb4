// Flags, data, measurement and reports of the chapter's programs.
#include "histogram_harness.h"

#include <iostream>
#include <sstream>

#include "hb/bandwidth.h"
#include "hb/capability.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/timing.h"

namespace histo {

std::optional<ProgramOptions> parse_options(const std::string& program,
                                            const std::string& description, bool with_variant,
                                            int argc, const char* const* argv) {
  hb::CliSpec spec;
  spec.program = program;
  spec.description = description;
  spec.default_n = kDefaultBytes;
  spec.min_n = 1;
  spec.max_n = kMaxBytes;
  spec.n_unit = "bytes";
  spec.variants = with_variant ? int(variants().size()) : 0;
  hb::Cli cli(spec);
  std::string distribution = with_variant ? "all" : "uniform";
  std::string input;
  cli.app()
      .add_option("--distribution", distribution,
                  "the bytes to count: all (the four generated ones) or one of " +
                      distribution_names() + " (image: the pixels of --input)")
      ->capture_default_str();
  cli.app().add_option("--input", input,
                       "an 8-bit PGM image (P5 or P2) whose pixels are counted; implies "
                       "--distribution image and sets the size (no --n)");
  if (!cli.parse(argc, argv)) return std::nullopt;

  ProgramOptions opt;
  opt.common = cli.options();
  opt.command_line = cli.command_line();
  const bool distribution_given = cli.app().count("--distribution") > 0;
  if (!input.empty()) {
    if (cli.app().count("--n") > 0)
      throw hb::UsageError("--n and --input exclude each other: the image sets the size");
    if (distribution_given && distribution != name(Distribution::Image))
      throw hb::UsageError("--input counts an image; --distribution " + distribution +
                           " asks for generated data");
    opt.input = input;
    opt.image = load_pgm_bytes(input);
    if (opt.image.size() > kMaxBytes)
      throw hb::UsageError("--input " + input + ": more than " + std::to_string(kMaxBytes) +
                           " pixels");
    opt.common.n = opt.image.size();
    opt.distributions = {Distribution::Image};
  } else if (distribution == "all") {
    opt.distributions = generated_distributions();
  } else {
    const Distribution d = parse_distribution(distribution);
    if (d == Distribution::Image)
      throw hb::UsageError("--distribution image needs --input FILE.pgm");
    opt.distributions = {d};
  }
  return opt;
}

DataSet make_data_set(Distribution d, const ProgramOptions& opt, bool with_reference) {
  DataSet data;
  data.distribution = d;
  data.host = d == Distribution::Image ? opt.image : generate(d, opt.common.n, opt.common.seed);
  data.device = hb::DeviceBuffer<std::uint8_t>(data.host.size());
  // copy_to_device: the kernels run on non-blocking streams, which would not wait for a
  // pageable cudaMemcpy still in flight.
  hb::copy_to_device(data.device.data(), data.host.data(), data.host.size());
  if (with_reference) {
    histogram_cpu_serial(data.host.data(), data.host.size(), data.reference.data());
    data.has_reference = true;
  }
  return data;
}

namespace {
Bins copy_bins(const std::uint32_t* d_bins, cudaStream_t stream) {
  Bins bins{};
  HB_CUDA_CHECK(cudaMemcpyAsync(bins.data(), d_bins, sizeof(Bins), cudaMemcpyDeviceToHost, stream));
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return bins;
}

double rate_gbs(std::size_t bytes, double ms) { return ms > 0 ? double(bytes) / (ms * 1e6) : 0.0; }
}  // namespace

// [histogram-measure]
Measurement measure(const Variant& v, const DataSet& data, Workspace& ws, std::uint32_t* d_bins,
                    cudaStream_t stream, int iters, bool check) {
  Measurement m;
  m.checked = check && data.has_reference;
  const auto judge = [&](const Bins& got) {
    return v.role == Role::Lesson ? check_lesson(got, data.reference)
                                  : check_exact(got, data.reference);
  };
  const std::size_t n = data.size();
  hb::TimingStats t;
  if (v.on_gpu()) {
    const auto call = [&](cudaStream_t s) { v.gpu(data.device.data(), n, d_bins, ws, s); };
    hb::poison(d_bins, sizeof(Bins), 0xA5, stream);  // a bin the variant forgets fails the check
    call(stream);
    const Bins first = copy_bins(d_bins, stream);
    t = hb::time_events(call, stream, 1, iters);
    if (m.checked) {
      m.verdict = judge(first);
      if (m.verdict.exact) m.verdict = judge(copy_bins(d_bins, stream));
    }
  } else {
    Bins got{};
    t = hb::time_host([&] { v.cpu(data.host.data(), n, got.data()); }, 1, iters);
    if (m.checked) m.verdict = judge(got);
    if (v.role == Role::Reference) m.verdict.text = "reference";
  }
  if (!m.checked) m.verdict.text = "not checked (--no-check)";
  m.median_ms = t.median_ms;
  m.gbs = rate_gbs(n, t.median_ms);
  return m;
}
// [histogram-measure]

bool passes(const Variant& v, const Measurement& m) {
  if (!m.checked) return true;
  // The lesson may lose counts (that is its point) but never invent them.
  return v.role == Role::Lesson ? m.verdict.plausible : m.verdict.exact;
}

hb::Report make_report(const std::string& program, const ProgramOptions& opt, std::size_t bytes) {
  hb::Report r({"id", "variant", "distribution", "ms (median)", "GB/s", "% of CUB", "check"});
  const hb::DeviceInfo dev = hb::query_device(opt.common.device);
  r.fact("program", program);
  r.fact("command", opt.command_line);
  r.fact("date", hb::today_utc());
  r.fact("gpu", dev.name);
  r.fact("compute capability", hb::capability_summary());
  for (const auto& v : variants())
    if (const std::string note = hb::form_note(v.needs); !note.empty())
      r.fact("variant " + std::to_string(v.id) + " " + v.name, note);
  r.fact("SMs", std::to_string(dev.sm_count));
  r.fact("SM clock (MHz)", std::to_string(dev.clock_khz / 1000));
  r.fact("L2 cache (MiB)", hb::fixed(double(dev.l2_bytes) / (1 << 20), 0));
  r.fact("driver", hb::driver_version_text());
  r.fact("CUDA runtime", hb::cuda_version_text(dev.runtime_version));
  r.fact("bytes per histogram", std::to_string(bytes));
  if (!opt.input.empty()) r.fact("input", opt.input);
  r.fact("seed", std::to_string(opt.common.seed));
  r.fact("iterations", std::to_string(opt.common.iters) + " (median reported)");
  r.fact("GB/s", "input bytes / median time, decimal (1e9 bytes/s)");
  r.fact("% of CUB", "100 x GB/s / CUB's GB/s on the same buffer in the same run");
  r.fact("check", opt.common.no_check ? "skipped (--no-check)"
                                      : "256 bins exact against the CPU (variant 0)");
  return r;
}

void add_row(hb::Report& report, const Variant& v, Distribution d, const Measurement& m,
             double cub_gbs) {
  report.row({std::to_string(v.id), v.name, name(d), hb::fixed(m.median_ms, 3),
              hb::fixed(m.gbs, 1), cub_gbs > 0 ? hb::fixed(100.0 * m.gbs / cub_gbs, 1) : "-",
              m.verdict.text});
}

void add_left_out_row(hb::Report& report, const Variant& v, Distribution d) {
  report.row({std::to_string(v.id), v.name, name(d), "-", "-", "-",
              "left out: " + hb::left_out_reason(v.needs)});
}

int variant_program_main(const char* program, int id, int argc, char** argv) {
  return hb::run_main(program, [&] {
    const Variant& v = find_variant(id);
    const auto opt = parse_options(program, v.title, false, argc, argv);
    if (!opt) return 0;
    hb::select_device(opt->common.device);
    hb::require_runs_here(v.needs);

    const Variant& cub = library_variant();
    Workspace ws(opt->common.n);
    hb::Stream stream;
    hb::DeviceBuffer<std::uint32_t> d_bins(kBins);
    hb::Report report = make_report(program, *opt, opt->common.n);
    report.fact("variant", std::to_string(v.id) + " " + v.name + ": " + v.changed);
    std::string failures;
    for (const Distribution d : opt->distributions) {
      const DataSet data = make_data_set(d, *opt, !opt->common.no_check);
      const Measurement ref =
          measure(cub, data, ws, d_bins.data(), stream, opt->common.iters, !opt->common.no_check);
      const Measurement m = v.id == cub.id ? ref
                                           : measure(v, data, ws, d_bins.data(), stream,
                                                     opt->common.iters, !opt->common.no_check);
      add_row(report, v, d, m, ref.gbs);
      if (v.id != cub.id) add_row(report, cub, d, ref, ref.gbs);
      if (!passes(v, m)) failures += name(d) + ": " + m.verdict.text + "\n" + m.verdict.details;
      if (!passes(cub, ref)) failures += name(d) + " (CUB): " + ref.verdict.text + "\n";
    }
    report.print(std::cout, opt->common.csv);
    if (!failures.empty()) throw hb::CheckFailed(std::string(v.name) + " is wrong:\n" + failures);
    return 0;
  });
}

}  // namespace histo
