#include "hb/variants.h"

#include <climits>

namespace hb {

namespace {
// The block sizes of each rule, in BlockRule order: from lo to hi, multiples of step, perhaps
// powers of two only; and how messages describe them.
struct RuleSizes {
  int lo, hi, step;
  bool power_of_two;
  const char* text;
};
constexpr RuleSizes kRules[] = {
    {INT_MIN, INT_MAX, 1, false, "chosen by the library"},
    {INT_MIN, INT_MAX, 1, false, "chosen by the variant from the input"},
    {INT_MIN, INT_MAX, 1, false, "none (the CPU)"},
    {1, 1024, 1, true, "a power of two from 1 to 1024"},
    {32, 1024, 1, true, "a power of two from 32 to 1024"},
    {32, 512, 1, true, "a power of two from 32 to 512"},
    {32, 1024, 32, false, "a multiple of 32 from 32 to 1024"},
    {1, 1024, 1, false, "any number from 1 to 1024"},
};
}  // namespace

bool accepts(BlockRule rule, int threads) {
  const RuleSizes& r = kRules[static_cast<int>(rule)];
  return threads >= r.lo && threads <= r.hi && threads % r.step == 0 &&
         (!r.power_of_two || (threads & (threads - 1)) == 0);
}

std::string describe(BlockRule rule) { return kRules[static_cast<int>(rule)].text; }

void require_threads(const std::string& variant, BlockRule rule, int threads) {
  if (!accepts(rule, threads))
    throw UsageError("--threads " + std::to_string(threads) + ": " + variant + " needs " +
                     describe(rule) + " threads per block");
}

}  // namespace hb
