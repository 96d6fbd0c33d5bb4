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

#include <cstdio>
#include <cstdlib>
#include <fstream>

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

TEST_CASE("page-check helpers: prose, lines, committed CSV rows and rounded numbers", "[testing]") {
  CHECK(hb::normalize_space("  Compared with\n\tvariant 1:  ok \r\n") == "Compared with variant 1: ok");
  CHECK(hb::normalize_space("") == "");
  CHECK(hb::has_line("a\n   int x = 1;  \r\nb", "int x = 1;"));
  CHECK_FALSE(hb::has_line("int x = 12;", "int x = 1;"));
  CHECK_THROWS_WITH(hb::read_text_file("/nonexistent/file.txt"),
                    Catch::Contains("/nonexistent/file.txt"));
  const std::string csv = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                          "/hb_test_csv_row.csv";
  {
    std::ofstream f(csv);
    f << "# gpu: X\nid,variant,distribution,GB/s\n1,\"a, b\",uniform,10.25\n1,c,hot,11\n";
  }
  const auto row = hb::csv_row(csv, {{"id", "1"}, {"distribution", "hot"}});
  CHECK(row.at("variant") == "c");
  CHECK(hb::csv_row(csv, {{"id", "1"}}).at("variant") == "a, b");
  CHECK(hb::csv_row(csv, {{"id", "2"}}).empty());
  std::remove(csv.c_str());
  CHECK(hb::shows_rounded("1,234.5", "1234.50"));
  CHECK_FALSE(hb::shows_rounded("1234.6", "1234.50"));
  CHECK(hb::shows_rounded("12", "11.6"));
}
