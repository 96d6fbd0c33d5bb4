/// \file
/// \brief Chapter 11's SAXPY kernels (out = alpha * x + y) and their host launchers.
///
/// Two kernels, each a template over an unroll factor so that one sweep can compare them:
///
/// - `saxpy_grid_stride<Unroll>`: listing 11.2, the grid-stride loop that works for any grid
///   and block size, with `#pragma unroll Unroll` on the loop. `saxpy_grid_stride<1>` is the
///   book's listing 11.2 with unrolling switched off; larger factors are the `#pragma unroll`
///   experiment of section 11.1, which the book found to gain less than the template.
/// - `saxpy_unrolled<Unroll>`: listing 11.4, where each thread first loads Unroll elements of x
///   and of y into registers and only then computes and stores them, so that Unroll pairs of
///   loads are in flight per thread instead of one.
///
/// Every launcher has the signature SaxpyLauncher: it takes the stream from the caller, sizes
/// the grid with the occupancy API, never allocates and never synchronizes. The launchers, and
/// with them the 2 x 16 kernel instantiations, live in saxpy.cu, so that they are compiled
/// once; other code picks a launcher with saxpy_launcher(form, unroll).
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

// [saxpy-kernel]
/// Listing 11.2: one element per loop iteration, striding by the whole grid, so the kernel is
/// correct for any grid and block size ("block-agnostic").
/// \tparam Unroll how many iterations `#pragma unroll` asks the compiler to unroll; 1 keeps the
///         loop rolled (the book's listing 11.2)
/// \param out   n results (device-accessible; may be mapped host memory)
/// \param x     n inputs, scaled by \p alpha
/// \param y     n inputs, added
/// \param n     number of elements
/// \param alpha scale factor
/// \pre \p out does not overlap \p x or \p y (the pointers are `__restrict__`)
template <int Unroll>
__global__ void saxpy_grid_stride(float* __restrict__ out, const float* __restrict__ x,
                                  const float* __restrict__ y, std::size_t n, float alpha) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
#pragma unroll Unroll
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = alpha * x[i] + y[i];
  }
}
// [saxpy-kernel]

// [saxpy-unrolled]
/// Listing 11.4: each block works on tiles of Unroll x blockDim.x consecutive elements; thread t
/// handles elements t, t + blockDim.x, ..., so every load instruction of a warp is still one
/// coalesced 128-byte access. All loads of a tile are issued before the first store.
///
/// Unlike the printed listing, we handle the end of the array exactly: the main loop runs only
/// over whole tiles (no bounds checks, the test is uniform across the block), and the at most one
/// partial tile that remains is done, with checks, by the block whose turn it is. (The book's loop
/// test `i < N - n*blockDim.x*gridDim.x` wraps around for N smaller than one grid stride, and its
/// cleanup loop is nested twice.)
/// \tparam Unroll elements per thread per tile (1 to 16 in the sweep)
/// \param out   n results (device-accessible; may be mapped host memory)
/// \param x     n inputs, scaled by \p alpha
/// \param y     n inputs, added
/// \param n     number of elements
/// \param alpha scale factor
/// \pre \p out does not overlap \p x or \p y
template <int Unroll>
__global__ void saxpy_unrolled(float* __restrict__ out, const float* __restrict__ x,
                               const float* __restrict__ y, std::size_t n, float alpha) {
  const std::size_t tile = std::size_t(Unroll) * blockDim.x;
  const std::size_t stride = tile * gridDim.x;
  std::size_t start = std::size_t(blockIdx.x) * tile;
  for (; start + tile <= n; start += stride) {
    const std::size_t i = start + threadIdx.x;
    float xv[Unroll], yv[Unroll];
#pragma unroll
    for (int j = 0; j < Unroll; ++j) {
      xv[j] = x[i + std::size_t(j) * blockDim.x];
      yv[j] = y[i + std::size_t(j) * blockDim.x];
    }
#pragma unroll
    for (int j = 0; j < Unroll; ++j) out[i + std::size_t(j) * blockDim.x] = alpha * xv[j] + yv[j];
  }
  // Only the last tile of the array can be partial, and exactly one block stops in front of it.
  if (start < n) {
#pragma unroll
    for (int j = 0; j < Unroll; ++j) {
      const std::size_t i = start + threadIdx.x + std::size_t(j) * blockDim.x;
      if (i < n) out[i] = alpha * x[i] + y[i];
    }
  }
}
// [saxpy-unrolled]

