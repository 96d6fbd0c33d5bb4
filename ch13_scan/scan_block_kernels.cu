// The block-level scans (section 13.4's scanBlock, listing 13.18, the blog posts'
// Hillis-Steele and Blelloch) and their test kernels, compiled once (T = int and float).
#include "kernels/block/00_cub.cuh"
#include "kernels/block/01_hillis_steele.cuh"
#include "kernels/block/02_blelloch.cuh"
#include "kernels/block/03_scan_then_fan.cuh"
#include "kernels/block/04_zero_padded.cuh"
#include "kernels/block/05_shuffle.cuh"

namespace ch13 {

#define CH13_BLOCK(name)                                                                       \
  template void name<int>(const int*, int*, std::size_t, ScanKind, int, int, cudaStream_t);   \
  template void name<float>(const float*, float*, std::size_t, ScanKind, int, int, cudaStream_t);
CH13_BLOCK(block0_cub)
CH13_BLOCK(block1_hillis_steele)
CH13_BLOCK(block2_blelloch)
CH13_BLOCK(block3_scan_then_fan)
CH13_BLOCK(block4_zero_padded)
CH13_BLOCK(block5_shuffle)
#undef CH13_BLOCK

}  // namespace ch13
