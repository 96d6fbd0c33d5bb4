/// \file
/// \brief Chapter 15's figures 15.3 and 15.4, drawn from CPU models of the kernels' loops.
///
/// Figure 15.3 shows the template in `__constant__` memory and what one warp reads from it;
/// figure 15.4 shows the image tile that a block of the shared-memory kernels copies into
/// shared memory. Both are drawn from the models below, which repeat the loops of listings
/// 15.4 and 15.5 (variants 2 and 3) on the CPU, index for index. The CPU tests run the models
/// against the CPU reference and check the properties the figures show (every byte of the tile
/// loaded once, every window inside it, one constant address per warp and step), and check
/// that the committed figures are what the generator draws now.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "correlation.h"
#include "hb/figures.h"
#include "hb/pgm.h"

namespace ch15 {

/// One step of the inner loop of listing 15.4 (variant 2's corr_tex_constant_kernel) in one
/// thread: the template index it reads from `g_Tpix` and the image pixel it pairs with it,
/// before the texture clamps that pixel to the image.
struct ConstantStep {
  int k;  ///< index into g_Tpix (the kernel's inx)
  int x;  ///< image column read at this step
  int y;  ///< image row read at this step
};

/// The loop of listing 15.4 for the thread of output (\p col, \p row): two nested loops, rows
/// j outside, columns i inside, `inx++` per pixel, the image read at (col + x_off + i,
/// row + y_off + j).
/// \param col output column
/// \param row output row
/// \param w_t template width
/// \param h_t template height
std::vector<ConstantStep> constant_template_steps(int col, int row, int w_t, int h_t);

/// The shape of the image tile of listing 15.5 (variants 3 to 6): a block of block_w x block_h
/// threads computes w_tile x block_h outputs from a tile of shared memory.
struct TileShape {
  int w_tile = 32;   ///< output columns per block (the book's wTile)
  int block_w = 32;  ///< blockDim.x
  int block_h = 8;   ///< blockDim.y: output rows per block
  int w_t = 1;       ///< template width
  int h_t = 1;       ///< template height
  /// The book's loop bounds (listing 15.5: col < wTile + wTemplate, row < blockDim.y +
  /// hTemplate, pitch ~63 & (wTile + wTemplate + 63)) instead of ours, which stop one column
  /// and one row earlier.
  bool book_bounds = false;

  /// Columns the block loads: w_tile + w_t - 1 (the book: one more).
  int fetch_cols() const { return w_tile + w_t - (book_bounds ? 0 : 1); }
  /// Rows the block loads: block_h + h_t - 1 (the book: one more).
  int fetch_rows() const { return block_h + h_t - (book_bounds ? 0 : 1); }
  /// Bytes from one shared-memory row to the next: fetch_cols() rounded up to 64.
  int pitch() const { return round_up(fetch_cols(), 64); }
  /// Dynamic shared memory of a block: pitch() x fetch_rows().
  std::size_t bytes() const { return static_cast<std::size_t>(pitch()) * fetch_rows(); }
};

/// The shape of variants 3 to 6 for a template of \p w_t x \p h_t (32 x 8 threads, wTile 32).
/// \param w_t template width
/// \param h_t template height
/// \param book_bounds the book's loop bounds instead of ours
TileShape book_tile_shape(int w_t, int h_t, bool book_bounds = false);

/// What the loops of listing 15.5 do to one block's shared memory, cell by cell (row-major,
/// fetch_rows() x pitch() cells).
struct TileModel {
  TileShape shape;
  std::vector<int> writes;  ///< how many threads store each cell in the loading loops
  std::vector<int> writer;  ///< the thread (threadIdx.y * block_w + threadIdx.x) that stores it, or -1
  std::vector<int> reads;   ///< how many window reads of the block's outputs hit each cell
  int col_passes = 0;       ///< trips of the inner loading loop (col += blockDim.x)
  int row_passes = 0;       ///< trips of the outer loading loop (row += blockDim.y)
  int outputs = 0;          ///< outputs the block computes (w_tile x block_h)
  /// Cell (c, r) of the tile, row-major.
  /// \param c column, 0 <= c < pitch
  /// \param r row, 0 <= r < fetch_rows
  std::size_t cell(int c, int r) const { return static_cast<std::size_t>(r) * shape.pitch() + c; }
};

/// Runs the loading loops and the window reads of listing 15.5 for every thread of one block.
/// \param shape the block's shape and template size
TileModel model_tile(const TileShape& shape);

/// The sums of every output of \p image, computed the way variants 3 to 6 compute them: block
/// by block (grid ceil(w / w_tile) x ceil(h / block_h)), each block's tile loaded by the loops
/// of listing 15.5 with the texture's clamping, each window read from the tile, the template
/// walked as in listing 15.4. \p written counts how often each output was written.
/// \param image the image
/// \param tmpl the template
/// \param written receives, per output pixel, how many threads wrote it
std::vector<ExactSums> tile_model_sums(const hb::GrayImage& image, const Template& tmpl,
                                       std::vector<int>& written);

/// A drawing of the chapter page (hb::Figure: name, caption, Graphviz text).
using Figure = hb::Figure;

/// Figures 15.3 and 15.4, in the text's order.
std::vector<Figure> chapter_figures();

}  // namespace ch15
