// The Catch2 main of every chapter's tests. Without a CUDA device, a run of only [gpu] tests
// exits 77 (ctest: Skipped) and a mixed run drops them and says so; listing tests (as
// catch_discover_tests does) never looks for a device. `--hb-has-device` exits 0 or 77, so
// that the sanitizer wrapper can skip cleanly.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "hb/capability.h"
#include "hb/device.h"
#include "hb/error.h"

int main(int argc, char* argv[]) {
  if (argc == 2 && std::strcmp(argv[1], "--hb-has-device") == 0) {
    std::string why;
    if (hb::device_available(&why)) return 0;
    std::printf("no CUDA device: %s\n", why.c_str());
    return hb::kExitNoDevice;
  }

  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;

  const Catch::Config& config = session.config();
  std::size_t selected_count = 0;
  const bool listing = config.listTests() || config.listTestNamesOnly() || config.listTags() ||
                       config.listReporters();
  if (!listing) {
    const auto selected = Catch::filterTests(Catch::getAllTestCasesSorted(config),
                                             config.testSpec(), config);
    selected_count = selected.size();
    std::size_t gpu = 0;
    for (const auto& tc : selected) {
      const auto& tags = tc.getTestCaseInfo().lcaseTags;
      gpu += std::find(tags.begin(), tags.end(), "gpu") != tags.end() ? 1 : 0;
    }
    std::string why;
    if (gpu > 0 && !hb::device_available(&why)) {
      if (gpu == selected.size()) {
        std::printf("SKIPPED: %zu GPU test(s) need a CUDA device, and this machine has none "
                    "(%s).\n", gpu, why.c_str());
        return hb::kExitNoDevice;
      }
      std::printf("note: no CUDA device (%s): skipping %zu GPU test(s), running the other %zu.\n",
                  why.c_str(), gpu, selected.size() - gpu);
      Catch::ConfigData data = session.configData();
      data.testsOrTags.emplace_back("~[gpu]");
      session.useConfigData(data);
    }
  }
  const int failed = session.run();
  // A test that could not run a variant on this GPU (hb::test_runs_here) says so. A run of one
  // test (the way ctest runs them) that left out a variant is Skipped, with the reason: what it
  // could check passed, but it never claims that the whole variant list passed.
  const auto& skips = hb::noted_test_skips();
  for (const auto& line : skips) std::printf("SKIPPED: %s\n", line.c_str());
  if (failed == 0 && !skips.empty() && selected_count == 1) return hb::kExitNoDevice;
  return failed;
}
