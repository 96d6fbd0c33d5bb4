// Variant 14's arithmetic on one GPU: a rank's slice, its forces in two parts, and leapfrog on
// its rows (nbody14_slices.h). The NCCL program (nbody14_gpu_nccl.cpp) puts the all-gather
// between the two parts; the tests run them for several ranks on one GPU.
#include "nbody14_slices.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "hb/error.h"
#include "nbody.h"

namespace ch14 {

Slice slice_of(std::size_t n, int ranks, int rank) {
  if (ranks < 1 || rank < 0 || rank >= ranks)
    throw std::invalid_argument("slice_of: rank " + std::to_string(rank) + " of " +
                                std::to_string(ranks));
  Slice s;
  s.n = n;
  s.ranks = ranks;
  s.rank = rank;
  s.chunk = (n + static_cast<std::size_t>(ranks) - 1) / static_cast<std::size_t>(ranks);
  s.begin = std::min(n, s.chunk * static_cast<std::size_t>(rank));
  s.end = std::min(n, s.begin + s.chunk);
  return s;
}

namespace {

__global__ void add_parts(float* __restrict__ force, const float* __restrict__ before,
                          const float* __restrict__ after, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += blockDim.x * gridDim.x) {
    float a = force[i];
    if (before != nullptr) a += before[i];
    if (after != nullptr) a += after[i];
    force[i] = a;
  }
}

__global__ void kick_rows(float* __restrict__ vel, const float* __restrict__ force, int rows,
                          float h) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += blockDim.x * gridDim.x)
    kick_body(vel + 3 * i, force + 3 * i, h);
}

__global__ void drift_rows(float4* __restrict__ pos, const float* __restrict__ vel, int rows,
                           float dt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += blockDim.x * gridDim.x)
    drift_body(pos[i], vel + 3 * i, dt);
}

int blocks_for(std::size_t count) { return static_cast<int>(std::min<std::size_t>((count + 255) / 256, 4096)); }

}  // namespace

// [nbody-nccl-parts]
void enqueue_local_forces(const Slice& s, const float4* mine, const SliceBuffers& b,
                          float softening_sq, int bodies_per_thread, cudaStream_t stream) {
  const int rows = static_cast<int>(s.rows());
  // Rows and columns are the slice's own bodies.
  launch_gpu_blocked_rows(mine, rows, 0, rows, b.force, softening_sq, bodies_per_thread,
                          b.scratch, b.scratch_count, stream);
}

void enqueue_remote_forces(const Slice& s, const float4* all, const SliceBuffers& b,
                           float softening_sq, int bodies_per_thread, cudaStream_t stream) {
  const int rows = static_cast<int>(s.rows());
  if (rows == 0) return;
  // Columns [0, begin): the rows sit right after them, at begin, in the gathered array.
  const int before = static_cast<int>(s.begin);
  launch_gpu_blocked_rows(all, before, before, rows, b.force_before, softening_sq,
                          bodies_per_thread, b.scratch, b.scratch_count, stream);
  // Columns [end, n): they start at the next chunk, the rows one chunk before it.
  const std::size_t next = s.chunk * static_cast<std::size_t>(s.rank + 1);
  const int after = s.n > next ? static_cast<int>(s.n - next) : 0;
  launch_gpu_blocked_rows(all + next, after, -static_cast<int>(s.chunk), rows, b.force_after,
                          softening_sq, bodies_per_thread, b.scratch, b.scratch_count, stream);
  if (before == 0 && after == 0) return;
  add_parts<<<blocks_for(3 * s.rows()), 256, 0, stream>>>(
      b.force, before > 0 ? b.force_before : nullptr, after > 0 ? b.force_after : nullptr,
      3 * rows);
  HB_CHECK_LAUNCH();
}
// [nbody-nccl-parts]

void enqueue_kick(const Slice& s, float* vel, const float* force, float h, cudaStream_t stream) {
  if (s.rows() == 0) return;
  kick_rows<<<blocks_for(s.rows()), 256, 0, stream>>>(vel, force, static_cast<int>(s.rows()), h);
  HB_CHECK_LAUNCH();
}

void enqueue_drift(const Slice& s, float4* mine, const float* vel, float dt, cudaStream_t stream) {
  if (s.rows() == 0) return;
  drift_rows<<<blocks_for(s.rows()), 256, 0, stream>>>(mine, vel, static_cast<int>(s.rows()), dt);
  HB_CHECK_LAUNCH();
}

}  // namespace ch14
