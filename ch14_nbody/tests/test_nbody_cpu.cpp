// Chapter 14 on the CPU: the float64 reference and its tolerance, every CPU variant on the
// edge sizes, the SIMD variants on sizes that are not a multiple of their width, the
// all-core split, the leapfrog integrator's energy and momentum, the variant table, the
// host-side plans of the GPU kernels, the models behind figures 14.1 to 14.4, the picture and
// the command line. No GPU needed.
//
// How we compare. Every variant's forces are compared with the float64 reference computed
// from the same float inputs (bodyBodyInteraction<double>, summed in double), component by
// component, within tolerance_factor(N) x A_i, where A_i is the sum of the magnitudes of row
// i's terms (nbody.h explains the bound). A relative tolerance on the result itself
// would be wrong: the terms of a row largely cancel, so a correct float sum can be far from
// the exact one relative to the (small) result, while it is always close relative to A_i.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hb/error.h"
#include "hb/testing.h"
#include "kernels/interaction.h"
#include "nbody.h"
#include "nbody14_slices.h"
#include "figures/nbody_figures.h"

namespace {

// The edge sizes: one body, two, a warp +- 1, a thousand, and a prime-ish count past
// the constant-memory pass of 4000.
const std::vector<std::size_t> kSizes{1, 2, 31, 32, 33, 1000, 4099};
constexpr float kSofteningSq = 1e-4f;  // epsilon = 0.01, the programs' default

std::vector<float> run_cpu(const ch14::Variant& v, const ch14::HostBodies& b, int threads = 0) {
  std::vector<float> out(3 * b.n, std::numeric_limits<float>::quiet_NaN());
  v.cpu(b, out.data(), kSofteningSq, threads);
  return out;
}

std::optional<ch14::Options> parse(std::vector<const char*> words, const ch14::Variant* v = nullptr) {
  const std::string program = v ? v->program() : "nbody";
  words.insert(words.begin(), program.c_str());
  return ch14::parse_options(program, v, static_cast<int>(words.size()), words.data());
}

}  // namespace

// ------------------------------------------------------------------ reference and tolerance

TEST_CASE("the float64 reference matches two bodies computed by hand") {
  ch14::HostBodies b({make_float4(0, 0, 0, 2.0f), make_float4(1.0f, 0, 0, 3.0f)});
  const ch14::Reference ref = ch14::reference_forces(b, kSofteningSq);
  const double w = 1.0 / std::pow(1.0 + double(kSofteningSq), 1.5);
  // Body 0 is pulled towards +x by mass 3, body 1 towards -x by mass 2; the self terms are 0.
  CHECK(ref.accel[0] == Approx(3.0 * w).epsilon(1e-15));
  CHECK(ref.accel[1] == 0.0);
  CHECK(ref.accel[2] == 0.0);
  CHECK(ref.accel[3] == Approx(-2.0 * w).epsilon(1e-15));
  CHECK(ref.magnitude[0] == Approx(3.0 * w).epsilon(1e-15));
}

TEST_CASE("the float64 reference conserves momentum: the mass-weighted accelerations cancel") {
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const ch14::HostBodies b = ch14::random_bodies(1000, seed);
  const ch14::Reference ref = ch14::reference_forces(b, kSofteningSq);
  for (int c = 0; c < 3; ++c) {
    double sum = 0.0, scale = 0.0;
    for (std::size_t i = 0; i < b.n; ++i) {
      sum += b.aos[i].w * ref.accel[3 * i + c];
      scale += b.aos[i].w * ref.magnitude[i];
    }
    CHECK(std::fabs(sum) <= 1e-13 * scale);
  }
}

TEST_CASE("sampled rows are spread evenly and include the first and the last body") {
  CHECK(ch14::sample_rows(0, 256).empty());
  CHECK(ch14::sample_rows(5, 256) == std::vector<std::size_t>{0, 1, 2, 3, 4});
  const auto rows = ch14::sample_rows(65536, 256);
  CHECK(rows.size() == 256);
  CHECK(rows.front() == 0);
  CHECK(rows.back() == 65535);
  CHECK(std::is_sorted(rows.begin(), rows.end()));
}

