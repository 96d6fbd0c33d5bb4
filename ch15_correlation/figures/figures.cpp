// Figures 15.3 and 15.4 of chapter 15, drawn from CPU models of the kernels' loops. The models
// repeat the loops of listing 15.4 (variant 2) and listing 15.5 (variant 3) index for index;
// the figures are Graphviz text built from what the models did, so that a change of the loops
// changes the drawing, and the CPU tests compare the committed drawings with this code.
#include "figures.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ch15 {

// [corr-figure-constant-model]
std::vector<ConstantStep> constant_template_steps(int col, int row, int w_t, int h_t) {
  std::vector<ConstantStep> steps;
  steps.reserve(static_cast<std::size_t>(w_t) * h_t);
  const int x_off = window_x_offset(w_t), y_off = window_y_offset(h_t);
  int inx = 0;
  for (int j = 0; j < h_t; ++j)
    for (int i = 0; i < w_t; ++i) steps.push_back({inx++, col + x_off + i, row + y_off + j});
  return steps;
}
// [corr-figure-constant-model]

TileShape book_tile_shape(int w_t, int h_t, bool book_bounds) {
  TileShape s;
  s.w_t = w_t;
  s.h_t = h_t;
  s.book_bounds = book_bounds;
  return s;
}

// [corr-figure-tile-model]
TileModel model_tile(const TileShape& shape) {
  TileModel m;
  m.shape = shape;
  const int pitch = shape.pitch(), rows = shape.fetch_rows(), cols = shape.fetch_cols();
  const std::size_t cells = static_cast<std::size_t>(pitch) * rows;
  m.writes.assign(cells, 0);
  m.writer.assign(cells, -1);
  m.reads.assign(cells, 0);
  for (int ty = 0; ty < shape.block_h; ++ty) {
    for (int tx = 0; tx < shape.block_w; ++tx) {
      // Listing 15.5's loading loops: the block over-fetches the tile and its apron.
      for (int row = ty; row < rows; row += shape.block_h) {
        for (int col = tx; col < cols; col += shape.block_w) {
          ++m.writes[m.cell(col, row)];
          m.writer[m.cell(col, row)] = ty * shape.block_w + tx;
        }
      }
      // The compute loop: each output's window, read from the tile.
      for (int col = tx; col < shape.w_tile; col += shape.block_w) {
        ++m.outputs;
        int shared_idx = ty * pitch + col;
        for (int j = 0; j < shape.h_t; ++j) {
          for (int i = 0; i < shape.w_t; ++i) ++m.reads[static_cast<std::size_t>(shared_idx + i)];
          shared_idx += pitch;
        }
      }
    }
  }
  m.row_passes = static_cast<int>(ceil_div(rows, shape.block_h));
  m.col_passes = static_cast<int>(ceil_div(cols, shape.block_w));
  return m;
}
// [corr-figure-tile-model]

