// nbody_figures: the symmetric tiled form of section 14.1 on the CPU. Prints, for --n bodies and
// tiles of k = 1 (the ideal symmetric form), 2 (figure 14.3) and 32 (variant 11), how many tile
// pairs and interactions it takes, as a share of the N^2 of the brute-force matrix and over the
// ideal N(N - 1)/2, and (up to 4096 bodies) whether a simulation of variant 11's walk adds every
// interaction to both of its bodies exactly once; --figures DIR writes figures 14.1 to 14.4
// (Graphviz .dot files and the .md fragments the page includes). No GPU needed.
#include <iostream>

#include "hb/cli.h"
#include "hb/error.h"
#include "hb/figures.h"
#include "hb/report.h"
#include "nbody_figures.h"

int main(int argc, char** argv) {
  return hb::run_main("nbody_figures", [&] {
    hb::CliSpec spec;
    spec.program = "nbody_figures";
    spec.description =
        "Chapter 14: the force matrix and the symmetric tiled form (variant 11) on the CPU: tile "
        "pairs and interactions for --n bodies and k = 1, 2, 32; --figures writes figures 14.1 "
        "to 14.4.";
    spec.default_n = 65536;
    spec.min_n = 1;
    spec.max_n = std::size_t(1) << 22;
    spec.n_unit = "bodies";
    hb::Cli cli(spec);
    std::string figures;
    hb::add_figures_option(cli, figures);
    if (!cli.parse(argc, argv)) return 0;
    const long long n = static_cast<long long>(cli.options().n);
    // The folder must exist and take files; each figure is written whole or not at all.
    if (!figures.empty()) hb::write_figures(figures, ch14::chapter_figures());
    hb::Report r({"k", "tiles", "tile pairs", "interactions", "% of N^2", "% over N(N-1)/2",
                  "each interaction once"});
    r.fact("program", "nbody_figures");
    r.fact("command", cli.command_line());
    r.fact("bodies", std::to_string(n));
    r.fact("interactions", "N^2/2 + Nk/2 - N (the text's count; exact when k divides N)");
    r.fact("simulated", "variant 11's walk of the tiles, up to 4096 bodies");
    bool all = true;
    const double ideal = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1);
    for (const int k : {1, 2, 32}) {
      const long long tiles = (n + k - 1) / k;
      const long long pairs = tiles * (tiles + 1) / 2;
      const long long count = ch14::symmetric_interactions(n, k);
      std::string once = "-";
      if (n <= 4096) {
        const ch14::Coverage c = ch14::symmetric_coverage(static_cast<int>(n), k);
        all = all && c.each_once();
        once = c.each_once() ? "yes" : "NO";
      }
      r.row({std::to_string(k), std::to_string(tiles), std::to_string(pairs), std::to_string(count),
             hb::fixed(100.0 * static_cast<double>(count) / (static_cast<double>(n) * n), 2),
             n > 1 ? hb::fixed(100.0 * (static_cast<double>(count) / ideal - 1.0), 2) : "-", once});
    }
    r.print(std::cout, cli.options().csv);
    if (!all) throw hb::CheckFailed("the tiled walk does not add every interaction once");
    return 0;
  });
}
