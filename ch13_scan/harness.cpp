// The programs: one per device-wide scan and per compaction (CUB, then the variant, on the same
// data), and the drivers `scan` and `compact`. GB/s counts the bytes a scan must move (n reads
// and n writes; a compaction reads n and writes the selected elements), in 1e9 bytes/s.
#include <iostream>
#include <map>

#include "harness.h"
#include "hb/cli.h"
#include "hb/device.h"

namespace ch13 {

namespace {

constexpr std::size_t kDefaultN = std::size_t(1) << 26;
constexpr std::size_t kMaxN = std::size_t(1) << 30;

std::string data_text(bool floats, std::uint64_t seed) {
  return (floats ? "float multiples of 2^-8 in [-1, 1) (scans exact in any order), seed "
                 : "int32 uniform in [-1000, 1000], seed ") +
         std::to_string(seed);
}

// The flags of the programs beyond the shared ones.
struct Flags {
  int threads = kDefaultThreads;
  std::string type = "int";
  bool exclusive = false;
  bool inclusive = false;
  bool floats() const { return type == "float"; }
  ScanKind kind() const { return exclusive ? ScanKind::Exclusive : ScanKind::Inclusive; }
};

// What the programs of the scan table and of the compaction table do differently: the
// compactions compare elements per second (their bytes depend on how many are selected) with
// CUB, their GB/s with the copy, and take no --type or --exclusive.
struct ScanLevel {
  using Row = ScanVariant;
  static const std::vector<Row>& rows() { return scan_variants(); }
  static constexpr bool kScan = true;
  static const Row& find(std::string_view id) { return find_scan_variant(id); }
  static std::vector<std::string> rates() { return {"GB/s"}; }
  static void facts(hb::Report& r, const hb::CommonOptions& opt, const Flags& f, std::size_t n) {
    r.fact("type", f.type);
    r.fact("scan", kind_name(f.kind()));
    r.fact("n (elements)", std::to_string(n));
    r.fact("data", data_text(f.floats(), opt.seed));
    r.fact("GB/s", "1e9 bytes/s; bytes = 2 x 4 n (each element read once and written once)");
    r.fact("check", opt.no_check ? "skipped (--no-check)"
                                 : "every element exact against the CPU, before and after the "
                                   "timed calls; the element after the last untouched");
  }
  // Calls run(bench) with the bench for up to n elements of the flags' type and kind.
  template <typename Run>
  static void with_bench(std::size_t n, const hb::CommonOptions& opt, const Flags& f, Run run) {
    if (f.floats()) return run(ScanBench<float>(n, f.kind(), opt.seed, opt.iters, !opt.no_check));
    run(ScanBench<int>(n, f.kind(), opt.seed, opt.iters, !opt.no_check));
  }
};
struct CompactLevel {
  using Row = CompactVariant;
  static const std::vector<Row>& rows() { return compact_variants(); }
  static constexpr bool kScan = false;
  static const Row& find(std::string_view id) { return find_compact_variant(id); }
  static std::vector<std::string> rates() { return {"G elements/s", "GB/s"}; }
  static void facts(hb::Report& r, const hb::CommonOptions& opt, const Flags&, std::size_t n) {
    r.fact("n (int32 elements)", std::to_string(n));
    r.fact("data", data_text(false, opt.seed) + "; the odd ones are selected");
    r.fact("G elements/s", "1e9 input elements per second");
    r.fact("GB/s", "1e9 bytes/s; bytes = 4 (n + selected): every input read, every selected "
                   "element written");
    r.fact("% of copy", "GB/s against the device copy of the n inputs (2 x 4 n bytes counted)");
    r.fact("check", opt.no_check ? "skipped (--no-check)"
                                 : "count and every selected element exact against the CPU, "
                                   "before and after the timed calls");
  }
  template <typename Run>
  static void with_bench(std::size_t n, const hb::CommonOptions& opt, const Flags&, Run run) {
    run(CompactBench(n, opt.seed, opt.iters, !opt.no_check));
  }
};

// Runs f(ScanLevel{}) or, for the programs whose name starts with "compact", f(CompactLevel{}),
// as the body of main().
template <typename F>
int with_level(const char* program, F f) {
  return hb::run_main(program, [&] {
    return std::string_view(program).rfind("compact", 0) == 0 ? f(CompactLevel{}) : f(ScanLevel{});
  });
}

void add_scan_flags(hb::Cli& cli, Flags& f) {
  cli.app()
      .add_option("--type", f.type, "element type: int (int32) or float")
      ->check(CLI::IsMember({"int", "float"}))
      ->capture_default_str();
  auto* ex = cli.app().add_flag("--exclusive", f.exclusive, "compute the exclusive scan");
  ex->excludes(  // both ways: CLI11 makes an exclusion symmetric
      cli.app().add_flag("--inclusive", f.inclusive, "compute the inclusive scan (the default)"));
}

// The facts every report of the chapter starts with.
void add_facts(hb::Report& r, const std::string& program, const hb::Cli& cli) {
  const auto& opt = cli.options();
  hb::add_run_facts(r, program, cli.command_line(), hb::query_device(opt.device));
  const auto label = [](const auto& v) { return v.label(); };  // "scan variant 7"
  hb::add_form_notes(r, scan_variants(), label);
  hb::add_form_notes(r, compact_variants(), label);
  r.fact("iterations", std::to_string(opt.iters) + " timed (median) after " +
                           std::to_string(kWarmup) + " untimed");
}

// One per-variant program: CUB, then the variant (unless it is CUB), on the same data.
template <typename Level>
int variant_program(const char* program, const char* id, int argc, char** argv) {
  const auto& v = hb::program_row(Level::rows(), id, program);
  hb::Cli cli({program,
               "Chapter 13, " + v.label() + ": " + v.title +
                   (Level::kScan
                        ? ". Scans --n elements, checks the result against the CPU, and prints "
                          "time, GB/s (1e9 bytes/s, counting n reads and n writes) and % of CUB."
                        : ". Copies the odd elements of --n int32 values, checks them against "
                          "the CPU, and prints time, elements/s, GB/s and % of CUB "
                          "DeviceSelect::If."),
               kDefaultN, 1, kMaxN, Level::kScan ? "elements" : "int32 elements"});
  Flags f;
  if (v.default_threads() > 0) {
    cli.app()
        .add_option("--threads", f.threads,
                    "threads per block: " + hb::describe(v.threads) +
                        (v.tile_bytes_per_thread > 0
                             ? "; by default 256, or the largest smaller power of two whose "
                               "tile fits the shared memory this GPU grants a block"
                             : ""))
        ->capture_default_str();
  }
  if (Level::kScan) add_scan_flags(cli, f);
  if (!cli.parse(argc, argv)) return 0;
  const auto& opt = cli.options();
  require_threads(v.label(), v.threads, f.threads);  // before any GPU work
  hb::select_device(opt.device);
  if (v.default_threads() > 0 && cli.app().count("--threads") == 0)
    f.threads = v.default_threads_here();
  Level::with_bench(opt.n, opt, f, [&](auto&& bench) {
    const auto& cub = Level::find("0b");
    const Measurement ref = bench.measure(cub, 0, opt.n);
    const Measurement mine = &v == &cub ? ref : bench.measure(v, f.threads, opt.n);
    const double copy = bench.copy_gbs(opt.n);
    hb::Report report(
        Level::kScan
            ? std::vector<std::string>{"id", "variant", "type", "scan", "threads", "ms (median)",
                                       "GB/s", "% of CUB", "% of copy", "check"}
            : std::vector<std::string>{"id", "variant", "threads", "ms (median)", "G elements/s",
                                       "GB/s", "% of CUB", "% of copy", "selected", "check"});
    add_facts(report, program, cli);
    Level::facts(report, opt, f, opt.n);
    report.fact("device copy (GB/s)", hb::fixed(copy, 1));
    for (const auto* row : &v == &cub ? std::vector{&cub} : std::vector{&cub, &v}) {
      const Measurement& m = row == &cub ? ref : mine;
      const std::string threads = row->default_threads() > 0 ? std::to_string(f.threads) : "-";
      const std::string percent = hb::percent(m.rates[0], ref.rates[0]);
      const double gbs = m.rates.back();  // the last rate of both levels
      const std::string check = hb::check_text(m.ok, m.checked);
      if (Level::kScan) {
        report.row({row->id, row->title, f.type, kind_name(f.kind()), threads,
                    hb::fixed(m.median_ms, 3), hb::fixed(gbs, 1), percent,
                    hb::percent(gbs, copy), check});
      } else {
        report.row({row->id, row->title, threads, hb::fixed(m.median_ms, 3),
                    hb::fixed(m.rates[0], 1), hb::fixed(gbs, 1), percent,
                    hb::percent(gbs, copy), std::to_string(m.selected), check});
      }
    }
    report.print(std::cout, opt.csv);
    if (!ref.ok || !mine.ok)
      throw hb::CheckFailed(v.label() + ": " + (!mine.ok ? mine.failure : "CUB: " + ref.failure));
  });
  return 0;
}

// The synthetic sweep of the warp- or block-level scans: scans of independent segments,
// repeated in registers or shared memory so that the scan itself, not memory, sets the time.
// One checked call (reps = 1), then the median of reps-long calls; one column per block size
// (warp: the --threads given), in G scans/s (n x reps elements scanned per second).
template <typename Row>
void segment_sweep(const std::vector<Row>& table, bool warp, const hb::Cli& cli, const Flags& f,
                   int reps, hb::Failures& failures) {
  const auto& opt = cli.options();
  const std::size_t n = opt.n;
  const std::vector<float> in = make_floats(n, opt.seed, FloatData::Grid);
  hb::DeviceBuffer<float> d_in(n), d_out(n);
  std::vector<float> host_out(n);
  hb::Stream stream;
  hb::copy_to_device(d_in.data(), in.data(), d_in.bytes());
  const std::vector<int> sizes = warp ? std::vector<int>{f.threads}
                                      : std::vector<int>(std::begin(hb::kSweepBlockSizes),
                                                         std::end(hb::kSweepBlockSizes));
  std::vector<std::string> cols = {"id", "variant"};
  for (int t : sizes) cols.push_back(std::to_string(t) + " threads G scans/s");
  cols.push_back("check");
  hb::Report r(cols);
  add_facts(r, warp ? "scan (warp-level scans)" : "scan (block-level scans)", cli);
  r.fact("n (elements)", std::to_string(opt.n));
  r.fact("reps", std::to_string(reps) + " inclusive scans in a row of every " +
                     (warp ? "32-element segment" : "tile") + ", in registers or shared memory");
  r.fact("G scans/s", "1e9 x n x reps / time: elements scanned per second");
  r.fact("data", data_text(true, opt.seed) +
                     " (float: repeated scans overflow to infinity, which costs nothing)");
  r.fact("check", opt.no_check ? "skipped" : "one scan (reps = 1) exact against the CPU");
  std::map<std::size_t, std::vector<double>> wants;  // by segment length
  for (const auto& v : with_alternates(table)) {
    std::vector<std::string> cells = {v.id, v.title};
    bool ok = true;
    for (int t : sizes) {
      if (!v.accepts_threads(t)) {
        cells.push_back("-");
        continue;
      }
      const auto scan = [&](int scans, cudaStream_t st) {
        v.launch.for_float(d_in.data(), d_out.data(), n, ScanKind::Inclusive, t, scans, st);
      };
      if (!opt.no_check) {
        hb::poison(d_out.data(), d_out.bytes(), 0xA5, stream);
        scan(1, stream);
        hb::copy_to_host(host_out.data(), d_out.data(), n, stream);
        std::vector<double>& want = wants[v.segment(t)];
        if (want.empty()) {
          want.resize(n);
          cpu_segmented_scan(want.data(), in.data(), n, v.segment(t), ScanKind::Inclusive);
        }
        const hb::CompareResult c = compare_scan(host_out.data(), want.data(), n);
        if (!c.ok) failures.add(v.label() + ", " + std::to_string(t) + " threads: " + c.report);
        ok = ok && c.ok;
      }
      const double ms = hb::time_events([&](cudaStream_t st) { scan(reps, st); }, stream,
                                        kWarmup, opt.iters).median_ms;
      cells.push_back(hb::fixed(hb::gbs(static_cast<double>(n) * reps, ms), 1));
    }
    cells.push_back(hb::check_text(ok, !opt.no_check));
    r.row(cells);
  }
  r.print(std::cout, opt.csv);
}

// A driver: the block-size sweep of the level's GPU rows (with --variant, that row and CUB)
// and the size sweep of the same rows, each at its best block size (a size sweep alone
// measures the block sizes first, without printing them); or the warp or block sweep.
template <typename Level>
int driver(const char* program, int argc, char** argv) {
  constexpr bool scan = Level::kScan;
  hb::Cli cli({
      program,
      scan ? "Chapter 13 driver: the device-level scans over block sizes 32..1024 (GB/s at --n "
             "elements) and against CUB over sizes 2^10 .. 2^max-log2; with --sweep warp or "
             "block, the warp- and block-level scans on a synthetic workload (--reps scans in a "
             "row)."
           : "Chapter 13 compaction driver: the stream compactions of the odd elements over "
             "block sizes 32..1024 (at --n int32 elements) and against CUB DeviceSelect::If "
             "over sizes 2^10 .. 2^max-log2.",
      kDefaultN, 1, kMaxN,
      scan ? "elements (block-size, warp and block sweeps)" : "int32 elements (block-size sweep)"});
  std::string only;
  std::string sweep = "both";
  int max_log2 = 28;
  int reps = 64;
  Flags f;
  cli.app().add_option("--variant", only,
                       std::string(scan ? "device-level sweeps: " : "") +
                           "only this variant (and CUB): " + hb::ids_of(Level::rows()));
  cli.app()
      .add_option("--sweep", sweep,
                  scan ? "which tables: threads (block sizes), sizes, both, warp or block"
                       : "which tables: threads (block sizes), sizes, or both")
      ->check(scan ? CLI::IsMember({"threads", "sizes", "both", "warp", "block"})
                   : CLI::IsMember({"threads", "sizes", "both"}))
      ->capture_default_str();
  cli.app()
      .add_option("--max-log2", max_log2, "largest size of the size sweep is 2^max-log2")
      ->check(CLI::Range(10, 30))
      ->capture_default_str();
  if (scan) {
    cli.app()
        .add_option("--reps", reps, "warp and block sweeps: scans in a row per element")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    cli.app()
        .add_option("--threads", f.threads, "warp sweep: threads per block (a multiple of 32)")
        ->check(CLI::Range(32, 1024))
        ->capture_default_str();
    add_scan_flags(cli, f);
  }
  if (!cli.parse(argc, argv)) return 0;
  const auto& opt = cli.options();
  const auto* selected = only.empty() ? nullptr : &Level::find(only);
  if (f.threads % 32 != 0)
    throw hb::UsageError("--threads " + std::to_string(f.threads) + ": must be a multiple of 32");

  hb::select_device(opt.device);
  hb::Failures failures;
  const std::size_t largest = std::max(opt.n, sweep != "threads" ? std::size_t(1) << max_log2 : 0);
  if (sweep == "warp") {
    segment_sweep(warp_variants(), true, cli, f, reps, failures);
  } else if (sweep == "block") {
    segment_sweep(block_variants(), false, cli, f, reps, failures);
  } else {
    Level::with_bench(largest, opt, f, [&](auto&& bench) {
      std::vector<hb::SweepRow> rows;
      for (const auto& v : Level::rows()) {
        if (v.is_cpu() || (selected != nullptr && &v != selected && !v.is_library())) continue;
        rows.push_back({v.id, v.title, v.label(), v.is_library(), v.default_threads(),
                        [&v](int t) { return v.accepts_threads_here(t); },
                        [&v, &bench](int t, std::size_t n) -> hb::Sample {
                          return bench.measure(v, t, n);
                        },
                        v.picks_own()});
      }
      // The last rate, GB/s, against the device copy of the n inputs.
      const hb::SweepUnits units = {Level::rates(), "copy", Level::rates().size() - 1,
                                    [&bench](std::size_t n) { return bench.copy_gbs(n); }};
      hb::BlockSweep threads = hb::block_size_sweep(rows, opt.n, units, failures);
      add_facts(threads.report, cli.spec().program + " (block-size sweep)", cli);
      Level::facts(threads.report, opt, f, opt.n);
      threads.report.fact("device copy (GB/s)", hb::fixed(threads.ceiling, 1));
      if (sweep != "sizes") {
        threads.report.print(std::cout, opt.csv);
        if (sweep == "threads") return;
        std::cout << '\n';
      }
      hb::Report sizes = hb::size_sweep(rows, threads.best_threads, 10, max_log2, units, failures);
      add_facts(sizes, cli.spec().program + " (size sweep)", cli);
      Level::facts(sizes, opt, f, largest);
      sizes.fact("sizes", "2^10 .. 2^" + std::to_string(max_log2) +
                              " elements, prefixes of one input; each variant at its best block "
                              "size of the block-size sweep at n = " + std::to_string(opt.n));
      sizes.print(std::cout, opt.csv);
    });
  }
  failures.throw_if_any();
  return 0;
}

}  // namespace

int variant_program_main(const char* program, const char* id, int argc, char** argv) {
  return with_level(program, [&](auto level) {
    return variant_program<decltype(level)>(program, id, argc, argv);
  });
}

int driver_main(const char* program, int argc, char** argv) {
  return with_level(program,
                    [&](auto level) { return driver<decltype(level)>(program, argc, argv); });
}

}  // namespace ch13
