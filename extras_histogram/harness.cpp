// The chapter's harness: its inputs, how a result is judged, the flags, the measurement and the
// report, and the programs built on them: one per variant, and the driver `histogram`.
#include <algorithm>
#include <iostream>
#include <numeric>
#include <stdexcept>

#include "hb/bandwidth.h"
#include "hb/bench.h"
#include "hb/coin_scene.h"
#include "hb/compare.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/pgm.h"
#include "hb/random.h"
#include "hb/timing.h"
#include "histogram.h"

namespace histo {

const char* const kNames[] = {"uniform", "equal", "hot", "ramp", "scene", "image"};  // enum order
constexpr const char* kNameList = "uniform, equal, hot, ramp, scene, image";

const std::vector<Distribution>& generated_distributions() {
  using D = Distribution;
  static const std::vector<D> all = {D::Uniform, D::Equal, D::Hot, D::Ramp, D::Scene};
  return all;
}

std::string name(Distribution d) { return kNames[int(d)]; }

Distribution parse_distribution(const std::string& text) {
  for (int d = 0; d <= int(Distribution::Image); ++d)
    if (text == kNames[d]) return Distribution(d);
  throw hb::UsageError("--distribution '" + text + "': unknown (expected all or one of " +
                       kNameList + ")");
}

std::uint8_t equal_value(std::uint64_t seed) {
  return static_cast<std::uint8_t>(hb::hash64(seed, 0xE0) >> 56);
}

std::vector<std::uint8_t> hot_values(std::uint64_t seed) {
  std::vector<std::uint8_t> hot;
  for (std::uint64_t k = 0; hot.size() < 4; ++k) {
    const auto v = static_cast<std::uint8_t>(hb::hash64(seed, 0x40700 + k) >> 56);
    if (std::find(hot.begin(), hot.end(), v) == hot.end()) hot.push_back(v);
  }
  return hot;
}

// [histogram-distributions]
std::vector<std::uint8_t> generate(Distribution d, std::size_t n, std::uint64_t seed) {
  std::vector<std::uint8_t> out(n);
  switch (d) {
    case Distribution::Uniform:
      hb::fill_uniform(out.data(), n, seed);
      return out;
    case Distribution::Equal:
      std::fill(out.begin(), out.end(), equal_value(seed));
      return out;
    case Distribution::Hot: {
      const auto hot = hot_values(seed);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t r = hb::hash64(seed, i);
        // 90 of 100 bytes on one of the four hot values, the rest uniform.
        out[i] = (r % 100) < 90 ? hot[(r >> 32) % 4] : static_cast<std::uint8_t>(r >> 56);
      }
      return out;
    }
    case Distribution::Ramp:
      // Non-decreasing, every value in turn, each for about n / 256 bytes (n <= 2^30, so
      // 256 i does not overflow).
      for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>((i * 256) / n);
      return out;
    case Distribution::Scene: {
      // The coin scene that chapter 15 searches (coins on a shaded, noisy background),
      // tiled: byte i is pixel i mod 73,800 of the seeded 300 x 246 scene.
      const std::vector<std::uint8_t> scene =
          hb::make_coin_scene(hb::kSceneWidth, hb::kSceneHeight, seed).image.pixels;
      for (std::size_t i = 0; i < n; ++i) out[i] = scene[i % scene.size()];
      return out;
    }
    case Distribution::Image:
      break;
  }
  throw std::logic_error("histo::generate: images are read (--input), not generated");
}
// [histogram-distributions]

std::int64_t total(const Bins& bins) {
  return std::accumulate(bins.begin(), bins.end(), std::int64_t(0));
}

Verdict check_exact(const Bins& got, const Bins& want) {
  Verdict v;
  const auto cmp = hb::compare_exact(got.data(), want.data(), kBins, "bins");
  v.exact = cmp.ok;
  v.lost = total(want) - total(got);
  v.text = cmp.ok ? "exact"
                  : "WRONG: " + std::to_string(cmp.mismatches) +
                        " of 256 bins differ (total off by " + std::to_string(-v.lost) + ")";
  v.details = cmp.report;  // empty when every bin agrees
  return v;
}

// [histogram-lesson-check]
Verdict check_lesson(const Bins& got, const Bins& want) {
  Verdict v = check_exact(got, want);
  v.exact = false;  // never: a race that lost nothing this time is still a race
  int above = 0;  // bins with more counts than the data has: not something a lost update does
  for (int b = 0; b < kBins; ++b) above += got[b] > want[b] ? 1 : 0;
  v.plausible = above == 0;
  if (above > 0) {
    v.text = "WRONG: " + std::to_string(above) + " of 256 bins hold more counts than the data";
  } else if (v.lost > 0) {
    v.text = "lost " + std::to_string(v.lost) + " of " + std::to_string(total(want)) +
             " counts (race)";
  } else {
    v.text = "no count lost this time (still a race)";
  }
  return v;
}
// [histogram-lesson-check]

