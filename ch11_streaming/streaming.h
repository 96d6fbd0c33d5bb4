/// \file
/// \brief What the rest of chapter 11 sees of its kernels (kernels/): the launchers, which take
///        the stream from the caller, size the grid with the occupancy API, never allocate and
///        never synchronize.
///
/// The kernels themselves are compiled once, in launchers.cu, for unroll factors 1 to
/// kMaxUnroll; the sweep and the tests pick a launcher by form and unroll factor at run time.
/// This header is plain C++, so host code includes it without nvcc.
#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

namespace ch11 {

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

/// The kernel the streaming pipelines of sections 11.1 to 11.4 launch, and how. The book's
/// stream1Device uses the template kernel with unroll factor 4 (listing 11.4); we keep that,
/// for every pipeline. On every strategy of this chapter the kernel is a small part of the
/// wall clock, so this choice barely shows there; saxpy_sweep measures the alternatives.
struct PipelineKernel {
  static constexpr int unroll = 4;
  static constexpr int threads = 256;
  /// Enqueues the pipeline kernel, saxpy_unrolled with `unroll`, on \p stream.
  static void launch(float* out, const float* x, const float* y, std::size_t n, float alpha,
                     cudaStream_t stream);
};

/// Floats one thread of the paced copy copies per tile (one 16-byte vector where the pointers
/// allow it).
inline constexpr int kPacedFloatsPerThread = 4;
/// Threads per block of the paced copy.
inline constexpr int kPacedThreads = 256;

/// The paced copy (kernels/04_paced_copy.cuh): copies \p n floats from \p src to \p dst (either
/// may be device memory or mapped host memory) with \p blocks blocks, no faster than \p gbs
/// decimal GB/s of data written: the copy is cut into tiles of kPacedThreads x
/// kPacedFloatsPerThread floats, and tile t does not start before t x (tile bytes / gbs) after
/// the launch. \p gbs <= 0 copies as fast as the blocks can. A launch with n == 0 enqueues
/// nothing; never synchronizes. Needs blocks >= 1 (throws std::invalid_argument otherwise);
/// \p dst may not overlap \p src.
void launch_paced_copy(float* dst, const float* src, std::size_t n, double gbs, int blocks,
                       cudaStream_t stream);

}  // namespace ch11
