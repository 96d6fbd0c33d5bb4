// The warp scans of section 13.5, each alone in a kernel between two clock reads, compiled by
// CMake to a cubin for sm_90 whose instructions count_instructions.sh counts (section 13.5.4).
// The brackets are volatile inline PTX that take the scanned value as an operand ("+r") and
// clobber memory, so the compiler can move neither the scan's shared-memory accesses nor the
// arithmetic on the value out of them (lane arithmetic, lane = tid % 32, may still be hoisted).
#include "kernels/warp/00_cub.cuh"
#include "kernels/warp/01_conditional.cuh"
#include "kernels/warp/02_zero_padded.cuh"
#include "kernels/warp/03_templated.cuh"
#include "kernels/warp/04_shuffle.cuh"
#include "kernels/warp/05_shuffle_ptx.cuh"

namespace {

// [sass-bracket]
__device__ __forceinline__ unsigned bracket(int& value) {
  unsigned clock;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(clock), "+r"(value)::"memory");
  return clock;
}
// [sass-bracket]

// Writes the result, so that neither clock read can be dropped.
template <typename Scan>
__device__ __forceinline__ void timed(int* p, int x, Scan scan) {
  const unsigned t0 = bracket(x);
  x = scan(x);
  const unsigned t1 = bracket(x);
  p[threadIdx.x] = x + static_cast<int>(t1 - t0);
}

}  // namespace

extern "C" __global__ void sass_warp0_cub(int* p) {
  using WarpScan = cub::WarpScan<int>;
  __shared__ WarpScan::TempStorage temp[32];
  timed(p, p[threadIdx.x], [&](int x) {
    WarpScan(temp[threadIdx.x / 32]).InclusiveSum(x, x);
    return x;
  });
}

// The scans of values in shared memory: each lane stores its value in its slot (zero-padded or
// not), then \p scan(s) runs between the brackets.
template <bool kZeroPad, typename Scan>
__device__ __forceinline__ void in_shared(int* p, Scan scan) {
  __shared__ int shared[49 * 32];
  int* s = shared + ch13::scan_shared_index<kZeroPad>(threadIdx.x);
  if (kZeroPad && ch13::lane_id() < 16) s[-16] = 0;
  const int x = p[threadIdx.x];
  *s = x;
  __syncwarp();
  timed(p, x, [&](int) { return scan(s); });
}

extern "C" __global__ void sass_warp1_conditional(int* p) {
  in_shared<false>(p, [](int* s) { return ch13::warp_scan_conditional(s); });
}
extern "C" __global__ void sass_warp2_zero_padded(int* p) {
  in_shared<true>(p, [](int* s) { return ch13::warp_scan_zero_padded(s); });
}
extern "C" __global__ void sass_warp3_templated_unpadded(int* p) {
  in_shared<false>(p, [](int* s) { return ch13::warp_scan<int, false>(s); });
}
extern "C" __global__ void sass_warp3_templated(int* p) {
  in_shared<true>(p, [](int* s) { return ch13::warp_scan<int, true>(s); });
}

extern "C" __global__ void sass_warp4_shuffle(int* p) {
  timed(p, p[threadIdx.x], [](int x) { return ch13::warp_scan_shuffle(x); });
}

extern "C" __global__ void sass_warp5_shuffle_ptx(int* p) {
  timed(p, p[threadIdx.x], [](int x) { return ch13::warp_scan_ptx(x); });
}
