// correlation_figures: figures 15.3 and 15.4 of chapter 15 from CPU models of the loops of
// listings 15.4 and 15.5. Prints, for several template sizes, what one block of the
// shared-memory kernels loads and reads, checked against the model's rules (every loaded byte
// stored once, every window inside the tile); --figures DIR writes the chapter's figures
// (Graphviz .dot files and the .md fragments the page includes). No GPU needed.
#include <iostream>
#include <string>

#include "figures.h"
#include "hb/cli.h"
#include "hb/error.h"
#include "hb/figures.h"
#include "hb/report.h"

int main(int argc, char** argv) {
  return hb::run_main("correlation_figures", [&] {
    hb::CliSpec spec;
    spec.program = "correlation_figures";
    spec.description =
        "Chapter 15: the template in constant memory and the image tile in shared memory "
        "(figures 15.3 and 15.4), from CPU models of the kernels' loops; --figures writes the "
        "Graphviz figures.";
    hb::Cli cli(spec);
    std::string figures;
    hb::add_figures_option(cli, figures);
    if (!cli.parse(argc, argv)) return 0;
    if (cli.app().count("--n") > 0)
      throw hb::UsageError("--n: not used by this program; it draws fixed template sizes");
    const auto& opt = cli.options();
    // The folder must exist and take files; each figure is written whole or not at all.
    if (!figures.empty()) hb::write_figures(figures, ch15::chapter_figures());
    hb::Report r({"template", "loaded (cols x rows)", "pitch (bytes)", "shared bytes", "loading trips",
                  "reads per loaded byte", "every byte stored once, every window inside"});
    r.fact("program", "correlation_figures");
    r.fact("command", cli.command_line());
    r.fact("model", "the loops of listing 15.5 (variants 3 to 6) for one block of 32 x 8 threads, wTile 32");
    bool all = true;
    for (int side : {1, 3, 8, 16, 28, 52, 64}) {
      const ch15::TileModel m = ch15::model_tile(ch15::book_tile_shape(side, side));
      const ch15::TileShape& s = m.shape;
      long long reads = 0, loaded = 0;
      bool ok = true;
      for (int r0 = 0; r0 < s.fetch_rows(); ++r0) {
        for (int c = 0; c < s.pitch(); ++c) {
          const std::size_t k = m.cell(c, r0);
          const bool inside = c < s.fetch_cols();
          ok = ok && m.writes[k] == (inside ? 1 : 0) && (m.reads[k] > 0) == inside;
          reads += m.reads[k];
          loaded += m.writes[k];
        }
      }
      all = all && ok;
      r.row({std::to_string(side) + " x " + std::to_string(side),
             std::to_string(s.fetch_cols()) + " x " + std::to_string(s.fetch_rows()),
             std::to_string(s.pitch()), std::to_string(s.bytes()),
             std::to_string(m.col_passes) + " x " + std::to_string(m.row_passes),
             std::to_string(reads / loaded), ok ? "yes" : "NO"});
    }
    r.print(std::cout, opt.csv);
    if (!all) throw hb::CheckFailed("a tile model broke its rules");
    return 0;
  });
}
