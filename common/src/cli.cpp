#include "hb/cli.h"

#include <cctype>
#include <iostream>
#include <limits>

#include "hb/error.h"

namespace hb {

std::size_t parse_size(const std::string& text, const std::string& flag) {
  const auto bad = [&](const std::string& why) {
    return UsageError(flag + " '" + text + "': " + why);
  };
  if (text.empty()) throw bad("empty value (expected a count such as 1000, 64K, 128M or 1G)");
  std::size_t pos = 0;
  unsigned long long value = 0;
  const unsigned long long max = std::numeric_limits<std::size_t>::max();
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
    const unsigned digit = static_cast<unsigned>(text[pos] - '0');
    if (value > (max - digit) / 10) throw bad("too large");
    value = value * 10 + digit;
    ++pos;
  }
  if (pos == 0) throw bad("not a non-negative whole number (expected e.g. 1000, 64K, 128M, 1G)");
  unsigned shift = 0;
  if (pos < text.size()) {
    switch (text[pos]) {
      case 'k': case 'K': shift = 10; break;
      case 'm': case 'M': shift = 20; break;
      case 'g': case 'G': shift = 30; break;
      default: throw bad(std::string("unknown suffix '") + text.substr(pos) + "' (use K, M or G)");
    }
    if (pos + 1 != text.size()) throw bad("unexpected characters after the suffix");
  }
  if (shift > 0 && value > (max >> shift)) throw bad("too large");
  return static_cast<std::size_t>(value << shift);
}

Cli::Cli(CliSpec spec) : spec_(std::move(spec)), app_(spec_.description, spec_.program) {
  opt_.iters = spec_.default_iters;
  opt_.n = spec_.default_n;
  n_text_ = std::to_string(spec_.default_n);
  app_.add_option("--device", opt_.device, "CUDA device index")
      ->check(CLI::Range(0, 1023))
      ->capture_default_str();
  app_.add_option("--n", n_text_,
                  "problem size in " + spec_.n_unit + " (K/M/G = 2^10/2^20/2^30), between " +
                      std::to_string(spec_.min_n) + " and " + std::to_string(spec_.max_n))
      ->capture_default_str();
  if (spec_.variants > 0) {
    app_.add_option("--variant", opt_.variant,
                    "run only this variant (0.." + std::to_string(spec_.variants - 1) +
                        "); default: all")
        ->check(CLI::Range(0, spec_.variants - 1));
  }
  app_.add_option("--iters", opt_.iters, "timed repetitions (the median is reported)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app_.add_option("--seed", opt_.seed, "seed of the generated input data")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app_.add_flag("--csv", opt_.csv, "print results as CSV instead of an aligned table");
  app_.add_flag("--no-check", opt_.no_check, "skip the comparison against the reference");
}

bool Cli::parse(int argc, const char* const* argv) {
  command_line_ = spec_.program;
  for (int i = 1; i < argc; ++i) command_line_ += std::string(" ") + argv[i];
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app_.help();
    return false;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app_.help("", CLI::AppFormatMode::All);
    return false;
  } catch (const CLI::ParseError& e) {
    throw UsageError(std::string(e.what()) + " (see --help)");
  }
  opt_.n = parse_size(n_text_, "--n");
  if (opt_.n < spec_.min_n || opt_.n > spec_.max_n) {
    throw UsageError("--n " + n_text_ + ": must be between " + std::to_string(spec_.min_n) +
                     " and " + std::to_string(spec_.max_n));
  }
  return true;
}

}  // namespace hb
