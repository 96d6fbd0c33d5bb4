// Measuring and checking the variants, and the programs built on that: one per variant, and
// the driver `reduction`. Every number follows hb::measure_checked's rules (input and buffers
// on the device before the clock starts, the median of CUDA-event-timed calls, the CPU's check
// before and after them); GB/s counts the 4 n bytes a reduction must read, in decimal units.
#include <algorithm>
#include <iostream>
#include <map>

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

// The ceiling of a reduction of n elements: the read-only kernel on the same 4 n bytes.
double read_only_gbs(std::size_t n, int iters) {
  return hb::measure_device_read(n * sizeof(int), iters).gbs;
}

// A measured configuration as the sweeps take it (rates: {GB/s}), with the last call's result.
struct Measurement : hb::Sample {
  long long got = 0;
};

// A run's input on the host and on the device, every buffer a launcher needs (all made before
// any clock starts), and the CPU's answers.
struct Bench {
  Bench(const hb::CommonOptions& o, std::size_t max_n)
      : opt(o), host(make_input(max_n, o.seed)), d_in(max_n), scratch(max_n) {
    hb::copy_to_device(d_in.data(), host.data(), d_in.bytes());
  }

  // Variant v on the first n elements of the input, with blocks of threads threads, against
  // the CPU's answer for its kind of result and n (computed once; never with --no-check).
  Measurement measure(const Variant& v, int threads, std::size_t n) {
    const auto key = std::make_pair(v.result, n);
    if (!opt.no_check && !answers.count(key)) answers[key] = cpu_expected(v.result, host.data(), n);
    const long long want = opt.no_check ? 0 : answers[key];
    Measurement m;
    m.checked = !opt.no_check;
    const auto read = [&] { hb::copy_to_host(&m.got, d_out.data(), 1, stream); };
    const hb::Checked c = hb::measure_checked(
        [&](cudaStream_t st) { hb::poison(d_out.data(), d_out.bytes(), 0xA5, st); },
        [&](cudaStream_t st) { v.launch(d_in.data(), n, d_out.data(), threads, scratch, st); },
        [&] { read(); return m.got == want; }, stream, kWarmup, opt.iters, m.checked);
    if (!m.checked) read();
    m.ok = c.ok;
    m.median_ms = c.median_ms;
    m.rates = {hb::gbs(double(n) * sizeof(int), c.median_ms)};
    m.failure = "got " + std::to_string(m.got) + ", the CPU says " + std::to_string(want);
    return m;
  }

  const hb::CommonOptions& opt;
  std::vector<int> host;
  hb::DeviceBuffer<int> d_in;
  hb::DeviceBuffer<long long> d_out{1};
  Scratch scratch;
  hb::Stream stream;
  std::map<std::pair<Result, std::size_t>, long long> answers;
};

