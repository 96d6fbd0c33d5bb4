/// \file
/// \brief Chapter 13, scan variant 5c: two-level, warp-shuffle block scan (listings 13.17, 13.18).
/* [changed]
Compared with variant 5b: the warp scan exchanges registers with shuffles instead of going
through shared memory (section 13.5.3, listings 13.17 and 13.18). Each step is one shuffle that
also says whether the source lane exists and one add predicated on that (the book's inline PTX,
warp variant 5); shared memory holds only the 32 warp totals, and the block scan hands each
thread its inclusive and exclusive prefix and the tile's total in registers.
[changed] */
#pragma once

#include "../block/05_shuffle.cuh"
#include "05a_two_level.cuh"

namespace ch13 {

// [scan5c-kernel]
/// Listing 13.11 with listing 13.18's block scan: the values never go to shared memory.
/// \param out n results (may be \p in)
/// \param base_sums the inclusive scan of the subarrays' totals, or nullptr for one block
/// \param in n values
/// \param n how many
/// \param per_partial elements per subarray, a multiple of blockDim.x
/// \param kind inclusive or exclusive
/// \pre blockDim.x is a multiple of 32.
template <typename T>
__global__ void scan_2level_shuffle_kernel(T* out, const T* base_sums, const T* in, std::size_t n,
                                           std::size_t per_partial, ScanKind kind) {
  __shared__ T warp_totals[32];
  T base_sum = (blockIdx.x > 0 && base_sums != nullptr) ? base_sums[blockIdx.x - 1] : T(0);
  const std::size_t first = std::size_t(blockIdx.x) * per_partial;
  for (std::size_t i = 0; i < per_partial && first + i < n; i += blockDim.x) {
    const std::size_t index = first + i + threadIdx.x;
    const BlockScanResult<T> s = scan_block_shuffle(index < n ? in[index] : T(0), warp_totals);
    if (index < n) out[index] = base_sum + (kind == ScanKind::Inclusive ? s.inclusive : s.exclusive);
    base_sum += s.total;
  }
}
// [scan5c-kernel]

template <typename T>
void scan5c_two_level_shuffle(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                              Scratch& scratch, cudaStream_t stream) {
  require_threads("scan variant 5c", BlockRule::PowerOfTwoFrom32, threads);
  if (n == 0) return;
  hb::with_power_of_two<32, 1024>(threads, [&](auto b) {
    scan_2level<T, decltype(b)::value>(scan_2level_shuffle_kernel<T>, 0, in, out, n, kind, scratch,
                                       stream);
  });
}

}  // namespace ch13