std::vector<ExactSums> tile_model_sums(const hb::GrayImage& image, const Template& tmpl,
                                       std::vector<int>& written) {
  const TileShape s = book_tile_shape(tmpl.width, tmpl.height);
  const int w = image.width, h = image.height;
  const int pitch = s.pitch(), rows = s.fetch_rows(), cols = s.fetch_cols();
  const int x_off = window_x_offset(tmpl.width), y_off = window_y_offset(tmpl.height);
  auto clamp = [](int v, int n) { return std::min(std::max(v, 0), n - 1); };
  std::vector<ExactSums> sums(static_cast<std::size_t>(w) * h);
  written.assign(sums.size(), 0);
  std::vector<std::uint8_t> tile(s.bytes());
  const int grid_x = static_cast<int>(ceil_div(w, s.w_tile)), grid_y = static_cast<int>(ceil_div(h, s.block_h));
  for (int by = 0; by < grid_y; ++by) {
    for (int bx = 0; bx < grid_x; ++bx) {
      const int uTile = bx * s.w_tile, vTile = by * s.block_h;
      std::fill(tile.begin(), tile.end(), std::uint8_t(0));
      for (int ty = 0; ty < s.block_h; ++ty)
        for (int tx = 0; tx < s.block_w; ++tx)
          for (int row = ty; row < rows; row += s.block_h)
            for (int col = tx; col < cols; col += s.block_w)
              tile[static_cast<std::size_t>(row) * pitch + col] =
                  image.at(clamp(uTile + col + x_off, w), clamp(vTile + row + y_off, h));
      for (int ty = 0; ty < s.block_h; ++ty) {
        const int v = vTile + ty;
        for (int tx = 0; tx < s.block_w; ++tx) {
          for (int col = tx; col < s.w_tile; col += s.block_w) {
            ExactSums e;
            int idx = 0;
            int shared_idx = ty * pitch + col;
            for (int j = 0; j < tmpl.height; ++j) {
              for (int i = 0; i < tmpl.width; ++i) {
                const std::int64_t I = tile[static_cast<std::size_t>(shared_idx + i)];
                const std::int64_t T = tmpl.pixels[static_cast<std::size_t>(idx++)];
                e.sum_i += I;
                e.sum_isq += I * I;
                e.sum_it += I * T;
              }
              shared_idx += pitch;
            }
            if (uTile + col < w && v < h) {
              const std::size_t out = static_cast<std::size_t>(v) * w + uTile + col;
              sums[out] = e;
              ++written[out];
            }
          }
        }
      }
    }
  }
  return sums;
}

