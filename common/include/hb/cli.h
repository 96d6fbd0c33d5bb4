/// \file
/// \brief The command line every program shares (CLI11), with K/M/G sizes and range checks.
///
/// Every demo accepts the same flags:
///
/// | flag | meaning |
/// |------|---------|
/// | `--help` | print the flags and exit 0 |
/// | `--device I` | CUDA device index (default 0) |
/// | `--n N` | problem size; suffixes K, M, G multiply by 2^10, 2^20, 2^30 |
/// | `--variant V` | run only variant V of the chapter's table (default: all) |
/// | `--iters I` | timed repetitions; the median is reported |
/// | `--seed S` | seed of the generated input data |
/// | `--csv` | print the results as CSV instead of an aligned table |
/// | `--no-check` | skip the comparison against the reference |
///
/// Bad values are rejected with a one-line message and exit code 2, before any GPU work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace hb {

/// Parses a size such as "1000", "64K", "128M" or "1G" (K/M/G = 2^10/2^20/2^30, either case).
/// Throws UsageError naming \p flag for anything else: signs, other suffixes, overflow.
std::size_t parse_size(const std::string& text, const std::string& flag = "--n");

/// Values of the shared flags after parsing.
struct CommonOptions {
  int device = 0;
  std::size_t n = 0;
  int variant = -1;  ///< -1: every variant
  int iters = 10;
  std::uint64_t seed = 20261122;
  bool csv = false;
  bool no_check = false;
};

/// What a program accepts for the shared flags.
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
  /// The CLI11 application, to add chapter-specific flags.
  CLI::App& app() { return app_; }
  /// Parses and validates. Returns false when --help was printed (the program then exits 0);
  /// throws UsageError on any bad flag or value.
  bool parse(int argc, const char* const* argv);
  const CommonOptions& options() const { return opt_; }
  /// The program name and the arguments as given, e.g. "handbook_info --n 1G --csv", so
  /// that a report records the command that produced it.
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
