// The table of the block-level scans (scan.h says how the tables are built).
#include "block_kernels.cuh"
#include "scan.h"

namespace ch13 {

const std::vector<BlockVariant>& block_variants() {
  // clang-format off
  static const std::vector<BlockVariant> table = {
    {"0", "cub", "CUB BlockScan, the reference",
     {block0_cub<int>, block0_cub<float>}, BlockRule::PowerOfTwoFrom32},
    {"1", "hillis_steele", "Hillis-Steele, double-buffered (scan post)",
     {block1_hillis_steele<int>, block1_hillis_steele<float>}, BlockRule::MultipleOf32},
    {"2", "blelloch", "Blelloch up-sweep/down-sweep (13.2, scan post)",
     {block2_blelloch<int>, block2_blelloch<float>}, BlockRule::PowerOfTwoFrom32, 2},
    {"3", "scan_then_fan", "warp scans, then the warps' totals (listing 13.3)",
     {block3_scan_then_fan<int>, block3_scan_then_fan<float>}, BlockRule::MultipleOf32},
    {"4", "zero_padded", "listing 13.3 on the zero-padded layout (listing 13.15)",
     {block4_zero_padded<int>, block4_zero_padded<float>}, BlockRule::MultipleOf32},
    {"5", "shuffle", "warp shuffles (listing 13.18)",
     {block5_shuffle<int>, block5_shuffle<float>}, BlockRule::MultipleOf32},
    {"6", "cg_scan", "cooperative groups: cg::inclusive_scan per warp, then of the warps' totals",
     {block6_cg_scan<int>, block6_cg_scan<float>}, BlockRule::MultipleOf32},
  };
  // clang-format on
  return table;
}

}  // namespace ch13
