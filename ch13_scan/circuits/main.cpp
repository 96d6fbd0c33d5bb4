// scan_networks: the circuits of section 13.3 on the CPU. Prints depth, operations and
// fan-out of each circuit for widths 8 .. --n, checked by simulation; --markdown prints the
// complexity table and the bank table of the chapter page, --figures DIR writes every figure of
// the page, the circuits and the models of the kernels (Graphviz .dot files and the .md
// fragments the page includes). No GPU needed.
#include <iostream>

#include "hb/cli.h"
#include "hb/error.h"
#include "hb/figures.h"
#include "hb/report.h"
#include "scan_models.h"
#include "scan_networks.h"

int main(int argc, char** argv) {
  return hb::run_main("scan_networks", [&] {
    hb::CliSpec spec;
    spec.program = "scan_networks";
    spec.description =
        "Chapter 13: the serial, Brent-Kung, Sklansky and Kogge-Stone scan circuits (and "
        "Blelloch's algorithm), simulated on the CPU: depth, operations and fan-out for widths "
        "8 .. --n; --figures writes the chapter's Graphviz figures, the circuits and the models "
        "of the kernels (Blelloch's sweeps, the block and device scans, the padded layout).";
    spec.default_n = 16;
    spec.min_n = 8;
    spec.max_n = 4096;
    spec.n_unit = "inputs (a power of two)";
    hb::Cli cli(spec);
    std::string figures;
    bool markdown = false;
    hb::add_figures_option(cli, figures);
    cli.app().add_flag("--markdown", markdown,
                       "print the chapter page's complexity table and its table of Blelloch's bank "
                       "conflicts at 256 threads (Markdown)");
    if (!cli.parse(argc, argv)) return 0;
    const auto& opt = cli.options();
    if ((opt.n & (opt.n - 1)) != 0) {
      throw hb::UsageError("--n " + std::to_string(opt.n) + ": must be a power of two");
    }
    // The folder must exist and take files; each figure is written whole or not at all.
    if (!figures.empty()) hb::write_figures(figures, ch13::chapter_figures());
    if (markdown) {
      std::cout << ch13::complexity_table_markdown() << '\n' << ch13::bank_table_markdown(256);
      return 0;
    }
    hb::Report r({"circuit", "n", "steps", "operations", "largest fan-out", "computes a scan"});
    r.fact("program", "scan_networks");
    r.fact("command", cli.command_line());
    r.fact("method", "symbolic simulation: each value is the range of inputs it sums");
    bool all = true;
    for (int n = 8; n <= static_cast<int>(opt.n); n *= 2) {
      for (const ch13::Network& net :
           {ch13::serial_network(n), ch13::kogge_stone_network(n), ch13::sklansky_network(n),
            ch13::brent_kung_network(n)}) {
        const ch13::NetworkStats s = ch13::analyze(net);
        all = all && s.is_scan;
        r.row({net.title, std::to_string(n), std::to_string(s.depth), std::to_string(s.ops),
               std::to_string(s.max_fanout), s.is_scan ? "yes" : "NO: " + s.error});
      }
      const ch13::AlgorithmStats naive = ch13::naive_stats(n);
      all = all && naive.is_scan;
      r.row({"Naive (one reduction per output)", std::to_string(n), std::to_string(naive.steps),
             std::to_string(naive.ops), "-", naive.is_scan ? "yes" : "NO"});
      const ch13::AlgorithmStats b = ch13::blelloch_stats(n);
      all = all && b.is_scan;
      r.row({"Blelloch (exclusive)", std::to_string(n), std::to_string(b.steps),
             std::to_string(b.ops), "-", b.is_scan ? "yes" : "NO"});
    }
    r.print(std::cout, opt.csv);
    if (!all) throw hb::CheckFailed("a circuit does not compute a scan");
    return 0;
  });
}
