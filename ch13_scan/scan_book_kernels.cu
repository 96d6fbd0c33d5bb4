// The device-level scans of the text and the blog posts (variants 1 to 5c) and the book's
// stream compaction (compaction variant 1), compiled once (T = int and float).
#include "kernels/compact/01_two_level.cuh"
#include "kernels/device/01_hillis_steele.cuh"
#include "kernels/device/02_blelloch.cuh"
#include "kernels/device/03_scan_then_fan.cuh"
#include "kernels/device/04_reduce_then_scan.cuh"
#include "kernels/device/05a_two_level.cuh"
#include "kernels/device/05b_two_level_zero_pad.cuh"
#include "kernels/device/05c_two_level_shuffle.cuh"

namespace ch13 {

#define CH13_SCAN(name)                                                                          \
  template void name<int>(const int*, int*, std::size_t, ScanKind, int, Scratch&, cudaStream_t); \
  template void name<float>(const float*, float*, std::size_t, ScanKind, int, Scratch&, cudaStream_t);
CH13_SCAN(scan1_hillis_steele)
CH13_SCAN(scan2_blelloch)
CH13_SCAN(scan3_scan_then_fan)
CH13_SCAN(scan4_reduce_then_scan)
CH13_SCAN(scan5a_two_level)
CH13_SCAN(scan5b_two_level_zero_pad)
CH13_SCAN(scan5c_two_level_shuffle)
#undef CH13_SCAN

}  // namespace ch13
