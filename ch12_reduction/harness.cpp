// Measuring and checking the variants, and the two kinds of programs built on that: one
// small program per variant, and the driver `reduction`.
//
// Every number we print follows the same rules (hb::measure_checked): the input lives in
// device memory before the clock starts, every buffer a launcher needs is allocated before
// the clock starts, the time is the median of CUDA-event-timed repetitions enqueued back to
// back, and GB/s counts the 4 n bytes a reduction must read, in decimal units. Each
// configuration is checked against the CPU both before and after its timed repetitions.
#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>

#include "hb/bandwidth.h"
#include "hb/bench.h"
#include "hb/cli.h"
#include "hb/device.h"
#include "hb/random.h"
#include "hb/timing.h"
#include "reduction.h"
#include "reference.h"

namespace ch12 {

namespace {

constexpr std::size_t kDefaultN = std::size_t(64) << 20;
constexpr std::size_t kMaxN = std::size_t(1) << 30;
constexpr int kWarmup = 2;

long long read_result(const long long* d_out, cudaStream_t stream) {
  long long v = 0;
  HB_CUDA_CHECK(cudaMemcpyAsync(&v, d_out, sizeof v, cudaMemcpyDeviceToHost, stream));
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return v;
}

// One measured configuration of a table row.
struct Measurement {
  double median_ms = 0.0;
  double gbs = 0.0;     // 4 n bytes / median time
  long long got = 0;    // the last call's result
  bool ok = true;       // both checks passed
  bool checked = true;  // false with --no-check
  std::string check() const { return !checked ? "skipped" : ok ? "exact" : "FAIL"; }
};

// What a measurement needs; the caller owns every buffer.
struct Bench {
  const int* d_in = nullptr;
  std::size_t n = 0;
  Scratch* scratch = nullptr;
  cudaStream_t stream = nullptr;
  long long* d_out = nullptr;
  int iters = 10;
  bool check = true;
};

Measurement measure(const Variant& v, int threads, const Bench& b, long long expected) {
  Measurement m;
  m.checked = b.check;
  const hb::Checked c = hb::measure_checked(
      [&](cudaStream_t st) { hb::poison(b.d_out, sizeof(long long), 0xA5, st); },
      [&](cudaStream_t st) { v.launch(b.d_in, b.n, b.d_out, threads, *b.scratch, st); },
      [&] { return (m.got = read_result(b.d_out, b.stream)) == expected; }, b.stream, kWarmup,
      b.iters, b.check);
  if (!b.check) m.got = read_result(b.d_out, b.stream);
  m.ok = c.ok;
  m.median_ms = c.median_ms;
  m.gbs = hb::gbs(double(b.n) * sizeof(int), c.median_ms);
  return m;
}

// Facts every report of the chapter starts with.
void add_facts(hb::Report& r, const std::string& program, const std::string& command,
               const hb::DeviceInfo& dev, std::size_t n, const hb::CommonOptions& opt,
               double read_gbs) {
  hb::add_run_facts(r, program, command, dev);
  for (const auto& v : variants())
    if (const std::string note = hb::form_note(v.needs); !note.empty())
      r.fact("variant " + std::string(v.id) + " " + v.name, note);
  r.fact("n (int32 elements)", std::to_string(n));
  r.fact("bytes read", std::to_string(n * sizeof(int)));
  r.fact("data", "uniform int32 over the full range, seed " + std::to_string(opt.seed));
  r.fact("iterations", std::to_string(opt.iters) + " timed (median) after " +
                           std::to_string(kWarmup) + " untimed");
  r.fact("GB/s", "1e9 bytes/s; bytes = 4 n, each input read once");
  r.fact("read-only kernel (GB/s)", hb::fixed(read_gbs, 1));
  r.fact("check", opt.no_check ? "skipped (--no-check)"
                               : "exact against the CPU, before and after the timed calls");
}

// The extra rows of variant 7's program: every reduction type over int, float and double.
struct TypedRows {
  hb::Report& report;
  Scratch& scratch;
  cudaStream_t stream;
  int threads;
  const hb::CommonOptions& opt;
  double read_gbs;
  bool all_ok = true;

