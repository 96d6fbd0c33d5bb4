// libFuzzer harness of the shared command line (hb::Cli with chapter-style flags of every
// kind): the input is split at NUL bytes into arguments. Every command line is either refused
// with a UsageError, or accepted with every value in its range and every number exactly the
// decimal text the user typed (no octal, hexadecimal, saturation or empty values). Every
// argument is also given to parse_size and compared with exact arithmetic. Anything else
// aborts (a finding).
//
//   build/common/fuzz_cli -runs=1000000 build/common/fuzz_cli_corpus common/fuzz/cli_seeds
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "hb/cli.h"
#include "hb/error.h"

namespace {
[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_cli: %s: %s\n", what, detail.c_str());
  std::abort();
}

// The value parse_size must give, by digit-by-digit arithmetic in 128 bits; false when the
// text is not a size or the value does not fit.
bool reference_size(const std::string& t, std::size_t& out) {
  std::size_t i = 0;
  unsigned __int128 v = 0;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) {
    v = v * 10 + unsigned(t[i] - '0');
    if (v > ~std::size_t(0)) return false;
    ++i;
  }
  if (i == 0) return false;
  unsigned shift = 0;
  if (i < t.size()) {
    const char c = t[i];
    shift = (c == 'k' || c == 'K') ? 10 : (c == 'm' || c == 'M') ? 20 : (c == 'g' || c == 'G') ? 30 : 99;
    if (shift == 99 || i + 1 != t.size()) return false;
  }
  v <<= shift;
  if (v > ~std::size_t(0)) return false;
  out = static_cast<std::size_t>(v);
  return true;
}

// The last value given to \p flag ("--flag V" or "--flag=V"), if any.
bool last_value(const std::vector<std::string>& args, const std::string& flag, std::string& out) {
  bool found = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == flag && i + 1 < args.size()) {
      out = args[i + 1];
      found = true;
    } else if (args[i].rfind(flag + "=", 0) == 0) {
      out = args[i].substr(flag.size() + 1);
      found = true;
    }
  }
  return found;
}

// "007" -> "7": the decimal value of digits, as text.
std::string plain(const std::string& digits) {
  const auto first = digits.find_first_not_of('0');
  return first == std::string::npos ? "0" : digits.substr(first);
}

bool digits_only(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

void check_integer(const std::vector<std::string>& args, const std::string& flag,
                   const std::string& got) {
  std::string typed;
  if (!last_value(args, flag, typed)) return;
  const bool negative = !typed.empty() && typed[0] == '-';
  const std::string digits = negative ? typed.substr(1) : typed;
  if (!digits_only(digits)) finding("accepted a value that is not plain decimal", flag + " '" + typed + "'");
  const std::string want = (negative && plain(digits) != "0" ? "-" : "") + plain(digits);
  if (want != got) finding("value is not what was typed", flag + " '" + typed + "' gave " + got);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte chooses the program's shape; the rest are the arguments.
  const std::uint8_t shape = data[0];
  std::vector<std::string> args = {"fuzz"};
  std::string current;
  for (std::size_t i = 1; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current += char(data[i]);
    }
  }
  if (!current.empty()) args.push_back(current);
  if (args.size() > 64) return 0;

  for (std::size_t i = 1; i < args.size(); ++i) {
    std::size_t want = 0;
    const bool ok = reference_size(args[i], want);
    try {
      const std::size_t got = hb::parse_size(args[i], "--n");
      if (!ok || got != want) finding("parse_size", args[i]);
    } catch (const hb::UsageError&) {
      if (ok) finding("parse_size refused a size", args[i]);
    }
  }

  hb::CliSpec spec;
  spec.program = "fuzz";
  spec.description = "fuzzed";
  spec.variants = (shape & 1) ? 16 : 0;
  spec.min_n = (shape & 2) ? 8 : 1;
  spec.max_n = (shape & 4) ? std::size_t(1) << 34 : std::size_t(1) << 30;
  spec.default_n = spec.min_n;
  hb::Cli cli(spec);
  int threads = 256;
  float alpha = 2.0f;
  double budget = 100.0;
  std::vector<int> sizes = {8, 16};
  std::string input;
  cli.app().add_option("--threads", threads, "threads")->check(CLI::Range(32, 1024));
  cli.app().add_option("--alpha", alpha, "alpha");
  cli.app().add_option("--budget-ms", budget, "budget");
  cli.app().add_option("--sizes", sizes, "sizes")->check(CLI::Range(1, 1024))->delimiter(',');
  cli.app().add_option("--input", input, "a file");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  bool parsed = false;
  try {
    parsed = cli.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const hb::UsageError& e) {
    if (std::string(e.what()).empty()) finding("empty usage message", "");
    return 0;
  }
  if (!parsed) return 0;  // --help
  const hb::CommonOptions& o = cli.options();
  if (o.n < spec.min_n || o.n > spec.max_n) finding("--n out of range", std::to_string(o.n));
  if (o.iters < 1 || o.iters > 100000) finding("--iters out of range", std::to_string(o.iters));
  if (o.device < 0 || o.device > 1023) finding("--device out of range", std::to_string(o.device));
  if (o.variant < -1 || o.variant >= std::max(1, spec.variants))
    finding("--variant out of range", std::to_string(o.variant));
  if (threads < 32 || threads > 1024) finding("--threads out of range", std::to_string(threads));
  for (int s : sizes)
    if (s < 1 || s > 1024) finding("--sizes out of range", std::to_string(s));
  if (!std::isfinite(alpha) || !std::isfinite(budget)) finding("a real value is not finite", "");
  if (cli.app().count("--input") > 0 && input.empty()) finding("empty --input accepted", "");
  check_integer(args, "--seed", std::to_string(o.seed));
  check_integer(args, "--iters", std::to_string(o.iters));
  check_integer(args, "--device", std::to_string(o.device));
  check_integer(args, "--threads", std::to_string(threads));
  return 0;
}
