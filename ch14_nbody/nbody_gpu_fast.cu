// The launchers of our kernels beyond the text: variant 10 (several bodies per thread, split
// columns) with every bodies-per-thread factor instantiated once, and variant 11 (symmetric).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "hb/error.h"
#include "nbody10_gpu_blocked.cuh"
#include "nbody11_gpu_symmetric.cuh"
#include "nbody_gpu.h"

namespace ch14 {

namespace {

struct DeviceShape {
  int sms = 0;
};

DeviceShape current_device() {
  int device = 0;
  DeviceShape d;
  HB_CUDA_CHECK(cudaGetDevice(&device));
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, device));
  return d;
}

using BlockedKernel = void (*)(float*, float4*, const float4*, int, int, int, float);

BlockedKernel blocked_kernel(int r) {
  switch (r) {
    case 1: return nbody_blocked<1>;
    case 2: return nbody_blocked<2>;
    case 4: return nbody_blocked<4>;
    case 8: return nbody_blocked<8>;
    default: break;
  }
  throw std::out_of_range("no blocked kernel for " + std::to_string(r) + " bodies per thread");
}

}  // namespace

const std::vector<int>& blocked_factors() {
  static const std::vector<int> f{1, 2, 4, 8};
  return f;
}

std::size_t blocked_scratch(std::size_t n) { return std::size_t(kMaxSlices) * n; }
std::size_t symmetric_scratch(std::size_t n) { return n; }

// [nbody-blocked-plan]
BlockedPlan plan_blocked(int rows, int n, int bodies_per_thread, int resident, int max_slices) {
  BlockedPlan best;
  const int rows_per_block = kBlockedThreads * bodies_per_thread;
  const int grid_x = (rows + rows_per_block - 1) / rows_per_block;
  const int tiles = (n + kBlockedThreads - 1) / kBlockedThreads;
  resident = std::max(resident, 1);
  const auto evaluate = [&](int slices) {
    BlockedPlan p;
    p.grid_x = grid_x;
    p.slices = slices;
    p.waves = double(grid_x) * slices / resident;
    p.fill = p.waves / std::ceil(p.waves);
    return p;
  };
  const int most = std::max(1, std::min(max_slices, tiles));
  double best_fill = 0.0;
  for (int s = 1; s <= most; ++s) best_fill = std::max(best_fill, evaluate(s).fill);
  for (int s = 1; s <= most; ++s) {
    best = evaluate(s);
    if (best.fill >= best_fill - 0.02) break;
  }
  return best;
}
// [nbody-blocked-plan]

BlockedPlan blocked_plan_for(int rows, int n, int bodies_per_thread, std::size_t scratch_count) {
  const BlockedKernel kernel = blocked_kernel(bodies_per_thread);
  int per_sm = 0;
  HB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlockedThreads, 0));
  const int resident = std::max(per_sm, 1) * current_device().sms;
  // No more slices than the caller's scratch holds partial sums for.
  const std::size_t fit = rows > 0 ? scratch_count / std::size_t(rows) : 0;
  const int most = static_cast<int>(std::clamp<std::size_t>(fit, 1, kMaxSlices));
  return plan_blocked(rows, n, bodies_per_thread, resident, most);
}

// [nbody-gpu-blocked-launch]
void launch_gpu_blocked_rows(const float4* bodies, int n, int row_begin, int rows,
                             float* force_rows, float softening_sq, int bodies_per_thread,
                             float4* scratch, std::size_t scratch_count, cudaStream_t stream) {
  const BlockedKernel kernel = blocked_kernel(bodies_per_thread);
  if (rows <= 0 || n <= 0) return;
  const BlockedPlan plan = blocked_plan_for(rows, n, bodies_per_thread, scratch_count);
  const dim3 grid(plan.grid_x, plan.slices);
  kernel<<<grid, kBlockedThreads, 0, stream>>>(force_rows, scratch, bodies, n, row_begin, rows,
                                               softening_sq);
  HB_CHECK_LAUNCH();
  if (plan.slices > 1) {
    const int threads = 256;
    sum_slices<<<(rows + threads - 1) / threads, threads, 0, stream>>>(force_rows, scratch, rows,
                                                                       plan.slices);
    HB_CHECK_LAUNCH();
  }
}
// [nbody-gpu-blocked-launch]

void launch_gpu_blocked(const GpuProblem& p, int bodies_per_thread, cudaStream_t stream) {
  launch_gpu_blocked_rows(p.bodies, p.n, 0, p.n, p.force, p.softening_sq, bodies_per_thread,
                          p.scratch, p.scratch_count, stream);
}

// [nbody-gpu-symmetric-launch]
void launch_gpu_symmetric(const GpuProblem& p, int /*unused*/, cudaStream_t stream) {
  if (p.n <= 0) return;
  if (p.scratch_count < std::size_t(p.n))
    throw std::invalid_argument("variant 11 needs n float4 of scratch for its sums");
  const int tiles = (p.n + 31) / 32;
  const long long pairs = static_cast<long long>(tiles) * (tiles + 1) / 2;
  // Runs of up to 32 tile pairs per warp, but short enough for about 64 warps per SM.
  const long long target_warps = 64LL * current_device().sms;
  const int run = static_cast<int>(std::clamp<long long>(pairs / target_warps, 1, 32));
  const long long warps = (pairs + run - 1) / run;
  const int warps_per_block = kSymmetricThreads / 32;
  const long long blocks = (warps + warps_per_block - 1) / warps_per_block;
  HB_CUDA_CHECK(cudaMemsetAsync(p.scratch, 0, std::size_t(p.n) * sizeof(float4), stream));
  nbody_symmetric<<<static_cast<unsigned>(blocks), kSymmetricThreads, 0, stream>>>(
      p.scratch, p.bodies, p.n, p.softening_sq, tiles, pairs, run);
  HB_CHECK_LAUNCH();
  const int threads = 256;
  unpack_sums<<<(p.n + threads - 1) / threads, threads, 0, stream>>>(p.force, p.scratch, p.n);
  HB_CHECK_LAUNCH();
}
// [nbody-gpu-symmetric-launch]

}  // namespace ch14
