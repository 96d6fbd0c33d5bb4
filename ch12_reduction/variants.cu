// The variant table of chapter 12. Every kernel file of kernels/ is compiled here, once
// (CMake lists them in reduction_kernels.cuh), so a launcher needs no declaration: adding a
// variant is one file in kernels/ and one row below.
#include <algorithm>
#include <climits>

#include "reduction_kernels.cuh"
#include "hb/random.h"
#include "reduction.h"

namespace ch12 {

const std::vector<Variant>& variants() {
  // clang-format off
  static const std::vector<Variant> table = {
    {"0", "cub", "CUB DeviceReduce::Sum (reference)",
     reduce0_cub, BlockRule::Library, 256, Result::Sum64},
    {"1", "two_pass", "two passes, shared-memory log step (listing 12.1)",
     reduce1_two_pass, BlockRule::PowerOfTwo, 256, Result::Sum64},
    {"2", "warp_sync", "warp-synchronous tail with __syncwarp (listing 12.2)",
     reduce2_warp_sync, BlockRule::PowerOfTwoFrom32, 256, Result::Sum64},
    {"3", "unrolled", "block size as template parameter, unrolled (listings 12.3, 12.4)",
     reduce3_unrolled, BlockRule::PowerOfTwo, 256, Result::Sum64},
    {"4", "single_pass", "single pass, last block adds the partials (listings 12.5, 12.6)",
     reduce4_single_pass, BlockRule::PowerOfTwo, 256, Result::Sum64},
    {"5", "atomics", "global atomics (listing 12.7)",
     reduce5_atomics, BlockRule::Any, 256, Result::Sum64},
    {"6", "any_block_size", "any block size (listing 12.8)",
     reduce6_any_block_size, BlockRule::Any, 256, Result::Sum64},
    {"7", "templated", "templated reduction type (listings 12.9, 12.10)",
     reduce7_templated, BlockRule::PowerOfTwo, 256, Result::Sum64},
    {"8a", "syncthreads_count", "count of x > 0 with __syncthreads_count (section 12.7)",
     reduce8a_syncthreads_count, BlockRule::Any, 256, Result::CountPositive},
    {"8b", "ballot", "count of x > 0 with __ballot_sync and __popc (section 12.7)",
     reduce8b_ballot, BlockRule::MultipleOf32, 256, Result::CountPositive},
    {"9", "shuffle", "warp shuffles, single pass (section 12.8)",
     reduce9_shuffle, BlockRule::MultipleOf32, 256, Result::Sum64},
    {"10a", "neighbored", "neighbored pairs, divergent (blog 1, int32 wraps)",
     reduce10a_neighbored, BlockRule::PowerOfTwoFrom32, 256, Result::Sum32Wrapped},
    {"10b", "neighbored_less", "neighbored pairs, less divergent (blog 1, int32 wraps)",
     reduce10b_neighbored_less, BlockRule::PowerOfTwoFrom32, 256, Result::Sum32Wrapped},
    {"10c", "global_memory", "log step in global memory (blog 2, int32 wraps)",
     reduce10c_global_memory, BlockRule::PowerOfTwoFrom32, 256, Result::Sum32Wrapped},
    {"10d", "shared_memory", "log step in shared memory (blog 2, int32 wraps)",
     reduce10d_shared_memory, BlockRule::PowerOfTwoFrom32, 256, Result::Sum32Wrapped},
    {"10e", "relaunch", "two per thread, host relaunches until one block (blog 3)",
     reduce10e_relaunch, BlockRule::PowerOfTwoFrom32, 256, Result::Sum64},
    {"10f", "recursive", "recursion by tail launch from the GPU (blog 1, dynamic parallelism)",
     reduce10f_recursive, BlockRule::PowerOfTwoFrom32, 256, Result::Sum64, {}, true},
    {"11a", "vectorized", "int4 loads, single pass, last block adds the partials",
     reduce11a_vectorized, BlockRule::PowerOfTwoFrom32, 256, Result::Sum64},
    {"11b", "vectorized_atomics", "int4 loads, single pass, one atomic per block",
     reduce11b_vectorized_atomics, BlockRule::PowerOfTwoFrom32, 256, Result::Sum64},
    {"12", "cg_reduce", "cooperative groups cg::reduce, int4 loads, single pass",
     reduce12_cg_reduce, BlockRule::PowerOfTwoFrom32, 256, Result::Sum64},
  };
  // clang-format on
  return table;
}

Scratch::Scratch(std::size_t max_n)
    : residency_(hb::Residency::of_current_device()) {
  // First-level partials: one per resident block for the grid-stride variants (up to 16
  // bytes each, variant 7), one int per 32 elements for 10a-10d, one long long or double per
  // 64 elements for 10e/10f (their smallest block of 32 threads covers 64 elements).
  const std::size_t resident = std::size_t(sm_count()) * 32;
  a_ = hb::ScratchBytes(std::max({resident * 16, 4 * ceil_div(max_n, 32),
                                  8 * ceil_div(max_n, 64)}) + 256);
  // Second level of the relaunching variants.
  b_ = hb::ScratchBytes(std::max(4 * ceil_div(ceil_div(max_n, 32), 32),
                                 8 * ceil_div(ceil_div(max_n, 64), 64)) + 4096);
  // Variant 10c's work array: half a block's elements per block.
  work_ = hb::ScratchBytes(4 * (max_n / 2 + 1024));
  // The counters must start at zero; the kernels leave them at zero.
  counters_ = hb::DeviceBuffer<unsigned>(1);
  accumulator_ = hb::DeviceBuffer<long long>(1);
  counters_.zero();
  accumulator_.zero();
  // CUB's temporary storage grows with n, so the size for max_n covers every smaller input.
  std::size_t cub_bytes = 0;
  HB_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, cub_bytes, static_cast<const int*>(nullptr),
                                       static_cast<long long*>(nullptr), max_n));
  cub_ = hb::ScratchBytes(std::max<std::size_t>(cub_bytes, 1));
  HB_CUDA_CHECK(cudaDeviceSynchronize());
}

int grid_stride_blocks(std::size_t n, int threads, const Scratch& scratch) {
  const std::size_t wanted = ceil_div(n, static_cast<std::size_t>(threads));
  const std::size_t resident = static_cast<std::size_t>(scratch.resident_blocks(threads));
  return static_cast<int>(std::max<std::size_t>(1, std::min(wanted, resident)));
}

std::vector<int> make_input(std::size_t n, std::uint64_t seed) {
  return hb::uniform_vector<int>(n, seed, INT_MIN, INT_MAX);
}

}  // namespace ch12
