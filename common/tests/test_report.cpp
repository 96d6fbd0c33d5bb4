// The report table: aligned text and CSV with the same columns, and the header block.
#include <catch2/catch.hpp>

#include <sstream>

#include "hb/report.h"

TEST_CASE("a report prints the same columns as text and as CSV", "[report]") {
  hb::Report r({"id", "variant", "ms (median)", "GB/s"});
  r.fact("gpu", "Test GPU");
  r.row({"0", "reference", "1.500", "100.0"});
  r.row({"1", "two-pass, shared", "0.750", "200.0"});

  std::ostringstream text, csv;
  r.print(text, false);
  r.print(csv, true);

  // The variant name holds a comma, so CSV must quote it.
  CHECK(csv.str() ==
        "# gpu: Test GPU\n"
        "id,variant,ms (median),GB/s\n"
        "0,reference,1.500,100.0\n"
        "1,\"two-pass, shared\",0.750,200.0\n");

  const std::string t = text.str();
  CHECK(t.find("gpu : Test GPU") != std::string::npos);
  // Every table line has the same width.
  std::istringstream lines(t.substr(t.find("id ")));
  std::string line;
  std::size_t width = 0;
  int count = 0;
  while (std::getline(lines, line)) {
    if (width == 0) width = line.size();
    CHECK(line.size() == width);
    ++count;
  }
  CHECK(count == 4);  // header, rule, two rows
  CHECK(t.find("| 200.0") != std::string::npos);
}

TEST_CASE("a row with the wrong number of cells is a programming error", "[report]") {
  hb::Report r({"a", "b"});
  CHECK_THROWS_AS(r.row({"1"}), std::logic_error);
  CHECK_THROWS_AS(r.row({"1", "2", "3"}), std::logic_error);
}

TEST_CASE("csv_escape quotes commas and doubles quotes", "[report]") {
  CHECK(hb::csv_escape("plain") == "plain");
  CHECK(hb::csv_escape("a,b") == "\"a,b\"");
  CHECK(hb::csv_escape("say \"hi\"") == "\"say \"\"hi\"\"\"");
}

TEST_CASE("fixed formats with the requested digits and today_utc is a date", "[report]") {
  CHECK(hb::fixed(3.14159, 2) == "3.14");
  CHECK(hb::fixed(2.5, 0) == "2");  // round half to even, as printf does
  const std::string d = hb::today_utc();
  REQUIRE(d.size() == 10);
  CHECK(d[4] == '-');
  CHECK(d[7] == '-');
}

TEST_CASE("a fact with a newline stays one header line", "[report]") {
  hb::Report r({"a"});
  r.fact("input", "/tmp/we,ird\nname.pgm");
  r.row({"1"});
  std::ostringstream csv;
  r.print(csv, true);
  CHECK(csv.str().rfind("# input: /tmp/we,ird\\nname.pgm\na\n1\n", 0) == 0);
}
