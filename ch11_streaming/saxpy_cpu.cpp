#include "saxpy_cpu.h"

#include <cmath>
#include <limits>

namespace ch11 {

// [saxpy-cpu]
void saxpy_cpu(float* out, const float* x, const float* y, std::size_t n, float alpha) {
  for (std::size_t i = 0; i < n; ++i) out[i] = alpha * x[i] + y[i];
}
// [saxpy-cpu]

void saxpy_exact(double* out, const float* x, const float* y, std::size_t n, float alpha) {
  for (std::size_t i = 0; i < n; ++i)
    out[i] = static_cast<double>(alpha) * static_cast<double>(x[i]) + static_cast<double>(y[i]);
}

SaxpyTolerance tolerance_vs_exact(float alpha, float max_abs_x) {
  const double u = kFloatRoundoff;
  const double a = std::fabs(static_cast<double>(alpha)) * static_cast<double>(max_abs_x);
  return {2.0 * u, 2.0 * u * (1.0 + u) * a};
}

SaxpyTolerance tolerance_vs_cpu(float alpha, float max_abs_x) {
  const SaxpyTolerance one = tolerance_vs_exact(alpha, max_abs_x);
  return {2.0 * one.rtol, 2.0 * one.atol};
}

float max_abs(const float* v, std::size_t n) {
  float m = 0.0f;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isnan(v[i])) return std::numeric_limits<float>::infinity();
    m = std::fmax(m, std::fabs(v[i]));
  }
  return m;
}

}  // namespace ch11
