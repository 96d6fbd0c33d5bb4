// The device-level scans of the text and the blog posts (variants 1 to 5c) and the book's
// stream compaction (compaction variant 1), compiled once (T = int and float).
#include "compact1_two_level.cuh"
#include "scan1_hillis_steele.cuh"
#include "scan2_blelloch.cuh"
#include "scan3_scan_then_fan.cuh"
#include "scan4_reduce_then_scan.cuh"
#include "scan5a_two_level.cuh"
#include "scan5b_two_level_zero_pad.cuh"
#include "scan5c_two_level_shuffle.cuh"

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
