/// \file
/// \brief What the rest of chapter 11 sees of its kernels (kernels/): the CPU reference they
///        are checked against (listing 11.1) with its tolerances, and the launchers, which take
///        the stream from the caller, size the grid with the occupancy API, never allocate and
///        never synchronize.
///
/// The kernels themselves are compiled once, in launchers.cu, for unroll factors 1 to
/// kMaxUnroll; the sweep and the tests pick a launcher by form and unroll factor at run time.
/// This header is plain C++, so host code includes it without nvcc.
///
/// Every SAXPY in this chapter computes one float per element from two float inputs, so the
/// only difference between two correct implementations is rounding: the GPU contracts
/// `alpha * x[i] + y[i]` into one fused multiply-add (one rounding), the CPU reference
/// rounds the product and then the sum (two roundings). The tolerances below bound that
/// difference for *any* correct float evaluation, fused or not, so a correct kernel can never
/// fail the check and a wrong element (a missed index, a stale value, poison) always does.
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

/// The exact value of every element, computed in double: the product of two floats is exact
/// in double (24 + 24 < 53 significant bits) and the sum is rounded once, to 2^-53, so this
/// reference is 2^29 times more accurate than any float result.
inline void saxpy_exact(double* out, const float* x, const float* y, std::size_t n,
                        float alpha) {
  for (std::size_t i = 0; i < n; ++i)
    out[i] = static_cast<double>(alpha) * static_cast<double>(x[i]) + static_cast<double>(y[i]);
}

/// A tolerance for hb::compare_relative: an element passes when
/// \f$|got - want| \le atol + rtol \cdot |want|\f$.
struct SaxpyTolerance {
  double rtol = 0.0;
  double atol = 0.0;
};

/// Tolerance of a float SAXPY against the exact (double) value, for the largest |x[i]| of the
/// run's input \p max_abs_x.
///
/// With \f$r = \alpha x + y\f$ exact and \f$u = 2^{-24}\f$ the unit roundoff of float, a fused
/// evaluation is within \f$u|r|\f$ of it and an unfused one (product rounded, then the sum)
/// within \f$u(1+u)|\alpha x| + u|r|\f$. Bounding \f$|\alpha x|\f$ by
/// \f$A = |\alpha| \max|x|\f$ over the array gives `rtol = u`, `atol = u(1+u)A`; we allow
/// twice that, so that the double reference's own rounding can never tip a correct element
/// over the edge.
inline SaxpyTolerance tolerance_vs_exact(float alpha, float max_abs_x) {
  const double u = 1.0 / 16777216.0;
  const double a = std::fabs(static_cast<double>(alpha)) * static_cast<double>(max_abs_x);
  return {2.0 * u, 2.0 * u * (1.0 + u) * a};
}

/// Tolerance between two float SAXPY results, e.g. the GPU (fused) against saxpy_cpu()
/// (unfused): each is within tolerance_vs_exact() of the exact value, so their difference is
/// within the sum of the two bounds; we allow twice the exact bound on each side (4u).
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

/// How a launcher shapes its grid.
struct LaunchShape {
  int threads = 256;   ///< threads per block
  int max_blocks = 0;  ///< upper limit on the grid; 0: as many blocks as the GPU holds at once
};

/// The signature every SAXPY launcher shares: `out[i] = alpha * x[i] + y[i]` for i < n,
/// enqueued on \p stream. A launch with n == 0 enqueues nothing.
using SaxpyLauncher = void (*)(float* out, const float* x, const float* y, std::size_t n,
                               float alpha, LaunchShape shape, cudaStream_t stream);

/// The kernel forms of kernels/, in reading order.
enum class SaxpyForm {
  GridStride,  ///< kernels/01_grid_stride.cuh: listing 11.2 with `#pragma unroll Unroll`
  Unrolled,    ///< kernels/02_unrolled.cuh: listing 11.4, unrolled through the template
  Vectorized   ///< kernels/03_vectorized.cuh: beyond the text, listing 11.4 with float4
};

/// The launcher of \p form with unroll factor \p unroll.
/// Throws std::out_of_range unless 1 <= unroll <= kMaxUnroll.
SaxpyLauncher saxpy_launcher(SaxpyForm form, int unroll);

/// "saxpy_unrolled<4>" or "saxpy_grid_stride<1>".
std::string saxpy_kernel_name(SaxpyForm form, int unroll);

/// How many blocks a launch of \p kernel uses: as many as the current GPU holds at once
/// (SMs x resident blocks per SM, from cudaOccupancyMaxActiveBlocksPerMultiprocessor), but no
/// more than \p n elements need at \p per_block elements per block, nor more than
/// shape.max_blocks when that is positive. 0 when n == 0.
int saxpy_grid_size(const void* kernel, LaunchShape shape, std::size_t n, std::size_t per_block);

/// Enqueues the kernel the streaming pipelines of sections 11.1 to 11.4 launch on \p stream:
/// `saxpy_unrolled<4>` at 256 threads per block. The book's stream1Device uses the template
/// kernel with unroll factor 4 (listing 11.4); we keep that, for every pipeline. On every
/// strategy of this chapter the kernel is a small part of the wall clock, so this choice
/// barely shows there; saxpy_sweep measures the alternatives.
void launch_pipeline_kernel(float* out, const float* x, const float* y, std::size_t n,
                            float alpha, cudaStream_t stream);

/// Floats one thread of the paced copy copies per tile (one 16-byte vector where the pointers
/// allow it).
inline constexpr int kPacedFloatsPerThread = 4;
/// Threads per block of the paced copy.
inline constexpr int kPacedThreads = 256;

/// The paced copy (kernels/05_paced_copy.cuh): copies \p n floats from \p src to \p dst (either
/// may be device memory or mapped host memory) with \p blocks blocks, no faster than \p gbs
/// decimal GB/s of data written: the copy is cut into tiles of kPacedThreads x
/// kPacedFloatsPerThread floats, and tile t does not start before t x (tile bytes / gbs) after
/// the launch. \p gbs <= 0 copies as fast as the blocks can. A launch with n == 0 enqueues
/// nothing; never synchronizes. Needs blocks >= 1 (throws std::invalid_argument otherwise);
/// \p dst may not overlap \p src.
void launch_paced_copy(float* dst, const float* src, std::size_t n, double gbs, int blocks,
                       cudaStream_t stream);

}  // namespace ch11
