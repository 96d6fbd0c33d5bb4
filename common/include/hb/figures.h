/// \file
/// \brief A figure drawn from code: the Graphviz text a chapter's model of its kernels writes,
///        its caption, and the fragment the chapter page includes; how a chapter's figure
///        program writes them, and how its tests check that the committed drawings are current.
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

/// Writes NAME.dot and NAME.md of every figure into \p folder, replacing files of those names.
/// Every path is checked before the first is written (a usage error naming \p flag), and each
/// file is written whole or not at all.
void write_figures(const std::string& folder, const std::vector<Figure>& figures,
                   const std::string& flag = "--figures");

/// What is wrong with the committed drawings of a chapter: for each figure whose NAME.dot or
/// NAME.md in \p folder differs from what its model draws now, whose Graphviz text is not a
/// digraph, whose caption holds a double quote (it ends Doxygen's caption), or which the page
/// \p page_text does not include as `\includedoc <folder_on_page>/NAME.md`, one line naming
/// the figure and the fault. Empty when every drawing is current and shown.
std::vector<std::string> figure_faults(const std::vector<Figure>& figures,
                                       const std::string& folder, const std::string& page_text,
                                       const std::string& folder_on_page);

}  // namespace hb
