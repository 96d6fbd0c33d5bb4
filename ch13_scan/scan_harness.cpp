// Measuring and checking the variants, and the programs built on that.
//
// Every number we print follows the same rules: the input lives in device memory before the
// clock starts, every buffer a launcher needs is allocated before the clock starts, the time
// is the median of CUDA-event-timed repetitions enqueued back to back, and GB/s counts the
// bytes a scan must move (n reads and n writes of the element type; a compaction reads n and
// writes the selected elements), in decimal units (1e9 bytes/s). Each configuration is
// checked against the CPU before and after its timed repetitions.
#include "scan_harness.h"

#include <algorithm>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <type_traits>
#include <vector>

#include "hb/bandwidth.h"
#include "hb/capability.h"
#include "hb/cli.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/report.h"
#include "hb/timing.h"
#include "scan0a_cpu.h"
#include "compact0a_cpu.h"
#include "scan_check.h"
#include "scan_launchers.h"

namespace ch13 {

namespace {

constexpr std::size_t kDefaultN = std::size_t(1) << 26;
constexpr std::size_t kMaxN = std::size_t(1) << 30;
constexpr int kWarmup = 2;
constexpr unsigned char kPoisonByte = 0xA5;

double rate(double units, double ms) { return ms > 0 ? units / (ms * 1e-3) / 1e9 : 0.0; }

std::string percent(double part, double whole) {
  return whole > 0 && part > 0 ? hb::fixed(100.0 * part / whole, 1) : "-";
}

std::string check_text(const Measurement& m, bool exact = true) {
  if (!m.checked) return "skipped";
  if (!m.ok) return "FAIL";
  return exact ? "exact" : "within bound";
}

template <typename T>
T poison_value() {
  T v;
  std::memset(&v, kPoisonByte, sizeof v);
  return v;
}

template <typename T>
bool is_poison(const T& v) {
  const T p = poison_value<T>();
  return std::memcmp(&v, &p, sizeof v) == 0;
}

// The rows whose form depends on the GPU (the others run everywhere as written).
std::vector<const VariantInfo*> forms_to_report() {
  std::vector<const VariantInfo*> rows;
  for (const auto& v : scan_variants())
    if (hb::needs_anything(v.needs)) rows.push_back(&v);
  for (const auto& v : compact_variants())
    if (hb::needs_anything(v.needs)) rows.push_back(&v);
  return rows;
}

// Facts every report of the chapter starts with.
void add_facts(hb::Report& r, const std::string& program, const std::string& command,
               const hb::DeviceInfo& dev, const hb::CommonOptions& opt) {
  r.fact("program", program);
  r.fact("command", command);
  r.fact("date", hb::today_utc());
  r.fact("gpu", dev.name);
  r.fact("compute capability", hb::capability_summary());
  for (const VariantInfo* v : forms_to_report())
    if (const std::string note = hb::form_note(v->needs); !note.empty()) r.fact(v->label(), note);
  r.fact("SMs", std::to_string(dev.sm_count));
  r.fact("driver", hb::driver_version_text());
  r.fact("CUDA runtime", hb::cuda_version_text(dev.runtime_version));
  r.fact("iterations", std::to_string(opt.iters) + " timed (median) after " +
                           std::to_string(kWarmup) + " untimed");
}

ElementType parse_type(const std::string& s) { return s == "float" ? ElementType::Float : ElementType::Int; }

std::string data_text(ElementType type, std::uint64_t seed) {
  return type == ElementType::Int
             ? "int32 uniform in [-1000, 1000], seed " + std::to_string(seed)
             : "float multiples of 2^-8 in [-1, 1) (scans exact in any order), seed " +
                   std::to_string(seed);
}

// ---------------------------------------------------------------------------------------
// Scans.

template <typename T>
class TypedScanBench final : public ScanBench {
 public:
  TypedScanBench(std::size_t max_n, ScanKind kind, std::uint64_t seed, int iters, bool check)
      : kind_(kind), iters_(iters), check_(check), scratch_(max_n), d_in_(max_n),
        d_out_(max_n + 1), host_out_(max_n + 1) {
    if constexpr (std::is_same_v<T, int>) {
      in_ = make_ints(max_n, seed);
    } else {
      in_ = make_floats(max_n, seed, FloatData::Grid);
    }
    if (max_n > 0)
      hb::copy_to_device(d_in_.data(), in_.data(), d_in_.bytes());
    if (check_) want_ = reference_scan(in_, kind_);
  }

