// The chapter's variant table. Each `changed` text sums up in one line the paragraph
// "Compared with variant N-1: ..." that opens the variant's header.
#include "histogram_variants.h"

#include "hb/error.h"
#include "histogram_launchers.h"

namespace histo {

// [histogram-variant-table]
namespace {
// Variants 8, 13 and 14 keep 64 KiB of counters and 1 KiB of bins per block: more than a Turing
// GPU grants a block (64 KiB, static shared memory included). There they run blocks of half the
// warps, each warp with the same columns.
constexpr hb::Needs kCounterBlocks{
    0, "blocks of half the warps, 32 KiB of counters (a block may have only 64 KiB on 7.5)",
    kCounterBlockSharedBytes};
}  // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = {
      {0, "cpu_serial", "CPU, serial (the post's loop; the reference)", "histogram_cpu.cpp",
       "The reference: one loop over the bytes, `bins[in[i]]++`.", Role::Reference,
       histogram_cpu_serial, nullptr},
      {1, "cpu_threads", "CPU, all cores, private histograms merged", "histogram_cpu.cpp",
       "Compared with variant 0: the input is cut into one share per core, each thread counts "
       "into private histograms, and the histograms are added at the end.",
       Role::Variant, histogram_cpu_all_cores, nullptr},
      {2, "naive", "GPU naive: bins[b]++ on global memory (a race, a lesson)",
       "histogram2_naive.cuh",
       "Compared with variant 1: one GPU thread per byte increments its bin in global memory "
       "with a plain `++`, and increments are lost when threads race.",
       Role::Lesson, nullptr, histogram_naive},
      {3, "global_atomics", "method 1: one global atomicAdd per byte",
       "histogram3_global_atomics.cuh",
       "Compared with variant 2: the `++` becomes `atomicAdd(&bins[b], 1)`, so no count is "
       "lost, at the price of contention on each bin's address.",
       Role::Variant, nullptr, histogram_global_atomics},
      {4, "shared_privatized", "shared-memory bins per block, merged at the end",
       "histogram4_shared_privatized.cuh",
       "Compared with variant 3: each block counts into its own bins in shared memory and adds "
       "them to the global bins once, one atomicAdd per bin and block.",
       Role::Variant, nullptr, histogram_shared_privatized},
      {5, "shared_unrolled", "variant 4 with 16-byte loads, 16 bytes per step",
       "histogram5_shared_unrolled.cuh",
       "Compared with variant 4: each thread loads 16 bytes at once and counts all of them "
       "before the next load.",
       Role::Variant, nullptr, histogram_shared_unrolled},
      {6, "shared_offset", "variant 5 with 8 padded copies of the bins per block",
       "histogram6_shared_offset.cuh",
       "Compared with variant 5: the block keeps 8 copies of its bins at offsets that put the "
       "copies of one bin in different banks, and lane l counts into copy l % 8.",
       Role::Variant, nullptr, histogram_shared_offset},
      {7, "per_thread", "method 2: a private histogram per thread, then a reduction",
       "histogram7_per_thread.cuh",
       "Compared with variant 6: no atomics while counting; every thread counts into 256 "
       "private counters, and a second kernel (chapter 12's reduction) adds them up.",
       Role::Variant, nullptr, histogram_per_thread},
      {8, "per_thread_packed", "method 2 with 8-bit counters packed in shared memory",
       "histogram8_per_thread_packed.cuh",
       "Compared with variant 7: each thread's histogram is 256 8-bit counters in its own bank "
       "of shared memory, merged by its warp into registers every 240 bytes.",
       Role::Variant, nullptr, histogram_per_thread_packed, kCounterBlocks},
      {9, "sort_reduce", "method 3: sort the bytes, then reduce by key (CUB)",
       "histogram9_sort_reduce.cuh",
       "Compared with variant 8: no histogram while reading; the bytes are sorted and each run "
       "of equal keys is counted by a reduction by key.",
       Role::Variant, nullptr, histogram_sort_reduce},
      {10, "cub", "CUB DeviceHistogram::HistogramEven (the library reference)",
       "histogram10_cub.cuh",
       "Compared with variant 9: the CUDA Toolkit's own histogram, the reference of the "
       "\"% of CUB\" column.",
       Role::Library, nullptr, histogram_cub},
      {11, "warp_private", "shared bins per warp, 16-byte tiles in flight, persistent grid",
       "histogram11_warp_private.cuh",
       "Compared with variant 10: each warp counts into its own shared-memory bins, from tiles "
       "of 16-byte loads with the next tile in flight, on a grid sized by occupancy.",
       Role::Variant, nullptr, histogram_warp_private},
      {12, "warp_aggregated", "variant 11 with __match_any_sync warp aggregation",
       "histogram12_warp_aggregated.cuh",
       "Compared with variant 11: lanes holding equal values are found with "
       "`__match_any_sync`, and one of them adds their number with a single atomic.",
       Role::Variant, nullptr, histogram_warp_aggregated},
      {13, "lane_columns_atomic", "a 16-bit column per lane, fire-and-forget atomics",
       "histogram13_lane_columns_atomic.cuh",
       "Compared with variant 12: every lane counts into its own column of 16-bit counters "
       "(variant 8's layout, 16 bits wide, variant 11's tiles), with an atomic on its own word.",
       Role::Variant, nullptr, histogram_lane_columns_atomic, kCounterBlocks},
      {14, "lane_columns_pairs", "variant 13 with plain loads and stores, two bytes a step",
       "histogram14_lane_columns_pairs.cuh",
       "Compared with variant 13: no atomics; each lane loads the words of two bytes, then "
       "stores both, the second carrying both increments when the words are the same.",
       Role::Variant, nullptr, histogram_lane_columns_pairs, kCounterBlocks},
  };
  return table;
}
// [histogram-variant-table]

const Variant& find_variant(int id) {
  const auto& all = variants();
  if (id < 0 || id >= int(all.size()))
    throw hb::UsageError("variant " + std::to_string(id) + ": unknown (valid: 0.." +
                         std::to_string(all.size() - 1) + ")");
  return all[std::size_t(id)];
}

const Variant& library_variant() {
  for (const auto& v : variants())
    if (v.role == Role::Library) return v;
  throw std::logic_error("histo: the variant table has no library row");
}

}  // namespace histo
