/// \file
/// \brief The scan circuits of section 13.3 as data: serial (figures 13.6, 13.7),
///        Brent-Kung (13.8, 13.9), Sklansky (13.10) and Kogge-Stone (13.11). Each is built
///        for any power-of-two width, checked by simulation to compute a scan, measured
///        (depth, operations, fan-out), and drawn as Graphviz for the chapter page.
#pragma once

#include <string>
#include <vector>

#include "hb/figures.h"

namespace ch13 {

/// One operation node of a circuit: at step \p level, wire \p target becomes
/// (value of wire \p source) \f$\oplus\f$ (value of wire \p target), both read before the
/// step. The source always lies to the left (source < target).
struct NetworkOp {
  int level;   ///< 1, 2, ...: operations of one level run in parallel
  int target;  ///< the wire that is updated
  int source;  ///< the wire whose value is added in
};

/// A scan circuit on n wires: wire i starts with input x_i and must end with
/// \f$x_0 \oplus \dots \oplus x_i\f$.
struct Network {
  std::string name;   ///< "brent_kung": file names
  std::string title;  ///< "Brent-Kung": captions and tables
  int n = 0;          ///< inputs (wires)
  std::vector<NetworkOp> ops;  ///< in level order
};

/// Figure 13.6: each wire adds its left neighbor's finished prefix; n - 1 levels.
/// \param n inputs, at least 1
Network serial_network(int n);
/// Figures 13.8, 13.9 (the circuit of Blelloch's algorithm): a reduction tree up, the
/// missing prefixes down; fan-out 2, depth 2 log2 n - 1.
/// \param n inputs, a power of two
Network brent_kung_network(int n);
/// Figure 13.10: two half-width Sklansky circuits side by side, then the left half's last
/// output (its spine) added to every output of the right half; minimum depth log2 n.
/// \param n inputs, a power of two
Network sklansky_network(int n);
/// Figure 13.11 (Hillis-Steele as a circuit): at level k every wire i >= 2^k adds wire
/// i - 2^k; minimum depth and fan-out 2, but n log2 n - n + 1 operations.
/// \param n inputs, a power of two
Network kogge_stone_network(int n);

/// What simulating a circuit tells.
struct NetworkStats {
  bool is_scan = false;  ///< every output i is x_0 + ... + x_i, each input once, in order
  std::string error;     ///< why not, when !is_scan
  int depth = 0;         ///< levels (the circuit's steps)
  int ops = 0;           ///< operation nodes (the circuit's work)
  /// Most nodes one node drives: the next node on its own wire plus the operations of the
  /// next level that add its value in (the count of Harris's taxonomy, in which every wire
  /// has a node, an operation or a buffer, at every level).
  int max_fanout = 0;
};

/// Simulates \p net on symbolic inputs (each value is the range of inputs it sums; an
/// operation may only join adjacent ranges) and counts its depth, operations and fan-out.
/// \param net the circuit
NetworkStats analyze(const Network& net);

/// Steps and additions of an algorithm that is not a plain circuit.
struct AlgorithmStats {
  bool is_scan = false;  ///< the simulation produced the exclusive scan
  int steps = 0;         ///< parallel steps
  int ops = 0;           ///< additions (Blelloch's swaps are not counted)
};

/// Blelloch's exclusive scan as block variant 2 runs it (up-sweep, clear the root,
/// down-sweep with swaps): the steps and additions of blelloch_model(), checked on symbolic
/// inputs by check_blelloch() (scan_models.h).
/// \param n inputs, a power of two
AlgorithmStats blelloch_stats(int n);

/// The naive parallel scan of the complexity post: every output is its own reduction, a
/// balanced tree of pairwise additions over x_0 .. x_i, all n of them at once; simulated on
/// symbolic inputs.
/// \param n inputs, at least 1
AlgorithmStats naive_stats(int n);

/// The operations on the path that produces the last output (figure 13.9's spine).
/// \param net the circuit
std::vector<bool> spine_ops(const Network& net);
/// The operations of the left half, the recursive subcircuit figure 13.10 highlights.
/// \param net the circuit
std::vector<bool> left_half_ops(const Network& net);

/// Graphviz text that draws \p net the way the book does: wires run down, inputs on top,
/// a black dot per operation, a small dot where a value fans out; \p highlight (one flag per
/// operation, or empty) draws some operations in red. With \p exclusive_outputs, a second
/// row of outputs shows the exclusive scan (figure 13.7). Positions are fixed (neato).
/// \param net the circuit
/// \param highlight which operations to draw in red (empty: none)
/// \param exclusive_outputs whether to draw the exclusive outputs too
std::string to_dot(const Network& net, const std::vector<bool>& highlight,
                   bool exclusive_outputs);

/// A figure of the chapter page (hb::Figure: name, caption, Graphviz text).
using Figure = hb::Figure;

/// Every circuit figure of the chapter page (n = 8 and 16), in the text's order; the other
/// figures of the page are in scan_models.h, and chapter_figures() there returns them all.
std::vector<Figure> circuit_figures();

/// The complexity table of the chapter page (Markdown), with the counts measured above.
std::string complexity_table_markdown();

}  // namespace ch13
