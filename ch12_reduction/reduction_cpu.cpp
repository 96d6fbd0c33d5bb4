// The CPU reference: one loop per kind of result. We keep these as plain and obviously right
// as we can, because every GPU variant is checked against them.
#include "reduction_cpu.h"

#include <cstdint>

namespace ch12 {

long long cpu_sum(const int* in, std::size_t n) {
  long long s = 0;
  for (std::size_t i = 0; i < n; ++i) s += in[i];
  return s;
}

long long cpu_sum_wrapped(const int* in, std::size_t n) {
  // Unsigned arithmetic wraps by definition; the conversion back to int32 is two's
  // complement (guaranteed since C++20, and what every compiler we use does anyway).
  std::uint32_t s = 0;
  for (std::size_t i = 0; i < n; ++i) s += static_cast<std::uint32_t>(in[i]);
  return static_cast<long long>(static_cast<std::int32_t>(s));
}

long long cpu_count_positive(const int* in, std::size_t n) {
  return cpu_count_if(in, n, IsPositive{});
}

long long cpu_expected(Result what, const int* in, std::size_t n) {
  switch (what) {
    case Result::Sum64: return cpu_sum(in, n);
    case Result::Sum32Wrapped: return cpu_sum_wrapped(in, n);
    case Result::CountPositive: return cpu_count_positive(in, n);
  }
  return 0;
}

}  // namespace ch12
