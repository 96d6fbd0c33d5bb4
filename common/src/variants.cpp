#include "hb/variants.h"

namespace hb {

bool accepts(BlockRule rule, int threads) {
  const bool in_range = threads >= 1 && threads <= 1024;
  const bool power_of_two = in_range && (threads & (threads - 1)) == 0;
  switch (rule) {
    case BlockRule::Library:
    case BlockRule::Own:
    case BlockRule::Cpu: return true;
    case BlockRule::PowerOfTwo: return power_of_two;
    case BlockRule::PowerOfTwoFrom32: return power_of_two && threads >= 32;
    case BlockRule::PowerOfTwo32To512: return power_of_two && threads >= 32 && threads <= 512;
    case BlockRule::MultipleOf32: return in_range && threads % 32 == 0;
    case BlockRule::Any: return in_range;
  }
  return false;
}

std::string describe(BlockRule rule) {
  switch (rule) {
    case BlockRule::Library: return "chosen by the library";
    case BlockRule::Own: return "chosen by the variant from the input";
    case BlockRule::Cpu: return "none (the CPU)";
    case BlockRule::PowerOfTwo: return "a power of two from 1 to 1024";
    case BlockRule::PowerOfTwoFrom32: return "a power of two from 32 to 1024";
    case BlockRule::PowerOfTwo32To512: return "a power of two from 32 to 512";
    case BlockRule::MultipleOf32: return "a multiple of 32 from 32 to 1024";
    case BlockRule::Any: return "any number from 1 to 1024";
  }
  return "?";
}

void require_threads(const std::string& variant, BlockRule rule, int threads) {
  if (!accepts(rule, threads)) {
    throw UsageError("--threads " + std::to_string(threads) + ": " + variant + " needs " +
                     describe(rule) + " threads per block");
  }
}

}  // namespace hb