  // A row of a typed launcher; \p exact says whether the check is exact or within the
  // floating-point tolerance of matches().
  template <typename R, typename T, typename Launch>
  void row(const std::string& id, const std::string& label, const std::vector<T>& host,
           const T* d_in, Launch launch, bool exact) {
    const std::size_t n = host.size();
    hb::DeviceBuffer<R> d_out(1);
    hb::poison(d_out.data(), d_out.bytes(), 0xA5, stream);
    const auto t = hb::time_events(
        [&](cudaStream_t st) { launch(d_in, n, d_out.data(), threads, scratch, st); }, stream,
        kWarmup, opt.iters);
    R got{};
    HB_CUDA_CHECK(cudaMemcpyAsync(&got, d_out.data(), sizeof got, cudaMemcpyDeviceToHost, stream));
    HB_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::string check = "skipped";
    if (!opt.no_check) {
      const bool ok = matches(got, cpu_reduce<R>(host.data(), n), host.data(), n);
      all_ok = all_ok && ok;
      check = ok ? (exact ? "exact" : "within tolerance") : "FAIL";
    }
    const double rate = hb::gbs(n * sizeof(T), t.median_ms);
    report.row({id, label, std::to_string(threads), hb::fixed(t.median_ms, 3), hb::fixed(rate, 1),
                "-", hb::percent(rate, read_gbs), check});
  }