TEST_CASE("the tolerance grows with the square root of the body count") {
  const double u = std::ldexp(1.0, -24);
  CHECK(ch14::tolerance_factor(1) == Approx(36 * u));
  CHECK(ch14::tolerance_factor(4096) == Approx((32 + 4 * 64) * u));
}

TEST_CASE("the tolerance still catches a single missing body") {
  // A kernel that skips one body (an off-by-one in a tile loop) must fail the check. We
  // give body k zero mass, which is exactly "body k left out", and compare with the reference
  // of the full set: the row of k's nearest neighbour then differs by far more than the
  // tolerance. This is the check's sensitivity, measured rather than argued.
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  for (const std::size_t n : {std::size_t(33), std::size_t(1000), std::size_t(4099)}) {
    const ch14::HostBodies full = ch14::random_bodies(n, seed);
    const ch14::Reference ref = ch14::reference_forces(full, kSofteningSq);
    for (const std::size_t k : {std::size_t(0), n / 2, n - 1}) {
      INFO("n " << n << ", body " << k << " left out");
      std::vector<float4> aos = full.aos;
      aos[k].w = 0.0f;
      const ch14::HostBodies missing(aos);
      const auto got = run_cpu(ch14::variants()[1], missing);
      CHECK_FALSE(ch14::check_forces(got.data(), ref).ok);
    }
  }
}

// ------------------------------------------------------------------ the CPU variants

TEST_CASE("every CPU variant matches the float64 reference on random bodies") {
  const std::uint64_t seed = hb::test_seed();
  for (const std::size_t n : kSizes) {
    const ch14::HostBodies b = ch14::random_bodies(n, seed);
    const ch14::Reference ref = ch14::reference_forces(b, kSofteningSq);
    for (const ch14::Variant& v : ch14::variants()) {
      if (v.kind != ch14::Kind::Cpu) continue;
      if (!v.cpu_supported()) {
        if (n == kSizes.front())
          WARN("skipped " << v.name << ": this CPU has no " << ch14::isa_name(v.isa));
        continue;
      }
      INFO(v.name << ", n " << n << ", seed " << seed);
      const auto got = run_cpu(v, b);
      const auto r = ch14::check_forces(got.data(), ref);
      INFO(r.report << "largest error: " << r.max_error << " of the tolerance");
      CHECK(r.ok);
    }
  }
}

TEST_CASE("SIMD variants handle body counts that are not a multiple of the vector width") {
  const std::uint64_t seed = hb::test_seed() + 1;
  for (const ch14::Isa isa : {ch14::Isa::Sse, ch14::Isa::Avx2, ch14::Isa::Avx512}) {
    if (!ch14::isa_available(isa)) {
      WARN("skipped " << ch14::isa_name(isa) << ": this CPU does not support it");
      continue;
    }
    const int w = ch14::isa_width(isa);
    const ch14::CpuRows rows = ch14::isa_rows(isa);
    REQUIRE(rows != nullptr);
    for (const int n : {1, w - 1, w + 1, 2 * w - 1, 2 * w + 3, 3 * w + 1, 16 * w + 7, 1001}) {
      if (n < 1) continue;
      INFO(ch14::isa_name(isa) << " (" << w << " floats), n " << n << ", seed " << seed);
      const ch14::HostBodies b = ch14::random_bodies(std::size_t(n), seed);
      CHECK(b.padded() % ch14::kSoaPad == 0);
      CHECK(b.padded() >= b.n);
      std::vector<float> got(3 * std::size_t(n), std::numeric_limits<float>::quiet_NaN());
      rows(b, got.data(), kSofteningSq, 0, b.n);
      const auto r = ch14::check_forces(got.data(), ch14::reference_forces(b, kSofteningSq));
      INFO(r.report);
      CHECK(r.ok);
    }
  }
}

