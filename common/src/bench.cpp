#include "hb/bench.h"

#include "hb/bandwidth.h"
#include "hb/capability.h"
#include "hb/error.h"
#include "hb/timing.h"

namespace hb {

Checked measure_checked(const std::function<void(cudaStream_t)>& poison,
                        const std::function<void(cudaStream_t)>& call,
                        const std::function<bool()>& check, cudaStream_t stream, int warmup,
                        int iters, bool do_check) {
  poison(stream);
  call(stream);
  const bool first = !do_check || check();
  const double median_ms = time_events(call, stream, warmup, iters).median_ms;
  return {median_ms, first && (!do_check || check())};
}

void add_run_facts(Report& r, const std::string& program, const std::string& command,
                   const DeviceInfo* dev) {
  r.fact("program", program);
  r.fact("command", command);
  r.fact("date", today_utc());
  if (dev == nullptr) return;
  r.fact("gpu", dev->name);
  r.fact("compute capability", capability_summary());
  r.fact("SMs", std::to_string(dev->sm_count));
  r.fact("driver", driver_version_text());
  r.fact("CUDA runtime", cuda_version_text(dev->runtime_version));
}

void Failures::throw_if_any(std::size_t shown) const {
  if (list_.empty()) return;
  std::string msg = std::to_string(list_.size()) + " configuration(s) differ from the CPU: ";
  for (std::size_t i = 0; i < list_.size() && i < shown; ++i) msg += (i ? "; " : "") + list_[i];
  throw CheckFailed(msg);
}

BlockSweep block_size_sweep(const std::vector<SweepRow>& rows, std::size_t n,
                            const SweepUnits& units, Failures& failures) {
  const std::string unit = units.rates.at(0);
  const bool ceiling = !units.ceiling.empty();
  std::vector<std::string> cols = {"id", "variant"};
  for (int t : kSweepBlockSizes) cols.push_back(std::to_string(t) + " " + unit);
  cols.insert(cols.end(), {"best " + unit, "best threads", "% of CUB"});
  if (ceiling) cols.push_back("% of " + units.ceiling);
  cols.push_back("check");
  BlockSweep sweep{Report(cols), {}, ceiling ? units.measure_ceiling(n) : 0.0};
  double reference = 0.0;
  for (const SweepRow& row : rows) {
    std::vector<std::string> cells = {row.id, row.title};
    std::vector<double> best(units.rates.size(), 0.0);  // the rates of the fastest block size
    int best_threads = 0;
    bool ok = true, checked = true;
    const auto measure = [&](int threads, const std::string& where) {
      const Sample s = row.measure(threads, n);
      if (!s.ok) failures.add(row.label + where + ": " + s.failure);
      ok = ok && s.ok;
      checked = s.checked;
      return s.rates;
    };
    const bool once = row.reference || row.picks_own;  // at its own block size
    for (int t : kSweepBlockSizes) {
      if (once || !row.accepts(t)) {
        cells.push_back("-");
        continue;
      }
      const std::vector<double> rates = measure(t, ", " + std::to_string(t) + " threads");
      cells.push_back(fixed(rates.at(0), 1));
      if (rates.at(0) > best.at(0)) {
        best = rates;
        best_threads = t;
      }
    }
    if (once) {
      best = measure(row.default_threads, "");
      if (row.reference) reference = best.at(0);
    }
    sweep.best_threads.push_back(best_threads > 0 ? best_threads : row.default_threads);
    cells.insert(cells.end(), {fixed(best.at(0), 1),
                               best_threads > 0 ? std::to_string(best_threads) : "-",
                               percent(best.at(0), reference)});
    if (ceiling) cells.push_back(percent(best.at(units.ceiling_rate), sweep.ceiling));
    cells.push_back(check_text(ok, checked));
    sweep.report.row(cells);
  }
  return sweep;
}

Report size_sweep(const std::vector<SweepRow>& rows, const std::vector<int>& threads, int lo,
                  int hi, const SweepUnits& units, Failures& failures) {
  const bool ceiling = !units.ceiling.empty();
  std::vector<std::string> cols = {"n", "log2 n", "id", "variant", "threads", "us (median)"};
  cols.insert(cols.end(), units.rates.begin(), units.rates.end());
  cols.push_back("x CUB");
  if (ceiling) cols.insert(cols.end(), {units.ceiling + " " + units.rates.at(units.ceiling_rate),
                                         "% of " + units.ceiling});
  cols.push_back("check");
  Report r(cols);
  for (int k = lo; k <= hi; ++k) {
    const std::size_t n = std::size_t(1) << k;
    const double limit = ceiling ? units.measure_ceiling(n) : 0.0;
    double reference_us = 0.0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const SweepRow& row = rows[i];
      const Sample s = row.measure(threads.at(i), n);
      if (!s.ok) failures.add(row.label + ", n = " + std::to_string(n) + ": " + s.failure);
      const double us = s.median_ms * 1e3;
      if (row.reference) reference_us = us;
      const bool own = row.reference || row.picks_own;  // shows no block size
      std::vector<std::string> cells = {std::to_string(n), std::to_string(k), row.id, row.title,
                                        own ? "-" : std::to_string(threads.at(i)), fixed(us, 2)};
      for (double rate : s.rates) cells.push_back(fixed(rate, 1));
      cells.push_back(reference_us > 0 && us > 0 ? fixed(reference_us / us, 2) : "-");
      if (ceiling)
        cells.insert(cells.end(),
                     {fixed(limit, 1), percent(s.rates.at(units.ceiling_rate), limit)});
      cells.push_back(check_text(s.ok, s.checked));
      r.row(cells);
    }
  }
  return r;
}

}  // namespace hb
