/// \file
/// \brief How a result is judged: exact against the CPU for every variant, except the naive
///        lesson, whose result is described (how many counts it lost) and never called correct.
#pragma once

#include <cstdint>
#include <string>

#include "histogram_launch.h"

namespace histo {

/// The verdict on one result.
struct Verdict {
  bool exact = false;      ///< every bin equals the reference; never true for the lesson
  bool plausible = false;  ///< lesson only: every bin <= the reference (lost updates alone)
  std::int64_t lost = 0;   ///< counts missing from the total (reference total - result total)
  std::string text;        ///< the table's check column
  std::string details;     ///< the first and last differing bins, empty when none differ
};

/// Every bin of \p got must equal \p want. The text is "exact", or "WRONG: k of 256 bins
/// differ (total off by d)".
Verdict check_exact(const Bins& got, const Bins& want);

/// The verdict on the naive lesson (variant 2): exact is always false, whatever the bins
/// hold, because a race that lost nothing this time is still a race. The text says how many
/// counts were lost ("lost 1234 of 1048576 counts (race)"), or that none were lost this time.
/// plausible is true only when no bin holds more than the reference: a lost update can only
/// lose counts, so a bin above the reference (or counts moved between bins) means the kernel
/// is broken beyond its lesson, and the run fails.
Verdict check_lesson(const Bins& got, const Bins& want);

/// Sum of all bins, in 64 bits.
std::int64_t total(const Bins& bins);

}  // namespace histo
