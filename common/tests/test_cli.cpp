// The shared command line: sizes with suffixes, range checks, unknown flags, --help.
#include <catch2/catch.hpp>

#include <vector>

#include "hb/cli.h"
#include "hb/error.h"

namespace {
hb::CliSpec spec() {
  hb::CliSpec s;
  s.program = "demo";
  s.description = "test program";
  s.default_n = 1000;
  s.min_n = 1;
  s.max_n = std::size_t(1) << 32;
  s.variants = 4;
  return s;
}

// Parses the words after the program name.
bool parse(hb::Cli& cli, std::vector<const char*> words) {
  words.insert(words.begin(), "demo");
  return cli.parse(static_cast<int>(words.size()), words.data());
}
}  // namespace

TEST_CASE("parse_size reads plain counts and K/M/G suffixes as powers of two", "[cli]") {
  CHECK(hb::parse_size("0") == 0);
  CHECK(hb::parse_size("1000") == 1000);
  CHECK(hb::parse_size("64K") == 65536);
  CHECK(hb::parse_size("64k") == 65536);
  CHECK(hb::parse_size("128M") == std::size_t(128) << 20);
  CHECK(hb::parse_size("2G") == std::size_t(2) << 30);
}

TEST_CASE("parse_size rejects signs and unknown suffixes and overflow", "[cli]") {
  for (const char* bad : {"", "-5", "+5", "1T", "12MB", "M", "1.5M", " 5", "5 ",
                          "99999999999999999999", "17179869184G"}) {
    INFO("input: '" << bad << "'");
    CHECK_THROWS_AS(hb::parse_size(bad), hb::UsageError);
  }
  CHECK_THROWS_WITH(hb::parse_size("1T", "--n"), Catch::Contains("--n '1T'") && Catch::Contains("suffix"));
}

TEST_CASE("the shared flags parse into CommonOptions", "[cli]") {
  hb::Cli cli(spec());
  REQUIRE(parse(cli, {"--n", "4M", "--device", "1", "--variant", "3", "--iters", "7",
                      "--seed", "42", "--csv", "--no-check"}));
  const auto& o = cli.options();
  CHECK(o.n == std::size_t(4) << 20);
  CHECK(o.device == 1);
  CHECK(o.variant == 3);
  CHECK(o.iters == 7);
  CHECK(o.seed == 42);
  CHECK(o.csv);
  CHECK(o.no_check);
  CHECK(cli.command_line() ==
        "demo --n 4M --device 1 --variant 3 --iters 7 --seed 42 --csv --no-check");
}

TEST_CASE("defaults apply when no flag is given", "[cli]") {
  hb::Cli cli(spec());
  REQUIRE(parse(cli, {}));
  CHECK(cli.options().n == 1000);
  CHECK(cli.options().variant == -1);
  CHECK(cli.options().iters == 10);
  CHECK_FALSE(cli.options().csv);
}

TEST_CASE("bad values and unknown flags are usage errors", "[cli]") {
  const std::vector<std::vector<const char*>> cases = {
      {"--n", "0"},        {"--n", "-5"},      {"--n", "1T"},         {"--n", "8G"},
      {"--iters", "0"},    {"--iters", "x"},   {"--variant", "4"},    {"--variant", "-2"},
      {"--device", "-1"},  {"--frobnicate"},   {"stray"},             {"--n"},
      {"--seed", "-1"}};
  for (const auto& c : cases) {
    hb::Cli cli(spec());
    INFO("arguments: " << c[0] << (c.size() > 1 ? std::string(" ") + c[1] : std::string()));
    CHECK_THROWS_AS(parse(cli, c), hb::UsageError);
  }
}

TEST_CASE("--help prints the flags and asks the program to stop", "[cli]") {
  hb::Cli cli(spec());
  CHECK_FALSE(parse(cli, {"--help"}));
  const std::string help = cli.app().help();
  for (const char* flag : {"--device", "--n", "--variant", "--iters", "--seed", "--csv", "--no-check"})
    CHECK(help.find(flag) != std::string::npos);
}

TEST_CASE("chapters can add their own flags beside the shared ones", "[cli]") {
  hb::Cli cli(spec());
  float alpha = 2.0f;
  cli.app().add_option("--alpha", alpha, "scale");
  REQUIRE(parse(cli, {"--alpha", "0.5", "--n", "33"}));
  CHECK(alpha == 0.5f);
  CHECK(cli.options().n == 33);
}
