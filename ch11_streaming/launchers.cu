// The one translation unit that compiles chapter 11's kernels (kernels/): the three SAXPY forms
// for unroll factors 1 to 16 and the paced copy, their launchers, and the tables that let the
// sweep and the tests pick a launcher by number at run time.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

#include "hb/error.h"
#include "hb/memory.h"
#include "kernels/01_grid_stride.cuh"
#include "kernels/02_unrolled.cuh"
#include "kernels/03_vectorized.cuh"
#include "kernels/04_paced_copy.cuh"
#include "streaming.h"

namespace ch11 {

int saxpy_grid_size(const void* kernel, LaunchShape shape, std::size_t n, std::size_t per_block) {
  if (n == 0) return 0;
  int device = 0, sms = 0, per_sm = 0;
  HB_CUDA_CHECK(cudaGetDevice(&device));
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  HB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, shape.threads, 0));
  if (per_sm == 0) {
    throw std::runtime_error("saxpy kernel cannot run with " + std::to_string(shape.threads) +
                             " threads per block on this GPU");
  }
  // A grid-stride kernel needs no more blocks than fit at once: more would only queue behind
  // the first wave. Small arrays need fewer.
  const std::size_t needed = (n + per_block - 1) / per_block;
  std::size_t blocks = std::min<std::size_t>(std::size_t(sms) * per_sm, needed);
  if (shape.max_blocks > 0) blocks = std::min<std::size_t>(blocks, std::size_t(shape.max_blocks));
  return static_cast<int>(blocks);
}

// [saxpy-launcher]
template <int Unroll>
void launch_saxpy_unrolled(float* out, const float* x, const float* y, std::size_t n, float alpha,
                           LaunchShape shape, cudaStream_t stream) {
  const auto kernel = saxpy_unrolled<Unroll>;
  const int blocks = saxpy_grid_size(reinterpret_cast<const void*>(kernel), shape, n,
                                     std::size_t(Unroll) * shape.threads);
  if (blocks == 0) return;
  kernel<<<blocks, shape.threads, 0, stream>>>(out, x, y, n, alpha);
  HB_CHECK_LAUNCH();
}
// [saxpy-launcher]

template <int Unroll>
void launch_saxpy_grid_stride(float* out, const float* x, const float* y, std::size_t n,
                              float alpha, LaunchShape shape, cudaStream_t stream) {
  const auto kernel = saxpy_grid_stride<Unroll>;
  // Each thread should get at least Unroll iterations for the unrolling to matter; with a
  // full-occupancy grid on large arrays it gets many more.
  const int blocks = saxpy_grid_size(reinterpret_cast<const void*>(kernel), shape, n,
                                     std::size_t(Unroll) * shape.threads);
  if (blocks == 0) return;
  kernel<<<blocks, shape.threads, 0, stream>>>(out, x, y, n, alpha);
  HB_CHECK_LAUNCH();
}

template <int Unroll>
void launch_saxpy_vectorized(float* out, const float* x, const float* y, std::size_t n,
                             float alpha, LaunchShape shape, cudaStream_t stream) {
  if (!hb::aligned16(out) || !hb::aligned16(x) || !hb::aligned16(y)) {
    // float4 accesses need 16-byte alignment; the scalar form handles any pointers.
    launch_saxpy_unrolled<Unroll>(out, x, y, n, alpha, shape, stream);
    return;
  }
  const auto kernel = saxpy_vectorized<Unroll>;
  // Block 0 also handles the n % 4 elements after the last vector, so a grid of at least one
  // block runs whenever n > 0.
  const int blocks = saxpy_grid_size(reinterpret_cast<const void*>(kernel), shape, n,
                                     std::size_t(4 * Unroll) * shape.threads);
  if (blocks == 0) return;
  kernel<<<blocks, shape.threads, 0, stream>>>(out, x, y, n, alpha);
  HB_CHECK_LAUNCH();
}

namespace {

// Builds {launcher<1>, ..., launcher<kMaxUnroll>} for one form; this is where the 3 x 16
// SAXPY kernels are instantiated.
template <std::size_t... I>
constexpr std::array<SaxpyLauncher, sizeof...(I)> grid_stride_table(std::index_sequence<I...>) {
  return {&launch_saxpy_grid_stride<int(I) + 1>...};
}
template <std::size_t... I>
constexpr std::array<SaxpyLauncher, sizeof...(I)> unrolled_table(std::index_sequence<I...>) {
  return {&launch_saxpy_unrolled<int(I) + 1>...};
}

template <std::size_t... I>
constexpr std::array<SaxpyLauncher, sizeof...(I)> vectorized_table(std::index_sequence<I...>) {
  return {&launch_saxpy_vectorized<int(I) + 1>...};
}

const auto kGridStride = grid_stride_table(std::make_index_sequence<kMaxUnroll>{});
const auto kUnrolled = unrolled_table(std::make_index_sequence<kMaxUnroll>{});
const auto kVectorized = vectorized_table(std::make_index_sequence<kMaxUnroll>{});

}  // namespace

SaxpyLauncher saxpy_launcher(SaxpyForm form, int unroll) {
  if (unroll < 1 || unroll > kMaxUnroll) {
    throw std::out_of_range("saxpy unroll factor " + std::to_string(unroll) + " is not in 1.." +
                            std::to_string(kMaxUnroll));
  }
  switch (form) {
    case SaxpyForm::GridStride: return kGridStride[unroll - 1];
    case SaxpyForm::Unrolled: return kUnrolled[unroll - 1];
    case SaxpyForm::Vectorized: return kVectorized[unroll - 1];
  }
  throw std::invalid_argument("unknown saxpy form");
}

std::string saxpy_kernel_name(SaxpyForm form, int unroll) {
  const char* name = form == SaxpyForm::GridStride ? "saxpy_grid_stride<"
                     : form == SaxpyForm::Unrolled  ? "saxpy_unrolled<"
                                                    : "saxpy_vectorized<";
  return name + std::to_string(unroll) + ">";
}

void PipelineKernel::launch(float* out, const float* x, const float* y, std::size_t n, float alpha,
                            cudaStream_t stream) {
  launch_saxpy_unrolled<unroll>(out, x, y, n, alpha, LaunchShape{threads, 0}, stream);
}

void launch_paced_copy(float* dst, const float* src, std::size_t n, double gbs, int blocks,
                       cudaStream_t stream) {
  if (blocks < 1) throw std::invalid_argument("launch_paced_copy: blocks must be at least 1");
  if (n == 0) return;
  constexpr double kTileBytes = double(kPacedThreads) * kPacedFloatsPerThread * sizeof(float);
  const double ns_per_tile = gbs > 0 ? kTileBytes / gbs : 0.0;  // bytes / (1e9 bytes/s) = ns
  if (hb::aligned16(dst) && hb::aligned16(src)) {
    paced_copy_kernel<true><<<blocks, kPacedThreads, 0, stream>>>(dst, src, n, ns_per_tile);
  } else {
    paced_copy_kernel<false><<<blocks, kPacedThreads, 0, stream>>>(dst, src, n, ns_per_tile);
  }
  HB_CHECK_LAUNCH();
}

}  // namespace ch11
