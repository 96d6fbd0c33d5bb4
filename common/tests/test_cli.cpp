// The shared command line: sizes with suffixes, range checks, unknown flags, --help.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
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

TEST_CASE("whole numbers are plain decimal: leading zeros mean decimal, never octal", "[cli]") {
  hb::Cli cli(spec());
  REQUIRE(parse(cli, {"--iters", "010", "--seed", "010", "--device", "007"}));
  CHECK(cli.options().iters == 10);
  CHECK(cli.options().seed == 10);
  CHECK(cli.options().device == 7);
}

TEST_CASE("the seed takes every 64-bit value and nothing beyond", "[cli]") {
  {
    hb::Cli cli(spec());
    REQUIRE(parse(cli, {"--seed", "18446744073709551615"}));
    CHECK(cli.options().seed == 18446744073709551615ull);
  }
  for (const char* bad : {"18446744073709551616", "99999999999999999999999", "-1", "+8", "0x10",
                          "1e3", "1.5", "abc", "", " 8", "8 "}) {
    hb::Cli cli(spec());
    INFO("--seed '" << bad << "'");
    CHECK_THROWS_AS(parse(cli, {"--seed", bad}), hb::UsageError);
  }
}

TEST_CASE("hexadecimal, signs, exponents and empty values are refused for whole numbers", "[cli]") {
  for (const char* flag : {"--iters", "--device", "--variant"}) {
    for (const char* bad : {"0x10", "+2", "1e1", "", "2.0", "--", "1 "}) {
      hb::Cli cli(spec());
      INFO(flag << " '" << bad << "'");
      CHECK_THROWS_AS(parse(cli, {flag, bad}), hb::UsageError);
    }
  }
}

TEST_CASE("usage messages are one short line that names the flag", "[cli]") {
  const std::vector<std::vector<const char*>> cases = {
      {"--seed", "-1"}, {"--seed", "abc"}, {"--iters", "0x10"}, {"--seed", "1\n2"},
      {"--n", "1\n2"},  {"--bogus\nx"}};
  for (const auto& c : cases) {
    hb::Cli cli(spec());
    try {
      parse(cli, c);
      FAIL("accepted: " << c[0]);
    } catch (const hb::UsageError& e) {
      const std::string message = hb::printable(e.what());
      INFO(message);
      CHECK(message.size() < 200);
      CHECK(message.find('\n') == std::string::npos);
    }
  }
  // A long value is cut in the message.
  hb::Cli cli(spec());
  const std::string long_value(5000, '7');
  CHECK_THROWS_WITH(parse(cli, {"--seed", long_value.c_str()}), Catch::Contains("5000 characters"));
}

TEST_CASE("real numbers are finite decimals; nan, inf and hexadecimal floats are refused", "[cli]") {
  for (const char* good : {"0.5", "-2", ".25", "3.", "1e-3", "2E+2", "007.5"}) {
    hb::Cli cli(spec());
    double alpha = 0.0;
    cli.app().add_option("--alpha", alpha, "scale");
    INFO("--alpha " << good);
    REQUIRE(parse(cli, {"--alpha", good}));
    CHECK(alpha == Approx(std::strtod(good, nullptr)));
  }
  for (const char* bad : {"nan", "inf", "-inf", "1e400", "0x1p3", "", ".", "e5", "1e", "1.2.3",
                          "+1", " 1", "-1.5e216", "4e38", "1e-50"}) {
    hb::Cli cli(spec());
    float alpha = 0.0f;
    cli.app().add_option("--alpha", alpha, "scale");
    INFO("--alpha '" << bad << "'");
    CHECK_THROWS_AS(parse(cli, {"--alpha", bad}), hb::UsageError);
  }
}

TEST_CASE("an option given an empty value is refused, whatever its type", "[cli]") {
  hb::Cli cli(spec());
  std::string input = "default.pgm";
  cli.app().add_option("--input", input, "a file");
  CHECK_THROWS_WITH(parse(cli, {"--input", ""}), Catch::Contains("--input") &&
                                                     Catch::Contains("empty"));
  hb::Cli again(spec());
  again.app().add_option("--input", input, "a file");
  REQUIRE(parse(again, {"--input", "x.pgm"}));
  CHECK(input == "x.pgm");
  // "--seed=" with the value in the next argument (found by fuzz_cli): CLI11 would take "42".
  hb::Cli inline_empty(spec());
  CHECK_THROWS_WITH(parse(inline_empty, {"--seed=", "42"}),
                    Catch::Contains("--seed=") && Catch::Contains("empty"));
  hb::Cli inline_empty_n(spec());
  CHECK_THROWS_AS(parse(inline_empty_n, {"--n=", "64K"}), hb::UsageError);
}