// Facts every report of the chapter starts with.
void add_facts(hb::Report& r, const std::string& program, const hb::Cli& cli, std::size_t n,
               double read_gbs) {
  const hb::CommonOptions& opt = cli.options();
  hb::add_run_facts(r, program, cli.command_line(), hb::query_device(opt.device));
  hb::add_form_notes(r, variants());
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

// A row of a per-variant program's table; a cub_gbs of 0 shows "-" as % of CUB.
void add_row(hb::Report& r, const std::string& id, const std::string& title,
             const std::string& threads, double ms, double gbs, double cub_gbs, double read_gbs,
             const std::string& check) {
  r.row({id, title, threads, hb::fixed(ms, 3), hb::fixed(gbs, 1), hb::percent(gbs, cub_gbs),
         hb::percent(gbs, read_gbs), check});
}

// n values of T on the host and on the device: the input of typed rows.
template <typename T>
struct Input {
  explicit Input(std::vector<T> values) : host(std::move(values)), d(host.size()) {
    hb::copy_to_device(d.data(), host.data(), d.bytes());
  }
  std::vector<T> host;
  hb::DeviceBuffer<T> d;
};

// Variant 7's program also runs every reduction type, 8a/8b other predicates, and 10e the
// blog's double. These rows measure n elements of their own type.
bool extra_rows(const Variant& v, hb::Report& report, Bench& b, std::size_t n, int threads,
                double read_gbs) {
  const std::string id = v.id;
  if (id != "7" && id != "8a" && id != "8b" && id != "10e") return true;
  const hb::CommonOptions& opt = b.opt;
  bool all_ok = true;
  // A typed launcher's row, checked once after its timed calls against what cpu computes;
  // pass is the check column when it matches.
  const auto row = [&](const std::string& label, const auto& in, auto launch, auto cpu,
                       const char* pass) {
    using R = decltype(cpu(in.host.data(), n));
    hb::DeviceBuffer<R> d_out(1);
    hb::poison(d_out.data(), d_out.bytes(), 0xA5, b.stream);
    const auto t = hb::time_events(
        [&](cudaStream_t st) { launch(in.d.data(), n, d_out.data(), threads, b.scratch, st); },
        b.stream, kWarmup, opt.iters);
    R got{};
    hb::copy_to_host(&got, d_out.data(), 1, b.stream);
    const bool ok = opt.no_check || matches(got, cpu(in.host.data(), n), in.host.data(), n);
    all_ok = all_ok && ok;
    const double rate = hb::gbs(n * sizeof(in.host[0]), t.median_ms);
    add_row(report, id, label, std::to_string(threads), t.median_ms, rate, 0.0, read_gbs,
            !ok ? "FAIL" : opt.no_check ? "skipped" : pass);
  };
  if (id == "10e") {
    // The blog's own type: sums of doubles are rounded, so they are checked within the
    // floating-point tolerance.
    const Input<double> doubles(hb::uniform_vector<double>(n, opt.seed + 3, -1.0, 1.0));
    row("sum of double (the blog's type)", doubles, reduce10e_typed<double, double>,
        cpu_reduce<double, double>, "within tolerance");
    return all_ok;
  }
  const Input<int> ints(hb::uniform_vector<int>(n, opt.seed + 1, -1000, 1000));
  const Input<float> floats(hb::uniform_vector<float>(n, opt.seed + 2, -1.0f, 1.0f));
  if (id == "8a" || id == "8b") {
    const bool a = id == "8a";
    row("count of odd int", ints,
        a ? count8a_syncthreads_count<int, IsOdd> : count8b_ballot<int, IsOdd>,
        [](const int* in, std::size_t k) { return cpu_count_if(in, k, IsOdd{}); }, "exact");
    row("count of float > 0", floats,
        a ? count8a_syncthreads_count<float, IsPositive> : count8b_ballot<float, IsPositive>,
        [](const float* in, std::size_t k) { return cpu_count_if(in, k, IsPositive{}); },
        "exact");
    return all_ok;
  }
  // Variant 7 with each reduction type; floating-point sums are rounded, so they pass within
  // the tolerance of matches().
  const auto reduction_types = [&](const auto& in, const std::string& type,
                                   const std::string& sum_label) {
    using T = typename std::decay_t<decltype(in.host)>::value_type;
    const char* sum_pass = std::is_integral_v<T> ? "exact" : "within tolerance";
    row(sum_label, in, reduce7_typed<Sum<T>, T>, cpu_reduce<Sum<T>, T>, sum_pass);
    row("sum and squares of " + type, in, reduce7_typed<SumSquares<T>, T>,
        cpu_reduce<SumSquares<T>, T>, sum_pass);
    row("min of " + type, in, reduce7_typed<Min<T>, T>, cpu_reduce<Min<T>, T>, "exact");
    row("max of " + type, in, reduce7_typed<Max<T>, T>, cpu_reduce<Max<T>, T>, "exact");
  };
  const Input<double> doubles(hb::uniform_vector<double>(n, opt.seed + 3, -1.0, 1.0));
  reduction_types(ints, "int", "sum of int (|x| <= 1000)");
  reduction_types(floats, "float", "sum of float into double");
  reduction_types(doubles, "double", "sum of double");
  return all_ok;
}

}  // namespace