/// The two kernel families of the sweep.
// [saxpy-vectorized]
/// Beyond the text: saxpy_unrolled with 16-byte accesses. Each thread loads `Unroll` float4
/// vectors of x and of y (4 Unroll elements each) before it computes and stores, so a warp's
/// load instruction moves 512 bytes instead of 128 and the memory system sees a quarter of the
/// requests. The last partial tile is done vector by vector with checks, and the n % 4
/// elements after the last whole vector by the first threads of block 0.
/// \tparam Unroll float4 vectors per thread and tile
/// \pre out, x and y are 16-byte aligned (the launcher falls back to saxpy_unrolled if not)
template <int Unroll>
__global__ void saxpy_vectorized(float* __restrict__ out, const float* __restrict__ x,
                                 const float* __restrict__ y, std::size_t n, float alpha) {
  const std::size_t vectors = n / 4;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  const float4* y4 = reinterpret_cast<const float4*>(y);
  float4* out4 = reinterpret_cast<float4*>(out);
  auto saxpy4 = [alpha](float4 a, float4 b) {
    return make_float4(alpha * a.x + b.x, alpha * a.y + b.y, alpha * a.z + b.z, alpha * a.w + b.w);
  };
  const std::size_t tile = std::size_t(Unroll) * blockDim.x;
  const std::size_t stride = tile * gridDim.x;
  std::size_t start = std::size_t(blockIdx.x) * tile;
  for (; start + tile <= vectors; start += stride) {
    const std::size_t i = start + threadIdx.x;
    float4 xv[Unroll], yv[Unroll];
#pragma unroll
    for (int j = 0; j < Unroll; ++j) {
      xv[j] = x4[i + std::size_t(j) * blockDim.x];
      yv[j] = y4[i + std::size_t(j) * blockDim.x];
    }
#pragma unroll
    for (int j = 0; j < Unroll; ++j) out4[i + std::size_t(j) * blockDim.x] = saxpy4(xv[j], yv[j]);
  }
  if (start < vectors) {
#pragma unroll
    for (int j = 0; j < Unroll; ++j) {
      const std::size_t i = start + threadIdx.x + std::size_t(j) * blockDim.x;
      if (i < vectors) out4[i] = saxpy4(x4[i], y4[i]);
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < n % 4) {
    const std::size_t i = 4 * vectors + threadIdx.x;
    out[i] = alpha * x[i] + y[i];
  }
}
// [saxpy-vectorized]

enum class SaxpyForm {
  GridStride,  ///< listing 11.2 with `#pragma unroll Unroll`
  Unrolled,    ///< listing 11.4, unrolled through the template parameter
  Vectorized   ///< beyond the text: listing 11.4 with 16-byte vectors
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
/// stream1Device uses the template kernel with unroll factor 4 (listing 11.4); we keep that.
/// On every strategy of this chapter the kernel is a few percent of the wall clock at most,
/// so this choice barely shows there; saxpy_sweep measures the alternatives.
struct PipelineKernel {
  static constexpr int unroll = 4;
  static constexpr int threads = 256;
  /// Enqueues the pipeline kernel, saxpy_unrolled with `unroll`, on \p stream.
  static void launch(float* out, const float* x, const float* y, std::size_t n, float alpha,
                     cudaStream_t stream);
};

}  // namespace ch11
