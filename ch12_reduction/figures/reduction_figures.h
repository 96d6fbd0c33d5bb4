/// \file
/// \brief Figures 12.1 and 12.2 as data: the order in which the chapter's kernels add, modelled
///        on the CPU from the kernels' own index arithmetic, checked by simulation (every element
///        reaches the total exactly once, no step reads what another thread of the same step
///        writes) and drawn as Graphviz for the chapter page.
///
/// Each model names the lines of its kernel whose index arithmetic it follows; a CPU test checks
/// that the lines are still in that file, so a kernel cannot change its order of additions
/// without the figure being drawn again.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "hb/figures.h"

namespace ch12 {

/// One addition of a reduction schedule: in step \p step, thread \p thread adds the value of
/// element \p source into element \p target. Both are read before any addition of the step
/// writes (a barrier separates the steps).
struct Add {
  int step;    ///< 1, 2, ...: the additions of one step run in parallel
  int thread;  ///< the thread of the block that performs it
  int target;  ///< the element (shared-memory word) that is updated
  int source;  ///< the element whose value is added in
};

/// The additions a kernel performs to reduce \p n elements with one block of \p threads
/// threads, in step order.
struct Schedule {
  std::string name;         ///< "neighbored": file names
  std::string title;        ///< "pairwise (variant 10a)": captions and tables
  std::string kernel_file;  ///< the kernel whose index arithmetic the model follows
  std::vector<std::string> kernel_lines;  ///< lines of that file the model follows, verbatim
  int n = 0;                ///< elements
  int threads = 0;          ///< threads of the block
  int result = 0;           ///< the element that holds the total at the end
  std::vector<Add> adds;    ///< in step order
};

/// The CPU reference's loop (reference.h: `s += in[i]`): one unit, n - 1 steps.
/// \param n elements, at least 1
Schedule serial_schedule(int n);
/// Variant 10a, the first blog post's reduceNeighbored: in step k the threads whose index is
/// a multiple of 2^k add their neighbor 2^(k-1) to the right (figure 12.1's pairwise order).
/// \param n elements and threads, a power of two
Schedule neighbored_schedule(int n);
/// Variant 10b, reduceNeighboredLess: the same pairs, added by the lowest-numbered threads.
/// \param n elements and threads, a power of two
Schedule neighbored_less_schedule(int n);
/// Variant 1 with one block (figure 12.1's interleaved order): each thread first adds the
/// elements at its index plus multiples of the block size, then the block halves: thread t
/// adds t + active. With \p threads = \p n it is variant 10d's order.
/// \param n elements, at least 1
/// \param threads threads of the block, a power of two
Schedule interleaved_schedule(int n, int threads);

/// What a simulation of a schedule found.
struct ScheduleStats {
  int steps = 0;            ///< the depth
  int adds = 0;             ///< the work
  bool each_once = false;   ///< the result holds every element exactly once
  bool race_free = false;   ///< no step touches an element it also writes from another thread
  std::string error;        ///< the first problem, if any
};

/// Simulates \p s symbolically: each element's value is the count of every input in it.
/// \param s the schedule
ScheduleStats analyze(const Schedule& s);

/// The value each addition of \p s writes, for the inputs \p in (one per element).
/// \param s the schedule
/// \param in the inputs
std::vector<long long> partial_sums(const Schedule& s, const std::vector<long long>& in);

/// Shared-memory traffic of one step of a schedule on 4-byte words and 32 banks.
struct StepAccess {
  int step = 0;           ///< the step
  int active_threads = 0; ///< threads that add in this step
  int active_warps = 0;   ///< warps with at least one such thread: they all issue the step
  int conflict = 0;       ///< the largest bank conflict of one warp's read (1: none)
  int passes = 0;         ///< shared-memory passes of the step's reads, summed over warps
};

/// Per step, which warps work and how their reads of the source elements fall on the banks.
/// \param s the schedule
std::vector<StepAccess> shared_accesses(const Schedule& s);

/// The chapter page's table of warps and bank conflicts for blocks of \p threads threads
/// (Markdown): variants 10a, 10b and 10d.
/// \param threads the block size, a power of two from 32 to 1024
std::string access_table_markdown(int threads);

/// The warp shuffle the model of figure 12.2 uses.
enum class Shuffle {
  Xor,  ///< `__shfl_xor_sync`, variant 9's butterfly: every lane ends with the sum
  Down  ///< `__shfl_down_sync` (the text's footnote): only lane 0 ends with the sum
};

/// The offsets of warp_reduce_sum() (variant 9), in order: 16, 8, 4, 2, 1.
std::vector<int> warp_offsets();

/// How many times lane j's value is in lane l's sum: counts[l][j].
using LaneCounts = std::array<std::array<int, 32>, 32>;

/// Figure 12.2: the counts before the first shuffle and after each of warp_offsets().
/// A lane past the end of the warp in a shuffle-down step gets its own value back, as the
/// hardware does, so that lane counts its own sum twice.
/// \param kind which shuffle
std::vector<LaneCounts> warp_contributions(Shuffle kind);

/// A drawing of the chapter page (hb::Figure: name, caption, Graphviz text).
using Figure = hb::Figure;

/// Every figure of the chapter page, in the text's order.
std::vector<Figure> chapter_figures();

}  // namespace ch12