int variant_program_main(const char* program, const char* id, int argc, char** argv) {
  return hb::run_main(program, [&] {
    const Variant& v = hb::program_row(variants(), id, program);
    hb::Cli cli({program,
                 std::string("Chapter 12, variant ") + v.id + ": " + v.title +
                     ". Reduces --n int32 values, checks the result against the CPU, and prints "
                     "time, GB/s (1e9 bytes/s) and % of CUB.",
                 kDefaultN, 1, kMaxN, "int32 elements"});
    int threads = v.default_threads;
    if (v.threads != BlockRule::Library)
      cli.app()
          .add_option("--threads", threads, "threads per block: " + describe(v.threads))
          ->capture_default_str();
    if (!cli.parse(argc, argv)) return 0;
    const auto& opt = cli.options();
    require_threads(std::string("variant ") + v.id, v.threads, threads);  // bad block sizes fail before any GPU work

    hb::select_device(opt.device);
    Bench bench(opt, opt.n);
    const double read_gbs = read_only_gbs(opt.n, opt.iters);

    const Variant& cub = variants().front();
    const Measurement ref = bench.measure(cub, cub.default_threads, opt.n);
    const Measurement mine = &v == &cub ? ref : bench.measure(v, threads, opt.n);

    hb::Report report({"id", "variant", "threads", "ms (median)", "GB/s", "% of CUB",
                       "% of read-only", "check"});
    add_facts(report, program, cli, opt.n, read_gbs);
    auto add = [&](const Variant& row, int t, const Measurement& m) {
      add_row(report, row.id, row.title,
              row.threads == BlockRule::Library ? "-" : std::to_string(t), m.median_ms,
              m.rates[0], ref.rates[0], read_gbs, hb::check_text(m.ok, m.checked));
    };
    add(cub, cub.default_threads, ref);
    if (&v != &cub) add(v, threads, mine);
    const bool extras_ok = extra_rows(v, report, bench, opt.n, threads, read_gbs);
    report.print(std::cout, opt.csv);

    if (!ref.ok || !mine.ok || !extras_ok)
      throw hb::CheckFailed("variant " + std::string(v.id) + " with " + std::to_string(threads) +
                            " threads: " + mine.failure +
                            (ref.ok ? "" : "; CUB got " + std::to_string(ref.got)) +
                            (extras_ok ? "" : "; a typed row failed (see the table)"));
    return 0;
  });
}

int driver_main(int argc, char** argv) {
  return hb::run_main("reduction", [&] {
    hb::Cli cli({"reduction",
                 "Chapter 12 driver: every reduction variant over block sizes 32..1024 (the "
                 "book's sweep, GB/s at --n int32 elements), then the fastest variants against "
                 "CUB for sizes 2^10 .. 2^max-log2 (launch latency vs bandwidth).",
                 kDefaultN, 1, kMaxN, "int32 elements (block-size sweep)"});
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
    // A size sweep alone still measures the block sizes first, without printing them.
    const std::size_t largest =
        std::max(opt.n, sweep != "threads" ? std::size_t(1) << max_log2 : 0);
    Bench bench(opt, largest);
    const hb::SweepUnits units{{"GB/s"}, "read-only", 0,
                               [&](std::size_t n) { return read_only_gbs(n, opt.iters); }};
    hb::Failures failures;

    // The book's sweep: every variant (or the one asked for, and CUB) at every block size.
    std::vector<hb::SweepRow> rows;
    for (const auto& v : variants()) {
      if (selected != nullptr && &v != selected && std::string(v.id) != "0") continue;
      rows.push_back({v.id, v.title, "variant " + std::string(v.id),
                      v.threads == BlockRule::Library, v.default_threads,
                      [&v](int t) { return v.accepts_threads(t); },
                      [&v, &bench](int t, std::size_t n) { return bench.measure(v, t, n); }});
    }
    hb::BlockSweep threads = hb::block_size_sweep(rows, opt.n, units, failures);
    if (sweep != "sizes") {
      add_facts(threads.report, "reduction (block-size sweep)", cli, opt.n, threads.ceiling);
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
      add_facts(r, "reduction (size sweep)", cli, largest, read_only_gbs(largest, opt.iters));
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
