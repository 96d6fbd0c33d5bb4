#include "hb/cli.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <map>
#include <vector>

#include "hb/error.h"

namespace hb {

std::size_t parse_size(const std::string& text, const std::string& flag) {
  const auto bad = [&](const std::string& why) {
    return UsageError(flag + " " + quote_arg(text) + ": " + why);
  };
  if (text.empty()) throw bad("empty value (expected a count such as 1000, 64K, 128M or 1G)");
  const char* const end = text.data() + text.size();
  std::size_t value = 0;
  const auto [pos, ec] = std::from_chars(text.data(), end, value);
  if (pos == text.data())
    throw bad("not a non-negative whole number (expected e.g. 1000, 64K, 128M, 1G)");
  if (ec == std::errc::result_out_of_range) throw bad("too large");
  unsigned shift = 0;
  if (pos != end) {
    switch (*pos) {
      case 'k': case 'K': shift = 10; break;
      case 'm': case 'M': shift = 20; break;
      case 'g': case 'G': shift = 30; break;
      default: throw bad("unknown suffix '" + std::string(pos, end) + "' (use K, M or G)");
    }
    if (pos + 1 != end) throw bad("unexpected characters after the suffix");
  }
  if (value > (std::numeric_limits<std::size_t>::max() >> shift)) throw bad("too large");
  return value << shift;
}

namespace {

// Whether the decimal text \p s fits a T.
template <typename T>
bool fits(const std::string& s) {
  T v = 0;
  return std::from_chars(s.data(), s.data() + s.size(), v).ec == std::errc();
}

// Why \p text is not a number of \p kind, or "" when it is; \p canonical receives its plain
// decimal form.
std::string number_problem(const std::string& text, NumberKind kind, std::string& canonical) {
  const std::string shown = quote_arg(text);
  if (text.empty()) return "empty value (give a number, or leave the option out)";
  switch (kind) {
    case NumberKind::Unsigned:
    case NumberKind::Signed: {
      const bool is_signed = kind == NumberKind::Signed;
      const std::size_t start = is_signed && text[0] == '-' ? 1 : 0;
      const std::string range = std::to_string(std::numeric_limits<std::uint64_t>::max());
      if (start == text.size() || text.find_first_not_of("0123456789", start) != std::string::npos)
        return shown + " is not a whole number" +
               (is_signed ? " (an optional '-' and decimal digits only)"
                          : " from 0 to " + range + " (decimal digits only)");
      const std::size_t first = text.find_first_not_of('0', start);  // leading zeros dropped
      canonical = text.substr(0, start) + (first == std::string::npos ? "0" : text.substr(first));
      if (canonical == "-0") canonical = "0";
      if (is_signed ? !fits<std::int64_t>(canonical) : !fits<std::uint64_t>(canonical))
        return shown + (is_signed ? " is out of the range of a 64-bit whole number"
                                  : " is larger than " + range);
      return "";
    }
    case NumberKind::Real: {
      // [-] (digits [. digits*] | . digits) [(e|E) [+|-] digits]: what std::from_chars reads
      // from text that has no letter but e (no inf, nan, nor hexadecimal).
      double parsed = 0;
      const char* const end = text.data() + text.size();
      if (text.find_first_not_of("0123456789.eE+-") != std::string::npos ||
          std::from_chars(text.data(), end, parsed).ptr != end)
        return shown + " is not a decimal number (such as 2, -0.5, .25 or 1e-3)";
      // Options may be float: the value must survive the conversion, not become inf or 0.
      const double v = std::strtod(text.c_str(), nullptr);
      const double magnitude = std::fabs(v);
      if (!std::isfinite(v) || magnitude > std::numeric_limits<float>::max() ||
          (magnitude != 0.0 && magnitude < std::numeric_limits<float>::min()))
        return shown + " is beyond the range of a float (about 1.2e-38 to 3.4e38 in magnitude)";
      canonical = text;
      return "";
    }
  }
  return "unknown kind of number";
}

}  // namespace

std::string strict_number(const std::string& text, NumberKind kind, const std::string& flag) {
  std::string canonical;
  const std::string problem = number_problem(text, kind, canonical);
  if (!problem.empty()) throw UsageError(flag + ": " + problem);
  return canonical;
}

void require_range(double value, double min, double max, const std::string& flag,
                   const std::string& why) {
  if (std::isfinite(value) && value >= min && value <= max) return;
  char text[96];
  std::snprintf(text, sizeof text, "%s %g: must be from %g to %g", flag.c_str(), value, min, max);
  throw UsageError(std::string(text) + (why.empty() ? "" : " (" + why + ")"));
}

void make_strict(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_type_size() == 0) continue;  // a flag: no value to check
    static const std::map<std::string, NumberKind> kinds = {{"UINT", NumberKind::Unsigned},
        {"INT", NumberKind::Signed}, {"FLOAT", NumberKind::Real}, {"NUMBER", NumberKind::Real}};
    const auto number = kinds.find(opt->get_type_name().substr(0, opt->get_type_name().find(':')));
    if (number != kinds.end()) {
      const NumberKind kind = number->second;
      // A transform runs before the option's own checks and before CLI11 converts the text.
      opt->transform(CLI::Validator(
          [kind](std::string& value) {
            std::string canonical;
            std::string problem = number_problem(value, kind, canonical);
            if (problem.empty()) value = canonical;
            return problem;
          },
          ""));
    } else {
      // CLI11 gives a text option the next argument whatever it is: "--input --seed=5" would
      // read a file named "--seed=5" and leave the seed at its default (found by fuzz_cli).
      opt->transform(CLI::Validator(
          [](std::string& value) {
            if (value.empty())
              return std::string("empty value (give a value, or leave the option out)");
            if (value.rfind("--", 0) == 0)
              return "'" + value +
                     "' is an option, not a value (a value that begins with -- can be written "
                     "./" + value + " for a file)";
            return std::string();
          },
          ""));
    }
  }
}

