/// \file
/// \brief Figures 14.1 to 14.4 as data: which thread sums which part of the force matrix, which
///        half the symmetric form computes, the order in which variant 11's warps take its
///        tiles, and how a warp walks one tile. Each is modelled on the CPU from the kernels' own
///        index arithmetic (the tile numbering is the very functions variant 11 calls), checked
///        by simulation (every interaction reaches both bodies exactly once) and drawn as
///        Graphviz for the chapter page.
///
/// Each model names the lines of its kernel whose index arithmetic it follows; a CPU test
/// checks that the lines are still in that file.
#pragma once

#include <string>
#include <vector>

#include "hb/figures.h"

namespace ch14 {

/// One tile pair (I, J), I <= J, of variant 11, in the order the warps take them.
struct TileVisit {
  long long q;  ///< its pair number: warp w takes pairs [w run, w run + run)
  int I;        ///< tile row: row bodies I k .. I k + k - 1
  int J;        ///< tile column: column bodies J k .. J k + k - 1
};

/// Every tile pair of the upper triangle of \p tiles x \p tiles tiles, in pair order, found the
/// way the kernel finds them: symmetric_row_of() for a warp's first pair, then along the row.
/// \param tiles tiles per side, at least 1
std::vector<TileVisit> symmetric_tiles(int tiles);

/// How the symmetric tiled form (variant 11, tiles of \p k bodies) covers the force matrix of
/// \p n bodies: for every term (i, j), the acceleration of body i due to body j, how many times
/// it is added to body i's sum directly (as a row sum) and how many times by symmetry (as a
/// column sum, subtracted from the pair's other body).
struct Coverage {
  int n = 0;                     ///< bodies
  int k = 0;                     ///< bodies per tile side
  std::vector<int> row;          ///< row[i n + j]: added as part of row i
  std::vector<int> column;       ///< column[i n + j]: added to body i as a column sum
  long long evaluations = 0;     ///< interactions computed, pairs of a body with itself left out
  /// Whether every term with i != j reaches body i exactly once, one way or the other.
  bool each_once() const;
};

/// Walks symmetric_tiles() as variant 11 does, with tiles of \p k bodies (the kernel's k is a
/// warp, 32): a diagonal tile adds all its terms as rows; an off-diagonal tile adds each
/// interaction to its row body and subtracts it from its column body. Bodies past \p n are the
/// kernel's massless padding: nothing is added for them.
/// \param n bodies, at least 1
/// \param k bodies per tile side, at least 1
Coverage symmetric_coverage(int n, int k);

/// The text's count of the symmetric tiled form: \f$N^2/2 + Nk/2 - N\f$ interactions for
/// \f$N\f$ a multiple of \f$k\f$ (off-diagonal tiles \f$k^2\f$ each, diagonal ones
/// \f$k(k-1)\f$).
/// \param n bodies
/// \param k bodies per tile side
long long symmetric_interactions(long long n, long long k);

/// What lane \p l of a warp does in step s of an off-diagonal tile of variant 11.
struct TileStep {
  int column;  ///< the column (0 .. k-1 within the tile) it pairs its row body with
  int sum_of;  ///< the column whose running sum its registers hold while it does so
};

/// Figure 14.4 as variant 11 walks a tile: schedule[s][l] for the k steps and k lanes. Lane l
/// pairs its row with column (l + s) mod k; after each step but the last it takes the next
/// lane's column sums (`__shfl_sync` from lane l + 1), so the sum it holds is always the sum
/// of the column it works on, and after the tile lane l holds column (l + k - 1) mod k.
/// \param k lanes and tile size (the kernel's is 32)
std::vector<std::vector<TileStep>> tile_schedule(int k);

/// The kernel lines the models follow, by file of kernels/ (a CPU test checks them).
struct KernelLines {
  std::string file;                ///< relative to ch14_nbody/
  std::vector<std::string> lines;  ///< verbatim, without leading spaces
};
/// The lines of variants 6 and 11 that the figures follow.
std::vector<KernelLines> figure_kernel_lines();

/// A drawing of the chapter page (hb::Figure: name, caption, Graphviz text).
using Figure = hb::Figure;

/// Every figure of the chapter page, in the text's order.
std::vector<Figure> chapter_figures();

}  // namespace ch14
