/// \file
/// \brief Chapter 13, compaction variant 6: each look-back anchored at the block's own last tile (beyond the text).
/* [changed]
Compared with variant 5: the same kernel, with scan variant 11's look-back. Warp 0 takes the
block's own last tile, whose inclusive prefix it computed a step ago, as the anchor of its
look-back, so it needs only the aggregates of the tiles in between, and after its first tile
the block publishes nothing but aggregates: no block writes an inclusive prefix into the
status words the others are reading (except on a grid wider than one poll, as in scan
variant 11). The block size must be a power of two from 32 to 512.
[changed] */
#pragma once

#include "../device/11_anchored_lookback.cuh"
#include "05_lane_runs.cuh"

namespace ch13 {

inline void compact6_anchored_lookback(const int* in, int* out, std::size_t n, int* count,
                                       int threads, Scratch& scratch, cudaStream_t stream) {
  compact_lane_runs<AnchoredAtOwnTile>("compaction variant 6", in, out, n, count, threads,
                                       scratch, stream);
}

}  // namespace ch13
