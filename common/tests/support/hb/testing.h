/// \file
/// \brief Helpers for the chapters' Catch2 tests (GPU tests carry the tag `[gpu]`; the shared
///        test main reports them Skipped, exit 77, on a machine without a CUDA device).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace hb {

/// True while the tests run under compute-sanitizer (scripts/run_sanitizer.sh sets
/// HB_UNDER_SANITIZER=1), which slows kernels 10-1000x: tests then cap their largest sizes
/// (kSanitizerMaxSize) but still run every variant and every edge case.
inline bool under_sanitizer() {
  const char* v = std::getenv("HB_UNDER_SANITIZER");
  return v != nullptr && std::string(v) == "1";
}
constexpr std::size_t kSanitizerMaxSize = std::size_t(1) << 20;

/// The sizes every variant is tested on: 0, 1, 31, 32, 33, block - 1, block, block + 1, a prime
/// (1000003), and \p large (e.g. 2^24 + 3), sorted, without duplicates and, under the
/// sanitizer, none above kSanitizerMaxSize.
std::vector<std::size_t> standard_sizes(std::size_t block, std::size_t large);

/// HB_TEST_SEED from the environment if set, otherwise \p fallback: tests print it (Catch2
/// INFO) so that a failure can be replayed.
inline std::uint64_t test_seed(std::uint64_t fallback = 20261122) {
  const char* v = std::getenv("HB_TEST_SEED");
  return v == nullptr || *v == '\0' ? fallback : std::strtoull(v, nullptr, 10);
}

/// The contents of the file at \p path; throws std::runtime_error naming it when unreadable.
std::string read_text_file(const std::string& path);

/// \p text with every run of white space one space, none at the ends: prose without line breaks.
std::string normalize_space(const std::string& text);

/// Whether \p text has \p line as a line, blanks aside: a line a page quotes still stands.
bool has_line(const std::string& text, const std::string& line);

/// The first data row of the CSV file \p path (`# ...` lines skipped, quoted cells may hold
/// commas) that has every cell of \p match, by column name, or none: a page's measurement.
std::map<std::string, std::string> csv_row(const std::string& path,
                                           const std::map<std::string, std::string>& match);

/// Whether \p shown, a number as a page prints it (thousands may be separated by commas), is
/// the CSV's \p value rounded to the decimals shown.
bool shows_rounded(const std::string& shown, const std::string& value);

}  // namespace hb