TEST_CASE("the all-core variant gives the same bits for any thread count") {
  // Each row is summed by one thread in the same order whatever the split, so the results
  // must agree bit for bit with one thread, also when N is not a multiple of the threads.
  const ch14::HostBodies b = ch14::random_bodies(1001, hb::test_seed());
  const ch14::Variant& v = ch14::find_variant("cpu_simd");
  const auto one = run_cpu(v, b, 1);
  for (const int threads : {2, 3, 7, 64}) {
    INFO(threads << " threads");
    const auto many = run_cpu(v, b, threads);
    CHECK(std::memcmp(one.data(), many.data(), one.size() * sizeof(float)) == 0);
  }
}

// ------------------------------------------------------------------ the integrator

TEST_CASE("leapfrog conserves energy and momentum within the documented bound") {
  // 512 bodies of a cold disk (epsilon 0.05), 200 steps of 0.002, forces from the scalar SOA
  // variant. Leapfrog is symplectic: its energy error oscillates with an amplitude of order
  // (dt / t_min)^2 instead of growing; with the softened minimum time scale of this disk we
  // measured |dE|/|E| around 1e-6 and bound it by 2e-5. Momentum is conserved up to float
  // rounding of the forces (the float rows do not cancel exactly): bound 1e-5 of sum m|v|.
  const float eps2 = 0.05f * 0.05f;
  ch14::State s = ch14::disk_galaxy(512, hb::test_seed(), eps2);
  const ch14::Energy before = ch14::measure_energy(s, eps2);
  ch14::simulate_host(
      s, [&](const ch14::HostBodies& b, float* f) { ch14::forces_cpu_soa(b, f, eps2, 1); }, 200,
      0.002f);
  const ch14::Drift d = ch14::drift_between(before, ch14::measure_energy(s, eps2));
  INFO("energy drift " << d.energy << ", momentum drift " << d.momentum);
  CHECK(before.potential < 0.0);
  CHECK(before.kinetic > 0.0);
  CHECK(d.energy < 2e-5);
  CHECK(d.momentum < 1e-5);
}

TEST_CASE("halving the time step cuts the leapfrog energy error about fourfold") {
  // Leapfrog is second order: over the same simulated time, the energy error scales with
  // dt^2. We take a step large enough that this truncation error dwarfs float rounding and
  // compare the largest |dE| seen at the same instants with dt and dt / 2.
  const float eps2 = 0.05f * 0.05f;
  const auto largest_error = [&](float dt, int steps, int every) {
    ch14::State s = ch14::disk_galaxy(256, 77, eps2);
    const double e0 = ch14::measure_energy(s, eps2).total();
    double worst = 0.0;
    for (int k = 0; k < steps / every; ++k) {
      ch14::simulate_host(
          s, [&](const ch14::HostBodies& b, float* f) { ch14::forces_cpu_soa(b, f, eps2, 1); },
          every, dt);
      worst = std::max(worst, std::fabs(ch14::measure_energy(s, eps2).total() - e0));
    }
    return worst / std::fabs(e0);
  };
  const double coarse = largest_error(0.02f, 40, 4);
  const double fine = largest_error(0.01f, 80, 8);
  INFO("dt 0.02: " << coarse << ", dt 0.01: " << fine << ", ratio " << coarse / fine);
  CHECK(coarse / fine > 3.0);
  CHECK(coarse / fine < 5.5);
}

TEST_CASE("energy counts each pair once and kinetic energy from all bodies") {
  ch14::State s;
  s.bodies = ch14::HostBodies({make_float4(0, 0, 0, 2.0f), make_float4(3.0f, 4.0f, 0, 1.0f)});
  s.vel = {1.0f, 0, 0, 0, -2.0f, 0};
  const ch14::Energy e = ch14::measure_energy(s, 0.0f);
  CHECK(e.potential == Approx(-2.0 / 5.0));
  CHECK(e.kinetic == Approx(0.5 * 2 * 1 + 0.5 * 1 * 4));
  CHECK(e.momentum[0] == Approx(2.0));
  CHECK(e.momentum[1] == Approx(-2.0));
}

// ------------------------------------------------------------------ table, plans, picture, flags