  Measurement measure(const ScanVariant& v, int threads, std::size_t n) override {
    if (v.impl == Impl::Cpu) return measure_cpu(n);
    Measurement m;
    m.checked = check_;
    const ScanLauncher<T> launch = v.launcher<T>();
    auto call = [&](cudaStream_t st) {
      launch(d_in_.data(), d_out_.data(), n, kind_, threads, scratch_, st);
    };
    hb::poison(d_out_.data(), (n + 1) * sizeof(T), kPoisonByte, stream_);
    call(stream_);
    check(n, m);
    const hb::TimingStats t = hb::time_events(call, stream_, kWarmup, iters_);
    check(n, m);
    m.median_ms = t.median_ms;
    m.gbs = rate(2.0 * n * sizeof(T), t.median_ms);
    m.gelems = rate(static_cast<double>(n), t.median_ms);
    return m;
  }

  double copy_gbs(std::size_t n) override {
    if (n == 0) return 0.0;
    return hb::measure_device_copy(n * sizeof(T), iters_).gbs;
  }

 private:
  Measurement measure_cpu(std::size_t n) {
    Measurement m;
    m.checked = check_;
    const hb::TimingStats t = hb::time_host(
        [&] { cpu_scan<T>(host_out_.data(), in_.data(), n, kind_); }, 1, std::min(iters_, 5));
    if (check_) record(compare(host_out_.data(), n), m);
    m.median_ms = t.median_ms;
    m.gbs = rate(2.0 * n * sizeof(T), t.median_ms);
    m.gelems = rate(static_cast<double>(n), t.median_ms);
    return m;
  }

  hb::CompareResult compare(const T* got, std::size_t n) const {
    if constexpr (std::is_same_v<T, int>) {
      return compare_scan(got, want_.data(), n);
    } else {
      return compare_scan(got, want_.data(), nullptr, n, 0.0);
    }
  }

  static void record(const hb::CompareResult& r, Measurement& m) {
    if (!r.ok && m.ok) m.failure = r.report;
    m.ok = m.ok && r.ok;
  }

  void check(std::size_t n, Measurement& m) {
    if (!check_) return;
    HB_CUDA_CHECK(cudaMemcpyAsync(host_out_.data(), d_out_.data(), (n + 1) * sizeof(T),
                                  cudaMemcpyDeviceToHost, stream_));
    HB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    record(compare(host_out_.data(), n), m);
    if (!is_poison(host_out_[n])) {
      if (m.ok) m.failure = "the element after the last one was overwritten";
      m.ok = false;
    }
  }

  ScanKind kind_;
  int iters_;
  bool check_;
  Scratch scratch_;
  hb::Stream stream_;
  std::vector<T> in_;
  std::vector<std::conditional_t<std::is_same_v<T, int>, long long, double>> want_;
  hb::DeviceBuffer<T> d_in_, d_out_;
  std::vector<T> host_out_;
};

// ---------------------------------------------------------------------------------------
// Compaction.

class IntCompactBench final : public CompactBench {
 public:
  IntCompactBench(std::size_t max_n, std::uint64_t seed, int iters, bool check)
      : iters_(iters), check_(check), scratch_(max_n), in_(make_ints(max_n, seed)), d_in_(max_n),
        d_out_(max_n + 1), d_count_(1), host_out_(max_n + 1) {
    if (max_n > 0)
      hb::copy_to_device(d_in_.data(), in_.data(), d_in_.bytes());
  }

  Measurement measure(const CompactVariant& v, int threads, std::size_t n) override {
    Measurement m;
    m.checked = check_;
    if (check_ && cached_n_ != n) {
      want_ = reference_compact(in_, n);
      cached_n_ = n;
    }
    if (v.impl == Impl::Cpu) {
      std::size_t count = 0;
      const hb::TimingStats t = hb::time_host(
          [&] { count = cpu_compact(host_out_.data(), in_.data(), n, IsOdd{}); }, 1,
          std::min(iters_, 5));
      if (check_) check_values(host_out_.data(), count, m);
      finish(m, t.median_ms, n, count);
      return m;
    }
    auto call = [&](cudaStream_t st) {
      v.launch(d_in_.data(), d_out_.data(), n, d_count_.data(), threads, scratch_, st);
    };
    hb::poison(d_out_.data(), (n + 1) * sizeof(int), kPoisonByte, stream_);
    hb::poison(d_count_.data(), sizeof(int), kPoisonByte, stream_);
    call(stream_);
    std::size_t count = check(n, m);
    const hb::TimingStats t = hb::time_events(call, stream_, kWarmup, iters_);
    count = check(n, m);
    finish(m, t.median_ms, n, count);
    return m;
  }

 private:
  void finish(Measurement& m, double ms, std::size_t n, std::size_t count) const {
    m.median_ms = ms;
    m.selected = count;
    m.gbs = rate(4.0 * (n + count), ms);
    m.gelems = rate(static_cast<double>(n), ms);
  }

  void fail(Measurement& m, const std::string& why) const {
    if (m.ok) m.failure = why;
    m.ok = false;
  }