TEST_CASE("a text option does not take the next option as its value", "[cli]") {
  // Found by fuzz_cli: "--input --seed=5" read a file named "--seed=5" and kept the default
  // seed. The book's "-input -seed 5" becomes "--input --seed 5" first, and is refused too.
  for (const std::vector<const char*>& words :
       {std::vector<const char*>{"--input", "--seed=5"}, {"--input", "--seed", "5"},
        {"-input", "-seed", "5"}, {"--input=--csv"}, {"--n", "--csv"}}) {
    hb::Cli cli(spec());
    std::string input = "default.pgm";
    cli.app().add_option("--input", input, "a file");
    std::string typed;
    for (const char* w : words) typed += std::string(" ") + w;
    INFO("demo" << typed);
    CHECK_THROWS_AS(parse(cli, words), hb::UsageError);
  }
  hb::Cli cli(spec());
  std::string input;
  cli.app().add_option("--input", input, "a file");
  CHECK_THROWS_WITH(parse(cli, {"--input", "--csv"}),
                    Catch::Contains("is an option, not a value") && Catch::Contains("./--csv"));
  hb::Cli dash(spec());
  dash.app().add_option("--input", input, "a file");
  REQUIRE(parse(dash, {"--input", "-", "--seed", "7"}));  // one dash alone is a value
  CHECK(input == "-");
  CHECK(dash.options().seed == 7);
}

TEST_CASE("strict_number gives the plain decimal text or says what is wrong", "[cli]") {
  CHECK(hb::strict_number("00042", hb::NumberKind::Unsigned, "--x") == "42");
  CHECK(hb::strict_number("-007", hb::NumberKind::Signed, "--x") == "-7");
  CHECK(hb::strict_number("-0", hb::NumberKind::Signed, "--x") == "0");
  CHECK(hb::strict_number("1.5e3", hb::NumberKind::Real, "--x") == "1.5e3");
  CHECK_THROWS_WITH(hb::strict_number("-1", hb::NumberKind::Unsigned, "--seed"),
                    Catch::StartsWith("--seed: '-1' is not a whole number from 0 to"));
  CHECK_THROWS_WITH(hb::strict_number("9223372036854775808", hb::NumberKind::Signed, "--x"),
                    Catch::Contains("out of the range"));
}

TEST_CASE("require_range accepts finite values inside the range and names the flag otherwise", "[cli]") {
  CHECK_NOTHROW(hb::require_range(0.5, 0.0, 1.0, "--x"));
  CHECK_NOTHROW(hb::require_range(1.0, 0.0, 1.0, "--x"));
  CHECK_THROWS_WITH(hb::require_range(2.0, 0.0, 1.0, "--dt", "why"),
                    Catch::Equals("--dt 2: must be from 0 to 1 (why)"));
  CHECK_THROWS_AS(hb::require_range(std::nan(""), 0.0, 1.0, "--x"), hb::UsageError);
  CHECK_THROWS_AS(hb::require_range(-HUGE_VAL, -1e300, 1.0, "--x"), hb::UsageError);
}

TEST_CASE("printable writes control characters as escapes", "[cli]") {
  CHECK(hb::printable("a\nb\tc\rd") == "a\\nb\\tc\\rd");
  CHECK(hb::printable(std::string("x\x01y\x7f", 4)) == "x\\x01y\\x7f");
  CHECK(hb::printable("plain, text") == "plain, text");
}

TEST_CASE("the book's spellings: --N, and long options with one dash", "[cli]") {
  {
    hb::Cli cli(spec());
    REQUIRE(parse(cli, {"--N", "4K"}));
    CHECK(cli.options().n == 4096);
  }
  hb::Cli cli(spec());
  int w = 0, x = 0;
  cli.app().add_option("--wTemplate", w, "width");
  cli.app().add_option("--xTemplate", x, "left edge");
  REQUIRE(parse(cli, {"-wTemplate", "16", "--xTemplate", "-5", "-iters=3"}));
  CHECK(w == 16);
  CHECK(x == -5);  // a negative value is not taken for an option
  CHECK(cli.options().iters == 3);
  // Only names the program has are rewritten; a short option stays one.
  const char* argv[] = {"demo", "-wTemplate", "-5", "-q", "-nosuch"};
  CHECK(hb::book_spellings(cli.app(), 5, argv) ==
        std::vector<std::string>{"--wTemplate", "-5", "-q", "-nosuch"});
  hb::Cli unknown(spec());
  CHECK_THROWS_AS(parse(unknown, {"-nosuch", "1"}), hb::UsageError);
}
