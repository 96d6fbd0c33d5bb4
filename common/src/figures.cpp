#include "hb/figures.h"

#include <fstream>
#include <iterator>

#include "hb/cli.h"
#include "hb/files.h"

namespace hb {

void add_figures_option(Cli& cli, std::string& folder) {
  cli.app().add_option("--figures", folder,
                       "write <name>.dot and <name>.md for every figure to this folder (files of "
                       "those names are replaced)");
}

std::string Figure::doxygen() const { return "\\dot \"" + caption + "\"\n" + dot + "\\enddot\n"; }

void write_figures(const std::string& folder, const std::vector<Figure>& figures,
                   const std::string& flag) {
  for (const Figure& f : figures) {
    check_output_path(folder + "/" + f.name + ".dot", flag);
    check_output_path(folder + "/" + f.name + ".md", flag);
  }
  for (const Figure& f : figures) {
    write_file(folder + "/" + f.name + ".dot", f.dot);
    write_file(folder + "/" + f.name + ".md", f.doxygen());
  }
}

std::vector<std::string> figure_faults(const std::vector<Figure>& figures,
                                       const std::string& folder, const std::string& page_text,
                                       const std::string& folder_on_page) {
  std::vector<std::string> faults;
  const auto committed = [&](const std::string& file) {
    std::ifstream in(folder + "/" + file, std::ios::binary);
    return in ? std::string(std::istreambuf_iterator<char>(in), {}) : std::string("(missing)");
  };
  for (const Figure& f : figures) {
    const auto fault = [&](const std::string& what) { faults.push_back(f.name + ": " + what); };
    if (committed(f.name + ".dot") != f.dot) fault(".dot differs from the model's drawing");
    if (committed(f.name + ".md") != f.doxygen()) fault(".md differs from the model's drawing");
    if (f.dot.rfind("digraph", 0) != 0) fault("not a Graphviz digraph");
    if (f.caption.find('"') != std::string::npos) fault("a double quote in the caption");
    const std::string include = "\\includedoc " + folder_on_page + "/" + f.name + ".md";
    if (page_text.find(include) == std::string::npos) fault("the page has no " + include);
  }
  return faults;
}

}  // namespace hb
