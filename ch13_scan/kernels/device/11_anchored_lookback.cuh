/// \file
/// \brief Chapter 13, scan variant 11: each look-back anchored at the block's own last tile (beyond the text).
/* [changed]
Compared with variant 10: the same kernel, but warp 0 looks back differently. A persistent
block already knows an inclusive prefix that is never far away: that of its own last tile,
which it computed one step ago. Taking it as the anchor, the look-back needs from memory only
the aggregates of the tiles the other blocks took in between (about one per block), so a block
publishes only its tiles' aggregates, each status word written once, a step before anyone
reads it. In variants 6 to 10 every block also published each tile's inclusive prefix into the
status words the other blocks were reading at that moment; reading words that are being
written is what costs (measured below). Only a block's first tile, which has no anchor, and
the tiles of a grid wider than one poll look back as before and publish their inclusive
prefixes.
[changed] */
#pragma once

#include "10_early_refill.cuh"

namespace ch13 {

// [scan11-lookback]
/// Variant 6's window of predecessors, anchored: the block's own last tile, whose inclusive
/// prefix it knows, stands in for its status word, and nothing at or below it is loaded.
template <typename T, int kDepth>
struct AnchoredWindow {
  long long window;                 ///< the nearest predecessor of the window
  long long anchor = -1;            ///< the block's last tile (-1: none yet)
  T anchor_inclusive = T(0);        ///< its inclusive prefix
  unsigned long long word[kDepth];  ///< the status words, as last loaded

  __device__ __forceinline__ void poll(unsigned long long* status, unsigned epoch, int r) {
    const long long predecessor = window - 32 * r - lane_id();
    if (predecessor == anchor) {
      word[r] = make_status(anchor_inclusive, epoch, true);
    } else if (predecessor < anchor || predecessor < 0) {
      word[r] = make_status(T(0), epoch, true);  // never counted: the anchor is nearer
    } else {
      word[r] = StatusRef(status[predecessor]).load(cuda::memory_order_relaxed);
    }
  }
  __device__ __forceinline__ void poll_all(unsigned long long* status, unsigned epoch) {
#pragma unroll
    for (int r = 0; r < kDepth; ++r) poll(status, epoch, r);
  }
  __device__ __forceinline__ bool ready(int r, unsigned epoch) const {
    return status_epoch(word[r]) == epoch;
  }
};

/// Warp 0's look-back of variant 11 (NearestInclusive's interface): the block's first tile
/// publishes its inclusive prefix, every later one only its aggregate (at its counting pass);
/// each tile becomes the anchor of the next. A grid of more blocks than one poll covers
/// (32 kLookbackDepth; small blocks, many per SM) leaves the anchor beyond the window, a
/// round trip to L2 per window of aggregates; there every tile publishes its inclusive
/// prefix as in variant 10, and the anchor only ends the look-backs that reach it.
template <typename T>
struct AnchoredAtOwnTile {
  AnchoredWindow<T, kLookbackDepth> w{};
  __device__ void start(unsigned long long* status, unsigned tile, unsigned epoch) {
    w.window = static_cast<long long>(tile) - 1;
    w.poll_all(status, epoch);
  }
  __device__ T finish(unsigned long long* status, unsigned tile, unsigned epoch, T aggregate) {
    const bool publish = w.anchor < 0 || gridDim.x > 32u * kLookbackDepth;
    const T prefix =
        finish_look_back<T, false, kLookbackDepth>(status, tile, epoch, aggregate, w, publish);
    w.anchor = tile;
    w.anchor_inclusive = prefix + aggregate;
    return prefix;
  }
};
// [scan11-lookback]

template <typename T>
void scan11_anchored_lookback(const T* in, T* out, std::size_t n, ScanKind kind, int threads,
                              Scratch& scratch, cudaStream_t stream) {
  scan_early_refill<AnchoredAtOwnTile>("scan variant 11", in, out, n, kind, threads, scratch,
                                       stream);
}

}  // namespace ch13
