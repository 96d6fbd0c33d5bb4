/// \file
/// \brief The benches that measure and check the scans and compactions (for the programs of
///        harness.cpp and the tests), and the programs' main()s.
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "hb/bandwidth.h"
#include "hb/bench.h"
#include "hb/memory.h"
#include "hb/timing.h"
#include "scan.h"

namespace ch13 {

constexpr int kWarmup = 2;  ///< untimed calls before the timed ones

/// One measured configuration (rates: GB/s for a scan; 1e9 elements/s and GB/s for a
/// compaction), and how many elements a compaction selected.
struct Measurement : hb::Sample {
  std::size_t selected = 0;
  /// Adds a check's outcome, keeping the first reason the measurement failed.
  void record(bool passed, const std::string& why) {
    if (!passed && ok) failure = why;
    ok = ok && passed;
  }
};

/// What the measurements of one program run share, all allocated before anything is timed: an
/// input of max_n elements of T on the host and the device (the sizes measured are its
/// prefixes), an output with a guard element after it, the scratch memory and a stream.
template <typename T>
class Bench {
 public:
  /// The device copy of n elements, GB/s (2 n elements counted).
  double copy_gbs(std::size_t n) const {
    return n == 0 ? 0.0 : hb::measure_device_copy(n * sizeof(T), iters_).gbs;
  }

 protected:
  Bench(std::vector<T> in, int iters, bool check)
      : iters_(iters), check_(check), scratch_(in.size()), in_(std::move(in)), d_in_(in_.size()),
        d_out_(in_.size() + 1), host_out_(in_.size() + 1) {
    if (!in_.empty()) hb::copy_to_device(d_in_.data(), in_.data(), d_in_.bytes());
  }
  /// The CPU row (\p cpu) timed with the host clock, then checked; a GPU row (\p call) by
  /// hb::measure_checked into an output that \p poison poisons, guard element included.
  double time(bool on_cpu, const std::function<void()>& cpu,
              const std::function<void(cudaStream_t)>& poison,
              const std::function<void(cudaStream_t)>& call, const std::function<bool()>& check) {
    if (!on_cpu)
      return hb::measure_checked(poison, call, check, stream_, kWarmup, iters_, check_).median_ms;
    const double ms = hb::time_host(cpu, 1, std::min(iters_, 5)).median_ms;
    if (check_) check();
    return ms;
  }

  int iters_;
  bool check_;  // false: --no-check
  Scratch scratch_;
  hb::Stream stream_;
  std::vector<T> in_;
  hb::DeviceBuffer<T> d_in_, d_out_;
  std::vector<T> host_out_;
};

/// The scans of one program run: int32 in [-1000, 1000], or float multiples of 2^-8 (both
/// scan exactly), and their CPU scan.
template <typename T>
class ScanBench : public Bench<T> {
 public:
  ScanBench(std::size_t max_n, ScanKind kind, std::uint64_t seed, int iters, bool check)
      : Bench<T>(exact_inputs(max_n, seed), iters, check), kind_(kind) {
    if (check) want_ = reference_scan(this->in_, kind_);
  }

  /// Runs variant \p v with blocks of \p threads threads on the first \p n elements; the
  /// output must equal the CPU's and the guard element stay poisoned. GB/s counts n reads
  /// and n writes of T.
  Measurement measure(const ScanVariant& v, int threads, std::size_t n) {
    Measurement m;
    m.checked = this->check_;
    std::vector<T>& host = this->host_out_;
    T* out = this->d_out_.data();
    const ScanLauncher<T> launch = v.launch.template get<T>();
    m.median_ms = this->time(
        v.is_cpu(), [&] { cpu_scan<T>(host.data(), this->in_.data(), n, kind_); },
        [&](cudaStream_t st) { hb::poison(out, (n + 1) * sizeof(T), 0xA5, st); },
        [&](cudaStream_t st) {
          launch(this->d_in_.data(), out, n, kind_, threads, this->scratch_, st);
        },
        [&] {
          if (!v.is_cpu()) {
            hb::copy_to_host(host.data(), out, n + 1, this->stream_);
            m.record(hb::is_poisoned(host[n]), "the element after the last one was overwritten");
          }
          const hb::CompareResult r = compare_scan(host.data(), want_.data(), n);
          m.record(r.ok, r.report);
          return m.ok;
        });
    m.rates = {hb::gbs(2.0 * n * sizeof(T), m.median_ms)};
    return m;
  }