  void check_values(const int* got, std::size_t count, Measurement& m) const {
    if (count != want_.selected.size()) {
      fail(m, "selected " + std::to_string(count) + " elements, the CPU " +
                  std::to_string(want_.selected.size()));
      return;
    }
    const hb::CompareResult r = hb::compare_exact(got, want_.selected.data(), count, "selected elements");
    if (!r.ok) fail(m, r.report);
  }

  // Reads the count and the output back; returns the count (clamped to the buffer).
  std::size_t check(std::size_t n, Measurement& m) {
    int count = 0;
    HB_CUDA_CHECK(cudaMemcpyAsync(&count, d_count_.data(), sizeof count, cudaMemcpyDeviceToHost,
                                  stream_));
    HB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (!check_) return count >= 0 && std::size_t(count) <= n ? std::size_t(count) : 0;
    if (count < 0 || std::size_t(count) > n) {
      fail(m, "count " + std::to_string(count) + " for " + std::to_string(n) + " inputs");
      return 0;
    }
    HB_CUDA_CHECK(cudaMemcpyAsync(host_out_.data(), d_out_.data(), (count + 1) * sizeof(int),
                                  cudaMemcpyDeviceToHost, stream_));
    HB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    check_values(host_out_.data(), count, m);
    if (!is_poison(host_out_[count])) fail(m, "the element after the last selected one was written");
    return count;
  }

  int iters_;
  bool check_;
  Scratch scratch_;
  hb::Stream stream_;
  std::vector<int> in_;
  hb::DeviceBuffer<int> d_in_, d_out_, d_count_;
  std::vector<int> host_out_;
  CompactReference want_;
  std::size_t cached_n_ = ~std::size_t(0);
};

// ---------------------------------------------------------------------------------------
// Warp and block level: scans of independent segments, repeated in registers or shared
// memory so that the scan itself, not memory, sets the time.

class SegmentBench {
 public:
  SegmentBench(std::size_t n, std::uint64_t seed, int iters)
      : n_(n), iters_(iters), in_(make_floats(n, seed, FloatData::Grid)), d_in_(n), d_out_(n),
        host_out_(n) {
    hb::copy_to_device(d_in_.data(), in_.data(), d_in_.bytes());
  }

  // One checked call with reps = 1, then the median of reps-long calls. The rate counts
  // n x reps elements scanned.
  Measurement measure(SegmentLauncher<float> launch, std::size_t segment, int threads, int reps,
                      bool check) {
    Measurement m;
    m.checked = check;
    if (check) {
      hb::poison(d_out_.data(), d_out_.bytes(), kPoisonByte, stream_);
      launch(d_in_.data(), d_out_.data(), n_, ScanKind::Inclusive, threads, 1, stream_);
      HB_CUDA_CHECK(cudaMemcpyAsync(host_out_.data(), d_out_.data(), d_out_.bytes(),
                                    cudaMemcpyDeviceToHost, stream_));
      HB_CUDA_CHECK(cudaStreamSynchronize(stream_));
      std::vector<double>& want = reference(segment);
      const hb::CompareResult r = compare_scan(host_out_.data(), want.data(), nullptr, n_, 0.0);
      m.ok = r.ok;
      m.failure = r.report;
    }
    const hb::TimingStats t = hb::time_events(
        [&](cudaStream_t st) {
          launch(d_in_.data(), d_out_.data(), n_, ScanKind::Inclusive, threads, reps, st);
        },
        stream_, kWarmup, iters_);
    m.median_ms = t.median_ms;
    m.gelems = rate(static_cast<double>(n_) * reps, t.median_ms);
    m.gbs = rate(8.0 * n_, t.median_ms);
    return m;
  }

 private:
  std::vector<double>& reference(std::size_t segment) {
    auto it = want_.find(segment);
    if (it == want_.end()) {
      std::vector<double> w(n_);
      cpu_segmented_scan<double, float>(w.data(), in_.data(), n_, segment, ScanKind::Inclusive);
      it = want_.emplace(segment, std::move(w)).first;
    }
    return it->second;
  }

