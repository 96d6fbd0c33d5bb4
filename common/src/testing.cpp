#include "hb/testing.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace hb {

bool under_sanitizer() {
  const char* v = std::getenv("HB_UNDER_SANITIZER");
  return v != nullptr && std::string(v) == "1";
}

std::vector<std::size_t> standard_sizes(std::size_t block, std::size_t large) {
  std::vector<std::size_t> s{0, 1, 31, 32, 33, block + 1, block, 1000003, large};
  if (block > 0) s.push_back(block - 1);
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  if (under_sanitizer())
    s.erase(std::remove_if(s.begin(), s.end(), [](std::size_t n) { return n > kSanitizerMaxSize; }),
            s.end());
  return s;
}

std::uint64_t test_seed(std::uint64_t fallback) {
  const char* v = std::getenv("HB_TEST_SEED");
  if (v == nullptr || *v == '\0') return fallback;
  return std::strtoull(v, nullptr, 10);
}

}  // namespace hb
