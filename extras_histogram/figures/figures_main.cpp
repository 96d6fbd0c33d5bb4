// histogram_figures: the blog post's example of method 3 (sort, then reduce by key) drawn
// from a CPU model of variant 9's three steps. Prints the model's result on every generated
// distribution of --n bytes, checked against the serial histogram (variant 0); --figures DIR
// writes the chapter's figure (a Graphviz .dot file and the .md fragment the page includes).
// No GPU needed.
#include <iostream>
#include <string>

#include "figures.h"
#include "hb/cli.h"
#include "hb/error.h"
#include "hb/figures.h"
#include "hb/report.h"
#include "histogram.h"

int main(int argc, char** argv) {
  return hb::run_main("histogram_figures", [&] {
    hb::CliSpec spec;
    spec.program = "histogram_figures";
    spec.description =
        "Histograms: method 3 of the blog post (sort, then reduce by key) on the CPU, as "
        "variant 9 runs it, checked on every distribution; --figures writes the chapter's "
        "Graphviz figure.";
    spec.default_n = std::size_t(1) << 20;
    spec.max_n = std::size_t(1) << 26;
    spec.n_unit = "bytes per distribution";
    hb::Cli cli(spec);
    std::string figures;
    hb::add_figures_option(cli, figures);
    if (!cli.parse(argc, argv)) return 0;
    const auto& opt = cli.options();
    // The folder must exist and take files; each figure is written whole or not at all.
    if (!figures.empty()) hb::write_figures(figures, histo::chapter_figures());
    hb::Report r({"distribution", "bytes", "runs after sorting", "equals the serial histogram"});
    r.fact("program", "histogram_figures");
    r.fact("command", cli.command_line());
    r.fact("seed", std::to_string(opt.seed));
    r.fact("model", "variant 9 on the CPU: sort, run-length encode (reduce by key), scatter");
    bool all = true;
    auto check = [&](const std::string& what, const std::vector<std::uint8_t>& data) {
      const histo::SortReduce m = histo::sort_reduce_model(data.data(), data.size());
      histo::Bins want{};
      histo::histogram_cpu_serial(data.data(), data.size(), want.data());
      const bool ok = m.bins == want;
      all = all && ok;
      r.row({what, std::to_string(data.size()), std::to_string(m.run_keys.size()), ok ? "yes" : "NO"});
    };
    check("the post's example", histo::post_example_keys());
    for (const histo::Distribution d : histo::generated_distributions())
      check(histo::name(d), histo::generate(d, opt.n, opt.seed));
    r.print(std::cout, opt.csv);
    if (!all) throw hb::CheckFailed("the sort-and-reduce model disagrees with the serial histogram");
    return 0;
  });
}
