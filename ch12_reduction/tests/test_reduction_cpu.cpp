// Chapter 12 tests that need no GPU: the CPU reference, the variant table, the block-size
// checks that every launcher makes before it touches the GPU, and the models of the kernels'
// orders of addition behind figures 12.1 and 12.2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "hb/error.h"
#include "hb/random.h"
#include "hb/testing.h"
#include "reduction.h"
#include "figures/reduction_figures.h"
#include "reference.h"

namespace {

// "10a" -> (10, 'a'); "7" -> (7, ' ').
std::pair<int, char> split_id(const std::string& id) {
  std::size_t i = 0;
  while (i < id.size() && std::isdigit(static_cast<unsigned char>(id[i]))) ++i;
  return {std::stoi(id.substr(0, i)), i < id.size() ? id[i] : ' '};
}

std::string read_source(const std::string& relative) {
  return hb::read_text_file(std::string(CH12_SOURCE_DIR) + "/" + relative);
}

std::vector<long long> iota_from(long long first, int n) {
  std::vector<long long> v(n);
  for (int i = 0; i < n; ++i) v[i] = first + i;
  return v;
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
  CHECK(ch12::cpu_count_if(v.data(), v.size(), ch12::IsPositive{}) == 4);
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

TEST_CASE("every row of the variant table is a file of kernels/, in the same order") {
  // CMake lists kernels/ as id:program pairs (hb_variant_kernels); the table must match.
  std::vector<std::string> files;
  std::istringstream in(CH12_PROGRAMS);
  for (std::string pair; in >> pair;) files.push_back(pair);
  std::vector<std::string> rows;
  for (const auto& v : ch12::variants()) rows.push_back(std::string(v.id) + ":" + v.program());
  CHECK(rows == files);
}

TEST_CASE("every variant has a name, a title and a block size it accepts") {
  std::set<std::string> names;
  for (const auto& v : ch12::variants()) {
    INFO("variant " << v.id);
    CHECK(std::string(v.title).size() > 10);
    CHECK(names.insert(v.name).second);
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
}

TEST_CASE("launchers reject block sizes their variant does not accept before touching the GPU") {
  const ch12::Variant v = GENERATE(from_range(ch12::variants()));
  ch12::Scratch empty;  // no device memory: a launcher that got past its check would fail
  for (int t : {-5, 0, 1, 3, 31, 33, 48, 96, 100, 1000, 1023, 1025, 2048}) {
    if (v.accepts_threads(t)) continue;
    INFO("variant " << v.id << " threads " << t);
    CHECK_THROWS_AS(v.launch(nullptr, 1000, nullptr, t, empty, nullptr), hb::UsageError);
  }
}

TEST_CASE("variant 3 covers every power of two from 1 to 1024 and nothing else") {
  ch12::Scratch empty;
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
  CHECK(ch12::find_variant("10f").program() == "reduction10f_recursive");
  CHECK_THROWS_AS(ch12::find_variant("99"), hb::UsageError);
  CHECK_THROWS_WITH(ch12::find_variant("4x"), Catch::Contains("11b"));
  CHECK_THROWS_AS(ch12::find_variant(""), hb::UsageError);
}

TEST_CASE("every reduction type starts at the identity of its operation") {
  // r{} combined with x gives x: 0 for sums, the largest value for the minimum, the smallest
  // for the maximum.
  for (int x : {INT_MIN, -7, 0, 1, INT_MAX}) {
    ch12::Sum<int> s;
    s += x;
    CHECK(s.sum == x);
    ch12::Min<int> lo;
    lo += x;
    CHECK(lo.value == x);
    ch12::Max<int> hi;
    hi += x;
    CHECK(hi.value == x);
  }
  ch12::Min<float> lo;
  lo += 1e38f;
  CHECK(lo.value == 1e38f);
  ch12::Max<double> hi;
  hi += -1e308;
  CHECK(hi.value == -1e308);
}

// ------------------------------------------------------------------ figures 12.1 and 12.2

TEST_CASE("every order of addition reduces each element exactly once, without races") {
  for (int n = 1; n <= 1024; n *= 2) {
    INFO("n = " << n);
    for (const ch12::Schedule& s : {ch12::neighbored_schedule(n), ch12::neighbored_less_schedule(n),
                                    ch12::interleaved_schedule(n, n)}) {
      INFO(s.title);
      const ch12::ScheduleStats st = ch12::analyze(s);
      CHECK(st.each_once);
      CHECK(st.race_free);
      CHECK(st.adds == n - 1);
      int log2n = 0;
      while ((1 << log2n) < n) ++log2n;
      CHECK(st.steps == log2n);
    }
  }
  for (int n : {1, 2, 7, 8, 31, 100, 1000, 4099}) {
    CHECK(ch12::analyze(ch12::serial_schedule(n)).steps == n - 1);
    CHECK(ch12::analyze(ch12::serial_schedule(n)).each_once);
    for (int threads : {1, 2, 4, 32, 256}) {
      INFO("variant 1's order, n = " << n << ", " << threads << " threads");
      const ch12::ScheduleStats st = ch12::analyze(ch12::interleaved_schedule(n, threads));
      CHECK(st.each_once);
      CHECK(st.race_free);
      // Brent: the grid-stride loop takes ceil(n / threads) - 1 steps, the tree log2(threads).
      int log2t = 0;
      while ((1 << log2t) < threads) ++log2t;
      CHECK(st.steps == std::max(0, (n + threads - 1) / threads - 1) + log2t);
    }
  }
}

TEST_CASE("the simulation finds a schedule that adds an element twice or races") {
  ch12::Schedule twice = ch12::neighbored_schedule(8);
  twice.adds.push_back({4, 0, 0, 1});  // element 1 again, in a fourth step
  CHECK_FALSE(ch12::analyze(twice).each_once);
  ch12::Schedule racy = ch12::neighbored_schedule(8);
  // In step 1, thread 1 also writes element 1, which thread 0 reads in the same step.
  racy.adds.insert(racy.adds.begin() + 4, ch12::Add{1, 1, 1, 2});
  CHECK_FALSE(ch12::analyze(racy).race_free);
  ch12::Schedule lost = ch12::neighbored_schedule(8);
  lost.adds.pop_back();  // the last addition never happens
  CHECK_FALSE(ch12::analyze(lost).each_once);
}

TEST_CASE("figure 12.1 adds 1 to 8 the way the blog post draws it") {
  const std::vector<long long> in = iota_from(1, 8);
  CHECK(ch12::partial_sums(ch12::serial_schedule(8), in) ==
        std::vector<long long>{3, 6, 10, 15, 21, 28, 36});
  // The blog's first tree: adjacent pairs.
  CHECK(ch12::partial_sums(ch12::neighbored_schedule(8), in) ==
        std::vector<long long>{3, 7, 11, 15, 10, 26, 36});
  CHECK(ch12::partial_sums(ch12::neighbored_less_schedule(8), in) ==
        std::vector<long long>{3, 7, 11, 15, 10, 26, 36});
  // Its recursive CPU reduce (data[i] += data[i + stride]) and its nested kernel: halves.
  CHECK(ch12::partial_sums(ch12::interleaved_schedule(8, 4), in) ==
        std::vector<long long>{6, 8, 10, 12, 16, 20, 36});
}

TEST_CASE("the blog's 32-element example sums to 496; its printed 31 is element 0 alone") {
  // The nested kernel halves a block of 32 threads: variant 1's order with 16 threads.
  const ch12::Schedule s = ch12::interleaved_schedule(32, 16);
  CHECK(ch12::partial_sums(s, iota_from(0, 32)).back() == 496);
  // Its main runs `*(hData)=i` for i = 0 .. 31: element 0 ends as 31, the others are never
  // written (zero in the run it prints).
  std::vector<long long> buggy(32, 0);
  for (int i = 0; i < 32; ++i) buggy[0] = i;
  CHECK(ch12::partial_sums(s, buggy).back() == 31);
}

TEST_CASE("the models follow the lines of their kernels") {
  for (const ch12::Schedule& s : {ch12::serial_schedule(8), ch12::neighbored_schedule(8),
                                  ch12::neighbored_less_schedule(8), ch12::interleaved_schedule(8, 4)}) {
    const std::string text = read_source(s.kernel_file);
    for (const std::string& line : s.kernel_lines) {
      INFO(s.kernel_file << ": " << line);
      CHECK(hb::has_line(text, line));
    }
  }
  INFO("warp_offsets() and warp_contributions() model this loop of warp_reduce_sum()");
  CHECK(hb::has_line(read_source("kernels/09_shuffle.cuh"),
                 "for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);"));
  CHECK(ch12::warp_offsets() == std::vector<int>{16, 8, 4, 2, 1});
}

TEST_CASE("the butterfly of figure 12.2 leaves every lane's value in every lane exactly once") {
  const auto steps = ch12::warp_contributions(ch12::Shuffle::Xor);
  REQUIRE(steps.size() == 6);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    for (int l = 0; l < 32; ++l) {
      int lanes = 0;
      for (int j = 0; j < 32; ++j) {
        CHECK(steps[k][l][j] <= 1);
        lanes += steps[k][l][j];
      }
      CHECK(lanes == (1 << k));  // each step doubles the contributions
    }
  }
  for (int l = 0; l < 32; ++l)
    for (int j = 0; j < 32; ++j) CHECK(steps.back()[l][j] == 1);
}

TEST_CASE("with shuffle-down only lane 0 ends with the sum, as the text's footnote says") {
  const auto last = ch12::warp_contributions(ch12::Shuffle::Down).back();
  for (int l = 0; l < 32; ++l) {
    bool exact = true;
    for (int j = 0; j < 32; ++j) exact = exact && last[l][j] == 1;
    INFO("lane " << l);
    CHECK(exact == (l == 0));
  }
}

TEST_CASE("the bank table: neighbored pairs keep every warp busy or conflict, halving does neither") {
  auto totals = [](const ch12::Schedule& s) {
    int warp_steps = 0, passes = 0;
    std::vector<int> conflicts;
    for (const ch12::StepAccess& a : ch12::shared_accesses(s)) {
      warp_steps += a.active_warps;
      passes += a.passes;
      conflicts.push_back(a.conflict);
    }
    return std::make_tuple(warp_steps, passes, conflicts);
  };
  const auto [a_warps, a_passes, a_conflicts] = totals(ch12::neighbored_schedule(256));
  CHECK(a_warps == 47);  // all 8 warps for 5 of the 8 steps
  CHECK(a_passes == 47);
  CHECK(a_conflicts == std::vector<int>(8, 1));
  const auto [b_warps, b_passes, b_conflicts] = totals(ch12::neighbored_less_schedule(256));
  CHECK(b_warps == 12);
  CHECK(b_passes == 47);
  CHECK(b_conflicts == std::vector<int>{2, 4, 8, 8, 8, 4, 2, 1});
  const auto [d_warps, d_passes, d_conflicts] = totals(ch12::interleaved_schedule(256, 256));
  CHECK(d_warps == 12);
  CHECK(d_passes == 12);
  CHECK(d_conflicts == std::vector<int>(8, 1));
}

TEST_CASE("the committed figures are what the models draw") {
  const auto figures = ch12::chapter_figures();
  CHECK(figures.size() == 3);
  const std::string readme = read_source("README.md");
  INFO("regenerate: reduction_figures --figures ch12_reduction/figures");
  const std::string folder = std::string(CH12_SOURCE_DIR) + "/figures";
  CHECK(hb::figure_faults(figures, folder, readme, "ch12_reduction/figures") ==
        std::vector<std::string>{});
  INFO("bank table (reduction_figures --markdown --n 256):\n" << ch12::access_table_markdown(256));
  CHECK(readme.find(ch12::access_table_markdown(256)) != std::string::npos);
}

TEST_CASE("every variant's section names its source and its row of the committed measurements") {
  const std::string readme = read_source("README.md");
  std::set<std::string> linked;
  for (const ch12::Variant& v : ch12::variants()) {
    INFO("variant " << v.id);
    const std::size_t at = readme.find("### Variant " + std::string(v.id) + ":");
    REQUIRE(at != std::string::npos);
    const std::size_t end = readme.find("\n### ", at + 1);
    const std::string section = readme.substr(at, end - at);
    // kernels/NN_name.cuh (or .cu), NN the id with its number padded to two digits.
    const std::string id = v.id;
    const std::string file = (std::isdigit(static_cast<unsigned char>(id[1])) ? "" : "0") + id + "_" + v.name + ".cu";
    // "Source: \ref ch12_reduction/kernels/FILE "kernels/FILE"": a link to the file's page in
    // the docs, which leads to the whole file; the link's text names the file it links.
    std::smatch link;
    REQUIRE(std::regex_search(section, link,
                              std::regex(R"re(Source: \\ref ch12_reduction/(\S+) "([^"]+)")re")));
    CHECK(link[1].str() == link[2].str());
    CHECK((link[1].str() == "kernels/" + file || link[1].str() == "kernels/" + file + "h"));
    CHECK_NOTHROW(read_source(link[1].str()));
    linked.insert(link[1].str());
    // "Measured (GPU, docs/results/FILE.csv): 2366.7 GB/s at 512 threads, 59.7% of CUB."
    const std::size_t m = section.find("Measured (");
    REQUIRE(m != std::string::npos);
    const std::size_t comma = section.find(", ", m);
    const std::size_t colon = section.find("): ", m);
    REQUIRE(colon != std::string::npos);
    const std::string path = section.substr(comma + 2, colon - comma - 2);
    const auto row = hb::csv_row(std::string(CH12_SOURCE_DIR) + "/../" + path, {{"id", v.id}});
    INFO(path);
    REQUIRE(!row.empty());
    const std::size_t stop = section.find('.', section.find("% of ", colon));
    const std::string claim = section.substr(colon + 3, stop - colon - 3);
    if (std::string(v.id) == "0") {
      CHECK(claim == row.at("best GB/s") + " GB/s, " + row.at("% of read-only") +
                         "% of the read-only kernel");
    } else {
      CHECK(claim == row.at("best GB/s") + " GB/s at " + row.at("best threads") + " threads, " +
                         row.at("% of CUB") + "% of CUB");
    }
  }
  // One file per variant, and every file of kernels/ is the source of its variant's section,
  // or a header the kernels share (.h), which the page names.
  CHECK(linked.size() == ch12::variants().size());
  const std::string kernels = std::string(CH12_SOURCE_DIR) + "/kernels";
  for (const auto& entry : std::filesystem::directory_iterator(kernels)) {
    const std::string name = entry.path().filename().string();
    INFO(entry.path());
    if (entry.path().extension() == ".h")
      CHECK(readme.find("kernels/" + name) != std::string::npos);
    else
      CHECK(linked.count("kernels/" + name) == 1);
  }
}
