// What a variant needs from the GPU: the rules that decide its form on each architecture.
#include <catch2/catch.hpp>

#include "hb/capability.h"
#include "hb/error.h"

namespace {
constexpr std::size_t KiB = 1024;
}

TEST_CASE("capabilities print as major.minor", "[capability]") {
  CHECK(hb::capability_text(75) == "7.5");
  CHECK(hb::capability_text(90) == "9.0");
  CHECK(hb::capability_text(100) == "10.0");
  CHECK(hb::capability_text(120) == "12.0");
}

TEST_CASE("the supported architectures run from Turing to Blackwell, oldest first", "[capability]") {
  const auto& archs = hb::supported_architectures();
  REQUIRE(archs.size() == 7);
  CHECK(archs.front() == hb::kOldestCapability);
  CHECK(archs.back() == 120);
  for (std::size_t i = 1; i < archs.size(); ++i) CHECK(archs[i - 1] < archs[i]);
}

TEST_CASE("each architecture's shared memory per block follows the programming guide", "[capability]") {
  CHECK(hb::architecture_shared_limit(75) == 64 * KiB);
  CHECK(hb::architecture_shared_limit(80) == 163 * KiB);
  CHECK(hb::architecture_shared_limit(86) == 99 * KiB);
  CHECK(hb::architecture_shared_limit(87) == 163 * KiB);
  CHECK(hb::architecture_shared_limit(89) == 99 * KiB);
  CHECK(hb::architecture_shared_limit(90) == 227 * KiB);
  CHECK(hb::architecture_shared_limit(100) == 227 * KiB);
  CHECK(hb::architecture_shared_limit(120) == 99 * KiB);
}

TEST_CASE("a variant runs its headline form, its portable form, or nothing", "[capability]") {
  const hb::Needs anywhere{};
  const hb::Needs hopper_or_portable{90, "plain loads"};
  const hb::Needs hopper_only{90, nullptr};
  const hb::Needs big_blocks{0, nullptr, 65 * KiB};
  for (const hb::Capability cc : hb::supported_architectures()) {
    const std::size_t shared = hb::architecture_shared_limit(cc);
    INFO("sm_" << cc);
    CHECK(hb::form_for(anywhere, cc, shared) == hb::Form::Headline);
    CHECK(hb::form_for(hopper_or_portable, cc, shared) ==
          (cc >= 90 ? hb::Form::Headline : hb::Form::Portable));
    CHECK(hb::form_for(hopper_only, cc, shared) == (cc >= 90 ? hb::Form::Headline : hb::Form::None));
    CHECK(hb::form_for(big_blocks, cc, shared) == (cc >= 80 ? hb::Form::Headline : hb::Form::None));
  }
  // The shared memory the code may use decides too, whatever the capability.
  CHECK(hb::form_for(big_blocks, 90, 64 * KiB) == hb::Form::None);
  CHECK(hb::form_for(hopper_or_portable, 90, 0) == hb::Form::Headline);
}

TEST_CASE("needs are described in words, and only when they ask for something", "[capability]") {
  CHECK_FALSE(hb::needs_anything({}));
  CHECK_FALSE(hb::needs_anything({75, nullptr}));
  CHECK_FALSE(hb::needs_anything({0, nullptr, 64 * KiB}));
  CHECK(hb::needs_anything({80, "x"}));
  CHECK(hb::needs_anything({0, nullptr, 64 * KiB + 1}));
  CHECK(hb::needs_text({}) == "any GPU");
  CHECK(hb::needs_text({90, "x"}) == "compute capability 9.0");
  CHECK(hb::needs_text({0, nullptr, 65 * KiB}) == "65 KiB of shared memory per block");
  CHECK(hb::needs_text({80, nullptr, 100 * KiB}) ==
        "compute capability 8.0 and 100 KiB of shared memory per block");
}

TEST_CASE("a variant that asks nothing runs everywhere without asking the GPU", "[capability]") {
  // No device query happens for such a variant, so this holds on a machine without a GPU.
  CHECK(hb::form_here({}) == hb::Form::Headline);
  CHECK(hb::form_note({}).empty());
  CHECK_NOTHROW(hb::require_runs_here({}));
}
