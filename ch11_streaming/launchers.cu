// The one translation unit that compiles chapter 11's kernels (kernels/) and their launchers,
// with the tables that pick a SAXPY launcher by form and unroll factor at run time.
#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "hb/error.h"
#include "hb/memory.h"
#include "kernels/01_grid_stride.cuh"
#include "kernels/02_unrolled.cuh"
#include "kernels/03_vectorized.cuh"
#include "kernels/05_paced_copy.cuh"
#include "streaming.h"

namespace ch11 {

int saxpy_grid_size(const void* kernel, LaunchShape shape, std::size_t n, std::size_t per_block) {
  if (n == 0) return 0;
  // Asked once per kernel, block size and device: the launchers run inside timed loops, where
  // these queries would add host time to every launch.
  static std::mutex mutex;
  static std::map<std::tuple<const void*, int, int>, std::size_t> resident;
  int device = 0;
  HB_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(kernel, shape.threads, device);
  auto it = resident.find(key);
  if (it == resident.end()) {
    int sms = 0, per_sm = 0;
    HB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    HB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, shape.threads, 0));
    if (per_sm == 0)
      throw std::runtime_error("saxpy kernel cannot run with " + std::to_string(shape.threads) +
                               " threads per block on this GPU");
    it = resident.emplace(key, std::size_t(sms) * std::size_t(per_sm)).first;
  }
  // A grid-stride kernel needs no more blocks than fit at once: more would only queue behind
  // the first wave. Small arrays need fewer.
  const std::size_t needed = (n + per_block - 1) / per_block;
  std::size_t blocks = std::min(it->second, needed);
  if (shape.max_blocks > 0) blocks = std::min<std::size_t>(blocks, std::size_t(shape.max_blocks));
  return static_cast<int>(blocks);
}

namespace {

// [saxpy-launcher]
template <SaxpyForm Form, int Unroll>
void launch_saxpy(float* out, const float* x, const float* y, std::size_t n, float alpha,
                  LaunchShape shape, cudaStream_t stream) {
  if constexpr (Form == SaxpyForm::Vectorized) {
    // float4 accesses need 16-byte alignment; the scalar form handles any pointers.
    if (!hb::aligned16(out) || !hb::aligned16(x) || !hb::aligned16(y))
      return launch_saxpy<SaxpyForm::Unrolled, Unroll>(out, x, y, n, alpha, shape, stream);
  }
  const auto kernel = Form == SaxpyForm::GridStride ? saxpy_grid_stride<Unroll>
                      : Form == SaxpyForm::Unrolled ? saxpy_unrolled<Unroll>
                                                    : saxpy_vectorized<Unroll>;
  // Each thread should get at least Unroll iterations for the unrolling to matter (of 4
  // elements each in the vectorized form, whose block 0 also handles the n % 4 elements after
  // the last vector, so a grid of at least one block runs whenever n > 0).
  const std::size_t per_thread = Form == SaxpyForm::Vectorized ? 4 * Unroll : Unroll;
  const int blocks = saxpy_grid_size(reinterpret_cast<const void*>(kernel), shape, n,
                                     per_thread * shape.threads);
  if (blocks == 0) return;
  kernel<<<blocks, shape.threads, 0, stream>>>(out, x, y, n, alpha);
  HB_CHECK_LAUNCH();
}
// [saxpy-launcher]

// {launch_saxpy<Form, 1>, ..., launch_saxpy<Form, kMaxUnroll>}: the 3 x 16 SAXPY kernels.
template <SaxpyForm Form, std::size_t... I>
constexpr std::array<SaxpyLauncher, sizeof...(I)> launchers(std::index_sequence<I...>) {
  return {&launch_saxpy<Form, static_cast<int>(I) + 1>...};
}
constexpr auto kUnrolls = std::make_index_sequence<kMaxUnroll>{};
const std::array<SaxpyLauncher, kMaxUnroll> kLaunchers[] = {  // indexed by SaxpyForm
    launchers<SaxpyForm::GridStride>(kUnrolls), launchers<SaxpyForm::Unrolled>(kUnrolls),
    launchers<SaxpyForm::Vectorized>(kUnrolls)};

}  // namespace

SaxpyLauncher saxpy_launcher(SaxpyForm form, int unroll) {
  if (unroll < 1 || unroll > kMaxUnroll)
    throw std::out_of_range("saxpy unroll factor " + std::to_string(unroll) + " is not in 1.." +
                            std::to_string(kMaxUnroll));
  return kLaunchers[int(form)][std::size_t(unroll - 1)];
}

std::string saxpy_kernel_name(SaxpyForm form, int unroll) {
  const char* const names[] = {"saxpy_grid_stride<", "saxpy_unrolled<", "saxpy_vectorized<"};
  return names[int(form)] + std::to_string(unroll) + ">";
}

void launch_pipeline_kernel(float* out, const float* x, const float* y, std::size_t n,
                            float alpha, cudaStream_t stream) {
  launch_saxpy<SaxpyForm::Unrolled, 4>(out, x, y, n, alpha, LaunchShape{256, 0}, stream);
}

void launch_paced_copy(float* dst, const float* src, std::size_t n, double gbs, int blocks,
                       cudaStream_t stream) {
  if (blocks < 1) throw std::invalid_argument("launch_paced_copy: blocks must be at least 1");
  if (n == 0) return;
  constexpr double kTileBytes = double(kPacedThreads) * kPacedFloatsPerThread * sizeof(float);
  const double ns_per_tile = gbs > 0 ? kTileBytes / gbs : 0.0;  // bytes / (1e9 bytes/s) = ns
  const auto kernel = hb::aligned16(dst) && hb::aligned16(src) ? paced_copy_kernel<true>
                                                               : paced_copy_kernel<false>;
  kernel<<<blocks, kPacedThreads, 0, stream>>>(dst, src, n, ns_per_tile);
  HB_CHECK_LAUNCH();
}

}  // namespace ch11
