// Chapter 12 tests that need no GPU: the CPU reference, the variant table and its agreement
// with the headers, the README and the CMake program list, and the block-size checks that
// every launcher makes before it touches the GPU.
#include <catch2/catch.hpp>

#include "hb/testing.h"

#include <cctype>
#include <climits>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hb/error.h"
#include "hb/random.h"
#include "reduction_cpu.h"
#include "reduction_harness.h"
#include "reduction_launchers.h"
#include "reduction_variants.h"

namespace {

// The page-check helpers are shared by the chapters' tests (hb/testing.h).
std::string read_text(const std::string& relative) {
  return hb::read_text_file(std::string(CH12_SOURCE_DIR) + "/" + relative);
}
std::string normalize(const std::string& s) { return hb::normalize_space(s); }
std::string first_paragraph(const std::string& text) {
  return hb::file_comment_first_paragraph(text);
}

// "10a" -> (10, 'a'); "7" -> (7, ' ').
std::pair<int, char> split_id(const std::string& id) {
  std::size_t i = 0;
  while (i < id.size() && std::isdigit(static_cast<unsigned char>(id[i]))) ++i;
  return {std::stoi(id.substr(0, i)), i < id.size() ? id[i] : ' '};
}

const std::vector<std::string>& chapter_sources() {
  static const std::vector<std::string> files = [] {
    std::vector<std::string> f = {"reduction_ops.h", "reduction_common.cuh"};
    for (const auto& v : ch12::variants()) f.push_back(v.header());
    return f;
  }();
  return files;
}

}  // namespace

TEST_CASE("the CPU reference sums int32 exactly in 64 bits") {
  const std::vector<int> big(1000, INT_MAX);
  CHECK(ch12::cpu_sum(big.data(), big.size()) == 1000LL * INT_MAX);
  const std::vector<int> small(1000, INT_MIN);
  CHECK(ch12::cpu_sum(small.data(), small.size()) == 1000LL * INT_MIN);
  const std::vector<int> mixed = {1, -2, 3, -4, 5};
  CHECK(ch12::cpu_sum(mixed.data(), mixed.size()) == 3);
  CHECK(ch12::cpu_sum(mixed.data(), 0) == 0);
}

TEST_CASE("the wrapped CPU reference behaves like 32-bit two's complement addition") {
  const std::vector<int> v = {INT_MAX, 1};
  CHECK(ch12::cpu_sum_wrapped(v.data(), v.size()) == INT_MIN);
  const std::vector<int> w = {INT_MIN, -1};
  CHECK(ch12::cpu_sum_wrapped(w.data(), w.size()) == INT_MAX);
  const auto data = ch12::make_input(100000, 7);
  CHECK(ch12::cpu_sum_wrapped(data.data(), data.size()) ==
        static_cast<long long>(static_cast<int>(
            static_cast<unsigned>(ch12::cpu_sum(data.data(), data.size()) & 0xffffffffLL))));
}

TEST_CASE("the CPU reference counts the elements a predicate selects") {
  const std::vector<int> v = {-3, -1, 0, 1, 2, 3, 4};
  CHECK(ch12::cpu_count_positive(v.data(), v.size()) == 4);
  CHECK(ch12::cpu_count_if(v.data(), v.size(), ch12::IsOdd{}) == 4);
  const std::vector<float> f = {-0.5f, 0.0f, 0.25f};
  CHECK(ch12::cpu_count_if(f.data(), f.size(), ch12::IsPositive{}) == 1);
  CHECK(ch12::cpu_expected(ch12::Result::CountPositive, v.data(), v.size()) == 4);
  CHECK(ch12::cpu_expected(ch12::Result::Sum64, v.data(), v.size()) == 6);
}