TEST_CASE("every row of the variant table is a file of kernels/, in the same order") {
  // CMake lists the CPU rows and the GPU files of kernels/ as id:program pairs; the table must
  // match, and every CPU row is a file kernels/NN_name.cpp.
  std::vector<std::string> pairs;
  std::istringstream in(CH14_PROGRAMS);
  for (std::string pair; in >> pair;) pairs.push_back(pair);
  std::vector<std::string> rows;
  for (const auto& v : ch14::variants()) {
    rows.push_back(std::to_string(v.id) + ":" + v.program());
    if (v.kind == ch14::Kind::Cpu) {
      const std::string file = std::string(CH14_SOURCE_DIR) + "/kernels/" + (v.id < 10 ? "0" : "") +
                               std::to_string(v.id) + "_" + v.name + ".cpp";
      INFO(file);
      CHECK(std::ifstream(file).good());
    }
  }
  CHECK(rows == pairs);
}

TEST_CASE("the variant table's rows are complete and found by id, name and program") {
  const auto& all = ch14::variants();
  std::set<std::string> names;
  for (std::size_t k = 0; k < all.size(); ++k) {
    const ch14::Variant& v = all[k];
    INFO("variant " << v.id << " " << v.name);
    if (k > 0) CHECK(v.id > all[k - 1].id);
    CHECK(names.insert(v.name).second);
    CHECK(&ch14::find_variant(std::to_string(v.id)) == &v);
    CHECK(&ch14::find_variant(v.name) == &v);
    CHECK(&ch14::find_variant(v.program()) == &v);
    // Exactly the function pointers of its kind.
    CHECK((v.cpu != nullptr) == (v.kind == ch14::Kind::Cpu));
    CHECK((v.gpu != nullptr) == (v.kind == ch14::Kind::Gpu));
    CHECK((v.steps != nullptr) == (v.kind == ch14::Kind::Gpu));
    CHECK((v.multi != nullptr) == (v.kind == ch14::Kind::MultiGpu));
    CHECK(v.default_bodies > 0);
    CHECK((v.param_name != nullptr) == !v.params.empty());
    if (v.param_name != nullptr)
      CHECK(std::count(v.params.begin(), v.params.end(), v.default_param) == 1);
  }
  CHECK(all.front().id == 0);
  CHECK_THROWS_AS(ch14::find_variant("warp9"), hb::UsageError);
  CHECK_THROWS_AS(ch14::find_variant("14"), hb::UsageError);  // variant 14 is its own program
  CHECK_THROWS_AS(ch14::find_variant("99"), hb::UsageError);
  CHECK_THROWS_AS(ch14::find_variant(""), hb::UsageError);
}

TEST_CASE("the slice plan of variant 10 fills the last wave of blocks") {
  // 65536 bodies, 4 per thread, 128 threads: 128 row blocks; an H100 with 9 blocks per SM
  // holds 1188. One slice would use a tenth of the GPU; the plan cuts the columns so that
  // the blocks fill the slots.
  const ch14::BlockedPlan p = ch14::plan_blocked(65536, 65536, 4, 132 * 9, ch14::kMaxSlices);
  CHECK(p.grid_x == 128);
  CHECK(p.slices > 1);
  CHECK(p.fill > 0.9);
  // Exactly one full wave of row blocks: no need to split.
  CHECK(ch14::plan_blocked(128 * 4 * 132 * 9, 1 << 20, 4, 132 * 9, ch14::kMaxSlices).slices == 1);
  // Never more slices than column tiles, nor than allowed.
  CHECK(ch14::plan_blocked(1000, 100, 1, 1000, ch14::kMaxSlices).slices == 1);
  CHECK(ch14::plan_blocked(1000, 100000, 1, 1000, 3).slices <= 3);
  CHECK(ch14::plan_blocked(1, 1, 1, 1, 1).slices == 1);
}

