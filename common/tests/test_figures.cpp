// hb::Figure, hb::write_figures and hb::figure_faults: a chapter's drawings are written whole,
// and a test finds every way a committed drawing can fall behind its model or off its page.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "hb/error.h"
#include "hb/figures.h"
#include "hb/testing.h"

namespace {

std::vector<hb::Figure> two_figures() {
  return {{"a", "Figure 1: a", "digraph a {\n  x -> y;\n}\n"},
          {"b", "Figure 2: b", "digraph b {\n  y -> z;\n}\n"}};
}

const std::string kPage = "text\n\\includedoc ch/figures/a.md\nmore\n\\includedoc ch/figures/b.md\n";

}  // namespace

TEST_CASE("figures are written as NAME.dot and NAME.md, and then have no faults") {
  const auto dir = std::filesystem::temp_directory_path() / "hb_test_figures";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto figures = two_figures();
  hb::write_figures(dir.string(), figures);
  CHECK(hb::read_text_file((dir / "a.dot").string()) == figures[0].dot);
  CHECK(hb::read_text_file((dir / "b.md").string()) ==
        "\\dot \"Figure 2: b\"\ndigraph b {\n  y -> z;\n}\n\\enddot\n");
  CHECK(hb::figure_faults(figures, dir.string(), kPage, "ch/figures").empty());

  SECTION("a drawing that changed, one that is missing, one the page does not show") {
    auto changed = figures;
    changed[0].dot = "digraph a {\n  x -> z;\n}\n";
    std::filesystem::remove(dir / "b.md");
    const auto faults = hb::figure_faults(changed, dir.string(), "\\includedoc ch/figures/a.md",
                                          "ch/figures");
    REQUIRE(faults.size() == 4);
    CHECK(faults[0] == "a: .dot differs from the model's drawing");
    CHECK(faults[1] == "a: .md differs from the model's drawing");
    CHECK(faults[2] == "b: .md differs from the model's drawing");
    CHECK(faults[3] == "b: the page has no \\includedoc ch/figures/b.md");
  }
  SECTION("a drawing that is not a digraph, a caption with a double quote") {
    auto bad = figures;
    bad[0].dot = "graph a {}\n";
    bad[1].caption = "Figure 2: \"b\"";
    const auto faults = hb::figure_faults(bad, dir.string(), kPage, "ch/figures");
    CHECK(std::find(faults.begin(), faults.end(), "a: not a Graphviz digraph") != faults.end());
    CHECK(std::find(faults.begin(), faults.end(), "b: a double quote in the caption") !=
          faults.end());
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("figures are not written into a folder that does not exist") {
  CHECK_THROWS_AS(hb::write_figures("/no/such/folder", two_figures()), hb::UsageError);
}
