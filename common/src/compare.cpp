#include "hb/compare.h"

#include <limits>

namespace hb {

namespace {
// Maps the bit pattern onto a line where adjacent floats are adjacent integers.
template <typename Int, typename F>
std::uint64_t ordered_distance(F a, F b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<std::uint64_t>::max();
  // Negative values count down from -0, positive values up from +0.
  const auto line = [](F f) {
    Int i;
    std::memcpy(&i, &f, sizeof f);
    const long double magnitude = static_cast<long double>(i & std::numeric_limits<Int>::max());
    return i < 0 ? -magnitude : magnitude;
  };
  return static_cast<std::uint64_t>(std::fabs(line(a) - line(b)));
}
}  // namespace

std::uint64_t ulp_distance(float a, float b) { return ordered_distance<std::int32_t>(a, b); }
std::uint64_t ulp_distance(double a, double b) { return ordered_distance<std::int64_t>(a, b); }

namespace detail {

void MismatchLog::add(std::size_t index, const std::string& got, const std::string& want,
                      const std::string& error) {
  std::string line = "  [" + std::to_string(index) + "] got " + got + ", want " + want +
                     " (" + error + ")";
  if (first_.size() < keep_) first_.push_back(std::move(line));
  else last_.push_back(std::move(line));
  if (last_.size() > keep_) last_.erase(last_.begin());
  ++total_;
}

CompareResult MismatchLog::finish(std::size_t count, double max_error,
                                  const std::string& what) const {
  CompareResult r{total_ == 0, count, total_, max_error, ""};
  if (!r.ok) {
    r.report = std::to_string(total_) + " of " + std::to_string(count) + " " + what +
               " differ from the reference:\n";
    for (const auto& l : first_) r.report += l + "\n";
    if (total_ > first_.size() + last_.size()) r.report += "  ...\n";
    for (const auto& l : last_) r.report += l + "\n";
  }
  return r;
}

}  // namespace detail
}  // namespace hb