TEST_CASE("the symmetric tile order numbers every pair of the upper triangle once") {
  for (const int tiles : {1, 2, 3, 7, 64, 2049}) {
    long long q = 0;
    bool ok = true;
    for (int I = 0; I < tiles && ok; ++I) {
      ok = ch14::symmetric_row_start(I, tiles) == q;
      for (int J = I; J < tiles && ok; ++J, ++q) ok = ch14::symmetric_row_of(q, tiles) == I;
    }
    INFO(tiles << " tiles, pair " << q);
    CHECK(ok);
    CHECK(q == static_cast<long long>(tiles) * (tiles + 1) / 2);
  }
}

TEST_CASE("the picture puts bodies at their projected positions") {
  // Four bodies: two at the centre, one near the top-left corner, one outside the square.
  const std::vector<float4> b{make_float4(0.01f, 0.01f, 5.0f, 1.0f),
                              make_float4(0.01f, 0.01f, -5.0f, 1.0f),
                              make_float4(-1.49f, 1.49f, 0.0f, 1.0f),
                              make_float4(2.0f, 0.0f, 0.0f, 1.0f)};
  const hb::GrayImage img = ch14::render_bodies(b, 16, 1.5f);
  CHECK(img.width == 16);
  CHECK(img.height == 16);
  CHECK(img.at(8, 7) == 255);  // two bodies: the brightest pixel
  CHECK(img.at(0, 0) == std::lround(255 * std::log(2.0) / std::log(3.0)));
  int lit = 0;
  for (auto p : img.pixels) lit += p > 0;
  CHECK(lit == 2);
}

TEST_CASE("the command line accepts sizes with suffixes and rejects bad values") {
  auto o = parse({"--bodies", "64K", "--steps", "0", "--variant", "gpu_shared"});
  REQUIRE(o);
  CHECK(o->bodies == 65536);
  CHECK(o->steps == 0);
  CHECK(o->variant == "gpu_shared");
  o = parse({"--n", "1000"});
  CHECK(o->bodies == 1000);
  CHECK(parse({"--bodies", "2K", "--n", "2048"})->bodies == 2048);
  CHECK_THROWS_AS(parse({"--bodies", "2K", "--n", "2000"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"--bodies", "0"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"--steps", "-1"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"--variant", "nope"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"--variant", "gpu_aos", "--unroll-sweep", "gpu_aos"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"--softening", "-1"}), hb::UsageError);
  CHECK_THROWS_AS(parse({"--bodies-per-thread", "3"}), hb::UsageError);
  // The per-variant programs have only the knob their variant has.
  const ch14::Variant& shared = ch14::find_variant("gpu_shared");
  CHECK(ch14::knob_for(shared, *parse({"--unroll", "8"}, &shared)) == 8);
  CHECK(ch14::knob_for(shared, *parse({}, &shared)) == shared.default_param);
  CHECK_THROWS_AS(parse({"--unroll", "3"}, &shared), hb::UsageError);
  CHECK_THROWS_AS(parse({"--bodies-per-thread", "4"}, &shared), hb::UsageError);
  CHECK_THROWS_AS(parse({"--steps", "5"}, &shared), hb::UsageError);
  // CPU rows of the driver use --cpu-bodies, GPU rows --bodies.
  o = parse({"--bodies", "8K", "--cpu-bodies", "1K"});
  CHECK(ch14::bodies_for(ch14::variants()[0], *o, true) == 1024);
  CHECK(ch14::bodies_for(ch14::variants()[7], *o, true) == 8192);
  CHECK(ch14::bodies_for(ch14::variants()[0], *parse({}), true) == 4096);
}

TEST_CASE("only the symmetric variants declare a capability, 9.0, with their scalar-atomic form",
          "[table]") {
  for (const auto& v : ch14::variants()) {
    INFO("variant " << v.id << " " << v.name);
    if (std::string(v.name).rfind("gpu_symmetric", 0) == 0) {
      CHECK(v.needs.cc == 90);
      REQUIRE(v.needs.below != nullptr);
      CHECK(std::string(v.needs.below).find("scalar") != std::string::npos);
    } else {
      CHECK_FALSE(hb::needs_anything(v.needs));
    }
  }
}

