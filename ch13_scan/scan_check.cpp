// Data generators and checks. We keep these as plain and obviously right as we can, because
// every GPU variant is checked against them.
#include "scan_check.h"

#include <cmath>
#include <string>

#include "hb/random.h"
#include "scan0a_cpu.h"
#include "compact0a_cpu.h"

namespace ch13 {

std::vector<int> make_ints(std::size_t n, std::uint64_t seed) {
  std::vector<int> v(n);
  hb::fill_uniform(v.data(), n, seed, -1000, 1000);
  return v;
}

std::vector<float> make_floats(std::size_t n, std::uint64_t seed, FloatData data) {
  std::vector<float> v(n);
  if (data == FloatData::Uniform) {
    hb::fill_uniform(v.data(), n, seed, -1.0f, 1.0f);
  } else {
    for (std::size_t i = 0; i < n; ++i)
      v[i] = static_cast<float>(hb::uniform_int(seed, i, -255, 255)) / 256.0f;  // mean 0: no drift
  }
  return v;
}

std::vector<long long> reference_scan(const std::vector<int>& in, ScanKind kind) {
  std::vector<long long> out(in.size());
  cpu_scan<long long, int>(out.data(), in.data(), in.size(), kind);
  return out;
}

std::vector<double> reference_scan(const std::vector<float>& in, ScanKind kind) {
  std::vector<double> out(in.size());
  cpu_scan<double, float>(out.data(), in.data(), in.size(), kind);
  return out;
}

std::vector<double> reference_abs_scan(const std::vector<float>& in, ScanKind kind) {
  std::vector<float> magnitudes(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) magnitudes[i] = std::fabs(in[i]);
  return reference_scan(magnitudes, kind);
}

double float_scan_gamma(std::size_t n) {
  const double log2n = std::ceil(std::log2(static_cast<double>(n) + 2.0));
  const double tiles = std::ceil(static_cast<double>(n) / 512.0);
  return (4.0 * log2n + 2.0 * tiles + 32.0) * std::ldexp(1.0, -24);
}

namespace {

// Finds the mismatches with a cheap test and formats only the first and last five, so that a
// variant that gets every element of 2^28 wrong is reported as quickly as one that is right.
template <typename IsBad, typename Line>
hb::CompareResult collect(std::size_t n, IsBad is_bad, Line line, const double& max_error) {
  constexpr std::size_t kKeep = 5;
  std::vector<std::size_t> first, last;
  std::size_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_bad(i)) continue;
    ++total;
    if (first.size() < kKeep) {
      first.push_back(i);
    } else {
      last.push_back(i);
      if (last.size() > 4 * kKeep) last.erase(last.begin(), last.end() - kKeep);
    }
  }
  if (last.size() > kKeep) last.erase(last.begin(), last.end() - kKeep);
  hb::CompareResult r;
  r.count = n;
  r.mismatches = total;
  r.max_error = max_error;
  r.ok = total == 0;
  if (!r.ok) {
    r.report = std::to_string(total) + " of " + std::to_string(n) +
               " scan elements differ from the reference:\n";
    for (std::size_t i : first) r.report += "  [" + std::to_string(i) + "] " + line(i) + "\n";
    if (total > first.size() + last.size()) r.report += "  ...\n";
    for (std::size_t i : last) r.report += "  [" + std::to_string(i) + "] " + line(i) + "\n";
  }
  return r;
}

}  // namespace

hb::CompareResult compare_scan(const int* got, const long long* want, std::size_t n) {
  double max_error = 0.0;
  auto bad = [&](std::size_t i) {
    if (got[i] == want[i]) return false;
    max_error = std::fmax(max_error, std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i])));
    return true;
  };
  auto line = [&](std::size_t i) {
    return "got " + std::to_string(got[i]) + ", want " + std::to_string(want[i]);
  };
  return collect(n, bad, line, max_error);
}

hb::CompareResult compare_scan(const float* got, const double* want, const double* scale,
                               std::size_t n, double gamma) {
  if (gamma == 0.0) scale = nullptr;
  double max_error = 0.0;  // the largest error relative to scale[i]
  auto bad = [&](std::size_t i) {
    const double err = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (std::isnan(err)) {
      max_error = INFINITY;
      return true;
    }
    if (err == 0.0) return false;
    if (scale == nullptr) {  // exact comparison: max_error in absolute terms
      max_error = std::fmax(max_error, err);
      return true;
    }
    max_error = std::fmax(max_error, scale[i] > 0 ? err / scale[i] : INFINITY);
    return !(err <= gamma * scale[i]);
  };
  auto line = [&](std::size_t i) {
    const double err = std::fabs(static_cast<double>(got[i]) - want[i]);
    return "got " + hb::detail::to_text(got[i]) + ", want " + hb::detail::to_text(want[i]) +
           " (error " + hb::detail::to_text(err) + ", bound " +
           hb::detail::to_text(scale == nullptr ? 0.0 : gamma * scale[i]) + ")";
  };
  return collect(n, bad, line, max_error);
}

CompactReference reference_compact(const std::vector<int>& in, std::size_t n) {
  CompactReference r;
  r.selected.resize(n);
  r.selected.resize(cpu_compact(r.selected.data(), in.data(), n, IsOdd{}));
  return r;
}

}  // namespace ch13