TEST_CASE("typed CPU reductions compute sums and squares and extremes") {
  const std::vector<int> i = {3, -7, 2, 10};
  CHECK(ch12::cpu_reduce<ch12::Sum<int>>(i.data(), i.size()).sum == 8);
  const auto sq = ch12::cpu_reduce<ch12::SumSquares<int>>(i.data(), i.size());
  CHECK(sq.sum == 8);
  CHECK(sq.sumsq == 9 + 49 + 4 + 100);
  CHECK(ch12::cpu_reduce<ch12::Min<int>>(i.data(), i.size()).value == -7);
  CHECK(ch12::cpu_reduce<ch12::Max<int>>(i.data(), i.size()).value == 10);
  // The identities: what an empty input reduces to.
  CHECK(ch12::cpu_reduce<ch12::Min<int>>(i.data(), 0).value == INT_MAX);
  CHECK(ch12::cpu_reduce<ch12::Max<float>>(static_cast<const float*>(nullptr), 0).value < -1e38f);
  const std::vector<float> f = {0.5f, -0.25f, 2.0f};
  const auto fs = ch12::cpu_reduce<ch12::SumSquares<float>>(f.data(), f.size());
  CHECK(fs.sum == 2.25);
  CHECK(fs.sumsq == 0.25 + 0.0625 + 4.0);
  CHECK(ch12::cpu_reduce<ch12::Min<double>>(static_cast<const double*>(nullptr), 0).value > 1e308);
}

TEST_CASE("float sums of the test data are exact in double so the GPU must match exactly") {
  // uniform_float in [-1, 1) gives multiples of 2^-23; 2^27 of them sum to < 2^27 in
  // magnitude, which needs at most 27 + 23 = 50 bits of a double's 53.
  const auto f = hb::uniform_vector<float>(1 << 16, 3, -1.0f, 1.0f);
  for (float x : f) REQUIRE(static_cast<double>(x) * 8388608.0 == std::floor(static_cast<double>(x) * 8388608.0));
  const std::vector<float> rev(f.rbegin(), f.rend());
  CHECK(ch12::cpu_reduce<ch12::Sum<float>>(f.data(), f.size()).sum ==
        ch12::cpu_reduce<ch12::Sum<float>>(rev.data(), rev.size()).sum);
}

TEST_CASE("the floating-point tolerance grows with n and with the sum of magnitudes") {
  CHECK(ch12::sum_tolerance<double>(1000, 1.0L) > ch12::sum_tolerance<double>(10, 1.0L));
  CHECK(ch12::sum_tolerance<double>(1000, 100.0L) > ch12::sum_tolerance<double>(1000, 1.0L));
  CHECK(ch12::sum_tolerance<float>(1000, 1.0L) > ch12::sum_tolerance<double>(1000, 1.0L));
  CHECK(ch12::sum_tolerance<double>(0, 0.0L) == 0.0);
  const std::vector<double> d = {1.0, 2.0};
  CHECK(ch12::matches(3.0, 3.0, d.data(), d.size()));
  CHECK_FALSE(ch12::matches(3.001, 3.0, d.data(), d.size()));
}

TEST_CASE("every variant in the table has a name and a title and a what-changed paragraph") {
  std::set<std::string> ids, names;
  for (const auto& v : ch12::variants()) {
    INFO("variant " << v.id);
    CHECK(std::string(v.name).size() > 0);
    CHECK(std::string(v.title).size() > 10);
    CHECK(std::string(v.changed).size() > 100);
    CHECK(ids.insert(v.id).second);
    CHECK(names.insert(v.name).second);
    CHECK(std::regex_match(std::string(v.name), std::regex("[a-z0-9_]+")));
    CHECK(v.accepts_threads(v.default_threads));
  }
  CHECK(std::string(ch12::variants().front().id) == "0");
  CHECK(ch12::variants().front().threads == ch12::BlockRule::Library);
}

