// The tables of chapter 13. Each row's "changed" paragraph is also the first paragraph of the
// row's header file and of its section in README.md; a CPU test checks that the three agree.
#include "scan_variants.h"

#include <cctype>

#include "hb/capability.h"
#include "hb/error.h"
#include "hb/variants.h"
#include "scan_launchers.h"

namespace ch13 {

std::string VariantInfo::program() const { return std::string(prefix) + id + "_" + name; }

std::string VariantInfo::header() const {
  if (impl == Impl::Cpu) return program() + ".h";
  const std::string table = prefix;
  const std::string folder = table == "scan" ? "device" : table;
  const std::string number = std::string(id).size() == 1 || !std::isdigit(static_cast<unsigned char>(id[1]))
                                 ? "0" + std::string(id) : std::string(id);
  return "kernels/" + folder + "/" + number + "_" + name + ".cuh";
}

std::string VariantInfo::label() const {
  const std::string table = std::string(prefix) == "compact" ? "compaction" : prefix;
  return table + " variant " + id;
}

std::size_t SegmentVariant::segment(int block_threads) const {
  return std::string(prefix) == "warp" ? 32 : std::size_t(block_threads) * elements_per_thread;
}

bool VariantInfo::accepts_threads_here(int n) const {
  return accepts_threads(n) && fits_shared_memory(tile_bytes_per_thread, n);
}

namespace {
// What variant 7 and compaction 3 do below compute capability 9.0, where there is no bulk copy.
constexpr const char* kStagedByLoads =
    "every thread stages 16-byte vectors of the tile (no bulk-copy engine before 9.0)";
}  // namespace

// clang-format off
const std::vector<ScanVariant>& scan_variants() {
  static const std::vector<ScanVariant> table = {
    {{"scan", "0a", "cpu", "CPU scan, the reference (listings 13.1, 13.2)",
     "Variant 0a is the reference. It is the serial scan of listings 13.1 and 13.2 on the "
     "CPU: one loop that keeps a running sum, with two lines swapped for the exclusive "
     "scan. Both return the total, and both work in place (`out == in`): the exclusive "
     "scan reads `in[i]` into a temporary before it overwrites `out[i]`, the book's "
     "footnote made into code. Every GPU result of the chapter is checked against it (for "
     "float inputs, against the same loop run in double precision).",
      Impl::Cpu, BlockRule::Cpu, 0}, nullptr, nullptr},
    {{"scan", "0b", "cub", "CUB DeviceScan, the library reference",
     "Compared with variant 0a: the library. CUB's `cub::DeviceScan::InclusiveSum` and "
     "`ExclusiveSum` from the CUDA Toolkit scan in one pass over the data with decoupled "
     "look-back (after a small kernel that initializes its tile states), tuned per "
     "architecture. Every later variant is measured against it as \"% of CUB\", on the "
     "same buffers in the same run.",
      Impl::Library, BlockRule::Library, 0}, scan0b_cub<int>, scan0b_cub<float>},
    {{"scan", "1", "hillis_steele", "Hillis-Steele, double-buffered, recursive block sums (scan post)",
     "Compared with variant 0b: we write the scan ourselves, starting from the "
     "step-efficient algorithm of Hillis and Steele (the scan post). Each block loads one "
     "element per thread into shared memory and runs log2(blockDim) steps; in step s every "
     "thread at or above s adds the value s places to its left. Two buffers in shared "
     "memory alternate as source and destination (double buffering), so no thread "
     "overwrites a value another thread still has to read, and one barrier per step "
     "suffices. Each block writes its scanned elements and its total; the totals are "
     "scanned by the same code, recursively, until one block is left, and a last kernel "
     "adds to each block's elements the scanned total of the blocks before it. Any "
     "multiple of 32 threads per block.",
      Impl::Ours, BlockRule::MultipleOf32, 256}, scan1_hillis_steele<int>, scan1_hillis_steele<float>},
    {{"scan", "2", "blelloch", "Blelloch up-sweep/down-sweep, recursive block sums (13.2, scan post)",
     "Compared with variant 1: the same recursive structure, but each block scans with "
     "Blelloch's work-efficient algorithm (section 13.2, the scan post). Each thread loads "
     "two elements; the up-sweep builds a balanced tree of partial sums in place (figures "
     "13.2 and 13.3), the root is replaced by the identity, and the down-sweep pushes the "
     "prefixes back down to the leaves (figures 13.4 and 13.5), which gives the exclusive "
     "scan. A block of B threads scans 2B elements with 2(2B - 1) additions in 2 log2(2B) "
     "steps, where Hillis-Steele needs about (2B) log2(2B). The block size must be a power "
     "of two.",
      Impl::Ours, BlockRule::PowerOfTwoFrom32, 256}, scan2_blelloch<int>, scan2_blelloch<float>},
    {{"scan", "3", "scan_then_fan", "scan-then-fan, recursive (listings 13.3-13.6)",
     "Compared with variant 2: the book's first CUDA scan, scan-then-fan (section 13.4.1, "
     "listings 13.3 to 13.6). Within a block, every warp scans its 32 values in shared "
     "memory (the warp scan of section 13.5), one warp scans the warps' totals, and each "
     "warp adds the total of the warps before it (figure 13.12). In global memory the same "
     "pattern repeats (figure 13.13): a grid-stride kernel scans each block-sized tile and "
     "writes the tile's total (the spine), the spine is scanned recursively, and a last "
     "kernel fans the scanned totals out over the tiles: 4N global memory accesses at the "
     "top level. The book's fan kernel writes past the end of the array when N is not a "
     "multiple of the block size; ours checks the index. Any multiple of 32 threads per "
     "block.",
      Impl::Ours, BlockRule::MultipleOf32, 256}, scan3_scan_then_fan<int>, scan3_scan_then_fan<float>},
    {{"scan", "4", "reduce_then_scan", "reduce-then-scan, recursive (listings 13.7-13.9)",
     "Compared with variant 3: the first pass only reduces each tile (listing 13.7, with "
     "the block reduction of listing 12.3) instead of scanning it and writing the result, "
     "so it writes nothing but one total per tile. The totals are scanned recursively "
     "(listing 13.9), and the second pass scans each tile again, starting from the tile's "
     "base sum (listing 13.8): 3N global memory accesses at the top level instead of 4N. "
     "The block size must be a power of two (the unrolled block reduction).",
      Impl::Ours, BlockRule::PowerOfTwoFrom32, 256}, scan4_reduce_then_scan<int>, scan4_reduce_then_scan<float>},
    {{"scan", "5a", "two_level", "two-level reduce-then-scan (listings 13.10-13.12)",
     "Compared with variant 4: Merrill's two-level reduce-then-scan (section 13.4.3, "
     "listings 13.10 to 13.12). Instead of one partial per tile there is a small fixed "
     "number of partials, one per block that fits on the GPU at once. Each block first "
     "reduces a whole subarray of many tiles (listing 13.10), a single block scans the few "
     "partials, and each block then scans its subarray tile by tile, carrying the running "
     "total from one tile to the next (listing 13.11). Three launches whatever N is, no "
     "recursion, and the partials fit in a small fixed buffer. The block scan is listing "
     "13.3's with the plain (lane-test) warp scan. The block size must be a power of two.",
      Impl::Ours, BlockRule::PowerOfTwoFrom32, 256}, scan5a_two_level<int>, scan5a_two_level<float>},
    {{"scan", "5b", "two_level_zero_pad", "two-level, zero-padded warp scans (listings 13.14-13.16)",
     "Compared with variant 5a: the warp scans read zeros instead of testing their lane "
     "(section 13.5.1, listings 13.14 to 13.16). Each warp's 32 values in shared memory "
     "are preceded by 16 zeros (figure 13.15: index 49 warp + 16 + lane), so a lane near 0 "
     "that reads up to 16 places to its left gets 0: no lane test and no divergence, for "
     "17 more words of shared memory per warp.",
      Impl::Ours, BlockRule::PowerOfTwoFrom32, 256}, scan5b_two_level_zero_pad<int>, scan5b_two_level_zero_pad<float>},
    {{"scan", "5c", "two_level_shuffle", "two-level, warp-shuffle block scan (listings 13.17, 13.18)",
     "Compared with variant 5b: the warp scan exchanges registers with shuffles instead of "
     "going through shared memory (section 13.5.3, listings 13.17 and 13.18). Each step is "
     "one shuffle that also says whether the source lane exists and one add predicated on "
     "that (the book's inline PTX, warp variant 5); shared memory holds only the 32 warp "
     "totals, and the block scan hands each thread its inclusive and exclusive prefix and "
     "the tile's total in registers.",
      Impl::Ours, BlockRule::PowerOfTwoFrom32, 256}, scan5c_two_level_shuffle<int>, scan5c_two_level_shuffle<float>},
    {{"scan", "6", "decoupled_lookback", "single pass, decoupled look-back (beyond the text)",
     "Compared with variant 5c: one pass over the data, beyond the text: the decoupled "
     "look-back of Merrill and Garland (2016). As many blocks as fit on the GPU take "
     "tiles, one after another, from a global counter. A block loads its tile with 16-byte "
     "loads (16 elements per thread), scans it in registers with warp shuffles, and "
     "publishes the tile's total in a status word. Its first warp then looks back over the "
     "status words of the tiles before it, 32 at a time: a predecessor that has published "
     "its inclusive prefix ends the look-back, one that has published only its total is "
     "added and the look-back goes on. The block publishes the tile's inclusive prefix and "
     "writes the tile: 2N global memory accesses, the minimum, in a single launch. The "
     "block size must be a power of two from 32 to 1024.",
      Impl::Ours, BlockRule::PowerOfTwoFrom32, 256}, scan6_decoupled_lookback<int>, scan6_decoupled_lookback<float>},
    {{"scan", "7", "bulk_copy_lookback", "single pass, one tile per block, staged by bulk copy (beyond the text)",
     "Compared with variant 6: the same look-back, but every block scans one tile, and the "
     "tile reaches shared memory in one bulk copy (Hopper's tensor memory accelerator, "
     "TMA) instead of through registers. In variant 6 a few blocks stay on the GPU for the "
     "whole launch and hold their tiles in registers, which caps the tiles in flight per "
     "SM, and a block that waits in its look-back has no loads in flight. Here one thread "
     "of each block takes a ticket and starts a bulk copy of that tile (32 elements per "
     "thread) into shared memory, and the block waits on the copy's barrier. A tile in "
     "flight costs no registers and 32 KB of shared memory at 256 threads, so six blocks "
     "share an SM: while some look back, the copies of the others keep the memory busy. "
     "The threads read the tile from shared memory twice, once to sum it (the aggregate "
     "the look-back publishes) and once to scan and store it, row by row as in variant 6. "
     "The look-back polls without back-off. The block size must be a power of two from 32 "
     "to 1024.",
      Impl::Ours, BlockRule::PowerOfTwoFrom32, 256, {90, kStagedByLoads}, kBulkTileBytesPerThread},
     scan7_bulk_copy_lookback<int>, scan7_bulk_copy_lookback<float>},
  };
  return table;
}

const std::vector<CompactVariant>& compact_variants() {
  static const std::vector<CompactVariant> table = {
    {{"compact", "0a", "cpu", "CPU compaction, the reference (section 13.6)",
     "Variant 0a is the reference: the serial loop that copies every odd element to the "
     "next free output slot and counts them (section 13.6). It works in place too, because "
     "it never writes ahead of where it reads.",
      Impl::Cpu, BlockRule::Cpu, 0}, nullptr},
    {{"compact", "0b", "cub", "CUB DeviceSelect::If, the library reference",
     "Compared with variant 0a: CUB's `cub::DeviceSelect::If` with the same predicate, the "
     "library reference of the compaction table, measured on the same buffers in the same "
     "run.",
      Impl::Library, BlockRule::Library, 0}, compact0b_cub},
    {{"compact", "1", "two_level", "reduce, scan, scatter (listings 13.22, 13.23)",
     "Compared with variant 0b: the book's stream compaction (section 13.6, listings 13.22 "
     "and 13.23), built on the two-level reduce-then-scan of scan variant 5b. A reduction "
     "counts the odd elements of each subarray, one block scans the counts into each "
     "subarray's first output index, and the last pass scans the predicates of each tile, "
     "writes every odd element to its index, and writes the count. The block size must be "
     "a power of two.",
      Impl::Ours, BlockRule::PowerOfTwoFrom32, 256}, compact1_two_level},
    {{"compact", "2", "decoupled_lookback", "single pass, decoupled look-back (beyond the text)",
     "Compared with variant 1: a single pass built on scan variant 6's decoupled "
     "look-back. Each block loads its tile with 16-byte loads, counts and scans the "
     "predicates in registers, and stages its odd elements contiguously in shared memory "
     "while its first warp looks back for the number of odd elements before the tile; then "
     "the block writes them with coalesced stores. It reads the N elements once and writes "
     "only the selected ones. The block size must be a power of two from 32 to 512.",
      Impl::Ours, BlockRule::PowerOfTwo32To512, 256}, compact2_decoupled_lookback},
    {{"compact", "3", "bulk_copy_lookback", "single pass, one tile per block, staged by bulk copy (beyond the text)",
     "Compared with variant 2: scan variant 7's tiles. Every block compacts one tile, "
     "which reaches shared memory in one bulk copy; the threads count the tile's odd "
     "elements (the aggregate of the look-back) in a first pass over shared memory. In the "
     "second pass each warp compacts its own part of the tile in place, row by row: the "
     "odd elements of a row go to the front of the warp's part, below anything it has not "
     "read yet. Then each warp copies its run of odd elements to the output, after those "
     "of the warps before it and of the tiles before the tile. No registers hold the tile "
     "while it is in flight and no second staging area is needed, so six blocks of 256 "
     "threads share an SM. The block size must be a power of two from 32 to 1024.",
      Impl::Ours, BlockRule::PowerOfTwoFrom32, 256, {90, kStagedByLoads}, kBulkTileBytesPerThread},
     compact3_bulk_copy_lookback},
  };
  return table;
}

const std::vector<SegmentVariant>& warp_variants() {
  static const std::vector<SegmentVariant> table = {
    {{"warp", "0", "cub", "CUB WarpScan, the reference",
     "Variant 0 is the reference of the warp level: CUB's `cub::WarpScan`, checked against "
     "the CPU scan of each 32-element segment. The warp-level test kernel gives each warp "
     "32 consecutive elements (zeros past the end of the input), scans them, and writes "
     "them back.",
      Impl::Library, BlockRule::MultipleOf32, 256}, warp0_cub<int>, warp0_cub<float>, 1},
    {{"warp", "1", "conditional", "shared memory, lane tests (listing 13.13)",
     "Compared with variant 0: listing 13.13, the warp scan of the Kogge-Stone circuit "
     "(figure 13.11) in shared memory. In five steps each lane adds the value 1, 2, 4, 8 "
     "and 16 places to its left, if its lane is at least that far from lane 0. The book "
     "ran the 32 lanes without any synchronization (warp-synchronous code through a "
     "`volatile` pointer); since Volta the lanes of a warp may run apart, so each step "
     "reads, synchronizes with `__syncwarp()`, writes, and synchronizes again.",
      Impl::Ours, BlockRule::MultipleOf32, 256}, warp1_conditional<int>, warp1_conditional<float>, 1},
    {{"warp", "2", "zero_padded", "shared memory, zero-padded (listing 13.14)",
     "Compared with variant 1: zero padding (section 13.5.1, listing 13.14). 16 zeros "
     "precede each warp's values in shared memory, so every lane can read 1 to 16 places "
     "to its left, and the lanes near 0 add zeros: the lane test and its divergence go "
     "away.",
      Impl::Ours, BlockRule::MultipleOf32, 256}, warp2_zero_padded<int>, warp2_zero_padded<float>, 1},
    {{"warp", "3", "templated", "templated on padding, running sum in a register (listing 13.16)",
     "Compared with variant 2: the templated form (listings 13.15 and 13.16) that serves "
     "both layouts. `bool kZeroPad` picks the padded index (49 warp + 16 + lane) or the "
     "plain one and keeps or drops the lane test, and the running value stays in a "
     "register, so each step loads only the neighbor and stores once. The table's row is "
     "the padded instantiation; the instruction counts show both.",
      Impl::Ours, BlockRule::MultipleOf32, 256}, warp3_templated<int>, warp3_templated<float>, 1},
    {{"warp", "4", "shuffle", "__shfl_up_sync (listing 13.17)",
     "Compared with variant 3: registers instead of shared memory (section 13.5.3, listing "
     "13.17). `__shfl_up_sync(mask, v, d)` returns the v of the lane d places down; each "
     "of the five steps is one shuffle and an add for the lanes at or above d. No shared "
     "memory and no `__syncwarp()`. The book's `__shfl_up` without a mask no longer "
     "exists.",
      Impl::Ours, BlockRule::MultipleOf32, 256}, warp4_shuffle<int>, warp4_shuffle<float>, 1},
    {{"warp", "5", "shuffle_ptx", "shfl.sync.up with predicate, inline PTX (listing 13.17)",
     "Compared with variant 4: the book's inline-PTX form of the same step (listing "
     "13.17). `shfl.sync.up.b32 r|p` also returns a predicate that is true when the source "
     "lane exists, and `@p add` adds only then: two instructions per step and no lane "
     "comparison. We add the `.sync` and the member mask without which ptxas rejects "
     "`shfl` for sm_70 and later, and a float version.",
      Impl::Ours, BlockRule::MultipleOf32, 256}, warp5_shuffle_ptx<int>, warp5_shuffle_ptx<float>, 1},
  };
  return table;
}

const std::vector<SegmentVariant>& block_variants() {
  static const std::vector<SegmentVariant> table = {
    {{"block", "0", "cub", "CUB BlockScan, the reference",
     "Variant 0 is the reference of the block level: CUB's `cub::BlockScan` (its "
     "warp-scans algorithm), checked against the CPU scan of each tile. The block-level "
     "test kernel gives each block one tile of consecutive elements (zeros past the end of "
     "the input), scans it, and writes it back.",
      Impl::Library, BlockRule::PowerOfTwoFrom32, 256}, block0_cub<int>, block0_cub<float>, 1},
    {{"block", "1", "hillis_steele", "Hillis-Steele, double-buffered (scan post)",
     "Compared with variant 0: the Hillis-Steele scan of a block in shared memory with two "
     "buffers (the scan post): log2(blockDim) steps; in each, every thread reads from one "
     "buffer and writes the other, so no thread overwrites a value another still has to "
     "read, and one barrier per step suffices.",
      Impl::Ours, BlockRule::MultipleOf32, 256}, block1_hillis_steele<int>, block1_hillis_steele<float>, 1},
    {{"block", "2", "blelloch", "Blelloch up-sweep/down-sweep (13.2, scan post)",
     "Compared with variant 1: Blelloch's work-efficient up-sweep and down-sweep (section "
     "13.2): each thread handles two elements, the tree of partial sums is built in place "
     "and pushed back down. About half the additions, but twice the steps and barriers.",
      Impl::Ours, BlockRule::PowerOfTwoFrom32, 256}, block2_blelloch<int>, block2_blelloch<float>, 2},
    {{"block", "3", "scan_then_fan", "warp scans, then the warps' totals (listing 13.3)",
     "Compared with variant 2: scan-then-fan within the block (listing 13.3, figure "
     "13.12): each warp scans its 32 values with the warp scan of listing 13.16, the "
     "warps' totals are scanned by one warp, and each warp adds its predecessors' total.",
      Impl::Ours, BlockRule::MultipleOf32, 256}, block3_scan_then_fan<int>, block3_scan_then_fan<float>, 1},
    {{"block", "4", "zero_padded", "listing 13.3 on the zero-padded layout (listing 13.15)",
     "Compared with variant 3: the same block scan on the zero-padded layout (figure "
     "13.15, listing 13.15), with the warp scan that needs no lane test.",
      Impl::Ours, BlockRule::MultipleOf32, 256}, block4_zero_padded<int>, block4_zero_padded<float>, 1},
    {{"block", "5", "shuffle", "warp shuffles (listing 13.18)",
     "Compared with variant 4: the block scan built on warp shuffles (listing 13.18): each "
     "warp scans its values in registers with listing 13.17's predicated shuffle, one warp "
     "scans the warps' totals the same way, and shared memory holds only 32 totals.",
      Impl::Ours, BlockRule::MultipleOf32, 256}, block5_shuffle<int>, block5_shuffle<float>, 1},
  };
  return table;
}
// clang-format on

const ScanVariant& find_scan_variant(std::string_view id) {
  return hb::find_row(scan_variants(), id, "--variant", "scan ");
}

const CompactVariant& find_compact_variant(std::string_view id) {
  return hb::find_row(compact_variants(), id, "--variant", "compaction ");
}

std::string scan_variant_ids() { return hb::ids_of(scan_variants()); }
std::string compact_variant_ids() { return hb::ids_of(compact_variants()); }

}  // namespace ch13
