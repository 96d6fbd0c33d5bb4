/// \file
/// \brief Chapter 11's kernels (kernels/) as host code sees them, without nvcc: the CPU
///        reference of listing 11.1 with its tolerances, and the launchers (launchers.cu).
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

#include <cuda_runtime_api.h>

namespace ch11 {

// [saxpy-cpu]
/// Listing 11.1: the reference SAXPY on the CPU, `out[i] = alpha * x[i] + y[i]` for i < n
/// (n may be 0). `out` may alias neither input.
inline void saxpy_cpu(float* out, const float* x, const float* y, std::size_t n, float alpha) {
  for (std::size_t i = 0; i < n; ++i) out[i] = alpha * x[i] + y[i];
}
// [saxpy-cpu]

/// The exact value of every element, in double: the product of two floats is exact in double
/// (24 + 24 < 53 significant bits) and the sum is rounded once, 2^29 times finer than float.
inline void saxpy_exact(double* out, const float* x, const float* y, std::size_t n, float alpha) {
  for (std::size_t i = 0; i < n; ++i) out[i] = double(alpha) * double(x[i]) + double(y[i]);
}

/// For hb::compare_relative: an element passes when |got - want| <= atol + rtol |want|.
struct SaxpyTolerance {
  double rtol = 0.0, atol = 0.0;
};

/// Any correct float evaluation, fused (GPU) or not (CPU), is within u|r| + u(1+u)A of the
/// exact r, with u = 2^-24 and A = |alpha| max|x| (\p max_abs_x; see the chapter page). We
/// allow twice that, so that the double reference's own rounding never tips a correct element
/// over, while a wrong one (missed, stale, poison) always fails.
inline SaxpyTolerance tolerance_vs_exact(float alpha, float max_abs_x) {
  const double u = 1.0 / 16777216.0;
  const double a = std::fabs(static_cast<double>(alpha)) * static_cast<double>(max_abs_x);
  return {2.0 * u, 2.0 * u * (1.0 + u) * a};
}

/// Between two float results (the GPU against saxpy_cpu()): each is within
/// tolerance_vs_exact() of the exact value, so we allow twice that bound on each side (4u).
inline SaxpyTolerance tolerance_vs_cpu(float alpha, float max_abs_x) {
  const SaxpyTolerance one = tolerance_vs_exact(alpha, max_abs_x);
  return {2.0 * one.rtol, 2.0 * one.atol};
}

/// The largest |v[i]| (0 for an empty array); NaN counts as infinitely large.
inline float max_abs(const float* v, std::size_t n) {
  float m = 0.0f;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isnan(v[i])) return std::numeric_limits<float>::infinity();
    m = std::fmax(m, std::fabs(v[i]));
  }
  return m;
}

/// Largest unroll factor the launcher tables provide (the rows of listing 11.3).
inline constexpr int kMaxUnroll = 16;

struct LaunchShape {
  int threads = 256;   ///< threads per block
  int max_blocks = 0;  ///< upper limit on the grid; 0: as many blocks as the GPU holds at once
};
/// Every SAXPY launcher enqueues `out[i] = alpha * x[i] + y[i]` for i < n on \p stream
/// (nothing when n == 0); never allocates, never synchronizes.
using SaxpyLauncher = void (*)(float* out, const float* x, const float* y, std::size_t n,
                               float alpha, LaunchShape shape, cudaStream_t stream);

/// The kernel forms of kernels/, in reading order.
enum class SaxpyForm {
  GridStride,  ///< kernels/01_grid_stride.cuh: listing 11.2 with `#pragma unroll Unroll`
  Unrolled,    ///< kernels/02_unrolled.cuh: listing 11.4, unrolled through the template
  Vectorized   ///< kernels/03_vectorized.cuh: beyond the text, listing 11.4 with float4
};

/// The launcher of \p form with unroll factor 1..kMaxUnroll (std::out_of_range otherwise).
SaxpyLauncher saxpy_launcher(SaxpyForm form, int unroll);
/// "saxpy_unrolled<4>" or "saxpy_grid_stride<1>".
std::string saxpy_kernel_name(SaxpyForm form, int unroll);

/// Blocks for a launch of \p kernel: as many as the current GPU holds at once (SMs x
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor), no more than \p n elements need at
/// \p per_block per block, nor than shape.max_blocks when positive; 0 when n == 0.
int saxpy_grid_size(const void* kernel, LaunchShape shape, std::size_t n, std::size_t per_block);

/// The kernel of every pipeline: `saxpy_unrolled<4>` at 256 threads per block, as in the book's
/// stream1Device (listing 11.4); a small part of every pipeline's time (saxpy_sweep measures
/// the alternatives).
void launch_pipeline_kernel(float* out, const float* x, const float* y, std::size_t n,
                            float alpha, cudaStream_t stream);

/// Floats per thread per tile of the paced copy (one 16-byte vector where the pointers allow).
inline constexpr int kPacedFloatsPerThread = 4;
inline constexpr int kPacedThreads = 256;  ///< threads per block of the paced copy

/// The paced copy (kernels/05_paced_copy.cuh): \p n floats from \p src to \p dst (device or
/// mapped host memory, not overlapping) with \p blocks >= 1 blocks (std::invalid_argument
/// otherwise), writing no faster than \p gbs decimal GB/s (<= 0: as fast as it can).
void launch_paced_copy(float* dst, const float* src, std::size_t n, double gbs, int blocks,
                       cudaStream_t stream);

}  // namespace ch11