TEST_CASE("variant ids follow the order of the text") {
  const auto& t = ch12::variants();
  for (std::size_t i = 1; i < t.size(); ++i) {
    INFO(t[i - 1].id << " before " << t[i].id);
    const auto a = split_id(t[i - 1].id);
    const auto b = split_id(t[i].id);
    const bool next_number = b.first == a.first + 1 && (b.second == ' ' || b.second == 'a');
    const bool next_letter = b.first == a.first && a.second != ' ' && b.second == a.second + 1;
    CHECK((next_number || next_letter));
  }
  CHECK(std::string(t.back().id) == "11b");
}

TEST_CASE("each what-changed paragraph starts from the previous variant") {
  const auto& t = ch12::variants();
  CHECK(std::string(t[0].changed).rfind("Variant 0 is the reference.", 0) == 0);
  for (std::size_t i = 1; i < t.size(); ++i) {
    INFO("variant " << t[i].id);
    const std::string want = std::string("Compared with variant ") + t[i - 1].id + ":";
    CHECK(std::string(t[i].changed).rfind(want, 0) == 0);
  }
}

TEST_CASE("each variant header opens with the table's what-changed paragraph") {
  for (const auto& v : ch12::variants()) {
    INFO("header " << v.header());
    CHECK(first_paragraph(read_text(v.header())) == normalize(v.changed));
  }
}

TEST_CASE("the README shows each variant's paragraph and code") {
  const std::string readme = read_text("README.md");
  CHECK(readme.rfind("# Chapter 12: Reduction {#ch12_reduction}\n", 0) == 0);
  const std::string flat = normalize(readme);
  for (const auto& v : ch12::variants()) {
    INFO("variant " << v.id);
    CHECK(flat.find(normalize(v.changed)) != std::string::npos);
    CHECK(readme.find("\\snippet ch12_reduction/" + v.header() + " ") != std::string::npos);
  }
  // Every snippet names a file of this chapter and a marker that the file has, twice.
  const std::regex snippet(R"(\\snippet ch12_reduction/(\S+) (\S+))");
  int count = 0;
  for (auto it = std::sregex_iterator(readme.begin(), readme.end(), snippet);
       it != std::sregex_iterator(); ++it, ++count) {
    const std::string file = (*it)[1], marker = (*it)[2];
    INFO("snippet " << file << " " << marker);
    const std::string text = read_text(file);
    const std::string line = "// [" + marker + "]";
    const auto first = text.find(line);
    REQUIRE(first != std::string::npos);
    CHECK(text.find(line, first + 1) != std::string::npos);
  }
  CHECK(count >= static_cast<int>(ch12::variants().size()));
  // The results section shows the measured tables, and the measurements are in the repo.
  for (const char* table : {"ch12_block_sweep", "ch12_size_sweep"}) {
    INFO("results table " << table);
    CHECK(readme.find(std::string("\\includedoc ") + table + ".md") != std::string::npos);
    CHECK_FALSE(read_text(std::string("../docs/results/") + table + ".csv").empty());
  }
}

TEST_CASE("snippet markers come in pairs and never nest") {
  const std::regex marker(R"(^\s*// \[([a-z0-9-]+)\]\s*$)");
  const std::regex name(R"(reduction[0-9]+[a-z]?-[a-z0-9-]+)");
  for (const auto& file : chapter_sources()) {
    INFO("file " << file);
    std::istringstream in(read_text(file));
    std::string line, open;
    std::set<std::string> seen;
    while (std::getline(in, line)) {
      std::smatch m;
      if (!std::regex_match(line, m, marker)) continue;
      const std::string id = m[1];
      INFO("marker " << id);
      CHECK(std::regex_match(id, name));
      if (open.empty()) {
        CHECK(seen.insert(id).second);  // each marker names one region
        open = id;
      } else {
        CHECK(id == open);  // the open region must close before another opens
        open.clear();
      }
    }
    CHECK(open.empty());
  }
}

