// The launchers of the text's kernels (variants 6, 7 and 9), with every unroll factor of
// Tables 14.1 and 14.2 instantiated here, once. Variant 8 lives in nbody8_gpu_const.cu.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "hb/error.h"
#include "nbody6_gpu_aos.cuh"
#include "nbody7_gpu_shared.cuh"
#include "nbody9_gpu_shuffle.cuh"
#include "nbody_gpu.h"

namespace ch14 {

namespace {

// As many blocks as the GPU holds at once, and no more than the bodies need: the kernels'
// grid-stride loops cover the rest.
template <typename Kernel>
int grid_for(Kernel kernel, int n, int threads, std::size_t shared_bytes) {
  int device = 0, sms = 0, per_sm = 0;
  HB_CUDA_CHECK(cudaGetDevice(&device));
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  HB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
  return std::max(1, std::min((n + threads - 1) / threads, std::max(per_sm, 1) * sms));
}

template <int U>
void aos(const GpuProblem& p, cudaStream_t stream) {
  const int blocks = grid_for(ComputeNBodyGravitation_GPU_AOS<U>, p.n, kBookThreads, 0);
  ComputeNBodyGravitation_GPU_AOS<U><<<blocks, kBookThreads, 0, stream>>>(p.force, p.bodies, p.n,
                                                                          p.softening_sq);
  HB_CHECK_LAUNCH();
}

// [nbody-gpu-shared-launch]
template <int U>
void shared(const GpuProblem& p, cudaStream_t stream) {
  const std::size_t bytes = kBookThreads * sizeof(float4);  // one tile of bodies
  const int blocks = grid_for(ComputeNBodyGravitation_Shared<U>, p.n, kBookThreads, bytes);
  ComputeNBodyGravitation_Shared<U><<<blocks, kBookThreads, bytes, stream>>>(
      p.force, p.bodies, p.n, p.softening_sq);
  HB_CHECK_LAUNCH();
}
// [nbody-gpu-shared-launch]

using Launch = void (*)(const GpuProblem&, cudaStream_t);

Launch pick(const Launch* table, int unroll) {
  const auto& f = unroll_factors();
  const auto it = std::find(f.begin(), f.end(), unroll);
  if (it == f.end()) throw std::out_of_range("no kernel for unroll factor " + std::to_string(unroll));
  return table[it - f.begin()];
}

}  // namespace

const std::vector<int>& unroll_factors() {
  static const std::vector<int> f{1, 2, 4, 8, 16, 32};
  return f;
}

void launch_gpu_aos(const GpuProblem& p, int unroll, cudaStream_t stream) {
  static const Launch table[] = {aos<1>, aos<2>, aos<4>, aos<8>, aos<16>, aos<32>};
  const Launch launch = pick(table, unroll);
  if (p.n > 0) launch(p, stream);
}

void launch_gpu_shared(const GpuProblem& p, int unroll, cudaStream_t stream) {
  static const Launch table[] = {shared<1>, shared<2>, shared<4>, shared<8>, shared<16>, shared<32>};
  const Launch launch = pick(table, unroll);
  if (p.n > 0) launch(p, stream);
}

void launch_gpu_shuffle(const GpuProblem& p, int /*unused*/, cudaStream_t stream) {
  if (p.n <= 0) return;
  const int blocks = grid_for(ComputeNBodyGravitation_Shuffle, p.n, kBookThreads, 0);
  ComputeNBodyGravitation_Shuffle<<<blocks, kBookThreads, 0, stream>>>(p.force, p.bodies, p.n,
                                                                       p.softening_sq);
  HB_CHECK_LAUNCH();
}

}  // namespace ch14
