/// \file
/// \brief What every chapter's variant table (a `std::vector` of rows, each with a
///        `const char* id` such as "10c") shares: lookup by id, the list of ids, and the rules
///        for the block sizes a variant accepts.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "hb/error.h"

namespace hb {

/// \f$\lceil a / b \rceil\f$ for sizes.
constexpr std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

/// "0, 1, 2, ..., 11b": the ids of \p rows, for messages and --help.
template <typename Row>
std::string ids_of(const std::vector<Row>& rows) {
  std::string s;
  for (const Row& r : rows) s += (s.empty() ? "" : ", ") + std::string(r.id);
  return s;
}

/// The row of \p rows whose id is \p id; throws hb::UsageError naming \p flag, the kind of
/// variant ("compaction ", with its space, or nothing) and the valid ids.
template <typename Row>
const Row& find_row(const std::vector<Row>& rows, std::string_view id,
                    const char* flag = "--variant", const char* kind = "") {
  for (const Row& r : rows)
    if (id == r.id) return r;
  throw UsageError(std::string(flag) + " " + quote_arg(std::string(id)) + ": no such " + kind +
                   "variant (valid: " + ids_of(rows) + ")");
}

/// Row \p id, for which the per-variant program \p program is built: its program() must be
/// \p program (a std::logic_error otherwise: the build is wrong, not the command line).
template <typename Row>
const Row& program_row(const std::vector<Row>& rows, std::string_view id, const char* program) {
  const Row& r = find_row(rows, id);
  if (r.program() != program)
    throw std::logic_error(std::string("program ") + program + " is built for variant " +
                           std::string(id) + ", whose program is " + r.program());
  return r;
}

enum class BlockRule {
  Library,            ///< the library picks its own (CUB); --threads is not offered
  Own,                ///< the variant picks its own from the input; --threads is not offered
  Cpu,                ///< no blocks at all (a CPU reference); --threads is not offered
  PowerOfTwo,         ///< 1, 2, 4, ..., 1024
  PowerOfTwoFrom32,   ///< 32, 64, ..., 1024
  PowerOfTwo32To512,  ///< 32, 64, ..., 512
  MultipleOf32,       ///< 32, 64, 96, ..., 1024
  Any                 ///< 1 ... 1024
};

/// Whether \p rule allows blocks of \p threads threads.
bool accepts(BlockRule rule, int threads);
/// "a power of two from 1 to 1024", for messages.
std::string describe(BlockRule rule);
/// Throws hb::UsageError naming \p variant (e.g. "variant 4") unless \p rule allows \p threads.
void require_threads(const std::string& variant, BlockRule rule, int threads);

/// Calls `f(std::integral_constant<int, t>{})` for the power of two t == \p threads, Lo <= t <=
/// Hi: the switch from a run-time block size to a template argument that listing 12.4 writes
/// by hand. Throws std::logic_error for any other \p threads (callers check the rule first).
template <int Lo, int Hi, typename F>
void with_power_of_two(int threads, F&& f) {
  if (threads == Lo) return f(std::integral_constant<int, Lo>{});
  if constexpr (Lo < Hi) {
    return with_power_of_two<Lo * 2, Hi>(threads, std::forward<F>(f));
  } else {
    throw std::logic_error("with_power_of_two: " + std::to_string(threads) + " threads");
  }
}

}  // namespace hb
