/// \file
/// \brief How every chapter measures a kernel (a checked call, warm-up, the median of timed
///        calls, a second check), the facts and rates its reports print, and the book's two
///        sweeps over variants, block sizes and input sizes.
#pragma once

#include <cstddef>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "hb/capability.h"
#include "hb/device.h"
#include "hb/report.h"

namespace hb {

struct Checked {
  double median_ms = 0.0;
  bool ok = true;  ///< both checks passed (always true when checking is off)
};

/// Measures the work \p call enqueues on \p stream: \p poison, one \p call that \p check inspects,
/// \p warmup untimed calls, \p iters timed ones (median), and \p check again, which catches
/// state a call leaves behind (tickets, accumulators). Without \p do_check, no \p check.
Checked measure_checked(const std::function<void(cudaStream_t)>& poison,
                        const std::function<void(cudaStream_t)>& call,
                        const std::function<bool()>& check, cudaStream_t stream, int warmup,
                        int iters, bool do_check);

/// \p bytes moved in \p ms milliseconds, in 1e9 bytes/s (0 for a zero time).
inline double gbs(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0.0; }
/// 100 part / whole with one digit ("97.3"), or "-" where either is not positive.
inline std::string percent(double part, double whole) {
  return whole > 0 && part > 0 ? fixed(100.0 * part / whole, 1) : "-";
}

/// The facts every chapter's report starts with: program, command and date, then, with \p dev
/// (null in a run that uses no GPU), GPU, compute capability, SMs, driver and CUDA runtime.
void add_run_facts(Report& r, const std::string& program, const std::string& command,
                   const DeviceInfo* dev);
inline void add_run_facts(Report& r, const std::string& program, const std::string& command,
                          const DeviceInfo& dev) {
  add_run_facts(r, program, command, &dev);
}

/// One fact per row of the variant table \p rows whose headline form this GPU or build lacks
/// (hb::form_note), named \p label(row); without \p label, "variant " + id + " " + name
/// ("variant 11 gpu_symmetric").
template <typename Rows, typename Label>
void add_form_notes(Report& r, const Rows& rows, Label label) {
  for (const auto& v : rows)
    if (const std::string note = form_note(v.needs); !note.empty()) r.fact(label(v), note);
}
template <typename Rows>
void add_form_notes(Report& r, const Rows& rows) {
  add_form_notes(r, rows, [](const auto& v) {
    std::ostringstream name;
    name << "variant " << v.id << ' ' << v.name;
    return name.str();
  });
}

/// "skipped" when nothing was checked, else "exact" or "FAIL": the check column of the tables.
inline const char* check_text(bool ok, bool checked) {
  return !checked ? "skipped" : ok ? "exact" : "FAIL";
}

/// The configurations whose check failed, collected over a whole sweep so that the program
/// fails once, naming the first few.
class Failures {
 public:
  void add(const std::string& what) { list_.push_back(what); }
  bool empty() const { return list_.empty(); }
  /// Unless empty(), throws CheckFailed ("3 configuration(s) differ from the CPU: a; b; c").
  void throw_if_any(std::size_t shown = 3) const;

 private:
  std::vector<std::string> list_;
};

/// The block sizes of the book's block-size sweeps.
inline constexpr int kSweepBlockSizes[] = {32, 64, 128, 256, 512, 1024};

/// One measured configuration, as a sweep prints it.
struct Sample {
  double median_ms = 0.0;
  std::vector<double> rates;  ///< what the tables print (SweepUnits::rates), the compared one first
  bool ok = true;             ///< the check passed, or was skipped
  bool checked = true;        ///< false when checking is off (--no-check)
  std::string failure;        ///< why the check failed, when !ok
};

/// A variant as the sweeps run it.
struct SweepRow {
  std::string id;     ///< "6"
  std::string title;  ///< one line
  std::string label;  ///< "scan variant 6": how a failure names it
  /// The library row every other is compared with ("% of CUB"), measured once, with
  /// default_threads (the library picks its own block size).
  bool reference = false;
  int default_threads = 0;  ///< the block size of the size sweep when no block size was measured
  std::function<bool(int threads)> accepts;  ///< the block sizes it takes on this GPU
  std::function<Sample(int threads, std::size_t n)> measure;
  /// A variant that picks its own block size from the input: measured once per size, like the
  /// reference, and shows no block size.
  bool picks_own = false;
};

/// What a sweep's rates are called and the ceiling they are compared with.
struct SweepUnits {
  std::vector<std::string> rates;  ///< one name per Sample::rates entry: {"GB/s"}
  /// The ceiling's name ("copy", "read-only"): the sweeps add "% of <ceiling>" columns, and
  /// the size sweep the ceiling's own rate at each size. Empty: no such columns.
  std::string ceiling;
  std::size_t ceiling_rate = 0;  ///< which of rates is compared with the ceiling
  /// Measures the ceiling at n elements in the unit of rates[ceiling_rate], in the same run as
  /// the rows (the device copy or read of the bytes that n elements take).
  std::function<double(std::size_t n)> measure_ceiling;
};

struct BlockSweep {
  Report report;                  ///< the table (the caller adds its facts)
  std::vector<int> best_threads;  ///< per row: the fastest block size, or its default_threads
  double ceiling = 0.0;           ///< the ceiling measured at n (0 without one)
};

/// The book's block-size sweep at \p n elements: per variant, the first rate at each block size
/// of kSweepBlockSizes ("-" where it takes no such block), its best rate and block size, the
/// best as % of the reference row (which must come first) and of the ceiling (if any, measured
/// once, first), and the check. Every failed check is added to \p failures.
BlockSweep block_size_sweep(const std::vector<SweepRow>& rows, std::size_t n,
                            const SweepUnits& units, Failures& failures);

/// The size sweep: for n = 2^lo ... 2^hi (prefixes of one input), every row at block size
/// \p threads[i]: microseconds, every rate, the speed-up over the reference row ("x CUB"), the
/// ceiling at that n and the row's % of it (if any), and the check, failures to \p failures.
Report size_sweep(const std::vector<SweepRow>& rows, const std::vector<int>& threads, int lo,
                  int hi, const SweepUnits& units, Failures& failures);

}  // namespace hb