 private:
  // The inputs of T whose scans are exact in any order: make_ints, or make_floats of the grid.
  static std::vector<T> exact_inputs(std::size_t n, std::uint64_t seed) {
    if constexpr (std::is_same_v<T, int>) return make_ints(n, seed);
    else return make_floats(n, seed, FloatData::Grid);
  }

  ScanKind kind_;
  std::vector<Wide<T>> want_;
};

/// The compactions of one program run (int32 inputs, uniform in [-1000, 1000], about half of
/// them odd). GB/s counts the n elements read and the selected elements written, 1e9
/// elements/s the n inputs.
class CompactBench : public Bench<int> {
 public:
  CompactBench(std::size_t max_n, std::uint64_t seed, int iters, bool check)
      : Bench<int>(make_ints(max_n, seed), iters, check), d_count_(1) {}

  /// As ScanBench::measure: the count must match the CPU's, the first count elements must be
  /// the odd inputs in order, and the element after them must still be poisoned.
  Measurement measure(const CompactVariant& v, int threads, std::size_t n) {
    Measurement m;
    m.checked = check_;
    if (check_ && want_n_ != n) {
      want_ = reference_compact(in_, n);
      want_n_ = n;
    }
    std::size_t count = 0;
    // The count the GPU wrote (0 when it is not a count of n inputs).
    const auto read_count = [&] {
      int c = 0;
      hb::copy_to_host(&c, d_count_.data(), 1, stream_);
      const bool valid = c >= 0 && std::size_t(c) <= n;
      m.record(!check_ || valid, "count " + std::to_string(c) + " for " + std::to_string(n) +
                                     " inputs");
      return valid ? std::size_t(c) : 0;
    };
    m.median_ms = time(
        v.is_cpu(), [&] { count = cpu_compact(host_out_.data(), in_.data(), n, IsOdd{}); },
        [&](cudaStream_t st) {
          hb::poison(d_out_.data(), (n + 1) * sizeof(int), 0xA5, st);
          hb::poison(d_count_.data(), sizeof(int), 0xA5, st);
        },
        [&](cudaStream_t st) {
          v.launch(d_in_.data(), d_out_.data(), n, d_count_.data(), threads, scratch_, st);
        },
        [&] {
          if (!v.is_cpu()) {
            count = read_count();
            hb::copy_to_host(host_out_.data(), d_out_.data(), count + 1, stream_);
            m.record(hb::is_poisoned(host_out_[count]),
                     "the element after the last selected one was written");
          }
          if (count != want_.size()) {
            m.record(false, "selected " + std::to_string(count) + " elements, the CPU " +
                                std::to_string(want_.size()));
          } else {
            const hb::CompareResult r =
                hb::compare_exact(host_out_.data(), want_.data(), count, "selected elements");
            m.record(r.ok, r.report);
          }
          return m.ok;
        });
    if (!check_ && !v.is_cpu()) count = read_count();
    m.rates = {hb::gbs(static_cast<double>(n), m.median_ms),
               hb::gbs(4.0 * double(n + count), m.median_ms)};
    m.selected = count;
    return m;
  }

 private:
  hb::DeviceBuffer<int> d_count_;
  std::vector<int> want_;
  std::size_t want_n_ = ~std::size_t(0);
};

/// main() of the per-variant programs (scan3_scan_then_fan, ...): variant \p id of the table
/// the program's name starts with, and CUB, on default data, checked against the CPU.
int variant_program_main(const char* program, const char* id, int argc, char** argv);
/// main() of the drivers `scan` and `compact`: the block-size and size sweeps of the device
/// level against CUB, and (scan) the synthetic sweeps of the warp and block levels.
int driver_main(const char* program, int argc, char** argv);

}  // namespace ch13
