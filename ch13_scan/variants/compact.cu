// The table of the stream compactions (scan.h says how the tables are built).
#include "compact_kernels.cuh"
#include "scan.h"

namespace ch13 {

const std::vector<CompactVariant>& compact_variants() {
  // clang-format off
  static const std::vector<CompactVariant> table = {
    {"0a", "cpu", "CPU compaction, the reference (section 13.6)", nullptr, BlockRule::Cpu},
    {"0b", "cub", "CUB DeviceSelect::If, the library reference", compact0b_cub, BlockRule::Library},
    {"1", "two_level", "reduce, scan, scatter (listings 13.22, 13.23)",
     compact1_two_level, BlockRule::PowerOfTwoFrom32},
    {"2", "decoupled_lookback", "single pass, decoupled look-back (beyond the text)",
     compact2_decoupled_lookback, BlockRule::PowerOfTwo32To512, kLookbackItems, {}, 0, true},
    {"3", "bulk_copy_lookback", "single pass, one tile per block, staged by bulk copy (beyond the text)",
     compact3_bulk_copy_lookback, BlockRule::PowerOfTwoFrom32, kBulkItems, kBulkCopyNeeds,
     kBulkTileBytesPerThread, true},
    {"4", "bulk_copy_ring", "single pass, persistent blocks, a ring of tiles by bulk copy (beyond the text)",
     compact4_bulk_copy_ring, BlockRule::PowerOfTwo32To512, kCompactRingItems, kBulkCopyNeeds,
     kCompactRingBytesPerThread, true},
    {"5", "lane_runs", "single pass, a ring of tiles, each lane compacts a run of consecutive elements (beyond the text)",
     compact5_lane_runs, BlockRule::PowerOfTwo32To512, kLaneRunItems, kBulkCopyNeeds,
     kLaneRunBytesPerThread, true},
    {"6", "anchored_lookback", "single pass, variant 5 with each look-back anchored at the block's own last tile (beyond the text)",
     compact6_anchored_lookback, BlockRule::PowerOfTwo32To512, kLaneRunItems, kBulkCopyNeeds,
     kLaneRunBytesPerThread, true},
  };
  // clang-format on
  return table;
}

}  // namespace ch13