namespace {

// Colours of the figures: one per template row, and the roles of a tile's cells.
const char* const kRowColours[] = {"#dbe9f6", "#fde9d9", "#e2efda", "#fff2cc", "#ede1f4"};
constexpr const char* kHighlight = "#c00000";
constexpr const char* kRead = "#f4b183";
constexpr const char* kTile = "#9dc3e6";
constexpr const char* kApron = "#fbe5d6";
constexpr const char* kWindow = "#ffd966";
constexpr const char* kPadding = "#d9d9d9";
constexpr const char* kBookOnly = "#c9a0dc";

std::string with_thousands(std::size_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

std::string cell(const std::string& text, const std::string& colour, int width, int height,
                 const std::string& extra = "") {
  std::ostringstream o;
  o << "<TD WIDTH=\"" << width << "\" HEIGHT=\"" << height << "\" FIXEDSIZE=\"TRUE\"";
  if (!colour.empty()) o << " BGCOLOR=\"" << colour << "\"";
  o << extra << ">" << text << "</TD>";
  return o.str();
}

std::string small(const std::string& text) { return "<FONT POINT-SIZE=\"8\">" + text + "</FONT>"; }

// Figure 15.3: the template in constant memory, and one step of one warp.
Figure constant_template_figure() {
  const int w_t = 6, h_t = 4, n = w_t * h_t;
  const int step = w_t + 2;  // a step in the template's second row
  const int warp = 32, col0 = 64, row = 40;  // a warp: outputs col0 .. col0 + 31 of one row
  // What each thread of the warp reads, from the model of listing 15.4's loops.
  std::vector<std::vector<ConstantStep>> reads;
  for (int t = 0; t < warp; ++t) reads.push_back(constant_template_steps(col0 + t, row, w_t, h_t));
  const ConstantStep at = reads[0][static_cast<std::size_t>(step)];
  for (const auto& r : reads) {
    if (r[static_cast<std::size_t>(step)].k != at.k) throw std::logic_error("figure 15.3: no broadcast");
  }
  const int i_step = at.x - (col0 + window_x_offset(w_t)), j_step = at.y - (row + window_y_offset(h_t));
  // The image columns and rows the warp's windows cover, relative to the first window.
  const int x_first = col0 + window_x_offset(w_t), y_first = row + window_y_offset(h_t);
  const int img_cols = warp + w_t - 1;

  std::ostringstream o;
  o << "digraph fig15_3_constant_template {\n"
    << "  // Generated by correlation_figures (ch15_correlation/figures/figures.cpp); do not edit.\n"
    << "  graph [rankdir=TB, bgcolor=white, pad=0.15, nodesep=0.5, ranksep=0.45];\n"
    << "  node [shape=plaintext, fontname=Helvetica, fontsize=10];\n"
    << "  edge [fontname=Helvetica, fontsize=9, color=\"#555555\"];\n";
  // The template, each pixel labelled with its index k in g_Tpix.
  o << "  template [label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"0\">\n"
    << "    <TR><TD COLSPAN=\"" << w_t << "\" BORDER=\"0\">the template<BR/>" << w_t << " x " << h_t
    << " pixels (i, j)</TD></TR>\n";
  for (int j = 0; j < h_t; ++j) {
    o << "    <TR>";
    for (int i = 0; i < w_t; ++i) {
      const int k = j * w_t + i;
      o << cell(std::to_string(k), kRowColours[j % 5], 22, 18,
                k == at.k ? std::string(" BORDER=\"3\" COLOR=\"") + kHighlight + "\"" : "");
    }
    o << "</TR>\n";
  }
  o << "  </TABLE>>];\n";
  // The image pixels under the warp's windows; the 32 read at the step are marked.
  o << "  image [label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"0\">\n"
    << "    <TR><TD COLSPAN=\"" << img_cols << "\" BORDER=\"0\">the image under the warp's "
    << "windows, through the texture<BR/>columns x - " << -window_x_offset(w_t) << " to x + "
    << warp + w_t - 2 + window_x_offset(w_t) << ", rows y - "
    << -window_y_offset(h_t) << " to y + " << h_t - 1 + window_y_offset(h_t) << "</TD></TR>\n";
  for (int r = 0; r < h_t; ++r) {
    o << "    <TR>";
    for (int c = 0; c < img_cols; ++c) {
      bool read = false;
      for (const auto& rd : reads)
        read = read || (rd[static_cast<std::size_t>(step)].x == x_first + c &&
                        rd[static_cast<std::size_t>(step)].y == y_first + r);
      const bool window0 = c < w_t;  // thread 0's window
      o << cell("", read ? kRead : window0 ? "#eeeeee" : "", 12, 14);
    }
    o << "</TR>\n";
  }
  o << "  </TABLE>>];\n";
  // g_Tpix: the template's bytes in constant memory, row after row.
  o << "  gtpix [label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"0\">\n"
    << "    <TR><TD COLSPAN=\"" << n << "\" BORDER=\"0\">g_Tpix in __constant__ memory, k = j x " << w_t
    << " + i<BR/>(room for " << with_thousands(kConstantTemplateBytes)
    << " bytes)</TD></TR>\n    <TR>";
  for (int k = 0; k < n; ++k) {
    o << cell(small(std::to_string(k)), kRowColours[(k / w_t) % 5], 18, 18,
              std::string(" PORT=\"k") + std::to_string(k) + "\"" +
                  (k == at.k ? std::string(" BORDER=\"3\" COLOR=\"") + kHighlight + "\"" : ""));
  }
  o << "</TR>\n  </TABLE>>];\n";
  // The warp.
  o << "  warp [label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"0\">\n"
    << "    <TR>";
  for (int t = 0; t < warp; ++t) o << cell(small(std::to_string(t)), "#f2f2f2", 14, 16);
  o << "</TR>\n    <TR><TD COLSPAN=\"" << warp << "\" BORDER=\"0\">one warp: threads 0 to "
    << warp - 1 << ", the outputs x to x + " << warp - 1 << " of row y</TD></TR>\n"
    << "  </TABLE>>];\n";
  o << "  { rank=same; template; image; }\n"
    << "  template -> gtpix [label=\" CopyToTemplate(), listing 15.3:\\l once per template, row by row\\l\"];\n"
    << "  gtpix:k" << at.k << " -> warp [color=\"" << kHighlight << "\", penwidth=1.6, label=\" step k = "
    << at.k << " (i = " << i_step << ", j = " << j_step
    << "): one address for all 32 threads,\\l broadcast by the constant cache\\l\"];\n"
    << "  image -> warp [color=\"" << kRead << "\", penwidth=1.6, label=\" the same step: 32 different\\l "
    << "pixels, one per thread\\l\"];\n"
    << "}\n";
  std::ostringstream caption;
  caption << "Figure 15.3: the template in constant memory (listings 15.3 and 15.4), for a " << w_t
          << " x " << h_t << " template. CopyToTemplate() copies its pixels row by row into g_Tpix; "
          << "at step k = " << at.k << " (template pixel i = " << i_step << ", j = " << j_step
          << ") the 32 threads of a warp all read g_Tpix[" << at.k
          << "], one address that the constant cache broadcasts, and 32 different image pixels "
          << "(orange) through the texture; the window of thread 0 is shaded.";
  return {"fig15_3_constant_template", caption.str(), o.str()};
}

// Figure 15.4: the image tile of one block in shared memory.
Figure shared_tile_figure() {
  const int w_t = 9, h_t = 5;
  const TileModel ours = model_tile(book_tile_shape(w_t, h_t));
  const TileModel book = model_tile(book_tile_shape(w_t, h_t, true));
  const TileShape& s = ours.shape;
  if (book.shape.pitch() != s.pitch()) throw std::logic_error("figure 15.4: pitches differ");
  const int tx = 5, ty = 3;  // the thread whose window is drawn
  const int pitch = s.pitch(), rows = book.shape.fetch_rows();
  const int cx0 = w_t / 2, cy0 = h_t / 2;  // the first output's own pixel in the tile
  const int cw = 9, ch = 9;                // cell size in points

  auto role = [&](int c, int r) -> std::string {
    const bool in_ours = r < s.fetch_rows() && ours.writes[ours.cell(c, r)] > 0;
    const bool in_book = book.writes[book.cell(c, r)] > 0;
    if (in_ours && c == tx + cx0 && r == ty + cy0) return kHighlight;
    if (in_ours && c >= tx && c < tx + w_t && r >= ty && r < ty + h_t) return kWindow;
    if (in_ours && c >= cx0 && c < cx0 + s.w_tile && r >= cy0 && r < cy0 + s.block_h) return kTile;
    if (in_ours) return kApron;
    if (in_book) return kBookOnly;
    return kPadding;
  };

  std::ostringstream o;
  o << "digraph fig15_4_shared_tile {\n"
    << "  // Generated by correlation_figures (ch15_correlation/figures/figures.cpp); do not edit.\n"
    << "  graph [rankdir=TB, bgcolor=white, pad=0.15, ranksep=0.25];\n"
    << "  node [shape=plaintext, fontname=Helvetica, fontsize=10];\n"
    << "  tile [label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"0\" "
       "COLOR=\"#8c8c8c\">\n";
  // Header: which trip of the column loop stores each column (threadIdx.x = column - trip x 32).
  o << "    <TR><TD BORDER=\"0\"></TD>";
  for (int c = 0; c < pitch;) {
    const int w0 = ours.writer[ours.cell(c, 0)];
    int e = c;
    if (w0 < 0) {
      e = pitch;
      o << "<TD COLSPAN=\"" << e - c << "\" BORDER=\"0\">" << small("padding to " + std::to_string(pitch))
        << "</TD>";
    } else {
      const int trip = c / s.block_w;
      while (e < pitch && ours.writer[ours.cell(e, 0)] >= 0 && e / s.block_w == trip) ++e;
      o << "<TD COLSPAN=\"" << e - c << "\" BORDER=\"0\">"
        << small(e - c >= 16 ? "trip " + std::to_string(trip) + ": threadIdx.x 0-" + std::to_string(e - c - 1)
                             : "trip " + std::to_string(trip))
        << "</TD>";
    }
    c = e;
  }
  o << "</TR>\n    <TR><TD BORDER=\"0\"></TD>";
  for (int c = 0; c < pitch; c += 8)
    o << "<TD COLSPAN=\"8\" BORDER=\"0\" ALIGN=\"LEFT\">" << small(std::to_string(c)) << "</TD>";
  o << "</TR>\n";
  for (int r = 0; r < rows; ++r) {
    o << "    <TR><TD BORDER=\"0\" ALIGN=\"RIGHT\">" << small(std::to_string(r) + " ") << "</TD>";
    for (int c = 0; c < pitch; ++c) o << cell("", role(c, r), cw, ch);
    // Which trip of the row loop stores each row (threadIdx.y = row - trip x blockDim.y).
    if (r < s.fetch_rows() && (r % s.block_h == 0)) {
      const int span = std::min(s.block_h, s.fetch_rows() - r);
      o << "<TD ROWSPAN=\"" << span << "\" BORDER=\"0\" ALIGN=\"LEFT\">"
        << small(" trip " + std::to_string(r / s.block_h) +
                 (span >= 4 ? "<BR/> threadIdx.y<BR/> 0-" + std::to_string(span - 1) : ""))
        << "</TD>";
    } else if (r >= s.fetch_rows()) {
      o << "<TD BORDER=\"0\"></TD>";
    }
    o << "</TR>\n";
  }
  o << "  </TABLE>>];\n";
  // The legend.
  const std::pair<const char*, std::string> keys[] = {
      {kTile, "the " + std::to_string(s.w_tile) + " x " + std::to_string(s.block_h) + " outputs' own pixels"},
      {kApron, "the apron"},
      {kWindow, "the window of thread (" + std::to_string(tx) + ", " + std::to_string(ty) + ")"},
      {kHighlight, "its output"},
      {kBookOnly, "loaded only by the book's loop bounds"},
      {kPadding, "padding, never written"}};
  o << "  legend [label=<<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"2\" CELLPADDING=\"1\">";
  for (int k = 0; k < 6; ++k) {
    o << (k % 3 == 0 ? "<TR>" : "") << cell("", keys[k].first, 10, 10, " BORDER=\"1\"")
      << "<TD ALIGN=\"LEFT\">" << keys[k].second << "  </TD>" << (k % 3 == 2 ? "</TR>" : "");
  }
  o << "</TABLE>>];\n  tile -> legend [style=invis];\n}\n";

  // The average reuse at the default template: window reads per loaded byte.
  const TileModel dflt = model_tile(book_tile_shape(52, 52));
  long long reads = 0, loaded = 0;
  for (std::size_t i = 0; i < dflt.reads.size(); ++i) {
    reads += dflt.reads[i];
    loaded += dflt.writes[i] > 0;
  }
  std::ostringstream caption;
  caption << "Figure 15.4: the image in shared memory (listing 15.5), for a " << w_t << " x " << h_t
          << " template. A block of " << s.block_w << " x " << s.block_h << " threads computes "
          << ours.outputs << " outputs from " << s.fetch_cols() << " x " << s.fetch_rows()
          << " loaded pixels, its tile and apron, stored by " << ours.col_passes << " x "
          << ours.row_passes << " trips of the loading loops into rows padded to " << pitch
          << " bytes (" << s.bytes() << " bytes). The book's bounds load one more column and row, "
          << "which no window reads. With the default 52 x 52 template a block loads "
          << dflt.shape.fetch_cols() << " x " << dflt.shape.fetch_rows() << " pixels and reads each "
          << reads / loaded << " times on average.";
  return {"fig15_4_shared_tile", caption.str(), o.str()};
}

}  // namespace

std::vector<Figure> chapter_figures() { return {constant_template_figure(), shared_tile_figure()}; }

}  // namespace ch15
