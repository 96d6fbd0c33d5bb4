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

}  // namespace hb
