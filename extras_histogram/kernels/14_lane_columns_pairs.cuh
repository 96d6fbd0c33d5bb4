/// \file
/// \brief Histograms, variant 14: variant 13 with plain loads and stores, two bytes a step.
/* [changed]
Compared with variant 13: no atomics at all; a lane's column is private, so a load, an add and a
store are enough. Done one byte at a time they form a chain: the compiler cannot move the next
byte's load above this byte's store (both may be the same word), so every byte waits for a
shared-memory load. We cut the chain in half by loading the words of two bytes first and storing
both after; if both bytes fall into the same word, the second store carries both increments (the
first is overwritten). Which of variants 13 and 14 is faster depends on the cost of a shared
atomic against a load, an add, a store and the check for the shared word: the table says.
[changed] */
#pragma once

#include "13_lane_columns_atomic.cuh"

namespace histo {

// [histogram-columns-pairs-update]
/// Variant 14's update: plain loads and stores, two bytes per step.
struct PairColumnUpdate {
  /// Counts byte value b in the column starting at mine.
  __device__ __forceinline__ static void byte(std::uint32_t* mine, std::uint32_t b) {
    mine[(b % kColumnRows) * 32] += b < kColumnRows ? 1u : 0x10000u;
  }
  /// Counts byte values b0 and b1: both loads before both stores.
  __device__ __forceinline__ static void pair(std::uint32_t* mine, std::uint32_t b0,
                                              std::uint32_t b1) {
    std::uint32_t* p0 = &mine[(b0 % kColumnRows) * 32];
    std::uint32_t* p1 = &mine[(b1 % kColumnRows) * 32];
    const std::uint32_t inc0 = b0 < kColumnRows ? 1u : 0x10000u;
    const std::uint32_t inc1 = b1 < kColumnRows ? 1u : 0x10000u;
    const std::uint32_t v0 = *p0 + inc0;
    const std::uint32_t v1 = *p1;
    *p0 = v0;
    *p1 = (p0 == p1 ? v0 : v1) + inc1;  // same word: the second store carries both
  }
  /// Counts the 16 bytes of v.
  __device__ __forceinline__ static void vector(std::uint32_t* mine, const uint4& v) {
    const std::uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      pair(mine, byte_of(words[i], 0), byte_of(words[i], 1));
      pair(mine, byte_of(words[i], 2), byte_of(words[i], 3));
    }
  }
};
// [histogram-columns-pairs-update]

/// Variant 14's launcher (the chapter's Launcher signature).
void histogram_lane_columns_pairs(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                                  Workspace& ws, cudaStream_t stream) {
  launch_lane_columns<PairColumnUpdate>(d_in, n, d_bins, ws, stream);
}

}  // namespace histo