Cli::Cli(CliSpec spec) : spec_(std::move(spec)), app_(spec_.description, spec_.program) {
  opt_.iters = spec_.default_iters;
  opt_.n = spec_.default_n;
  n_text_ = std::to_string(spec_.default_n);
  app_.add_option("--device", opt_.device, "CUDA device index")
      ->check(CLI::Range(0, 1023))
      ->capture_default_str();
  // --N is the book's spelling (chapter 11: "use --N to specify the number of floats").
  app_.add_option("--n,--N", n_text_,
                  "problem size in " + spec_.n_unit + " (K/M/G = 2^10/2^20/2^30), between " +
                      std::to_string(spec_.min_n) + " and " + std::to_string(spec_.max_n))
      ->capture_default_str();
  if (spec_.variants > 0)
    app_.add_option("--variant", opt_.variant,
                    "run only this variant (0.." + std::to_string(spec_.variants - 1) +
                        "); default: all")
        ->check(CLI::Range(0, spec_.variants - 1));
  app_.add_option("--iters", opt_.iters, "timed repetitions (the median is reported)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app_.add_option("--seed", opt_.seed,
                  "seed of the generated input data, a whole number from 0 to 2^64 - 1")
      ->capture_default_str();
  app_.add_flag("--csv", opt_.csv, "print results as CSV instead of an aligned table");
  app_.add_flag("--no-check", opt_.no_check, "skip the comparison against the reference");
}

std::vector<std::string> book_spellings(const CLI::App& app, int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    // "-wTemplate 16" as the book prints it: one dash before a long option's name.
    if (a.size() > 2 && a[0] == '-' && a[1] != '-') {
      const std::string name = a.substr(1, a.find('=') - 1);
      if (app.get_option_no_throw("--" + name) != nullptr) a = "-" + a;
    }
    // "--seed=" with nothing after the "=": CLI11 would take the next argument as the value;
    // an empty value is refused here, as every other empty value is (make_strict).
    const std::size_t eq = a.find('=');
    if (a.size() > 2 && a[0] == '-' && eq != std::string::npos && eq + 1 == a.size())
      throw UsageError(quote_arg(a) + ": empty value (give a value, or leave the option out)");
    args.push_back(a);
  }
  return args;
}

bool Cli::parse(int argc, const char* const* argv) {
  command_line_ = spec_.program;
  for (int i = 1; i < argc; ++i) command_line_ += std::string(" ") + argv[i];
  make_strict(app_);
  // CLI11 takes the arguments last first.
  std::vector<std::string> args = book_spellings(app_, argc, argv);
  std::reverse(args.begin(), args.end());
  try {
    app_.parse(args);
  } catch (const CLI::CallForHelp&) {
    std::cout << app_.help();
    return false;
  } catch (const CLI::ParseError& e) {
    throw UsageError(std::string(e.what()) + " (see --help)");
  }
  opt_.n = parse_size(n_text_, "--n");
  if (opt_.n < spec_.min_n || opt_.n > spec_.max_n)
    throw UsageError("--n " + quote_arg(n_text_) + ": must be between " +
                     std::to_string(spec_.min_n) + " and " + std::to_string(spec_.max_n));
  return true;
}

}  // namespace hb
