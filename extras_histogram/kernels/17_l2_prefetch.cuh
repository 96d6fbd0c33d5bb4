/// \file
/// \brief Histograms, variant 17: variant 16, with each warp prefetching into L2 the tile it
///        will load a round later.
/* [changed]
Compared with variant 16: one instruction per lane and tile more, and no register more.
Variant 16 issues far fewer instructions than variant 13, and its profile shows what is left:
the warps wait most for their global loads (the "long scoreboard" stall is the largest of its
stall reasons). A lane holds two tiles of eight 16-byte vectors, the one it counts and the next
one in flight, and the 64 KiB of counters per block allow only 12 warps per SM; more tiles in
flight would cost registers. So we ask L2 to start earlier without holding anything: while it
counts tile t, each lane of a warp issues `prefetch.global.L2` for one 128-byte line of the tile
two rounds ahead (t + 2 x warps: at 2^28 bytes, 1,584 warps and 4 KiB tiles, 13 MB ahead of
the grid, well inside the 50 MB L2 of an H100), and when the warp loads that tile a round later
its lines are in L2 or on their way. The prefetch is a hint: it returns nothing and cannot
change what the kernel counts. Two rounds is our choice (kPrefetchRounds): it covers the
wait we saw, and the farther ahead a line is fetched, the longer L2 must keep it before the
load that wants it arrives.
[changed] */
#pragma once

#include "16_lane_columns_permute.cuh"

namespace histo {

/// Rounds of tiles ahead of the one being counted that variant 17 prefetches into L2.
constexpr int kPrefetchRounds = 2;

// [histogram-l2-prefetch]
/// Variant 17's launcher (the chapter's Launcher signature): variant 16's kernel with
/// sweep_tiles prefetching kPrefetchRounds rounds ahead.
void histogram_l2_prefetch(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_bins,
                           Workspace& ws, cudaStream_t stream) {
  launch_permute<kPrefetchRounds>(d_in, n, d_bins, ws, stream);
}
// [histogram-l2-prefetch]

}  // namespace histo
