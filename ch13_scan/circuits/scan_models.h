/// \file
/// \brief The chapter's CUDA scans as CPU models, for the figures that show how they work:
///        Blelloch's up-sweep and down-sweep (figures 13.2 to 13.5) as block variant 2 indexes
///        them, the block scan of listing 13.3 (figure 13.12), the recursive scan-then-fan and
///        reduce-then-scan of listings 13.5 and 13.9 (figures 13.13 and 13.14), and the
///        zero-padded layout of listing 13.15 (figure 13.15).
///
/// Each model follows the index arithmetic of its kernel, line by line, and names those lines
/// (Model::kernel_lines); a CPU test checks that the lines are still in the kernel's file, so a
/// kernel cannot change how it indexes without its figure being drawn again. The models run on
/// symbolic values (Span: the range of inputs a value sums), so that a test can check that every
/// output is the right prefix, each input counted once, and on numbers, for the figures.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "scan_networks.h"

namespace ch13 {

/// A symbolic value: the sum \f$x_{lo} \oplus \dots \oplus x_{hi}\f$ of consecutive inputs, or
/// the identity when empty (lo > hi).
struct Span {
  int lo = 1;  ///< first input
  int hi = 0;  ///< last input
  bool empty() const { return lo > hi; }
  bool operator==(const Span& o) const {
    return (empty() && o.empty()) || (lo == o.lo && hi == o.hi);
  }
  bool operator!=(const Span& o) const { return !(*this == o); }
};

/// The identity (an empty span).
constexpr Span kEmptySpan{1, 0};
/// Input \p i alone.
inline Span input_span(int i) { return {i, i}; }
/// The prefix \f$x_0 \oplus \dots \oplus x_i\f$ (empty for i < 0).
inline Span prefix_span(int i) { return i < 0 ? kEmptySpan : Span{0, i}; }
/// \p left \f$\oplus\f$ \p right when \p right starts where \p left ends (or either is the
/// identity); otherwise an error naming both, in \p error, and the identity.
Span join(Span left, Span right, std::string* error);
/// "x3..x7", "x5", or "0" for the identity.
std::string span_text(Span s);

/// Lines of one kernel file, verbatim (leading and trailing blanks aside).
struct SourceLines {
  std::string file;                ///< relative to ch13_scan/
  std::vector<std::string> lines;  ///< lines a model follows
};

/// Where a model comes from: the lines of the kernels whose index arithmetic it follows.
struct Model {
  std::vector<SourceLines> sources;  ///< per kernel file
};

// ---------------------------------------------------------------------------------------
// Figures 13.2 to 13.5: Blelloch's scan as block variant 2 runs it.

/// One thread's work in one step of block_scan_blelloch: in the up-sweep s[right] += s[left];
/// in the down-sweep s[left] and s[right] become s[right] and s[left] + s[right].
struct SweepOp {
  int step;    ///< 1, 2, ... within its sweep
  int thread;  ///< threadIdx.x
  int left;    ///< offset (2 tid + 1) - 1
  int right;   ///< offset (2 tid + 2) - 1
  int offset;  ///< the kernel's offset in this step
};

/// The steps of block_scan_blelloch for a block of \p threads threads (2 threads elements).
struct BlellochModel : Model {
  int threads = 0;            ///< blockDim.x
  int n = 0;                  ///< elements, 2 threads
  std::vector<SweepOp> up;    ///< the up-sweep, in step order
  std::vector<SweepOp> down;  ///< the down-sweep, after s[n - 1] is cleared, in step order
};

/// The model of block_scan_blelloch (kernels/block/02_blelloch.cuh) for \p n elements, a block of
/// n / 2 threads.
/// \param n the elements, a power of two
BlellochModel blelloch_model(int n);

/// The array after each step of \p m run on \p x (m.n values): the input, then one row per
/// up-sweep step, the row with the last element cleared, then one row per down-sweep step;
/// the last row is the exclusive scan.
/// \param m the model
/// \param x the input
std::vector<std::vector<long long>> blelloch_rows(const BlellochModel& m,
                                                  const std::vector<long long>& x);

/// What running a model on symbolic inputs found.
struct ModelCheck {
  bool ok = false;    ///< every output is the right prefix, every input counted once
  std::string error;  ///< the first problem
};

/// Runs \p m on symbolic inputs: every operation must join adjacent spans, no step may write an
/// element twice or read one another thread of the step writes, and the result must be the
/// exclusive scan.
/// \param m the model
ModelCheck check_blelloch(const BlellochModel& m);

/// One node of the balanced tree the up-sweep builds (figure 13.3): a leaf (an input) or the
/// sum of two nodes.
struct TreeNode {
  Span span;           ///< the inputs it sums
  int element = 0;     ///< the array element that holds it (its rightmost input)
  int left = -1;       ///< child nodes, -1 for a leaf
  int right = -1;      ///< child nodes, -1 for a leaf
  long long up = 0;    ///< its value after the up-sweep
  long long down = 0;  ///< the value the down-sweep hands it: the sum of every input before it
};

/// The tree of \p m (leaves first, then the up-sweep's nodes in step order; the last node is
/// the root), derived from which element each operation reads and writes, with the values of
/// both sweeps for the input \p x.
/// \param m the model
/// \param x the input
std::vector<TreeNode> blelloch_tree(const BlellochModel& m, const std::vector<long long>& x);

/// Bank conflicts of one step of block_scan_blelloch (4-byte words, 32 banks).
struct BankStep {
  std::string sweep;  ///< "up" or "down"
  int step = 0;       ///< within the sweep
  int offset = 0;     ///< the kernel's offset
  int threads = 0;    ///< threads that work in the step
  int warps = 0;      ///< warps with at least one such thread
  int ways = 0;       ///< the worst conflict of one warp's access: words in one bank
  int passes = 0;     ///< shared-memory passes of one access, summed over the warps
};

/// The bank conflicts of every step of block_scan_blelloch for \p threads threads: each access
/// of a step (s[left], s[right]) has the same pattern, so one access stands for all.
/// \param threads blockDim.x, a power of two
std::vector<BankStep> blelloch_banks(int threads);

/// The bank table of the chapter page (Markdown) for a block of \p threads threads.
/// \param threads blockDim.x, a power of two
std::string bank_table_markdown(int threads);

// ---------------------------------------------------------------------------------------
// Figure 13.12: the block scan of listing 13.3.

/// What each thread and each slot of the warps' totals holds after each step of scan_block.
struct BlockScanModel : Model {
  int threads = 0;                     ///< blockDim.x
  std::vector<Span> after_warp_scans;  ///< step 1: each thread's prefix within its warp
  std::vector<Span> totals;            ///< warp_partials after the warps wrote their totals
  std::vector<Span> scanned_totals;    ///< warp_partials after warp 0 scanned them
  std::vector<Span> result;            ///< step 3: each thread's prefix within the block
  std::string error;                   ///< the first problem the run found, if any
};

/// The model of scan_block<T, false> (kernels/block/03_scan_then_fan.cuh) with the warp scan of
/// kernels/warp/03_templated.cuh.
/// \param threads blockDim.x, a multiple of 32 up to 1024
BlockScanModel scan_block_model(int threads);

/// The model of warp_scan<T, kZeroPad> on the 32 slots at \p base of \p s: in each step, each
/// lane that is active reads the slot \p offset to its left, then writes its sum.
/// \param s shared memory
/// \param base lane 0's slot
/// \param zero_pad whether the lane test is dropped (the slots before base must hold zeros)
/// \param error set to the first problem, if any
void warp_scan_model(std::vector<Span>& s, int base, bool zero_pad, std::string* error);

// ---------------------------------------------------------------------------------------
// Figures 13.13 and 13.14: the recursive device scans.

/// A run of a recursive device scan on n symbolic inputs.
struct DeviceScanModel : Model {
  std::string name;                  ///< "scan-then-fan" or "reduce-then-scan"
  std::size_t n = 0;                 ///< inputs
  int b = 0;                         ///< the block size: elements per tile
  std::vector<std::size_t> levels;   ///< elements scanned at each level: n, tiles, ...
  std::vector<Span> result;          ///< the output (inclusive)
  std::vector<Span> tile_scans;      ///< scan-then-fan: the tiles scanned, before the fan
  std::vector<Span> tile_totals;     ///< the tiles' totals (the spine), at the top level
  std::vector<Span> scanned_totals;  ///< the totals after their own scan
  std::size_t top_reads = 0;         ///< global reads of the n-element arrays at the top level
  std::size_t top_writes = 0;        ///< global writes of the n-element arrays at the top level
  std::string error;                 ///< the first problem the run found, if any
};

/// The model of scan_fan (listings 13.4 to 13.6, kernels/device/03_scan_then_fan.cuh).
/// \param n inputs, at least 1
/// \param b the block size, a multiple of 32
DeviceScanModel scan_then_fan_model(std::size_t n, int b);
/// The model of scan_reduce_then_scan (listings 13.7 to 13.9,
/// kernels/device/04_reduce_then_scan.cuh).
/// \param n inputs, at least 1
/// \param b the block size, a power of two
DeviceScanModel reduce_then_scan_model(std::size_t n, int b);

// ---------------------------------------------------------------------------------------
// Figure 13.15: the zero-padded layout.

/// Listing 13.15's scanSharedIndex with padding, as zero_padded_index of
/// kernels/warp/02_zero_padded.cuh computes it: warp w's lane l at 49 w + \p lane0 + l, where
/// the kernels have \p lane0 = 16 (the default) and the sentence before figure 13.15 has 32.
/// \param tid the thread
/// \param lane0 where lane 0 of warp 0 lies
int padded_slot(int tid, int lane0 = 16);
/// The words of shared memory a zero-padded block of \p threads threads uses (zero_padded_bytes
/// of the kernels, in words).
/// \param threads the block size, a multiple of 32
int padded_words(int threads);
/// The kernels' source lines the two functions above follow.
Model padded_layout_model();

/// What one word of the padded layout holds.
struct PaddedWord {
  int thread = -1;   ///< the thread whose value it holds, or -1
  int zero_of = -1;  ///< the thread that writes it as padding (s[-16] = 0), or -1
};

/// Every word of the layout of \p threads threads with lane 0 at \p lane0, and in \p error the
/// first word two threads share, a word past \p words, or a read of the warp scan that leaves
/// the warp's own words.
/// \param threads the block size, a multiple of 32
/// \param lane0 where lane 0 of warp 0 lies (16 in the kernels)
/// \param words the words the block has: padded_words(threads) in the kernels, 49 W + 16 for W
///        warps in the book's scanSharedMemory
/// \param error set to the first problem, if any
std::vector<PaddedWord> padded_layout(int threads, int lane0, int words, std::string* error);

// ---------------------------------------------------------------------------------------

/// The figures of this file and of scan_networks, in the order of the text: 13.1 to 13.5, the
/// circuits of 13.6 to 13.11, then 13.12 to 13.15.
std::vector<Figure> chapter_figures();

}  // namespace ch13
