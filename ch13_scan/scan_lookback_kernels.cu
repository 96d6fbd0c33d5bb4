// The single-pass kernels beyond the text: the decoupled look-back scans (variants 6 and 7,
// T = int and float) and the compactions built on them (compaction variants 2 and 3).
#include "kernels/compact/02_decoupled_lookback.cuh"
#include "kernels/compact/03_bulk_copy_lookback.cuh"
#include "kernels/device/06_decoupled_lookback.cuh"
#include "kernels/device/07_bulk_copy_lookback.cuh"

namespace ch13 {

template void scan6_decoupled_lookback<int>(const int*, int*, std::size_t, ScanKind, int, Scratch&, cudaStream_t);
template void scan6_decoupled_lookback<float>(const float*, float*, std::size_t, ScanKind, int, Scratch&, cudaStream_t);
template void scan7_bulk_copy_lookback<int>(const int*, int*, std::size_t, ScanKind, int, Scratch&, cudaStream_t);
template void scan7_bulk_copy_lookback<float>(const float*, float*, std::size_t, ScanKind, int, Scratch&, cudaStream_t);

}  // namespace ch13
