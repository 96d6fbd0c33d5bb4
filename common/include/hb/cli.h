/// \file
/// \brief The command line every program shares (CLI11), with K/M/G sizes and range checks.
///
/// Every demo accepts `--help`, `--device I`, `--n N` (the problem size; K, M, G multiply by
/// 2^10, 2^20, 2^30), `--variant V` (one row of the chapter's table; default all), `--iters I`
/// (timed repetitions, the median reported), `--seed S`, `--csv` and `--no-check`. Bad values
/// are rejected with a one-line message and exit code 2, before any GPU work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace hb {

/// Parses a size such as "1000", "64K", "128M" or "1G" (K/M/G = 2^10/2^20/2^30, either case).
/// Throws UsageError naming \p flag for anything else: signs, other suffixes, overflow.
std::size_t parse_size(const std::string& text, const std::string& flag = "--n");

enum class NumberKind {
  Unsigned,  ///< a whole number: digits only (leading zeros ignored), at most 2^64 - 1
  Signed,    ///< a whole number, perhaps negative: an optional '-', then digits
  Real       ///< a decimal number that a float holds: 1.5, -2, .25, 3e-4 (no nan, inf,
             ///< hexadecimal, nor a magnitude above 3.4e38 or below 1.2e-38 but 0)
};

/// Checks \p text against \p kind. Returns the text in plain decimal form (leading zeros
/// dropped, so that "010" means ten, never eight), or throws UsageError naming \p flag.
std::string strict_number(const std::string& text, NumberKind kind, const std::string& flag);

/// Makes every option of \p app strict before CLI11 converts its value: numbers must be plain
/// decimal text (strict_number(); CLI11 reads "010" as octal, "0x10" as hexadecimal and
/// saturates "99999999999999999999"), and no value may be empty ("--alpha ''" would mean 0 or
/// "not given"). Cli::parse() calls it, covering every option added before.
void make_strict(CLI::App& app);

/// argv[1..argc) with the book's single-dash long options ("-wTemplate 16", section 15.7) turned
/// into ours ("--wTemplate 16") wherever \p app has one; everything else as given.
std::vector<std::string> book_spellings(const CLI::App& app, int argc, const char* const* argv);

/// Throws UsageError naming \p flag (and \p why, if given) unless \p value is in [min, max].
void require_range(double value, double min, double max, const std::string& flag,
                   const std::string& why = "");

struct CommonOptions {
  int device = 0;
  std::size_t n = 0;
  int variant = -1;  ///< -1: every variant
  int iters = 10;
  std::uint64_t seed = 20261122;
  bool csv = false, no_check = false;
};

struct CliSpec {
  std::string program;           ///< the executable's name, for messages
  std::string description;       ///< one line for --help
  std::size_t default_n = 1;     ///< default of --n
  std::size_t min_n = 1;         ///< smallest accepted --n
  std::size_t max_n = std::size_t(1) << 34;  ///< largest accepted --n
  std::string n_unit = "elements";           ///< what --n counts, for --help
  int variants = 0;  ///< rows in the variant table; 0 hides --variant
  int default_iters = 10;
};

/// The shared command line. Programs add their own flags through app() before parse().
class Cli {
 public:
  explicit Cli(CliSpec spec);
  CLI::App& app() { return app_; }
  /// Parses and validates. Returns false when --help was printed (the program then exits 0);
  /// throws UsageError on any bad flag or value.
  bool parse(int argc, const char* const* argv);
  const CommonOptions& options() const { return opt_; }
  /// The program name and the arguments as given ("handbook_info --n 1G --csv"), so that a
  /// report records the command that produced it.
  const std::string& command_line() const { return command_line_; }
  const CliSpec& spec() const { return spec_; }

 private:
  CliSpec spec_;
  CLI::App app_;
  CommonOptions opt_;
  std::string n_text_;
  std::string command_line_;
};

}  // namespace hb
