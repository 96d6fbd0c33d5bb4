// The single-pass kernels beyond the text: the decoupled look-back scan (variant 6, T = int
// and float) and the compaction built on it (compaction variant 2).
#include "compact2_decoupled_lookback.cuh"
#include "scan6_decoupled_lookback.cuh"

namespace ch13 {

template void scan6_decoupled_lookback<int>(const int*, int*, std::size_t, ScanKind, int, Scratch&, cudaStream_t);
template void scan6_decoupled_lookback<float>(const float*, float*, std::size_t, ScanKind, int, Scratch&, cudaStream_t);

}  // namespace ch13
