// reduction_figures: the orders of addition of chapter 12's kernels on the CPU. Prints, for a
// block of --n threads, the steps, the additions, whether every element reaches the total
// exactly once and no step races, and how each step's reads fall on the shared-memory banks;
// --markdown prints the chapter page's bank table, --figures DIR writes figures 12.1 and 12.2
// (Graphviz .dot files and the .md fragments the page includes). No GPU needed.
#include <algorithm>
#include <iostream>

#include "hb/cli.h"
#include "hb/error.h"
#include "hb/figures.h"
#include "hb/report.h"
#include "reduction_figures.h"

int main(int argc, char** argv) {
  return hb::run_main("reduction_figures", [&] {
    hb::CliSpec spec;
    spec.program = "reduction_figures";
    spec.description =
        "Chapter 12: the orders in which the serial, neighbored (10a, 10b) and interleaved "
        "(1, 10d) reductions add, simulated on the CPU for one block of --n threads: steps, "
        "additions, races, warps and bank conflicts; --figures writes figures 12.1 and 12.2.";
    spec.default_n = 256;
    spec.min_n = 32;
    spec.max_n = 1024;
    spec.n_unit = "threads of the block (a power of two)";
    hb::Cli cli(spec);
    std::string figures;
    bool markdown = false;
    hb::add_figures_option(cli, figures);
    cli.app().add_flag("--markdown", markdown, "print the chapter page's table of warps and bank conflicts (Markdown)");
    if (!cli.parse(argc, argv)) return 0;
    const auto& opt = cli.options();
    const int threads = static_cast<int>(opt.n);
    if ((threads & (threads - 1)) != 0) {
      throw hb::UsageError("--n " + std::to_string(opt.n) + ": must be a power of two");
    }
    // The folder must exist and take files; each figure is written whole or not at all.
    if (!figures.empty()) hb::write_figures(figures, ch12::chapter_figures());
    if (markdown) {
      std::cout << ch12::access_table_markdown(threads);
      return 0;
    }
    hb::Report r({"order", "elements", "threads", "steps", "additions", "each element once",
                  "race-free", "warp-steps", "largest bank conflict", "passes of the reads"});
    r.fact("program", "reduction_figures");
    r.fact("command", cli.command_line());
    r.fact("method", "symbolic simulation: each element's value is the count of every input in it");
    r.fact("banks", "32 banks of 4-byte words; a warp's read takes as many passes as the most "
                    "distinct words one bank holds");
    bool all = true;
    for (const ch12::Schedule& s :
         {ch12::serial_schedule(threads), ch12::neighbored_schedule(threads),
          ch12::neighbored_less_schedule(threads), ch12::interleaved_schedule(threads, threads),
          ch12::interleaved_schedule(8 * threads, threads)}) {
      const ch12::ScheduleStats st = ch12::analyze(s);
      all = all && st.each_once && st.race_free;
      int warp_steps = 0, conflict = 0, passes = 0;
      for (const ch12::StepAccess& a : ch12::shared_accesses(s)) {
        warp_steps += a.active_warps;
        conflict = std::max(conflict, a.conflict);
        passes += a.passes;
      }
      // Bank conflicts of the shared-memory steps only: with more elements than threads the
      // first steps read global memory.
      const bool shared = s.name != "serial" && s.n == s.threads;
      r.row({s.title, std::to_string(s.n), std::to_string(s.threads), std::to_string(st.steps),
             std::to_string(st.adds), st.each_once ? "yes" : "NO: " + st.error,
             st.race_free ? "yes" : "NO: " + st.error, shared ? std::to_string(warp_steps) : "-",
             shared ? std::to_string(conflict) : "-", shared ? std::to_string(passes) : "-"});
    }
    r.print(std::cout, opt.csv);
    if (!all) throw hb::CheckFailed("an order of additions does not reduce every element once");
    return 0;
  });
}