TEST_CASE("variant 14 cuts the bodies into equal chunks, one per rank, the last padded", "[nccl]") {
  for (const std::size_t n : {1, 2, 5, 7, 64, 1000, 4099, 65536, 1000003}) {
    for (const int ranks : {1, 2, 3, 4, 7, 8, 16}) {
      INFO("n = " << n << ", ranks = " << ranks);
      std::size_t covered = 0;
      for (int r = 0; r < ranks; ++r) {
        const ch14::Slice s = ch14::slice_of(n, ranks, r);
        CHECK(s.chunk == (n + ranks - 1) / ranks);
        CHECK(s.padded() >= n);
        CHECK(s.padded() - n < static_cast<std::size_t>(ranks));  // less than one body per rank
        CHECK(s.begin == std::min(n, r * s.chunk));                 // where the gather puts it
        CHECK(s.rows() <= s.chunk);
        CHECK(s.begin == covered);  // slices follow each other, without gaps or overlap
        covered = s.end;
      }
      CHECK(covered == n);
    }
  }
  // More ranks than bodies: the ranks past the end have no rows.
  CHECK(ch14::slice_of(2, 5, 1).rows() == 1);
  CHECK(ch14::slice_of(2, 5, 4).rows() == 0);
  CHECK_THROWS_AS(ch14::slice_of(10, 0, 0), std::invalid_argument);
  CHECK_THROWS_AS(ch14::slice_of(10, 2, 2), std::invalid_argument);
}

// ------------------------------------------------------------------ figures 14.1 to 14.4

namespace {

std::string read_source(const std::string& relative) {
  return hb::read_text_file(std::string(CH14_SOURCE_DIR) + "/" + relative);
}

// The acceleration of body i due to body j, in double, as the reference computes it.
std::array<double, 3> term(const ch14::HostBodies& b, std::size_t i, std::size_t j) {
  std::array<double, 3> a{};
  ch14::bodyBodyInteraction<double>(a[0], a[1], a[2], b.aos[i].x, b.aos[i].y, b.aos[i].z, b.aos[j].x,
                                    b.aos[j].y, b.aos[j].z, b.aos[j].w, kSofteningSq);
  return a;
}

}  // namespace

TEST_CASE("the force matrix of figures 14.1 and 14.2: zero diagonal, rows are the forces, f_ji = -f_ij") {
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const ch14::HostBodies b = ch14::random_bodies(8, seed);
  const ch14::Reference ref = ch14::reference_forces(b, kSofteningSq);
  for (std::size_t i = 0; i < 8; ++i) {
    std::array<double, 3> row{};
    for (std::size_t j = 0; j < 8; ++j) {
      const auto a_ij = term(b, i, j);
      const auto a_ji = term(b, j, i);
      for (int c = 0; c < 3; ++c) {
        row[c] += a_ij[c];
        if (i == j) CHECK(a_ij[c] == 0.0);  // the diagonal: exactly zero, no branch needed
        // Forces, not accelerations, are antisymmetric: m_i a_ij = -m_j a_ji.
        const double f_ij = b.aos[i].w * a_ij[c], f_ji = b.aos[j].w * a_ji[c];
        CHECK(std::fabs(f_ij + f_ji) <= 1e-12 * std::fabs(f_ij));
      }
    }
    // Thread i of variant 6 sums row i: the acceleration of body i.
    for (int c = 0; c < 3; ++c)
      CHECK(std::fabs(row[c] - ref.accel[3 * i + c]) <= 1e-13 * ref.magnitude[i]);
  }
}

TEST_CASE("variant 11's walk of the tiles adds every interaction to both bodies exactly once") {
  for (const int n : {1, 2, 3, 8, 31, 32, 33, 64, 100, 1000}) {
    for (const int k : {1, 2, 32}) {
      INFO(n << " bodies, tiles of " << k);
      const ch14::Coverage c = ch14::symmetric_coverage(n, k);
      CHECK(c.each_once());
      if (n % k == 0) CHECK(c.evaluations == ch14::symmetric_interactions(n, k));
      // k = 1 is the ideal symmetric form: every pair once.
      if (k == 1) CHECK(c.evaluations == static_cast<long long>(n) * (n - 1) / 2);
      // Above the diagonal tiles, everything is a row term; below, a column term.
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          if (i / k < j / k) CHECK(c.row[static_cast<std::size_t>(i) * n + j] == 1);
    }
  }
}

