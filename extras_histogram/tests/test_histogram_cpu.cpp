// The chapter's host side, no GPU needed (these run in CI): the CPU variants on every
// distribution and size, the generators, the checks, the command line and the variant table.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hb/coin_scene.h"
#include "hb/error.h"
#include "hb/pgm.h"
#include "hb/testing.h"
#include "figures/figures.h"
#include "histogram.h"

namespace {

// Our edge sizes: around one bin per value (255, 256, 257), an odd size above a
// megabyte, and 2^28 bytes.
std::vector<std::size_t> chapter_sizes() {
  return {0, 1, 15, 16, 17, 255, 256, 257, (std::size_t(1) << 20) + 3, std::size_t(1) << 28};
}

histo::Bins serial(const std::vector<std::uint8_t>& v) {
  histo::Bins b{};
  histo::histogram_cpu_serial(v.data(), v.size(), b.data());
  return b;
}

// parse_options over a command line given as words (argv[0] included).
std::optional<histo::ProgramOptions> parse(std::vector<std::string> words, bool driver = true) {
  std::vector<const char*> argv;
  for (const auto& w : words) argv.push_back(w.c_str());
  return histo::parse_options(words[0], "test", driver, int(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("the serial CPU histogram counts every byte of every distribution and size") {
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  for (const auto d : histo::generated_distributions()) {
    for (const std::size_t n : chapter_sizes()) {
      INFO(histo::name(d) << ", n = " << n);
      const auto data = histo::generate(d, n, seed);
      histo::Bins bins;
      bins.fill(0xDEADBEEFu);  // every bin must be written
      histo::histogram_cpu_serial(data.data(), n, bins.data());
      CHECK(histo::total(bins) == std::int64_t(n));
      if (n <= 257) {
        for (int b = 0; b < histo::kBins; ++b)
          REQUIRE(bins[b] == std::size_t(std::count(data.begin(), data.end(), std::uint8_t(b))));
      }
      if (d == histo::Distribution::Equal) CHECK(bins[histo::equal_value(seed)] == n);
      if (d == histo::Distribution::Ramp) {
        // Byte i = floor(256 i / n): bin b holds the i in [ceil(b n / 256), ceil((b+1) n / 256)).
        for (std::size_t b = 0; b < 256; ++b)
          REQUIRE(bins[b] == (((b + 1) * n + 255) / 256) - ((b * n + 255) / 256));
      }
    }
  }
}

TEST_CASE("the CPU histogram on all cores matches the serial one on every distribution and size") {
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  for (const auto d : histo::generated_distributions()) {
    for (const std::size_t n : chapter_sizes()) {
      const auto data = histo::generate(d, n, seed);
      const auto want = serial(data);
      for (const unsigned threads : {0u, 1u, 2u, 3u, 7u, 300u}) {
        INFO(histo::name(d) << ", n = " << n << ", threads = " << threads);
        histo::Bins got;
        got.fill(0xDEADBEEFu);
        histo::histogram_cpu_threads(data.data(), n, got.data(), threads);
        const auto v = histo::check_exact(got, want);
        INFO(v.details);
        REQUIRE(v.exact);
      }
    }
  }
}

TEST_CASE("the distribution generators are deterministic and have the shape they promise") {
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const std::size_t n = std::size_t(1) << 20;
  for (const auto d : histo::generated_distributions()) {
    INFO(histo::name(d));
    CHECK(histo::generate(d, n, seed) == histo::generate(d, n, seed));
    // Byte i depends on (seed, i) only (the ramp on (i, n)): a prefix is the smaller input.
    if (d != histo::Distribution::Ramp) {
      const auto big = histo::generate(d, n, seed), small = histo::generate(d, 1000, seed);
      CHECK(std::equal(small.begin(), small.end(), big.begin()));
    }
  }
  const auto uniform = serial(histo::generate(histo::Distribution::Uniform, n, seed));
  for (const auto c : uniform) CHECK((c > 3500 && c < 4700));  // 4096 expected, ~64 std. dev.
  CHECK(histo::generate(histo::Distribution::Uniform, 64, seed) !=
        histo::generate(histo::Distribution::Uniform, 64, seed + 1));

  const auto equal = serial(histo::generate(histo::Distribution::Equal, n, seed));
  CHECK(equal[histo::equal_value(seed)] == n);

  const auto hot_values = histo::hot_values(seed);
  REQUIRE(hot_values.size() == 4);
  CHECK(std::set<std::uint8_t>(hot_values.begin(), hot_values.end()).size() == 4);
  const auto hot = serial(histo::generate(histo::Distribution::Hot, n, seed));
  std::int64_t on_hot = 0;
  for (const auto v : hot_values) on_hot += hot[v];
  CHECK(double(on_hot) / double(n) > 0.88);
  CHECK(double(on_hot) / double(n) < 0.93);
  int nonzero = 0;
  for (const auto c : hot) nonzero += c > 0;
  CHECK(nonzero == 256);  // the uniform tenth reaches every bin

  const auto ramp = histo::generate(histo::Distribution::Ramp, n, seed);
  CHECK(std::is_sorted(ramp.begin(), ramp.end()));
  CHECK(ramp.front() == 0);
  CHECK(ramp.back() == 255);
  CHECK_THROWS_AS(histo::generate(histo::Distribution::Image, 16, seed), std::logic_error);
}

TEST_CASE("the scene distribution repeats chapter 15's coin scene") {
  const std::uint64_t seed = hb::test_seed();
  const auto scene = hb::make_coin_scene(hb::kSceneWidth, hb::kSceneHeight, seed).image.pixels;
  const std::size_t n = 2 * scene.size() + 5;
  const auto bytes = histo::generate(histo::Distribution::Scene, n, seed);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(bytes[i] == scene[i % scene.size()]);
  // A photograph-like histogram: many gray levels, none holding most of the pixels.
  const auto bins = serial(bytes);
  const auto nonzero = std::count_if(bins.begin(), bins.end(), [](std::size_t c) { return c > 0; });
  CHECK(nonzero >= 64);
  CHECK(*std::max_element(bins.begin(), bins.end()) < n / 2);
  CHECK(histo::parse_distribution("scene") == histo::Distribution::Scene);
}

TEST_CASE("distribution names round-trip and unknown names are usage errors") {
  for (const auto d : {histo::Distribution::Uniform, histo::Distribution::Equal,
                       histo::Distribution::Hot, histo::Distribution::Ramp,
                       histo::Distribution::Scene, histo::Distribution::Image})
    CHECK(histo::parse_distribution(histo::name(d)) == d);
  CHECK_THROWS_AS(histo::parse_distribution("zipf"), hb::UsageError);
  CHECK_THROWS_AS(histo::parse_distribution(""), hb::UsageError);
  CHECK_THROWS_AS(histo::parse_distribution("Uniform"), hb::UsageError);
}

TEST_CASE("the command line accepts distributions and images and rejects bad input early") {
  auto all = parse({"histogram"});
  REQUIRE(all);
  CHECK(all->distributions == histo::generated_distributions());
  CHECK(all->common.n == histo::kDefaultBytes);
  auto one = parse({"histogram", "--distribution", "hot", "--n", "1M"});
  REQUIRE(one);
  CHECK(one->distributions == std::vector<histo::Distribution>{histo::Distribution::Hot});
  CHECK(one->common.n == (std::size_t(1) << 20));
  auto single = parse({"histogram_cub"}, false);
  REQUIRE(single);
  CHECK(single->distributions == std::vector<histo::Distribution>{histo::Distribution::Uniform});

  const std::string path = "test_histogram_input.pgm";
  hb::GrayImage img;
  img.width = 5;
  img.height = 3;
  img.maxval = 200;
  for (int i = 0; i < 15; ++i) img.pixels.push_back(std::uint8_t(i * 13));
  hb::write_pgm(path, img);
  auto image = parse({"histogram", "--input", path});
  REQUIRE(image);
  CHECK(image->distributions == std::vector<histo::Distribution>{histo::Distribution::Image});
  CHECK(image->image == img.pixels);
  CHECK(image->common.n == 15);
  CHECK(hb::read_pgm(path).pixels == img.pixels);
  CHECK(parse({"histogram", "--input", path, "--distribution", "image"}));

  CHECK_THROWS_AS(parse({"histogram", "--distribution", "zipf"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"histogram", "--distribution", "image"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"histogram", "--input", path, "--n", "1M"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"histogram", "--input", path, "--distribution", "ramp"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"histogram", "--input", "no_such_file.pgm"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"histogram", "--n", "1T"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"histogram", "--n", "2G"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"histogram", "--variant", std::to_string(histo::variants().size())}),
                  hb::UsageError);
  CHECK_THROWS_AS(parse({"histogram_cub", "--variant", "3"}, false), hb::UsageError);
  CHECK_THROWS_AS(parse({"histogram", "--frobnicate"}), hb::UsageError);
  {
    std::ofstream bad(path, std::ios::binary);
    bad << "P5\n4 4\n255\nshort";
  }
  CHECK_THROWS_AS(parse({"histogram", "--input", path}), hb::UsageError);
  std::remove(path.c_str());
}

TEST_CASE("the exact check passes equal histograms and names the bins that differ") {
  histo::Bins want{};
  for (int b = 0; b < histo::kBins; ++b) want[b] = std::uint32_t(b * 3);
  const auto same = histo::check_exact(want, want);
  CHECK(same.exact);
  CHECK(same.text == "exact");
  CHECK(same.details.empty());
  histo::Bins got = want;
  got[7] += 1;
  got[200] = 0xA5A5A5A5u;  // a bin left poisoned
  const auto wrong = histo::check_exact(got, want);
  CHECK_FALSE(wrong.exact);
  CHECK(wrong.text.find("WRONG: 2 of 256 bins differ") == 0);
  CHECK(wrong.details.find("[7]") != std::string::npos);
  CHECK(wrong.details.find("[200]") != std::string::npos);
}

TEST_CASE("the lesson check counts lost updates and never calls a histogram correct") {
  histo::Bins want{};
  want[42] = 1000;
  want[7] = 24;
  histo::Bins got = want;
  // Exact this time: still not correct.
  const auto lucky = histo::check_lesson(got, want);
  CHECK_FALSE(lucky.exact);
  CHECK(lucky.lost == 0);
  CHECK(lucky.text == "no count lost this time (still a race)");
  // The race lost 873 increments of bin 42 and 4 of bin 7.
  got[42] = 127;
  got[7] = 20;
  const auto lost = histo::check_lesson(got, want);
  CHECK_FALSE(lost.exact);
  CHECK(lost.lost == 877);
  CHECK(lost.text == "lost 877 of 1024 counts (race)");
  CHECK_FALSE(lost.details.empty());
  CHECK(lost.plausible);
  // Counts moved to a bin the data does not fill that much: no lost update does that.
  got = want;
  got[42] -= 5;
  got[43] += 5;
  const auto moved = histo::check_lesson(got, want);
  CHECK_FALSE(moved.exact);
  CHECK_FALSE(moved.plausible);
  CHECK(moved.text == "WRONG: 1 of 256 bins hold more counts than the data");
  // Invented counts with a total that looks fine are caught the same way.
  got = want;
  got[42] += 1;
  CHECK_FALSE(histo::check_lesson(got, want).plausible);
  // A run with lost counts passes for the lesson (not for any other variant); a run that
  // invented counts fails even the lesson.
  histo::Measurement m;
  m.checked = true;
  m.verdict = lost;
  CHECK(histo::passes(histo::find_variant("2"), m));
  CHECK_FALSE(histo::passes(histo::find_variant("3"), m));
  m.verdict = moved;
  CHECK_FALSE(histo::passes(histo::find_variant("2"), m));
}

TEST_CASE("every row of the variant table is a CPU variant or a file of kernels/, in the same order") {
  // CMake lists the CPU rows and kernels/ as id:program pairs (hb_variant_kernels); the table
  // must match.
  std::vector<std::string> programs;
  std::istringstream in(HISTO_PROGRAMS);
  for (std::string pair; in >> pair;) programs.push_back(pair);
  std::vector<std::string> rows;
  for (const auto& v : histo::variants()) rows.push_back(std::string(v.id) + ":" + v.program());
  CHECK(rows == programs);
}

TEST_CASE("the variant table has one reference, one lesson and one library row") {
  const auto& all = histo::variants();
  std::set<std::string> names;
  int references = 0, lessons = 0, libraries = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& v = all[i];
    INFO("variant " << v.id << " " << v.name);
    CHECK(std::string(v.id) == std::to_string(i));
    CHECK(names.insert(v.name).second);
    CHECK(v.program() == std::string("histogram_") + v.name);
    CHECK(std::string(v.title).size() > 0);
    CHECK((v.cpu != nullptr) != (v.gpu != nullptr));
    CHECK(v.on_gpu() == (i >= 2));
    references += v.role == histo::Role::Reference;
    lessons += v.role == histo::Role::Lesson;
    libraries += v.role == histo::Role::Library;
  }
  CHECK(references == 1);
  CHECK(all[0].role == histo::Role::Reference);
  CHECK(lessons == 1);
  CHECK(histo::find_variant("2").role == histo::Role::Lesson);
  CHECK(libraries == 1);
  CHECK(histo::library_variant().name == std::string("cub"));
  CHECK(histo::find_variant("9").name == std::string("sort_reduce"));
  CHECK_THROWS_AS(histo::find_variant("-1"), hb::UsageError);
  CHECK_THROWS_AS(histo::find_variant(std::to_string(all.size())), hb::UsageError);
}

TEST_CASE("a workspace made without a GPU refuses every input as a programming error") {
  histo::Workspace ws;
  CHECK(ws.max_n() == 0);
  alignas(16) static const std::uint8_t bytes[32] = {};
  CHECK_NOTHROW(ws.require(bytes, 0));
  CHECK_THROWS_AS(ws.require(bytes, 1), std::logic_error);
  CHECK_THROWS_AS(ws.partials(1), std::logic_error);
  CHECK_THROWS_AS(ws.require_cub(1, "test"), std::logic_error);
}

TEST_CASE("the variants with 64 KiB of counters per block declare it and run another form on Turing", "[table]") {
  for (const auto& v : histo::variants()) {
    INFO("variant " << v.id << " " << v.name);
    if (!hb::needs_anything(v.needs)) continue;
    // A row that needs anything needs the counter blocks (variants 8, 13, 14, 16, 17), and has a
    // form for every GPU.
    CHECK(v.needs.shared_bytes == histo::kCounterBlockSharedBytes);
    REQUIRE(v.needs.below != nullptr);
    CHECK(hb::form_for(v.needs, 75, hb::architecture_shared_limit(75)) == hb::Form::Portable);
    const hb::Form on_86 = hb::form_for(v.needs, 86, hb::architecture_shared_limit(86));
    CHECK(on_86 == (v.needs.cc <= 86 ? hb::Form::Headline : hb::Form::Portable));
    CHECK(hb::form_for(v.needs, 90, hb::architecture_shared_limit(90)) == hb::Form::Headline);
  }
}

// ---------------------------------------------------------------------------------------
// The blog post's figure of method 3, and the model of variant 9 it is drawn from.

TEST_CASE("sorting then reducing by key gives the serial histogram on the post's example and every distribution") {
  const std::vector<std::uint8_t> example = histo::post_example_keys();
  const histo::SortReduce ex = histo::sort_reduce_model(example.data(), example.size());
  // The post: keys 2 1 1 2 1 0 2 2 sort to 0 1 1 1 2 2 2 2 and reduce to 1, 3 and 4.
  CHECK(ex.sorted == std::vector<std::uint8_t>{0, 1, 1, 1, 2, 2, 2, 2});
  CHECK(ex.run_keys == std::vector<std::uint8_t>{0, 1, 2});
  CHECK(ex.run_counts == std::vector<std::uint32_t>{1, 3, 4});
  CHECK(ex.bins == serial(example));
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  for (const auto d : histo::generated_distributions()) {
    for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(257), std::size_t(1) << 16}) {
      INFO(histo::name(d) << ", n = " << n);
      const auto data = histo::generate(d, n, seed);
      const histo::SortReduce m = histo::sort_reduce_model(data.data(), data.size());
      CHECK(m.bins == serial(data));
      CHECK(std::is_sorted(m.sorted.begin(), m.sorted.end()));
      // One run per distinct key, in increasing order, and the runs add up to the input.
      CHECK(std::adjacent_find(m.run_keys.begin(), m.run_keys.end(),
                               [](std::uint8_t a, std::uint8_t b) { return a >= b; }) == m.run_keys.end());
      std::size_t total = 0;
      for (std::uint32_t c : m.run_counts) total += c;
      CHECK(total == n);
    }
  }
}

TEST_CASE("the committed figure of method 3 is what the model draws, and the page shows it") {
  const std::string folder = std::string(HISTO_SOURCE_DIR);
  const auto figures = histo::chapter_figures();
  REQUIRE(figures.size() == 1);
  INFO("regenerate: histogram_figures --figures extras_histogram/figures");
  CHECK(hb::figure_faults(figures, folder + "/figures", hb::read_text_file(folder + "/README.md"),
                          "extras_histogram/figures") == std::vector<std::string>{});
}

TEST_CASE("every variant's section names its source and its row of the committed measurements") {
  auto read = [](const std::string& relative) {
    return hb::read_text_file(std::string(HISTO_SOURCE_DIR) + "/" + relative);
  };
  const std::string readme = read("README.md");
  std::set<std::string> linked;
  for (const auto& v : histo::variants()) {
    const std::string id = v.id;
    const std::string file = "kernels/" + std::string(id.size() < 2 ? "0" : "") + id + "_" +
                             v.name + (v.on_gpu() ? ".cuh" : ".cpp");
    INFO("variant " << id << ": " << file);
    CHECK_NOTHROW(read(file));
    // In the variant's own section, "Source: \ref extras_histogram/FILE "FILE"": a link to the
    // file's page in the docs, which leads to the whole file.
    const std::size_t at = readme.find("### Variant " + id + ":");
    REQUIRE(at != std::string::npos);
    const std::string section = readme.substr(at, readme.find("\n### ", at + 1) - at);
    CHECK(section.find("Source: \\ref extras_histogram/" + file + " \"" + file + "\"") !=
          std::string::npos);
    linked.insert(file);
    // Its headline number, on uniform bytes, is the committed table's (the naive race's is the
    // counts it lost); a variant the table lacks says it was not measured.
    const auto row = hb::csv_row(std::string(HISTO_SOURCE_DIR) + "/../docs/results/extras_histogram.csv",
                                 {{"id", id}, {"distribution", "uniform"}});
    const std::string text = hb::normalize_space(section);
    if (row.empty()) {
      CHECK(text.find("Not measured yet") != std::string::npos);
      continue;
    }
    // "(<the GPU>, `extras_histogram.csv`): ", whichever GPU the table was measured on.
    const std::string lead = ", `extras_histogram.csv`): ";
    const std::size_t measured = text.find(lead);
    REQUIRE(measured != std::string::npos);
    const std::string claim = text.substr(measured + lead.size());
    INFO(claim.substr(0, 80) << " against " << row.at("GB/s") << " GB/s, " << row.at("check"));
    std::smatch shown, csv;
    const std::regex lost_csv(R"(^lost ([0-9]+) of ([0-9]+) counts)");
    const std::regex lost_page(R"(^it lost ([0-9,]+) of the ([0-9,]+) counts of uniform bytes)");
    if (std::regex_search(row.at("check"), csv, lost_csv)) {
      REQUIRE(std::regex_search(claim, shown, lost_page));
      CHECK(hb::shows_rounded(shown[1].str(), csv[1].str()));
      CHECK(hb::shows_rounded(shown[2].str(), csv[2].str()));
    } else {
      REQUIRE(std::regex_search(claim, shown, std::regex(R"(^([0-9][0-9,.]*) GB/s on uniform)")));
      CHECK(hb::shows_rounded(shown[1].str(), row.at("GB/s")));
    }
  }
  // Every file of kernels/ is the source of its variant's section, or a header the kernels
  // share (.h), which the page names.
  const std::string kernels = std::string(HISTO_SOURCE_DIR) + "/kernels";
  for (const auto& entry : std::filesystem::directory_iterator(kernels)) {
    const std::string file = "kernels/" + entry.path().filename().string();
    INFO(entry.path());
    if (entry.path().extension() == ".h")
      CHECK(readme.find(file) != std::string::npos);
    else
      CHECK(linked.count(file) == 1);
  }
}
