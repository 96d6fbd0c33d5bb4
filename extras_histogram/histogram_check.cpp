// Judging results: exact for the variants, a description of the damage for the lesson.
#include "histogram_check.h"

#include "hb/compare.h"

namespace histo {

std::int64_t total(const Bins& bins) {
  std::int64_t sum = 0;
  for (const auto c : bins) sum += c;
  return sum;
}

Verdict check_exact(const Bins& got, const Bins& want) {
  Verdict v;
  const auto cmp = hb::compare_exact(got.data(), want.data(), kBins, "bins");
  v.exact = cmp.ok;
  v.lost = total(want) - total(got);
  if (cmp.ok) {
    v.text = "exact";
  } else {
    v.text = "WRONG: " + std::to_string(cmp.mismatches) + " of 256 bins differ (total off by " +
             std::to_string(-v.lost) + ")";
    v.details = cmp.report;
  }
  return v;
}

// [histogram-lesson-check]
Verdict check_lesson(const Bins& got, const Bins& want) {
  Verdict v;
  const auto cmp = hb::compare_exact(got.data(), want.data(), kBins, "bins");
  v.exact = false;  // never: a race that lost nothing this time is still a race
  v.lost = total(want) - total(got);
  int above = 0;  // bins with more counts than the data has: not something a lost update does
  for (int b = 0; b < kBins; ++b) above += got[b] > want[b] ? 1 : 0;
  v.plausible = above == 0;
  if (above > 0) {
    v.text = "WRONG: " + std::to_string(above) + " of 256 bins hold more counts than the data";
  } else if (v.lost > 0) {
    v.text = "lost " + std::to_string(v.lost) + " of " + std::to_string(total(want)) +
             " counts (race)";
  } else {
    v.text = "no count lost this time (still a race)";
  }
  if (!cmp.ok) v.details = cmp.report;
  return v;
}
// [histogram-lesson-check]

}  // namespace histo
