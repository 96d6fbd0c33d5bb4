/// \file
/// \brief The one table of chapter 12's variants. The per-variant programs, the driver, the
///        tests and the documentation all read it, so a variant cannot exist in one of them and
///        be missing from another.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hb/capability.h"
#include "reduction_launch.h"

namespace ch12 {

/// What a variant's launcher writes to its 64-bit output, so the check knows what to expect.
enum class Result {
  Sum64,          ///< the exact sum of the int32 inputs, in 64 bits
  Sum32Wrapped,   ///< the sum modulo 2^32, sign-extended (the blog kernels sum int into int)
  CountPositive,  ///< how many inputs are > 0 (the predicate reductions of variant 8)
};

/// One row of the table.
struct Variant {
  const char* id;       ///< "0" ... "11b", in the text's order
  const char* name;     ///< "two_pass": the program is "reduction" + id + "_" + name
  const char* title;    ///< one line for tables and --help
  const char* changed;  ///< "Compared with variant N-1: ..." (also the header's first paragraph)
  Launcher launch;      ///< the launcher with the chapter's one signature
  BlockRule threads;    ///< which block sizes it accepts
  int default_threads;  ///< block size of the per-variant program and the size sweep
  Result result;        ///< what it computes
  hb::Needs needs = {};  ///< the GPU it needs: every row runs on any GPU CUDA 13 supports

  /// "reduction1_two_pass": the name of the variant's program.
  std::string program() const;
  /// "reduction1_two_pass.cuh": the header that holds its kernel and launcher.
  std::string header() const;
  /// Whether the variant accepts blocks of \p n threads.
  bool accepts_threads(int n) const { return ch12::accepts(threads, n); }
};

/// Every variant, variant 0 (the reference) first.
const std::vector<Variant>& variants();

/// The variant with id \p id ("4", "10c"); throws hb::UsageError listing the valid ids.
const Variant& find_variant(std::string_view id);

/// "0, 1, 2, ..., 11b" for messages and --help.
std::string variant_ids();

}  // namespace ch12