TEST_CASE("the CMake program list matches the variant table") {
  const std::string cmake = read_text("CMakeLists.txt");
  const std::regex pair(R"(\b([0-9]+[a-z]?):(reduction[0-9a-z_]+))");
  std::vector<std::pair<std::string, std::string>> listed;
  for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), pair);
       it != std::sregex_iterator(); ++it)
    listed.emplace_back((*it)[1], (*it)[2]);
  const auto& t = ch12::variants();
  REQUIRE(listed.size() == t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    CHECK(listed[i].first == t[i].id);
    CHECK(listed[i].second == t[i].program());
  }
}

TEST_CASE("block-size rules accept exactly the sizes they describe") {
  using ch12::BlockRule;
  for (int t = -1; t <= 1100; ++t) {
    INFO("threads " << t);
    const bool range = t >= 1 && t <= 1024;
    const bool pow2 = range && (t & (t - 1)) == 0;
    CHECK(ch12::accepts(BlockRule::Any, t) == range);
    CHECK(ch12::accepts(BlockRule::PowerOfTwo, t) == pow2);
    CHECK(ch12::accepts(BlockRule::PowerOfTwoFrom32, t) == (pow2 && t >= 32));
    CHECK(ch12::accepts(BlockRule::MultipleOf32, t) == (range && t % 32 == 0));
  }
  CHECK(ch12::describe(BlockRule::PowerOfTwo).find("power of two") != std::string::npos);
}

TEST_CASE("launchers reject block sizes their variant does not accept before touching the GPU") {
  ch12::Scratch empty;  // no device memory: a launcher that got past its check would fail
  for (const auto& v : ch12::variants()) {
    for (int t : {-5, 0, 1, 3, 31, 33, 48, 96, 100, 1000, 1023, 1025, 2048}) {
      if (v.accepts_threads(t)) continue;
      INFO("variant " << v.id << " threads " << t);
      CHECK_THROWS_AS(v.launch(nullptr, 1000, nullptr, t, empty, nullptr), hb::UsageError);
    }
  }
  // Variant 3 covers every power of two from 1 to 1024 and nothing else.
  const auto& v3 = ch12::find_variant("3");
  for (int t = 1; t <= 1024; t *= 2) CHECK(v3.accepts_threads(t));
  CHECK_THROWS_WITH(v3.launch(nullptr, 10, nullptr, 1000, empty, nullptr),
                    Catch::Contains("variant 3") && Catch::Contains("power of two"));
}

TEST_CASE("typed launchers reject bad block sizes too") {
  ch12::Scratch empty;
  CHECK_THROWS_AS((ch12::reduce7_typed<ch12::Sum<float>, float>(nullptr, 10, nullptr, 100, empty, nullptr)),
                  hb::UsageError);
  CHECK_THROWS_AS((ch12::count8a_syncthreads_count<int, ch12::IsOdd>(nullptr, 10, nullptr, 0, empty, nullptr)),
                  hb::UsageError);
  CHECK_THROWS_AS((ch12::count8b_ballot<int, ch12::IsOdd>(nullptr, 10, nullptr, 33, empty, nullptr)),
                  hb::UsageError);
  CHECK_THROWS_AS((ch12::reduce10e_typed<double, double>(nullptr, 10, nullptr, 16, empty, nullptr)),
                  hb::UsageError);
}

TEST_CASE("unknown variant ids are usage errors that list the valid ones") {
  CHECK(std::string(ch12::find_variant("10c").name) == "global_memory");
  CHECK_THROWS_AS(ch12::find_variant("12"), hb::UsageError);
  CHECK_THROWS_WITH(ch12::find_variant("4x"), Catch::Contains("11b"));
  CHECK_THROWS_AS(ch12::find_variant(""), hb::UsageError);
}

TEST_CASE("program names are built from id and name") {
  CHECK(ch12::find_variant("10f").program() == "reduction10f_recursive");
  CHECK(ch12::find_variant("1").header() == "reduction1_two_pass.cuh");
}