  std::size_t n_;
  int iters_;
  std::vector<float> in_;
  hb::DeviceBuffer<float> d_in_, d_out_;
  std::vector<float> host_out_;
  hb::Stream stream_;
  std::map<std::size_t, std::vector<double>> want_;
};

// Options shared by the scan programs.
struct ScanFlags {
  std::string type = "int";
  bool exclusive = false;
  bool inclusive = false;
  ScanKind kind() const { return exclusive ? ScanKind::Exclusive : ScanKind::Inclusive; }
};

void add_scan_flags(hb::Cli& cli, ScanFlags& f) {
  cli.app()
      .add_option("--type", f.type, "element type: int (int32) or float")
      ->check(CLI::IsMember({"int", "float"}))
      ->capture_default_str();
  auto* ex = cli.app().add_flag("--exclusive", f.exclusive, "compute the exclusive scan");
  auto* in = cli.app().add_flag("--inclusive", f.inclusive,
                                "compute the inclusive scan (the default)");
  ex->excludes(in);
  in->excludes(ex);
}

}  // namespace

const char* type_name(ElementType type) { return type == ElementType::Int ? "int" : "float"; }

std::unique_ptr<ScanBench> ScanBench::create(std::size_t max_n, ElementType type, ScanKind kind,
                                             std::uint64_t seed, int iters, bool check) {
  if (type == ElementType::Int)
    return std::make_unique<TypedScanBench<int>>(max_n, kind, seed, iters, check);
  return std::make_unique<TypedScanBench<float>>(max_n, kind, seed, iters, check);
}

std::unique_ptr<CompactBench> CompactBench::create(std::size_t max_n, std::uint64_t seed,
                                                   int iters, bool check) {
  return std::make_unique<IntCompactBench>(max_n, seed, iters, check);
}

// ---------------------------------------------------------------------------------------
// The per-variant programs.

int scan_program_main(const char* program, const char* id, int argc, char** argv) {
  return hb::run_main(program, [&] {
    const ScanVariant& v = find_scan_variant(id);
    if (v.program() != program) {
      throw std::logic_error(std::string("program ") + program + " is built for scan variant " +
                             id + ", whose program is " + v.program());
    }
    hb::CliSpec spec;
    spec.program = program;
    spec.description = std::string("Chapter 13, scan variant ") + v.id + ": " + v.title +
                       ". Scans --n elements, checks the result against the CPU, and prints "
                       "time, GB/s (1e9 bytes/s, counting n reads and n writes) and % of CUB.";
    spec.default_n = kDefaultN;
    spec.min_n = 1;
    spec.max_n = kMaxN;
    spec.n_unit = "elements";
    hb::Cli cli(spec);
    int threads = v.default_threads;
    if (v.impl == Impl::Ours) {
      cli.app()
          .add_option("--threads", threads, "threads per block: " + hb::describe(v.threads))
          ->capture_default_str();
    }
    ScanFlags flags;
    add_scan_flags(cli, flags);
    if (!cli.parse(argc, argv)) return 0;
    const auto& opt = cli.options();
    require_threads(v.label(), v.threads, threads);  // before any GPU work

    hb::select_device(opt.device);
    const hb::DeviceInfo dev = hb::query_device(opt.device);
    const std::size_t n = opt.n;
    const ElementType type = parse_type(flags.type);
    const ScanKind kind = flags.kind();
    auto bench = ScanBench::create(n, type, kind, opt.seed, opt.iters, !opt.no_check);
    const double copy = bench->copy_gbs(n);
    const ScanVariant& cub = find_scan_variant("0b");
    const Measurement ref = bench->measure(cub, cub.default_threads, n);
    const Measurement mine = &v == &cub ? ref : bench->measure(v, threads, n);

    hb::Report report({"id", "variant", "type", "scan", "threads", "ms (median)", "GB/s",
                       "% of CUB", "% of copy", "check"});
    add_facts(report, program, cli.command_line(), dev, opt);
    report.fact("n (elements)", std::to_string(n));
    report.fact("bytes counted", std::to_string(2 * n * 4) +
                                     " (n reads + n writes)");
    report.fact("data", data_text(type, opt.seed));
    report.fact("GB/s", "1e9 bytes/s");
    report.fact("device copy (GB/s)", hb::fixed(copy, 1));
    report.fact("check", opt.no_check ? "skipped (--no-check)"
                                      : "every element exact against the CPU, before and after "
                                        "the timed calls; the element after the last untouched");
    auto add = [&](const ScanVariant& row, int t, const Measurement& m) {
      report.row({row.id, row.title, type_name(type), kind_name(kind),
                  row.impl == Impl::Ours ? std::to_string(t) : "-", hb::fixed(m.median_ms, 3),
                  hb::fixed(m.gbs, 1), percent(m.gbs, ref.gbs), percent(m.gbs, copy),
                  check_text(m)});
    };
    add(cub, cub.default_threads, ref);
    if (&v != &cub) add(v, threads, mine);
    report.print(std::cout, opt.csv);
    if (!ref.ok || !mine.ok) {
      throw hb::CheckFailed(std::string("scan variant ") + v.id + ": " +
                            (!mine.ok ? mine.failure : "CUB: " + ref.failure));
    }
    return 0;
  });
}

int compact_program_main(const char* program, const char* id, int argc, char** argv) {
  return hb::run_main(program, [&] {
    const CompactVariant& v = find_compact_variant(id);
    if (v.program() != program) {
      throw std::logic_error(std::string("program ") + program +
                             " is built for compaction variant " + id + ", whose program is " +
                             v.program());
    }
    hb::CliSpec spec;
    spec.program = program;
    spec.description = std::string("Chapter 13, compaction variant ") + v.id + ": " + v.title +
                       ". Copies the odd elements of --n int32 values, checks them against the "
                       "CPU, and prints time, elements/s, GB/s and % of CUB DeviceSelect::If.";
    spec.default_n = kDefaultN;
    spec.min_n = 1;
    spec.max_n = kMaxN;
    spec.n_unit = "int32 elements";
    hb::Cli cli(spec);
    int threads = v.default_threads;
    if (v.impl == Impl::Ours) {
      cli.app()
          .add_option("--threads", threads, "threads per block: " + hb::describe(v.threads))
          ->capture_default_str();
    }
    if (!cli.parse(argc, argv)) return 0;
    const auto& opt = cli.options();
    require_threads(v.label(), v.threads, threads);

    hb::select_device(opt.device);
    const hb::DeviceInfo dev = hb::query_device(opt.device);
    const std::size_t n = opt.n;
    auto bench = CompactBench::create(n, opt.seed, opt.iters, !opt.no_check);
    const CompactVariant& cub = find_compact_variant("0b");
    const Measurement ref = bench->measure(cub, cub.default_threads, n);
    const Measurement mine = &v == &cub ? ref : bench->measure(v, threads, n);

    hb::Report report({"id", "variant", "threads", "ms (median)", "G elements/s", "GB/s",
                       "% of CUB", "selected", "check"});
    add_facts(report, program, cli.command_line(), dev, opt);
    report.fact("n (int32 elements)", std::to_string(n));
    report.fact("data", data_text(ElementType::Int, opt.seed) + "; the odd ones are selected");
    report.fact("G elements/s", "1e9 input elements per second");
    report.fact("GB/s", "1e9 bytes/s; bytes = 4 (n + selected): every input read, every "
                        "selected element written");
    report.fact("check", opt.no_check ? "skipped (--no-check)"
                                      : "count and every selected element exact against the "
                                        "CPU, before and after the timed calls");
    auto add = [&](const CompactVariant& row, int t, const Measurement& m) {
      report.row({row.id, row.title, row.impl == Impl::Ours ? std::to_string(t) : "-",
                  hb::fixed(m.median_ms, 3), hb::fixed(m.gelems, 1), hb::fixed(m.gbs, 1),
                  percent(m.gelems, ref.gelems), std::to_string(m.selected), check_text(m)});
    };
    add(cub, cub.default_threads, ref);
    if (&v != &cub) add(v, threads, mine);
    report.print(std::cout, opt.csv);
    if (!ref.ok || !mine.ok) {
      throw hb::CheckFailed(std::string("compaction variant ") + v.id + ": " +
                            (!mine.ok ? mine.failure : "CUB: " + ref.failure));
    }
    return 0;
  });
}

// ---------------------------------------------------------------------------------------
// The drivers.

namespace {

const std::vector<int> kBlockSizes = {32, 64, 128, 256, 512, 1024};

// The block-size sweep of the device-level rows of a table: one row per variant, one column
// per block size, the best block size per variant (recorded in best).
template <typename Variant, typename Measure>
void block_sweep(hb::Report& r, const std::vector<Variant>& rows, Measure measure,
                 std::map<std::string, int>& best, std::vector<std::string>& failures,
                 double reference_rate, double copy_rate, bool elements) {
  for (const auto& v : rows) {
    std::vector<std::string> cells = {v.id, v.title};
    double top = 0.0;
    int top_threads = 0;
    bool ok = true;
    bool checked = true;
    for (int t : kBlockSizes) {
      if (v.impl != Impl::Ours || !v.accepts_threads_here(t)) {
        cells.push_back("-");
        continue;
      }
      const Measurement m = measure(v, t);
      ok = ok && m.ok;
      checked = m.checked;
      if (!m.ok) failures.push_back(v.label() + ", " + std::to_string(t) + " threads: " + m.failure);
      const double value = elements ? m.gelems : m.gbs;
      cells.push_back(hb::fixed(value, 1));
      if (value > top) {
        top = value;
        top_threads = t;
      }
    }
    if (v.impl == Impl::Library) {
      const Measurement m = measure(v, v.default_threads);
      ok = m.ok;
      checked = m.checked;
      if (!m.ok) failures.push_back(v.label() + ": " + m.failure);
      top = elements ? m.gelems : m.gbs;
    }
    best[v.id] = top_threads > 0 ? top_threads : v.default_threads;
    cells.push_back(hb::fixed(top, 1));
    cells.push_back(top_threads > 0 ? std::to_string(top_threads) : "-");
    cells.push_back(percent(top, reference_rate > 0 ? reference_rate : top));
    if (copy_rate > 0) cells.push_back(percent(top, copy_rate));
    Measurement summary;
    summary.ok = ok;
    summary.checked = checked;
    cells.push_back(check_text(summary));
    r.row(cells);
  }
}

void throw_if_failed(const std::vector<std::string>& failures) {
  if (failures.empty()) return;
  std::string msg = std::to_string(failures.size()) + " configuration(s) differ from the CPU: ";
  for (std::size_t i = 0; i < failures.size() && i < 3; ++i) msg += (i ? "; " : "") + failures[i];
  throw hb::CheckFailed(msg);
}

}  // namespace

int scan_driver_main(int argc, char** argv) {
  return hb::run_main("scan", [&] {
    hb::CliSpec spec;
    spec.program = "scan";
    spec.description =
        "Chapter 13 driver: the device-level scans over block sizes 32..1024 (GB/s at --n "
        "elements) and against CUB over sizes 2^10 .. 2^max-log2; with --sweep warp or block, "
        "the warp- and block-level scans on a synthetic workload (--reps scans in a row).";
    spec.default_n = kDefaultN;
    spec.min_n = 1;
    spec.max_n = kMaxN;
    spec.n_unit = "elements (block-size, warp and block sweeps)";
    hb::Cli cli(spec);
    std::string only;
    std::string sweep = "both";
    int max_log2 = 28;
    int reps = 64;
    int threads = 256;
    ScanFlags flags;
    cli.app().add_option("--variant", only,
                         "device-level sweeps: only this variant (and CUB): " + scan_variant_ids());
    cli.app()
        .add_option("--sweep", sweep,
                    "which tables: threads (block sizes), sizes, both, warp or block")
        ->check(CLI::IsMember({"threads", "sizes", "both", "warp", "block"}))
        ->capture_default_str();
    cli.app()
        .add_option("--max-log2", max_log2, "largest size of the size sweep is 2^max-log2")
        ->check(CLI::Range(10, 30))
        ->capture_default_str();
    cli.app()
        .add_option("--reps", reps, "warp and block sweeps: scans in a row per element")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    cli.app()
        .add_option("--threads", threads, "warp sweep: threads per block (a multiple of 32)")
        ->check(CLI::Range(32, 1024))
        ->capture_default_str();
    add_scan_flags(cli, flags);
    if (!cli.parse(argc, argv)) return 0;
    const auto& opt = cli.options();
    const ScanVariant* selected = only.empty() ? nullptr : &find_scan_variant(only);
    if (threads % 32 != 0) throw hb::UsageError("--threads " + std::to_string(threads) + ": must be a multiple of 32");

    hb::select_device(opt.device);
    const hb::DeviceInfo dev = hb::query_device(opt.device);
    std::vector<std::string> failures;

    if (sweep == "warp" || sweep == "block") {
      const bool warp = sweep == "warp";
      SegmentBench bench(opt.n, opt.seed, opt.iters);
      std::vector<std::string> cols = {"id", "variant"};
      const std::vector<int> sizes = warp ? std::vector<int>{threads} : kBlockSizes;
      for (int t : sizes) cols.push_back(std::to_string(t) + " threads G scans/s");
      cols.push_back("check");
      hb::Report r(cols);
      add_facts(r, warp ? "scan (warp-level scans)" : "scan (block-level scans)",
                cli.command_line(), dev, opt);
      r.fact("n (elements)", std::to_string(opt.n));
      r.fact("reps", std::to_string(reps) + " inclusive scans in a row of every " +
                         (warp ? std::string("32-element segment") : std::string("tile")) +
                         ", in registers or shared memory");
      r.fact("G scans/s", "1e9 x n x reps / time: elements scanned per second");
      r.fact("data", data_text(ElementType::Float, opt.seed) +
                         " (float: repeated scans overflow to infinity, which costs nothing)");
      r.fact("check", opt.no_check ? "skipped" : "one scan (reps = 1) exact against the CPU");
      std::vector<SegmentVariant> rows = warp ? warp_variants() : block_variants();
      if (warp) {
        // Listing 13.16 without padding is not a row of the table, but the book counts it.
        SegmentVariant plain = rows[3];
        plain.id = "3u";
        plain.title = "templated, no padding (listing 13.16, kZeroPad = false)";
        plain.launch_int = warp3_templated_unpadded<int>;
        plain.launch_float = warp3_templated_unpadded<float>;
        rows.insert(rows.begin() + 3, plain);
      }
      for (const auto& v : rows) {
        std::vector<std::string> cells = {v.id, v.title};
        Measurement all;
        for (int t : sizes) {
          if (!v.accepts_threads(t)) {
            cells.push_back("-");
            continue;
          }
          const Measurement m = bench.measure(v.launch_float, v.segment(t), t, reps, !opt.no_check);
          if (!m.ok) failures.push_back(v.label() + ", " + std::to_string(t) + " threads: " + m.failure);
          all.ok = all.ok && m.ok;
          all.checked = m.checked;
          cells.push_back(hb::fixed(m.gelems, 1));
        }
        cells.push_back(check_text(all));
        r.row(cells);
      }
      r.print(std::cout, opt.csv);
      throw_if_failed(failures);
      return 0;
    }

    const bool do_threads = sweep != "sizes";
    const bool do_sizes = sweep != "threads";
    const std::size_t largest =
        std::max(opt.n, do_sizes ? std::size_t(1) << max_log2 : 0);
    const ElementType type = parse_type(flags.type);
    const ScanKind kind = flags.kind();
    auto bench = ScanBench::create(largest, type, kind, opt.seed, opt.iters, !opt.no_check);
    std::vector<ScanVariant> rows;
    for (const auto& v : scan_variants())
      if (v.impl != Impl::Cpu && (selected == nullptr || &v == selected || v.impl == Impl::Library))
        rows.push_back(v);
    std::map<std::string, int> best;
    for (const auto& v : rows) best[v.id] = v.default_threads;

    auto facts = [&](hb::Report& r, const std::string& what, std::size_t n) {
      add_facts(r, what, cli.command_line(), dev, opt);
      r.fact("type", type_name(type));
      r.fact("scan", kind_name(kind));
      r.fact("n (elements)", std::to_string(n));
      r.fact("data", data_text(type, opt.seed));
      r.fact("GB/s", "1e9 bytes/s; bytes = 2 x 4 n (each element read once and written once)");
      r.fact("check", opt.no_check ? "skipped (--no-check)"
                                   : "every element exact against the CPU, before and after the "
                                     "timed calls");
    };

    // The block-size sweep; the size sweep runs each variant at the best block size found
    // here, so a size sweep on its own measures (without printing) the block sizes first.
    {
      const std::size_t n = opt.n;
      std::vector<std::string> cols = {"id", "variant"};
      for (int t : kBlockSizes) cols.push_back(std::to_string(t) + " GB/s");
      for (const char* c : {"best GB/s", "best threads", "% of CUB", "% of copy", "check"})
        cols.push_back(c);
      hb::Report r(cols);
      facts(r, "scan (block-size sweep)", n);
      const double copy = bench->copy_gbs(n);
      r.fact("device copy (GB/s)", hb::fixed(copy, 1));
      const Measurement cub = bench->measure(find_scan_variant("0b"), 0, n);
      block_sweep(
          r, rows, [&](const ScanVariant& v, int t) { return bench->measure(v, t, n); }, best,
          failures, cub.gbs, copy, false);
      if (do_threads) {
        r.print(std::cout, opt.csv);
        if (do_sizes) std::cout << '\n';
      }
    }

    if (do_sizes) {
      hb::Report r({"n", "log2 n", "id", "variant", "threads", "us (median)", "GB/s", "x CUB",
                    "check"});
      facts(r, "scan (size sweep)", largest);
      r.fact("sizes", "2^10 .. 2^" + std::to_string(max_log2) +
                          " elements, prefixes of one input; each variant at its best block "
                          "size of the block-size sweep at n = " + std::to_string(opt.n));
      for (int k = 10; k <= max_log2; ++k) {
        const std::size_t n = std::size_t(1) << k;
        double cub_us = 0.0;
        for (const auto& v : rows) {
          const int t = best[v.id];
          const Measurement m = bench->measure(v, t, n);
          if (!m.ok) failures.push_back(v.label() + ", n = " + std::to_string(n) + ": " + m.failure);
          const double us = m.median_ms * 1e3;
          if (v.impl == Impl::Library) cub_us = us;
          r.row({std::to_string(n), std::to_string(k), v.id, v.title,
                 v.impl == Impl::Ours ? std::to_string(t) : "-", hb::fixed(us, 2),
                 hb::fixed(m.gbs, 1), cub_us > 0 && us > 0 ? hb::fixed(cub_us / us, 2) : "-",
                 check_text(m)});
        }
      }
      r.print(std::cout, opt.csv);
    }
    throw_if_failed(failures);
    return 0;
  });
}

int compact_driver_main(int argc, char** argv) {
  return hb::run_main("compact", [&] {
    hb::CliSpec spec;
    spec.program = "compact";
    spec.description =
        "Chapter 13 compaction driver: the stream compactions of the odd elements over block "
        "sizes 32..1024 (at --n int32 elements) and against CUB DeviceSelect::If over sizes "
        "2^10 .. 2^max-log2.";
    spec.default_n = kDefaultN;
    spec.min_n = 1;
    spec.max_n = kMaxN;
    spec.n_unit = "int32 elements (block-size sweep)";
    hb::Cli cli(spec);
    std::string only;
    std::string sweep = "both";
    int max_log2 = 28;
    cli.app().add_option("--variant", only,
                         "only this variant (and CUB): " + compact_variant_ids());
    cli.app()
        .add_option("--sweep", sweep, "which tables: threads (block sizes), sizes, or both")
        ->check(CLI::IsMember({"threads", "sizes", "both"}))
        ->capture_default_str();
    cli.app()
        .add_option("--max-log2", max_log2, "largest size of the size sweep is 2^max-log2")
        ->check(CLI::Range(10, 30))
        ->capture_default_str();
    if (!cli.parse(argc, argv)) return 0;
    const auto& opt = cli.options();
    const CompactVariant* selected = only.empty() ? nullptr : &find_compact_variant(only);

    hb::select_device(opt.device);
    const hb::DeviceInfo dev = hb::query_device(opt.device);
    const bool do_threads = sweep != "sizes";
    const bool do_sizes = sweep != "threads";
    const std::size_t largest =
        std::max(opt.n, do_sizes ? std::size_t(1) << max_log2 : 0);
    auto bench = CompactBench::create(largest, opt.seed, opt.iters, !opt.no_check);
    std::vector<CompactVariant> rows;
    for (const auto& v : compact_variants())
      if (v.impl != Impl::Cpu && (selected == nullptr || &v == selected || v.impl == Impl::Library))
        rows.push_back(v);
    std::map<std::string, int> best;
    for (const auto& v : rows) best[v.id] = v.default_threads;
    std::vector<std::string> failures;

    auto facts = [&](hb::Report& r, const std::string& what, std::size_t n) {
      add_facts(r, what, cli.command_line(), dev, opt);
      r.fact("n (int32 elements)", std::to_string(n));
      r.fact("data", data_text(ElementType::Int, opt.seed) + "; the odd ones are selected");
      r.fact("G elements/s", "1e9 input elements per second");
      r.fact("GB/s", "1e9 bytes/s; bytes = 4 (n + selected)");
      r.fact("check", opt.no_check ? "skipped (--no-check)"
                                   : "count and every selected element exact against the CPU");
    };

    {  // the block-size sweep (measured for the size sweep too, printed only when asked)
      const std::size_t n = opt.n;
      std::vector<std::string> cols = {"id", "variant"};
      for (int t : kBlockSizes) cols.push_back(std::to_string(t) + " G elements/s");
      for (const char* c : {"best G elements/s", "best threads", "% of CUB", "check"})
        cols.push_back(c);
      hb::Report r(cols);
      facts(r, "compact (block-size sweep)", n);
      const Measurement cub = bench->measure(find_compact_variant("0b"), 0, n);
      block_sweep(
          r, rows, [&](const CompactVariant& v, int t) { return bench->measure(v, t, n); }, best,
          failures, cub.gelems, 0.0, true);
      if (do_threads) {
        r.print(std::cout, opt.csv);
        if (do_sizes) std::cout << '\n';
      }
    }

    if (do_sizes) {
      hb::Report r({"n", "log2 n", "id", "variant", "threads", "us (median)", "G elements/s",
                    "GB/s", "x CUB", "check"});
      facts(r, "compact (size sweep)", largest);
      r.fact("sizes", "2^10 .. 2^" + std::to_string(max_log2) +
                          " elements, prefixes of one input; each variant at its best block "
                          "size of the block-size sweep at n = " + std::to_string(opt.n));
      for (int k = 10; k <= max_log2; ++k) {
        const std::size_t n = std::size_t(1) << k;
        double cub_us = 0.0;
        for (const auto& v : rows) {
          const int t = best[v.id];
          const Measurement m = bench->measure(v, t, n);
          if (!m.ok) failures.push_back(v.label() + ", n = " + std::to_string(n) + ": " + m.failure);
          const double us = m.median_ms * 1e3;
          if (v.impl == Impl::Library) cub_us = us;
          r.row({std::to_string(n), std::to_string(k), v.id, v.title,
                 v.impl == Impl::Ours ? std::to_string(t) : "-", hb::fixed(us, 2),
                 hb::fixed(m.gelems, 1), hb::fixed(m.gbs, 1),
                 cub_us > 0 && us > 0 ? hb::fixed(cub_us / us, 2) : "-", check_text(m)});
        }
      }
      r.print(std::cout, opt.csv);
    }
    throw_if_failed(failures);
    return 0;
  });
}

}  // namespace ch13
