// The warp-level scans of section 13.5 and their test kernels, compiled once for the chapter
// (T = int and T = float). Each numbered header is included by exactly one translation unit.
#include "kernels/warp/00_cub.cuh"
#include "kernels/warp/01_conditional.cuh"
#include "kernels/warp/02_zero_padded.cuh"
#include "kernels/warp/03_templated.cuh"
#include "kernels/warp/04_shuffle.cuh"
#include "kernels/warp/05_shuffle_ptx.cuh"

namespace ch13 {

#define CH13_WARP(name)                                                                        \
  template void name<int>(const int*, int*, std::size_t, ScanKind, int, int, cudaStream_t);   \
  template void name<float>(const float*, float*, std::size_t, ScanKind, int, int, cudaStream_t);
CH13_WARP(warp0_cub)
CH13_WARP(warp1_conditional)
CH13_WARP(warp2_zero_padded)
CH13_WARP(warp3_templated)
CH13_WARP(warp3_templated_unpadded)
CH13_WARP(warp4_shuffle)
CH13_WARP(warp5_shuffle_ptx)
#undef CH13_WARP

}  // namespace ch13
