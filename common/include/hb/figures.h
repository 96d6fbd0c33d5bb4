/// \file
/// \brief A figure drawn from code (the Graphviz text a chapter's model of its kernels writes):
///        how a figure program writes it, and how tests check that the committed one is current.
#pragma once

#include <string>
#include <vector>

namespace hb {

class Cli;

/// One drawing of a chapter page, as its model draws it now.
struct Figure {
  std::string name;     ///< "force_matrix_8": figures/NAME.dot and figures/NAME.md
  std::string caption;  ///< the caption, with the book's figure number
  std::string dot;      ///< the Graphviz text
  /// The page fragment for `\includedoc`: the graph in a Doxygen `\dot` block.
  std::string doxygen() const;
};

/// Adds the figure programs' option `--figures FOLDER` to \p cli, read into \p folder.
void add_figures_option(Cli& cli, std::string& folder);

/// Writes NAME.dot and NAME.md of every figure into \p folder, each whole or not at all, after
/// checking every path (a usage error naming \p flag).
void write_figures(const std::string& folder, const std::vector<Figure>& figures,
                   const std::string& flag = "--figures");

/// One line per fault of the committed drawings: a NAME.dot or NAME.md in \p folder that differs
/// from what the model draws now, a Graphviz text that is not a digraph, a double quote in a
/// caption (it ends Doxygen's), a figure \p page_text does not include as
/// `\includedoc <folder_on_page>/NAME.md`. Empty when every drawing is current and shown.
std::vector<std::string> figure_faults(const std::vector<Figure>& figures,
                                       const std::string& folder, const std::string& page_text,
                                       const std::string& folder_on_page);

}  // namespace hb