TEST_CASE("the tiled count is the text's formula, and the footnote's 51.5% is that of 1024 bodies") {
  auto percent = [](long long n, long long k) {
    return 100.0 * static_cast<double>(ch14::symmetric_interactions(n, k)) / (double(n) * double(n));
  };
  auto over_ideal = [](long long n, long long k) {
    return 100.0 * (static_cast<double>(ch14::symmetric_interactions(n, k)) / (0.5 * double(n) * double(n - 1)) - 1.0);
  };
  // The footnote's N = 65536, k = 32: 50.02% of the brute force, 0.05% over the ideal.
  CHECK(std::round(percent(65536, 32) * 100) / 100 == Approx(50.02));
  CHECK(over_ideal(65536, 32) < 0.1);
  // The footnote's own numbers, 51.5% and 3% over the ideal, are those of N = 1024.
  CHECK(std::round(percent(1024, 32) * 10) / 10 == Approx(51.5));
  CHECK(std::round(over_ideal(1024, 32)) == Approx(3.0));
  CHECK(ch14::symmetric_interactions(1024, 32) == ch14::symmetric_coverage(1024, 32).evaluations);
}

TEST_CASE("a warp walks a tile on 32 different columns, and each column's sum travels with it") {
  const int k = 32;  // a warp: the kernel's tile
  const auto walk = ch14::tile_schedule(k);
  REQUIRE(walk.size() == std::size_t(k));
  std::vector<std::vector<int>> seen(k, std::vector<int>(k, 0));
  for (int s = 0; s < k; ++s) {
    std::set<int> columns;
    for (int l = 0; l < k; ++l) {
      CHECK(walk[s][l].column == (l + s) % k);
      CHECK(walk[s][l].sum_of == walk[s][l].column);  // the lane adds into the right column
      columns.insert(walk[s][l].column);
      ++seen[l][walk[s][l].column];
    }
    CHECK(columns.size() == std::size_t(k));  // no two lanes on one column: no bank conflict
  }
  for (int l = 0; l < k; ++l) {
    for (int c = 0; c < k; ++c) CHECK(seen[l][c] == 1);
    // After the tile lane l holds column (l + 31) mod 32's sum, where the kernel stores it.
    CHECK(walk[k - 1][l].sum_of == (l + k - 1) % k);
  }

  // With real bodies: the row sums and the (subtracted) column sums of the walk are the
  // accelerations the brute force computes from the tile's two sets of bodies.
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const ch14::HostBodies b = ch14::random_bodies(2 * k, seed);  // rows 0..31, columns 32..63
  std::vector<std::array<double, 3>> rows(k), columns(k);
  for (int s = 0; s < k; ++s) {
    for (int l = 0; l < k; ++l) {
      const auto a = term(b, l, k + walk[s][l].column);  // on the row body
      const double ratio = double(b.aos[l].w) / double(b.aos[k + walk[s][l].column].w);
      for (int c = 0; c < 3; ++c) {
        rows[l][c] += a[c];
        columns[walk[s][l].sum_of][c] -= a[c] * ratio;  // m_i a_ij = -m_j a_ji
      }
    }
  }
  for (int l = 0; l < k; ++l) {
    std::array<double, 3> want_row{}, want_column{};
    double scale_row = 0.0, scale_column = 0.0;  // sums of |terms|: the rounding's scale
    for (int c = 0; c < k; ++c) {
      const auto r = term(b, l, k + c);
      const auto q = term(b, k + l, c);
      for (int d = 0; d < 3; ++d) {
        want_row[d] += r[d];
        want_column[d] += q[d];
        scale_row += std::fabs(r[d]);
        scale_column += std::fabs(q[d]);
      }
    }
    for (int d = 0; d < 3; ++d) {
      CHECK(std::fabs(rows[l][d] - want_row[d]) <= 1e-12 * scale_row);
      CHECK(std::fabs(columns[l][d] - want_column[d]) <= 1e-12 * scale_column);
    }
  }
}

