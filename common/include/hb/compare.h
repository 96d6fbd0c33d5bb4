/// \file
/// \brief Comparisons against a reference: exact, within N ULPs, or within a relative
///        tolerance. A failure lists the first and last few mismatching elements.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace hb {

struct CompareResult {
  bool ok = true;
  std::size_t count = 0;       ///< elements compared
  std::size_t mismatches = 0;  ///< elements outside the tolerance
  double max_error = 0.0;      ///< largest error seen, in the comparison's unit
  std::string report;          ///< empty when ok; otherwise first and last mismatches
  explicit operator bool() const { return ok; }
};

/// Distance in units in the last place (0 for equal values, +0 == -0); huge when either is NaN.
std::uint64_t ulp_distance(float a, float b);
std::uint64_t ulp_distance(double a, double b);

namespace detail {
/// Collects mismatches and keeps the first and last \p keep of them for the report.
class MismatchLog {
 public:
  explicit MismatchLog(std::size_t keep = 5) : keep_(keep) {}
  void add(std::size_t index, const std::string& got, const std::string& want,
           const std::string& error);
  CompareResult finish(std::size_t count, double max_error, const std::string& what) const;

 private:
  std::size_t keep_;
  std::size_t total_ = 0;
  std::vector<std::string> first_, last_;
};

template <typename T>
std::string to_text(const T& v) {
  std::ostringstream os;
  os.precision(9);
  if constexpr (sizeof(T) == 1) os << static_cast<int>(v);
  else os << v;
  return os.str();
}
}  // namespace detail

/// Every element equal (integers, or floats that must match bit for bit in value).
template <typename G, typename W>
CompareResult compare_exact(const G* got, const W* want, std::size_t n,
                            const std::string& what = "values") {
  detail::MismatchLog log;
  double max_error = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (got[i] == want[i]) continue;
    const double e = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
    max_error = std::isnan(e) ? INFINITY : std::fmax(max_error, e);
    log.add(i, detail::to_text(got[i]), detail::to_text(want[i]), detail::to_text(e));
  }
  return log.finish(n, max_error, what);
}

/// Every element within \p max_ulp units in the last place. NaN never matches.
template <typename T>
CompareResult compare_ulp(const T* got, const T* want, std::size_t n, std::uint64_t max_ulp,
                          const std::string& what = "values") {
  detail::MismatchLog log;
  double max_error = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t d = ulp_distance(got[i], want[i]);
    max_error = std::fmax(max_error, static_cast<double>(d));
    if (d > max_ulp)
      log.add(i, detail::to_text(got[i]), detail::to_text(want[i]), std::to_string(d) + " ulp");
  }
  return log.finish(n, max_error, what);
}

/// Every element within |got - want| <= atol + rtol * |want|, computed in double, so the
/// reference may be of higher precision than the result. NaN never matches. max_error is
/// the largest |got - want| / max(|want|, atol / rtol).
template <typename G, typename W>
CompareResult compare_relative(const G* got, const W* want, std::size_t n, double rtol,
                               double atol, const std::string& what = "values") {
  detail::MismatchLog log;
  double max_error = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double g = static_cast<double>(got[i]), w = static_cast<double>(want[i]);
    const double err = std::fabs(g - w);
    const double scale = std::fmax(std::fabs(w), rtol > 0 ? atol / rtol : 1.0);
    const double rel = scale > 0 ? err / scale : err;
    if (std::isnan(err)) max_error = INFINITY;
    else if (rel > max_error) max_error = rel;
    if (!(err <= atol + rtol * std::fabs(w)))
      log.add(i, detail::to_text(g), detail::to_text(w), "rel " + detail::to_text(rel));
  }
  return log.finish(n, max_error, what);
}

}  // namespace hb
