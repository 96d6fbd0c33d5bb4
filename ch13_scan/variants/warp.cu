// The table of the warp-level scans (scan.h says how the tables are built).
#include "scan.h"
#include "warp_kernels.cuh"

namespace ch13 {

const std::vector<WarpVariant>& warp_variants() {
  // clang-format off
  static const std::vector<WarpVariant> table = {
    {"0", "cub", "CUB WarpScan, the reference",
     {warp0_cub<int>, warp0_cub<float>}, BlockRule::MultipleOf32},
    {"1", "conditional", "shared memory, lane tests (listing 13.13)",
     {warp1_conditional<int>, warp1_conditional<float>}, BlockRule::MultipleOf32},
    {"2", "zero_padded", "shared memory, zero-padded (listing 13.14)",
     {warp2_zero_padded<int>, warp2_zero_padded<float>}, BlockRule::MultipleOf32},
    {"3", "templated", "templated on padding, running sum in a register (listing 13.16)",
     {warp3_templated<int>, warp3_templated<float>}, BlockRule::MultipleOf32, 1, {}, 0, false,
     {"3u", "templated, no padding (listing 13.16, kZeroPad = false)",
      {warp3_templated_unpadded<int>, warp3_templated_unpadded<float>}}},
    {"4", "shuffle", "__shfl_up_sync (listing 13.17)",
     {warp4_shuffle<int>, warp4_shuffle<float>}, BlockRule::MultipleOf32},
    {"5", "shuffle_ptx", "shfl.sync.up with predicate, inline PTX (listing 13.17)",
     {warp5_shuffle_ptx<int>, warp5_shuffle_ptx<float>}, BlockRule::MultipleOf32},
    {"6", "cg_scan", "cooperative groups cg::inclusive_scan on a 32-thread tile",
     {warp6_cg_scan<int>, warp6_cg_scan<float>}, BlockRule::MultipleOf32},
  };
  // clang-format on
  return table;
}

}  // namespace ch13
