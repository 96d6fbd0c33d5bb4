/// \file
/// \brief The one table of chapter 15's variants. The per-variant programs, the driver, the
///        tests and the documentation all read it, so a variant cannot exist in one of them
///        and be missing from another.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "correlation_launch.h"
#include "hb/capability.h"

namespace ch15 {

/// One row of the table.
struct Variant {
  const char* id;       ///< "0" ... "9", in the text's order
  const char* name;     ///< "tex_tex": the program is "corr_" + name
  const char* title;    ///< one line for tables and --help
  const char* changed;  ///< "Compared with variant N-1: ..." (also the header's first paragraph)
  Launcher launch;      ///< the launcher; null for variant 0 (the CPU)
  Preparer prepare;     ///< the template-only preparation; null for variant 0
  Path path;            ///< the path the launcher takes when it does not fall back
  hb::Needs needs = {};  ///< the GPU its headline form (path) needs, and what runs below it
  Path path_below = Path::Cpu;  ///< the path it takes below needs.cc (when needs.below is set)

  /// The path the launcher takes on the current GPU when shared memory does not force a
  /// fallback: \p path, or \p path_below in code built below needs.cc.
  Path path_here() const;

  /// "corr_tex_tex": the name of the variant's program.
  std::string program() const;
  /// "corr1_tex_tex.cuh": the file whose first paragraph is changed (correlation_cpu.h for 0).
  std::string header() const;
  /// Whether this is the CPU reference.
  bool is_cpu() const { return launch == nullptr; }
};

/// Every variant, variant 0 (the reference) first.
const std::vector<Variant>& variants();

/// The variant with id \p id ("4"); throws hb::UsageError listing the valid ids.
/// \param id the variant's id
const Variant& find_variant(std::string_view id);

/// "0, 1, ..., 9" for messages and --help.
std::string variant_ids();

}  // namespace ch15