TEST_CASE("the models of the figures follow the lines of their kernels") {
  for (const ch14::KernelLines& k : ch14::figure_kernel_lines()) {
    const std::string text = read_source(k.file);
    for (const std::string& line : k.lines) {
      INFO(k.file << ": " << line);
      CHECK(hb::has_line(text, line));
    }
  }
}

TEST_CASE("the committed figures are what the models draw") {
  const auto figures = ch14::chapter_figures();
  CHECK(figures.size() == 4);
  const std::string readme = read_source("README.md");
  INFO("regenerate: nbody_figures --figures ch14_nbody/figures");
  const std::string folder = std::string(CH14_SOURCE_DIR) + "/figures";
  CHECK(hb::figure_faults(figures, folder, readme, "ch14_nbody/figures") ==
        std::vector<std::string>{});
}

TEST_CASE("every variant's section names its source and its row of Table 14.4") {
  const std::string readme = read_source("README.md");
  std::set<std::string> linked;
  std::vector<int> ids;
  for (const ch14::Variant& v : ch14::variants()) ids.push_back(v.id);
  ids.push_back(14);  // the NCCL program, a table of its own
  std::sort(ids.begin(), ids.end());
  for (const int id : ids) {
    INFO("variant " << id);
    const std::size_t at = readme.find("### Variant " + std::to_string(id) + ":");
    REQUIRE(at != std::string::npos);
    const std::string section = readme.substr(at, readme.find("\n### ", at + 1) - at);
    // "Source: \ref ch14_nbody/FILE "FILE"": a link to the file's page in the docs, which leads
    // to the whole file; the link's text names the file it links, named by the variant's number.
    std::smatch link;
    REQUIRE(std::regex_search(section, link,
                              std::regex(R"re(Source: \\ref ch14_nbody/(\S+) "([^"]+)")re")));
    const std::string file = link[1].str();
    CHECK(link[2].str() == file);
    CHECK_NOTHROW(read_source(file));
    const std::string number = (id < 10 ? "0" : "") + std::to_string(id) + "_";
    if (id == 14) CHECK(file == "nccl/nbody14_gpu_nccl.cpp");
    else CHECK(file.rfind("kernels/" + number, 0) == 0);
    linked.insert(file);
    // Rows of Table 14.4: the page's numbers are the CSV's.
    const auto row = hb::csv_row(std::string(CH14_SOURCE_DIR) + "/../docs/results/ch14_table14_4.csv",
                                 {{"id", std::to_string(id)}});
    if (row.empty()) continue;
    const std::string claim =
        row.at("1e9 interactions/s") + "e9 interactions/s at " + row.at("bodies") + " bodies, " +
        (id <= 5 ? row.at("x CPU reference") + "x the CPU reference"
                 : row.at("% of FP32 issue bound") + "% of the FP32 issue bound");
    INFO(claim);
    CHECK(hb::normalize_space(section).find("docs/results/ch14_table14_4.csv): " + claim) !=
          std::string::npos);
  }
  // One file per variant, and every file of kernels/ is the source of its variant's section,
  // or a header the kernels share (.h), which the page names.
  CHECK(linked.size() == ids.size());
  const std::string kernels = std::string(CH14_SOURCE_DIR) + "/kernels";
  for (const auto& entry : std::filesystem::directory_iterator(kernels)) {
    const std::string name = entry.path().filename().string();
    INFO(entry.path());
    if (entry.path().extension() == ".h")
      CHECK(readme.find("kernels/" + name) != std::string::npos);
    else
      CHECK(linked.count("kernels/" + name) == 1);
  }
  // The table that registers them is linked too.
  CHECK(readme.find("\\ref ch14_nbody/variants.cu \"variants.cu\"") != std::string::npos);
}
