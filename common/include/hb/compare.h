/// \file
/// \brief Comparisons against a reference: exact, within N ULPs, or within a relative
///        tolerance. A failure lists the first and last few mismatching elements.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
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
template <typename T>
std::string to_text(const T& v) {
  std::ostringstream os;
  os.precision(9);
  if constexpr (sizeof(T) == 1) os << static_cast<int>(v);
  else os << v;
  return os.str();
}

/// |got - want| in double.
template <typename G, typename W>
double difference(const G& got, const W& want) {
  return std::fabs(static_cast<double>(got) - static_cast<double>(want));
}
}  // namespace detail

/// One element as compare_each() sees it: its error in the comparison's unit (max_error
/// keeps the largest; a NaN is left out, so map a NaN difference to INFINITY) and whether it
/// is outside the tolerance.
struct ElementCheck {
  double error;
  bool mismatch;
};

/// The loop behind every comparison: \p check(i) judges element i of \p n; \p describe(i)
/// writes a mismatch's line for the report (see mismatch_line()). Only the first and last five
/// mismatches are described, and only once the loop is done, so that a result with every
/// element of 2^28 wrong is reported as quickly as one that is right.
template <typename Check, typename Describe>
CompareResult compare_each(std::size_t n, const std::string& what, Check check,
                           Describe describe) {
  constexpr std::size_t kKeep = 5;
  std::vector<std::size_t> first;
  std::deque<std::size_t> last;
  CompareResult r{true, n, 0, 0.0, ""};
  for (std::size_t i = 0; i < n; ++i) {
    const ElementCheck c = check(i);
    r.max_error = std::fmax(r.max_error, c.error);
    if (!c.mismatch) continue;
    ++r.mismatches;
    if (first.size() < kKeep) {
      first.push_back(i);
    } else {
      last.push_back(i);
      if (last.size() > kKeep) last.pop_front();
    }
  }
  r.ok = r.mismatches == 0;
  if (r.ok) return r;
  const auto line = [&](std::size_t i) { return "  " + describe(i) + "\n"; };
  r.report = std::to_string(r.mismatches) + " of " + std::to_string(n) + " " + what +
             " differ from the reference:\n";
  for (std::size_t i : first) r.report += line(i);
  if (r.mismatches > first.size() + last.size()) r.report += "  ...\n";
  for (std::size_t i : last) r.report += line(i);
  return r;
}

/// "[index] got G, want W (E)": a mismatch in the report; without "(E)" when \p error is empty.
template <typename G, typename W>
std::string mismatch_line(std::size_t index, const G& got, const W& want,
                          const std::string& error = "") {
  std::string s = "[" + std::to_string(index) + "] got " + detail::to_text(got) + ", want " +
                  detail::to_text(want);
  return error.empty() ? s : s + " (" + error + ")";
}

/// Every element equal (integers, or floats that must match bit for bit in value).
template <typename G, typename W>
CompareResult compare_exact(const G* got, const W* want, std::size_t n,
                            const std::string& what = "values") {
  const auto error = [&](std::size_t i) { return detail::difference(got[i], want[i]); };
  const auto check = [&](std::size_t i) -> ElementCheck {
    if (got[i] == want[i]) return {0.0, false};  // inf == inf, whose difference is NaN
    return {std::isnan(error(i)) ? INFINITY : error(i), true};
  };
  const auto describe = [&](std::size_t i) {
    return mismatch_line(i, got[i], want[i], detail::to_text(error(i)));
  };
  return compare_each(n, what, check, describe);
}

/// Every element within \p max_ulp units in the last place. NaN never matches.
template <typename T>
CompareResult compare_ulp(const T* got, const T* want, std::size_t n, std::uint64_t max_ulp,
                          const std::string& what = "values") {
  const auto ulps = [&](std::size_t i) { return ulp_distance(got[i], want[i]); };
  const auto check = [&](std::size_t i) -> ElementCheck {
    return {static_cast<double>(ulps(i)), ulps(i) > max_ulp};
  };
  const auto describe = [&](std::size_t i) {
    return mismatch_line(i, got[i], want[i], std::to_string(ulps(i)) + " ulp");
  };
  return compare_each(n, what, check, describe);
}

/// Every element within |got - want| <= atol + rtol * |want|, computed in double, so the
/// reference may be of higher precision than the result. NaN never matches. max_error is
/// the largest |got - want| / max(|want|, atol / rtol).
template <typename G, typename W>
CompareResult compare_relative(const G* got, const W* want, std::size_t n, double rtol,
                               double atol, const std::string& what = "values") {
  const auto error = [&](std::size_t i) { return detail::difference(got[i], want[i]); };
  const auto magnitude = [&](std::size_t i) { return std::fabs(static_cast<double>(want[i])); };
  const auto relative = [&](std::size_t i) {
    const double scale = std::fmax(magnitude(i), rtol > 0 ? atol / rtol : 1.0);
    return scale > 0 ? error(i) / scale : error(i);
  };
  const auto check = [&](std::size_t i) -> ElementCheck {
    return {std::isnan(error(i)) ? INFINITY : relative(i),
            !(error(i) <= atol + rtol * magnitude(i))};
  };
  const auto describe = [&](std::size_t i) {
    return mismatch_line(i, static_cast<double>(got[i]), static_cast<double>(want[i]),
                         "rel " + detail::to_text(relative(i)));
  };
  return compare_each(n, what, check, describe);
}

}  // namespace hb