std::optional<ProgramOptions> parse_options(const std::string& program,
                                            const std::string& description, bool with_variant,
                                            int argc, const char* const* argv) {
  hb::Cli cli({program, description, kDefaultBytes, 1, kMaxBytes, "bytes",
               with_variant ? int(variants().size()) : 0});
  std::string distribution = with_variant ? "all" : "uniform";
  ProgramOptions opt;
  cli.app()
      .add_option("--distribution", distribution,
                  std::string("the bytes to count: all (the four generated ones) or one of ") +
                      kNameList + " (image: the pixels of --input)")
      ->capture_default_str();
  cli.app().add_option("--input", opt.input,
                       "an 8-bit PGM image (P5 or P2) whose pixels are counted; implies "
                       "--distribution image and sets the size (no --n)");
  if (!cli.parse(argc, argv)) return std::nullopt;

  opt.common = cli.options();
  opt.command_line = cli.command_line();
  if (!opt.input.empty()) {
    if (cli.app().count("--n") > 0)
      throw hb::UsageError("--n and --input exclude each other: the image sets the size");
    if (cli.app().count("--distribution") > 0 && distribution != name(Distribution::Image))
      throw hb::UsageError("--input counts an image; --distribution " + distribution +
                           " asks for generated data");
    opt.image = hb::read_pgm(opt.input).pixels;
    if (opt.image.size() > kMaxBytes)
      throw hb::UsageError("--input " + opt.input + ": more than " + std::to_string(kMaxBytes) +
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
  data.host = d == Distribution::Image ? opt.image : generate(d, opt.common.n, opt.common.seed);
  data.device = hb::DeviceBuffer<std::uint8_t>(data.host.size());
  // copy_to_device: the kernels run on non-blocking streams, which would not wait for a
  // pageable cudaMemcpy still in flight.
  hb::copy_to_device(data.device.data(), data.host.data(), data.host.size());
  if (with_reference) {
    data.reference.emplace();
    histogram_cpu_serial(data.host.data(), data.host.size(), data.reference->data());
  }
  return data;
}

// [histogram-measure]
Measurement measure(const Variant& v, const DataSet& data, Workspace& ws, std::uint32_t* d_bins,
                    cudaStream_t stream, int iters, bool check) {
  Measurement m;
  m.checked = check && data.reference.has_value();
  const auto judge = [&](const Bins& got) {
    return v.role == Role::Lesson ? check_lesson(got, *data.reference)
                                  : check_exact(got, *data.reference);
  };
  const std::size_t n = data.host.size();
  if (v.on_gpu()) {
    // A bin the variant forgets keeps the poison and fails the check. The first verdict that
    // is not exact is the one reported.
    m.median_ms = hb::measure_checked(
        [&](cudaStream_t s) { hb::poison(d_bins, sizeof(Bins), 0xA5, s); },
        [&](cudaStream_t s) { v.gpu(data.device.data(), n, d_bins, ws, s); },
        [&] {
          Bins got{};
          hb::copy_to_host(got.data(), d_bins, kBins, stream);
          m.verdict = judge(got);
          return m.verdict.exact;
        },
        stream, 1, iters, m.checked).median_ms;
  } else {
    Bins got{};
    m.median_ms = hb::time_host([&] { v.cpu(data.host.data(), n, got.data()); }, 1, iters).median_ms;
    if (m.checked) m.verdict = judge(got);
    if (v.role == Role::Reference) m.verdict.text = "reference";
  }
  if (!m.checked) m.verdict.text = "not checked (--no-check)";
  m.gbs = hb::gbs(double(n), m.median_ms);
  return m;
}
// [histogram-measure]

bool passes(const Variant& v, const Measurement& m) {
  // The lesson may lose counts (that is its point) but never invent them.
  return !m.checked || (v.role == Role::Lesson ? m.verdict.plausible : m.verdict.exact);
}

namespace {

constexpr const char* kDriverTitle =
    "Chapter extras: every 256-bin histogram variant on every distribution, against CUB";

// The report's facts (what was run where, what the columns mean, the read ceiling) and columns.
hb::Report make_report(const std::string& program, const ProgramOptions& opt, double read_gbs) {
  hb::Report r({"id", "variant", "distribution", "ms (median)", "GB/s", "% of CUB",
                "% of read-only", "check"});
  const hb::DeviceInfo dev = hb::query_device(opt.common.device);
  hb::add_run_facts(r, program, opt.command_line, dev);
  hb::add_form_notes(r, variants());
  r.fact("SM clock (MHz)", std::to_string(dev.clock_khz / 1000));
  r.fact("L2 cache (MiB)", hb::fixed(double(dev.l2_bytes) / (1 << 20), 0));
  r.fact("bytes per histogram", std::to_string(opt.common.n));
  if (!opt.input.empty()) r.fact("input", opt.input);
  r.fact("seed", std::to_string(opt.common.seed));
  r.fact("iterations", std::to_string(opt.common.iters) + " (median reported)");
  r.fact("GB/s", "input bytes / median time, decimal (1e9 bytes/s)");
  r.fact("% of CUB", "100 x GB/s / CUB's GB/s on the same buffer in the same run");
  r.fact("device read ceiling, same bytes (GB/s)", hb::fixed(read_gbs, 1));
  r.fact("% of read-only", "100 x GB/s / the read ceiling, measured in the same run");
  r.fact("check", opt.common.no_check ? "skipped (--no-check)"
                                      : "256 bins exact against the CPU (variant 0)");
  return r;
}

}  // namespace

// The driver `histogram` (id null) runs every variant, or that of --variant; a variant's own
// program runs it beside CUB. The read ceiling of the bytes comes first (what a histogram that
// reads its input once can reach). Any variant but the lesson that is not exact fails the run.
int run_program(const char* program, const char* id, int argc, char** argv) {
  return hb::run_main(program, [&] {
    const Variant* single = id != nullptr ? &hb::program_row(variants(), id, program) : nullptr;
    const auto opt = parse_options(program, single != nullptr ? single->title : kDriverTitle,
                                   single == nullptr, argc, argv);
    if (!opt) return 0;
    const hb::CommonOptions& o = opt->common;
    const bool check = !o.no_check;
    hb::select_device(o.device);
    if (single != nullptr) hb::require_runs_here(single->needs);
    const Variant* only = single != nullptr ? single
                          : o.variant >= 0  ? &find_variant(std::to_string(o.variant))
                                            : nullptr;

    Workspace ws(o.n);
    hb::Stream stream;
    hb::DeviceBuffer<std::uint32_t> d_bins(kBins);
    // The read-only kernel reads 16-byte vectors: the bytes rounded down to them.
    const double read_gbs = o.n >= 16 ? hb::measure_device_read(o.n / 16 * 16, o.iters).gbs : 0.0;
    hb::Report report = make_report(program, *opt, read_gbs);
    if (single != nullptr) report.fact("variant", single->label() + ": " + single->title);

    // [histogram-driver-loop]
    const Variant& cub = library_variant();
    std::string failures;
    for (const Distribution d : opt->distributions) {
      const DataSet data = make_data_set(d, *opt, check);
      const Measurement reference = measure(cub, data, ws, d_bins.data(), stream, o.iters, check);
      const auto add_row = [&](const Variant& v, const Measurement& m) {
        report.row({v.id, v.name, name(d), hb::fixed(m.median_ms, 3), hb::fixed(m.gbs, 1),
                    hb::percent(m.gbs, reference.gbs), hb::percent(m.gbs, read_gbs),
                    m.verdict.text});
      };
      struct { const Variant* v = nullptr; double gbs = 0.0; } best;  // the fastest exact GPU row
      for (const Variant& v : variants()) {
        if (only != nullptr && &v != only) continue;
        if (hb::form_here(v.needs) == hb::Form::None) {
          report.row({v.id, v.name, name(d), "-", "-", "-", "-",
                      "left out: " + hb::left_out_reason(v.needs)});
          continue;
        }
        const Measurement m =
            &v == &cub ? reference : measure(v, data, ws, d_bins.data(), stream, o.iters, check);
        add_row(v, m);
        if (!passes(v, m))
          failures += (single != nullptr ? name(d) : "variant " + v.label() + " on " + name(d)) +
                      ": " + m.verdict.text + "\n" + m.verdict.details;
        else if (v.on_gpu() && v.role == Role::Variant && m.gbs > best.gbs)
          best = {&v, m.gbs};
      }
      if (single != nullptr) {
        if (single != &cub) add_row(cub, reference);
        if (!passes(cub, reference))
          failures += name(d) + " (CUB): " + reference.verdict.text + "\n";
      } else if (best.v != nullptr && reference.gbs > 0) {
        report.fact("fastest GPU variant on " + name(d),
                    best.v->label() + ", " + hb::fixed(best.gbs / reference.gbs, 2) + "x CUB");
      }
    }
    // [histogram-driver-loop]

    report.print(std::cout, o.csv);
    if (!failures.empty())
      throw hb::CheckFailed((single != nullptr ? std::string(single->name) + " is wrong:\n"
                                               : "variants that are not exact:\n") +
                            failures);
    return 0;
  });
}

}  // namespace histo
