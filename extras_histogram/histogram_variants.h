/// \file
/// \brief The one table of the chapter's variants. The per-variant programs, the driver, the
///        tests and the chapter page all read it, so a variant cannot exist in one of them and
///        be missing from another.
#pragma once

#include <string>
#include <vector>

#include "hb/capability.h"
#include "histogram_cpu.h"
#include "histogram_launch.h"

namespace histo {

/// What a row is, for the table and the checks.
enum class Role {
  Reference,  ///< variant 0: the CPU result every other row is checked against
  Variant,    ///< an ordinary variant: must be exact
  Lesson,     ///< the naive race: run and described, never called correct
  Library,    ///< CUB: the "% of CUB" column's 100
};

/// One row of the table.
struct Variant {
  int id;               ///< 0 ... N-1, in the order of the text
  const char* name;     ///< "shared_privatized": the program is "histogram_" + name
  const char* title;    ///< one line for tables and --help
  const char* header;   ///< the file with its code, e.g. "histogram4_shared_privatized.cuh"
  const char* changed;  ///< one line: what changed from variant N-1 (the header says it in full)
  Role role;
  CpuHistogram cpu;     ///< set for CPU rows (ids 0 and 1), else null
  Launcher gpu;         ///< set for GPU rows, else null
  hb::Needs needs = {};  ///< the GPU its headline form needs, and what runs below it

  /// "histogram_shared_privatized": the name of the variant's program.
  std::string program() const { return std::string("histogram_") + name; }
  bool on_gpu() const { return gpu != nullptr; }
};

/// Every variant, variant 0 (the CPU reference) first, ids 0 ... N-1.
const std::vector<Variant>& variants();

/// The variant with id \p id; throws hb::UsageError listing the valid ids.
const Variant& find_variant(int id);

/// The library row (CUB's histogram), against which "% of CUB" is computed.
const Variant& library_variant();

}  // namespace histo
