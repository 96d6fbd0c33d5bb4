// Timers on the host: medians, warm-up calls, and that a stopwatch measures elapsed time.
#include <catch2/catch.hpp>

#include <thread>

#include "hb/timing.h"

TEST_CASE("summarize takes the median of odd and even counts", "[timing]") {
  auto s = hb::summarize({5.0, 1.0, 3.0});
  CHECK(s.median_ms == 3.0);
  CHECK(s.min_ms == 1.0);
  CHECK(s.max_ms == 5.0);
  CHECK(s.samples_ms == std::vector<double>{5.0, 1.0, 3.0});
  CHECK(hb::summarize({4.0, 1.0, 3.0, 2.0}).median_ms == 2.5);
  CHECK(hb::summarize({}).median_ms == 0.0);
}

TEST_CASE("time_host runs warm-up calls untimed and times each repetition", "[timing]") {
  int calls = 0;
  const auto s = hb::time_host([&] { ++calls; }, 3, 7);
  CHECK(calls == 10);
  CHECK(s.samples_ms.size() == 7);
}

TEST_CASE("HostTimer measures a sleep", "[timing]") {
  hb::HostTimer t;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double ms = t.elapsed_ms();
  CHECK(ms >= 19.0);
  CHECK(ms < 2000.0);
}

#include <cstdlib>

#include "hb/testing.h"

TEST_CASE("standard_sizes lists the edge cases and caps sizes under the sanitizer", "[testing]") {
  unsetenv("HB_UNDER_SANITIZER");
  const auto s = hb::standard_sizes(256, std::size_t(1) << 24);
  CHECK(s == std::vector<std::size_t>{0, 1, 31, 32, 33, 255, 256, 257, 1000003, std::size_t(1) << 24});
  setenv("HB_UNDER_SANITIZER", "1", 1);
  CHECK(hb::under_sanitizer());
  const auto capped = hb::standard_sizes(32, std::size_t(1) << 24);
  CHECK(capped == std::vector<std::size_t>{0, 1, 31, 32, 33, 1000003});
  unsetenv("HB_UNDER_SANITIZER");
  CHECK_FALSE(hb::under_sanitizer());
}

TEST_CASE("page-check helpers normalize prose and read the first file-comment paragraph", "[testing]") {
  CHECK(hb::normalize_space("  Compared with\n\tvariant 1:  ok \r\n") == "Compared with variant 1: ok");
  CHECK(hb::normalize_space("") == "");
  const std::string header =
      "// not this\n/// \\file\n/// Compared with variant 3: the\n/// loads are wider.\n///\n"
      "/// Not this paragraph.\n";
  CHECK(hb::file_comment_first_paragraph(header) == "Compared with variant 3: the loads are wider.");
  CHECK(hb::file_comment_first_paragraph("/// no file command\n") == "");
  CHECK_THROWS_WITH(hb::read_text_file("/nonexistent/file.txt"),
                    Catch::Contains("/nonexistent/file.txt"));
}