  template <typename T, typename Launch>
  void count_row(const std::string& id, const std::string& label, const std::vector<T>& host,
                 const T* d_in, long long want, Launch launch) {
    const std::size_t n = host.size();
    hb::DeviceBuffer<long long> d_out(1);
    hb::poison(d_out.data(), d_out.bytes(), 0xA5, stream);
    const auto t = hb::time_events(
        [&](cudaStream_t st) { launch(d_in, n, d_out.data(), threads, scratch, st); }, stream,
        kWarmup, opt.iters);
    const long long got = read_result(d_out.data(), stream);
    const bool ok = opt.no_check || got == want;
    all_ok = all_ok && ok;
    const double rate = hb::gbs(n * sizeof(T), t.median_ms);
    report.row({id, label, std::to_string(threads), hb::fixed(t.median_ms, 3), hb::fixed(rate, 1),
                "-", hb::percent(rate, read_gbs), opt.no_check ? "skipped" : ok ? "exact" : "FAIL"});
  }
};

// Variant 7's program also runs every reduction type, 8a/8b other predicates, and 10e the
// blog's double. These rows measure n elements of their own type.
bool extra_rows(const Variant& v, hb::Report& report, std::size_t n, int threads,
                Scratch& scratch, cudaStream_t stream, const hb::CommonOptions& opt,
                double read_gbs) {
  const std::string id = v.id;
  if (id != "7" && id != "8a" && id != "8b" && id != "10e") return true;
  TypedRows rows{report, scratch, stream, threads, opt, read_gbs};
  auto to_device = [&](const auto& host) {
    using T = typename std::decay_t<decltype(host)>::value_type;
    hb::DeviceBuffer<T> d(host.size());
    hb::copy_to_device(d.data(), host.data(), d.bytes());
    return d;
  };
  if (id == "10e") {
    // The blog's own type: sums of doubles are rounded, so they are checked within the
    // floating-point tolerance.
    const auto doubles = hb::uniform_vector<double>(n, opt.seed + 3, -1.0, 1.0);
    const auto dd = to_device(doubles);
    rows.row<double>(id, "sum of double (the blog's type)", doubles, dd.data(),
                     reduce10e_typed<double, double>, false);
    return rows.all_ok;
  }
  const auto ints = hb::uniform_vector<int>(n, opt.seed + 1, -1000, 1000);
  const auto floats = hb::uniform_vector<float>(n, opt.seed + 2, -1.0f, 1.0f);
  const auto di = to_device(ints);
  const auto df = to_device(floats);
  if (id == "8a" || id == "8b") {
    const bool a = id == "8a";
    rows.count_row(id, "count of odd int", ints, di.data(), cpu_count_if(ints.data(), n, IsOdd{}),
                   a ? count8a_syncthreads_count<int, IsOdd> : count8b_ballot<int, IsOdd>);
    rows.count_row(id, "count of float > 0", floats, df.data(),
                   cpu_count_if(floats.data(), n, IsPositive{}),
                   a ? count8a_syncthreads_count<float, IsPositive>
                     : count8b_ballot<float, IsPositive>);
    return rows.all_ok;
  }
  const auto doubles = hb::uniform_vector<double>(n, opt.seed + 3, -1.0, 1.0);
  const auto dd = to_device(doubles);
  rows.row<Sum<int>>(id, "sum of int (|x| <= 1000)", ints, di.data(), reduce7_typed<Sum<int>, int>, true);
  rows.row<SumSquares<int>>(id, "sum and squares of int", ints, di.data(),
                            reduce7_typed<SumSquares<int>, int>, true);
  rows.row<Min<int>>(id, "min of int", ints, di.data(), reduce7_typed<Min<int>, int>, true);
  rows.row<Max<int>>(id, "max of int", ints, di.data(), reduce7_typed<Max<int>, int>, true);
  rows.row<Sum<float>>(id, "sum of float into double", floats, df.data(),
                       reduce7_typed<Sum<float>, float>, false);
  rows.row<SumSquares<float>>(id, "sum and squares of float", floats, df.data(),
                              reduce7_typed<SumSquares<float>, float>, false);
  rows.row<Min<float>>(id, "min of float", floats, df.data(), reduce7_typed<Min<float>, float>, true);
  rows.row<Max<float>>(id, "max of float", floats, df.data(), reduce7_typed<Max<float>, float>, true);
  rows.row<Sum<double>>(id, "sum of double", doubles, dd.data(), reduce7_typed<Sum<double>, double>,
                        false);
  rows.row<SumSquares<double>>(id, "sum and squares of double", doubles, dd.data(),
                               reduce7_typed<SumSquares<double>, double>, false);
  rows.row<Min<double>>(id, "min of double", doubles, dd.data(), reduce7_typed<Min<double>, double>,
                        true);
  rows.row<Max<double>>(id, "max of double", doubles, dd.data(), reduce7_typed<Max<double>, double>,
                        true);
  return rows.all_ok;
}

}  // namespace

int variant_program_main(const char* program, const char* id, int argc, char** argv) {
  return hb::run_main(program, [&] {
    const Variant& v = hb::program_row(variants(), id, program);
    hb::CliSpec spec;
    spec.program = program;
    spec.description = std::string("Chapter 12, variant ") + v.id + ": " + v.title +
                       ". Reduces --n int32 values, checks the result against the CPU, and "
                       "prints time, GB/s (1e9 bytes/s) and % of CUB.";
    spec.default_n = kDefaultN;
    spec.min_n = 1;
    spec.max_n = kMaxN;
    spec.n_unit = "int32 elements";
    hb::Cli cli(spec);
    int threads = v.default_threads;
    if (v.threads != BlockRule::Library) {
      cli.app()
          .add_option("--threads", threads, "threads per block: " + describe(v.threads))
          ->capture_default_str();
    }
    if (!cli.parse(argc, argv)) return 0;
    const auto& opt = cli.options();
    require_threads(std::string("variant ") + v.id, v.threads, threads);  // bad block sizes fail before any GPU work

    hb::select_device(opt.device);
    const hb::DeviceInfo dev = hb::query_device(opt.device);
    const std::size_t n = opt.n;
    const std::vector<int> host = make_input(n, opt.seed);
    hb::DeviceBuffer<int> d_in(n);
    hb::copy_to_device(d_in.data(), host.data(), d_in.bytes());
    hb::DeviceBuffer<long long> d_out(1);
    Scratch scratch(n);
    hb::Stream stream;
    const Bench bench{d_in.data(), n, &scratch, stream, d_out.data(), opt.iters, !opt.no_check};
    const double read_gbs = hb::measure_device_read(n * sizeof(int), opt.iters).gbs;

    const Variant& cub = variants().front();
    const Measurement ref = measure(cub, cub.default_threads, bench, cpu_expected(cub.result, host.data(), n));
    const Measurement mine =
        &v == &cub ? ref : measure(v, threads, bench, cpu_expected(v.result, host.data(), n));

    hb::Report report({"id", "variant", "threads", "ms (median)", "GB/s", "% of CUB",
                       "% of read-only", "check"});
    add_facts(report, program, cli.command_line(), dev, n, opt, read_gbs);
    auto add = [&](const Variant& row, int t, const Measurement& m) {
      report.row({row.id, row.title, row.threads == BlockRule::Library ? "-" : std::to_string(t),
                  hb::fixed(m.median_ms, 3), hb::fixed(m.gbs, 1), hb::percent(m.gbs, ref.gbs),
                  hb::percent(m.gbs, read_gbs), m.check()});
    };
    add(cub, cub.default_threads, ref);
    if (&v != &cub) add(v, threads, mine);
    const bool extras_ok = extra_rows(v, report, n, threads, scratch, stream, opt, read_gbs);
    report.print(std::cout, opt.csv);

    if (!ref.ok || !mine.ok || !extras_ok) {
      std::ostringstream os;
      os << "variant " << v.id << " with " << threads << " threads: got " << mine.got
         << ", the CPU says " << cpu_expected(v.result, host.data(), n);
      if (!ref.ok) os << "; CUB got " << ref.got;
      if (!extras_ok) os << "; a typed row failed (see the table)";
      throw hb::CheckFailed(os.str());
    }
    return 0;
  });
}

int driver_main(int argc, char** argv) {
  return hb::run_main("reduction", [&] {
    hb::CliSpec spec;
    spec.program = "reduction";
    spec.description =
        "Chapter 12 driver: every reduction variant over block sizes 32..1024 (the book's "
        "sweep, GB/s at --n int32 elements), then the fastest variants against CUB for sizes "
        "2^10 .. 2^max-log2 (launch latency vs bandwidth).";
    spec.default_n = kDefaultN;
    spec.min_n = 1;
    spec.max_n = kMaxN;
    spec.n_unit = "int32 elements (block-size sweep)";
    hb::Cli cli(spec);
    std::string only;
    std::string sweep = "both";
    int max_log2 = 28;
    cli.app().add_option("--variant", only, "run only this variant (and CUB): " + hb::ids_of(variants()));
    cli.app()
        .add_option("--sweep", sweep, "which tables: threads (block sizes), sizes, or both")
        ->check(CLI::IsMember({"threads", "sizes", "both"}))
        ->capture_default_str();
    cli.app()
        .add_option("--max-log2", max_log2, "largest size of the size sweep is 2^max-log2 elements")
        ->check(CLI::Range(10, 30))
        ->capture_default_str();
    if (!cli.parse(argc, argv)) return 0;
    const auto& opt = cli.options();
    const Variant* selected = only.empty() ? nullptr : &find_variant(only);

    hb::select_device(opt.device);
    const hb::DeviceInfo dev = hb::query_device(opt.device);
    // A size sweep alone still measures the block sizes first, without printing them.
    const std::size_t largest =
        std::max(opt.n, sweep != "threads" ? std::size_t(1) << max_log2 : 0);
    const std::vector<int> host = make_input(largest, opt.seed);
    hb::DeviceBuffer<int> d_in(largest);
    hb::copy_to_device(d_in.data(), host.data(), d_in.bytes());
    hb::DeviceBuffer<long long> d_out(1);
    Scratch scratch(largest);
    hb::Stream stream;

    // The CPU's answer for each kind of result and size, computed once.
    std::map<std::pair<Result, std::size_t>, long long> answers;
    const auto expected = [&](Result what, std::size_t n) {
      const auto key = std::make_pair(what, n);
      if (opt.no_check) return 0LL;
      if (!answers.count(key)) answers[key] = cpu_expected(what, host.data(), n);
      return answers[key];
    };
    const auto sweep_row = [&](const Variant& v) {
      hb::SweepRow row{v.id, v.title, "variant " + std::string(v.id),
                       v.threads == BlockRule::Library, v.default_threads,
                       [&v](int t) { return v.accepts_threads(t); }, {}};
      row.measure = [&](int threads, std::size_t n) {
        const Bench bench{d_in.data(), n, &scratch, stream, d_out.data(), opt.iters, !opt.no_check};
        const long long want = expected(v.result, n);
        const Measurement m = measure(v, threads, bench, want);
        const std::string failure =
            "got " + std::to_string(m.got) + ", the CPU says " + std::to_string(want);
        return hb::Sample{m.median_ms, {m.gbs}, m.ok, m.checked, failure};
      };
      return row;
    };
    // A reduction reads 4 n bytes: its ceiling is the read-only kernel on as many bytes.
    const hb::SweepUnits units{{"GB/s"}, "read-only", 0, [&](std::size_t n) {
                                 return hb::measure_device_read(n * sizeof(int), opt.iters).gbs;
                               }};
    hb::Failures failures;

    // The book's sweep: every variant (or the one asked for, and CUB) at every block size.
    std::vector<hb::SweepRow> rows;
    for (const auto& v : variants())
      if (selected == nullptr || &v == selected || std::string(v.id) == "0")
        rows.push_back(sweep_row(v));
    hb::BlockSweep threads = hb::block_size_sweep(rows, opt.n, units, failures);
    if (sweep != "sizes") {
      add_facts(threads.report, "reduction (block-size sweep)", cli.command_line(), dev, opt.n,
                opt, threads.ceiling);
      threads.report.print(std::cout, opt.csv);
      if (sweep == "both") std::cout << '\n';
    }

    if (sweep != "threads") {
      // CUB against the single-launch variants (or the one asked for), each at its best block
      // size of the sweep above.
      std::vector<hb::SweepRow> chosen;
      std::vector<int> best;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::string& id = rows[i].id;
        const bool single_launch = id == "4" || id == "9" || id == "11a" || id == "11b";
        if (selected != nullptr || id == "0" || single_launch) {
          chosen.push_back(rows[i]);
          best.push_back(threads.best_threads[i]);
        }
      }
      hb::Report r = hb::size_sweep(chosen, best, 10, max_log2, units, failures);
      add_facts(r, "reduction (size sweep)", cli.command_line(), dev, largest, opt,
                hb::measure_device_read(largest * sizeof(int), opt.iters).gbs);
      r.fact("sizes", "2^10 .. 2^" + std::to_string(max_log2) +
                          " elements, prefixes of one input; each variant at its best block "
                          "size from the sweep (or its default)");
      r.print(std::cout, opt.csv);
    }
    failures.throw_if_any(5);
    return 0;
  });
}

}  // namespace ch12
