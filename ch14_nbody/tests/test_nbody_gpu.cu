// Chapter 14 on the GPU (every test tagged [gpu]): every GPU variant and every compiled knob
// value against the float64 reference on the edge sizes, the constant-memory variant
// across its passes, the symmetric variant's tiling, the multi-GPU split, and the GPU
// leapfrog against the CPU one.
//
// Outputs are poisoned (0xFF bytes, a NaN) before each launch, with 64 guard floats past the
// end: a body the kernel forgets fails the comparison, a write past the end changes a guard.
// Comparisons use check_forces() (see tests/test_nbody_cpu.cpp for why the tolerance scales
// with the sum of the magnitudes of a row's terms). Under compute-sanitizer (HB_UNDER_SANITIZER)
// the largest sizes are left out so that every tool finishes in minutes; every variant and
// every edge case still runs.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "hb/device.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/testing.h"
#include "nbody.h"
#include "nbody14_slices.h"

namespace {

constexpr float kSofteningSq = 1e-4f;
constexpr std::size_t kGuard = 64;

// The edge sizes; under the sanitizer without 4099.
std::vector<std::size_t> sizes() {
  std::vector<std::size_t> s{1, 2, 31, 32, 33, 1000, 4099};
  if (hb::under_sanitizer()) s.pop_back();
  return s;
}

// Runs GPU variant v with knob param on b; returns the 3n forces. Checks the guard floats.
// scratch: float4 elements of scratch (default: what the variant asks for).
std::vector<float> run_gpu(const ch14::Variant& v, const ch14::HostBodies& b, int param,
                           std::optional<std::size_t> scratch = std::nullopt) {
  const std::size_t n = b.n;
  const std::size_t sc = scratch.value_or(v.scratch != nullptr ? v.scratch(n) : 0);
  hb::DeviceBuffer<float4> d_bodies(n), d_scratch(sc);
  hb::DeviceBuffer<float> d_force(3 * n + kGuard);
  hb::Stream s;
  HB_CUDA_CHECK(cudaMemcpyAsync(d_bodies.data(), b.aos.data(), d_bodies.bytes(),
                                cudaMemcpyHostToDevice, s));
  hb::poison(d_force.data(), d_force.bytes(), 0xFF, s);
  const ch14::GpuProblem p{d_force.data(), d_bodies.data(), static_cast<int>(n), kSofteningSq,
                           d_scratch.data(), sc};
  v.gpu(p, param, s);
  std::vector<float> out(3 * n + kGuard);
  HB_CUDA_CHECK(cudaMemcpyAsync(out.data(), d_force.data(), d_force.bytes(), cudaMemcpyDeviceToHost, s));
  s.synchronize();
  for (std::size_t k = 3 * n; k < out.size(); ++k) {
    std::uint32_t bits;
    std::memcpy(&bits, &out[k], sizeof bits);
    if (bits != 0xFFFFFFFFu) FAIL("guard float " << (k - 3 * n) << " past the end was written");
  }
  out.resize(3 * n);
  return out;
}

void check(const std::vector<float>& got, const ch14::Reference& ref) {
  const auto r = ch14::check_forces(got.data(), ref);
  INFO(r.report << "largest error: " << r.max_error << " of the tolerance");
  CHECK(r.ok);
}

}  // namespace

TEST_CASE("every GPU variant matches the float64 reference on random bodies", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  for (const std::size_t n : sizes()) {
    const ch14::HostBodies b = ch14::random_bodies(n, seed);
    const ch14::Reference ref = ch14::reference_forces(b, kSofteningSq);
    for (const ch14::Variant& v : ch14::variants()) {
      if (v.kind != ch14::Kind::Gpu) continue;
      INFO(v.name << ", n " << n << ", seed " << seed);
      check(run_gpu(v, b, v.default_param), ref);
    }
  }
}

TEST_CASE("every compiled unroll factor and bodies-per-thread value gives correct forces", "[gpu]") {
  // Sizes around the tiles: a warp + 1, a 128-body tile of variant 10 - 1, a 256-body tile
  // of variant 7 + 1, and several tiles of R x 128 rows.
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed() + 1;
  for (const std::size_t n : {std::size_t(33), std::size_t(127), std::size_t(257), std::size_t(1000)}) {
    const ch14::HostBodies b = ch14::random_bodies(n, seed);
    const ch14::Reference ref = ch14::reference_forces(b, kSofteningSq);
    for (const ch14::Variant& v : ch14::variants()) {
      if (v.kind != ch14::Kind::Gpu) continue;
      for (const int param : v.params) {
        INFO(v.name << ", " << v.param_name << " " << param << ", n " << n << ", seed " << seed);
        check(run_gpu(v, b, param), ref);
      }
    }
  }
}

TEST_CASE("variant 10 is correct with one column slice and with too little scratch for all", "[gpu]") {
  hb::select_device(0);
  const ch14::Variant& v = ch14::find_variant("gpu_blocked");
  const std::size_t n = hb::under_sanitizer() ? 1000 : 4099;
  const ch14::HostBodies b = ch14::random_bodies(n, hb::test_seed() + 2);
  const ch14::Reference ref = ch14::reference_forces(b, kSofteningSq);
  for (const std::size_t scratch : {std::size_t(0), n - 1, n, 3 * n + 5, ch14::blocked_scratch(n)}) {
    INFO("scratch " << scratch << " float4, plan: "
                    << ch14::blocked_plan_for(int(n), int(n), 4, scratch).slices << " slices");
    check(run_gpu(v, b, 4, scratch), ref);
  }
}

TEST_CASE("the constant-memory variant is correct across pass boundaries", "[gpu]") {
  // 4000 bodies per pass: one pass, exactly one, one more body, two, two and one, three.
  hb::select_device(0);
  const ch14::Variant& v = ch14::find_variant("gpu_const");
  std::vector<std::size_t> ns{3999, 4000, 4001, 8000, 8001, 12001};
  if (hb::under_sanitizer()) ns = {4001};
  for (const std::size_t n : ns) {
    INFO("n " << n << " (" << (n + ch14::kConstBodies - 1) / ch14::kConstBodies << " passes)");
    const ch14::HostBodies b = ch14::random_bodies(n, hb::test_seed() + 3);
    check(run_gpu(v, b, 0), ch14::reference_forces(b, kSofteningSq, ch14::sample_rows(n, 300)));
  }
}

TEST_CASE("the symmetric variants count every pair once for any tiling", "[gpu]") {
  hb::select_device(0);
  const std::string name = GENERATE(as<std::string>{}, "gpu_symmetric", "gpu_symmetric_rows");
  const ch14::Variant& v = ch14::find_variant(name);
  INFO(name);
  // Two bodies in different tiles (0 and 40 of 32-body tiles; 0 and 100 of 64-body tiles):
  // one off-diagonal tile pair, every other body massless. Pair counted twice or not at all
  // shows at once.
  for (const std::size_t other : {40, 100}) {
    std::vector<float4> aos(128, make_float4(0, 0, 0, 0));
    for (std::size_t i = 0; i < aos.size(); ++i) aos[i] = make_float4(float(i), 0, 0, 0);
    aos[0].w = 2.0f;
    aos[other].w = 3.0f;
    const ch14::HostBodies b(aos);
    check(run_gpu(v, b, 0), ch14::reference_forces(b, kSofteningSq));
  }
  // Sizes around tiles of 32 and 64 (and a row body's second half), and sizes where warps'
  // runs of tile pairs cross tile rows.
  std::vector<std::size_t> ns{1, 2, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 1000, 4099, 20000};
  if (hb::under_sanitizer()) ns = {1, 2, 31, 32, 33, 65, 97, 1000};
  for (const std::size_t n : ns) {
    INFO("n " << n);
    const ch14::HostBodies b = ch14::random_bodies(n, hb::test_seed() + 4);
    check(run_gpu(v, b, 0), ch14::reference_forces(b, kSofteningSq, ch14::sample_rows(n, 400)));
  }
}

TEST_CASE("the multi-GPU variants split the rows across the GPUs present", "[gpu]") {
  hb::select_device(0);
  const int count = hb::device_count();
  // Every GPU of this machine, and three "GPUs" that are all device 0, so that the split
  // into ranges is tested on a machine with one GPU too.
  const std::vector<std::vector<int>> layouts{ch14::first_devices(count), {0, 0, 0}};
  std::vector<std::size_t> ns = sizes();
  for (const std::vector<int>& devices : layouts) {
    for (const std::size_t n : ns) {
      const ch14::HostBodies b = ch14::random_bodies(n, hb::test_seed() + 5);
      const ch14::Reference ref = ch14::reference_forces(b, kSofteningSq);
      for (const char* name : {"gpu_multi", "gpu_multi_threads"}) {
        const ch14::Variant& v = ch14::find_variant(name);
        INFO(name << " on " << devices.size() << " slot(s), n " << n);
        ch14::MultiGpu m(devices, n, kSofteningSq, 4);
        std::copy(b.aos.begin(), b.aos.end(), m.host_bodies());
        std::fill(m.host_force(), m.host_force() + 3 * n, std::nanf(""));
        v.multi(m);
        const auto r = ch14::check_forces(m.host_force(), ref);
        INFO(r.report);
        CHECK(r.ok);
        // The ranges cover the rows once, in order.
        int next = 0;
        for (const auto& slot : m.slots()) {
          CHECK(slot->row_begin == next);
          next += slot->rows;
        }
        CHECK(next == int(n));
      }
    }
  }
}

TEST_CASE("the GPU leapfrog follows the CPU leapfrog and conserves energy", "[gpu]") {
  // The same 256-body disk, 20 steps on the GPU (variant 10's rsqrt) and on the CPU (the
  // book's arithmetic): the forces differ by rounding only, so after 20 steps the positions
  // agree to about 1e-5; we allow 1e-4 of the disk's radius. The GPU's energy drift obeys the
  // same bound as the CPU test's.
  hb::select_device(0);
  const float eps2 = 0.05f * 0.05f;
  ch14::State cpu = ch14::disk_galaxy(256, hb::test_seed(), eps2), gpu = cpu;
  const ch14::Energy before = ch14::measure_energy(gpu, eps2);
  ch14::simulate_host(
      cpu, [&](const ch14::HostBodies& b, float* f) { ch14::forces_cpu_soa(b, f, eps2, 1); }, 20,
      0.002f);
  const ch14::Variant& v = ch14::find_variant("gpu_blocked");
  ch14::simulate_device(gpu, v.gpu, v.default_param, v.scratch, 20, 0.002f, eps2);
  double worst = 0.0;
  for (std::size_t i = 0; i < cpu.bodies.n; ++i) {
    worst = std::max(worst, double(std::fabs(cpu.bodies.aos[i].x - gpu.bodies.aos[i].x)));
    worst = std::max(worst, double(std::fabs(cpu.bodies.aos[i].y - gpu.bodies.aos[i].y)));
    worst = std::max(worst, double(std::fabs(cpu.bodies.aos[i].z - gpu.bodies.aos[i].z)));
  }
  INFO("largest position difference " << worst);
  CHECK(worst < 1e-4);
  const ch14::Drift d = ch14::drift_between(before, ch14::measure_energy(gpu, eps2));
  INFO("energy drift " << d.energy << ", momentum drift " << d.momentum);
  CHECK(d.energy < 2e-5);
  CHECK(d.momentum < 1e-5);
}

TEST_CASE("every GPU variant's own time stepping follows its steps enqueued one by one", "[gpu]") {
  // A variant may enqueue the steps of its simulation its own way (Variant::steps); the bodies
  // must then move as with enqueue_step() called once per step. The symmetric variant's atomics
  // add in any order, so positions may differ by rounding; we allow 1e-5 of the disk's radius.
  hb::select_device(0);
  const float eps2 = 0.05f * 0.05f;
  const ch14::State start = ch14::disk_galaxy(1000, hb::test_seed(), eps2);
  for (const ch14::Variant& v : ch14::variants()) {
    if (v.kind != ch14::Kind::Gpu) continue;
    INFO(v.name);
    ch14::State own = start, one_by_one = start;
    ch14::simulate_device(own, v.gpu, v.default_param, v.scratch, 20, 0.002f, eps2, v.steps);
    ch14::simulate_device(one_by_one, v.gpu, v.default_param, v.scratch, 20, 0.002f, eps2,
                          ch14::enqueue_steps);
    double worst = 0.0;
    for (std::size_t i = 0; i < start.bodies.n; ++i) {
      worst = std::max(worst, double(std::fabs(own.bodies.aos[i].x - one_by_one.bodies.aos[i].x)));
      worst = std::max(worst, double(std::fabs(own.bodies.aos[i].y - one_by_one.bodies.aos[i].y)));
      worst = std::max(worst, double(std::fabs(own.bodies.aos[i].z - one_by_one.bodies.aos[i].z)));
      worst = std::max(worst, double(std::fabs(own.vel[3 * i] - one_by_one.vel[3 * i])));
    }
    INFO("largest difference " << worst);
    CHECK(worst < 1e-5);
  }
}

TEST_CASE("variant 14's split gives every rank's rows their forces from all bodies", "[gpu]") {
  // Every rank on this one GPU, without NCCL: the gathered array is laid out as the all-gather
  // leaves it (rank k's chunk at k * chunk, the last one padded with massless bodies), and each
  // rank computes its local block, then the rest. The union of the ranks' rows must match the
  // float64 reference, for sizes that do not divide by the rank count and for ranks with no
  // rows at all (5 ranks, 2 bodies).
  hb::select_device(0);
  for (const std::size_t n : sizes()) {
    const ch14::HostBodies b = ch14::random_bodies(n, hb::test_seed() + n);
    const ch14::Reference ref = ch14::reference_forces(b, kSofteningSq);
    for (const int ranks : {1, 2, 3, 5}) {
      INFO("n = " << n << ", ranks = " << ranks);
      const ch14::Slice first = ch14::slice_of(n, ranks, 0);
      std::vector<float4> gathered(first.padded(), make_float4(0, 0, 0, 0));
      std::copy(b.aos.begin(), b.aos.end(), gathered.begin());
      hb::DeviceBuffer<float4> all(gathered.size()), mine(first.chunk),
          scratch(ch14::blocked_scratch(first.chunk));
      hb::DeviceBuffer<float> force(3 * first.chunk + kGuard), before(3 * first.chunk),
          after(3 * first.chunk);
      hb::Stream s;
      HB_CUDA_CHECK(cudaMemcpyAsync(all.data(), gathered.data(), all.bytes(),
                                    cudaMemcpyHostToDevice, s));
      std::vector<float> got(3 * n, std::nanf(""));
      for (int r = 0; r < ranks; ++r) {
        const ch14::Slice sl = ch14::slice_of(n, ranks, r);
        HB_CUDA_CHECK(cudaMemcpyAsync(mine.data(), all.data() + r * sl.chunk,
                                      sl.chunk * sizeof(float4), cudaMemcpyDeviceToDevice, s));
        hb::poison(force.data(), force.bytes(), 0xFF, s);
        const ch14::SliceBuffers buf{force.data(), before.data(), after.data(), scratch.data(),
                                     scratch.size()};
        ch14::enqueue_local_forces(sl, mine.data(), buf, kSofteningSq, 4, s);
        ch14::enqueue_remote_forces(sl, all.data(), buf, kSofteningSq, 4, s);
        std::vector<float> part(3 * sl.chunk + kGuard);
        HB_CUDA_CHECK(cudaMemcpyAsync(part.data(), force.data(), force.bytes(),
                                      cudaMemcpyDeviceToHost, s));
        s.synchronize();
        std::copy(part.begin(), part.begin() + 3 * sl.rows(), got.begin() + 3 * sl.begin);
        for (std::size_t k = 3 * sl.rows(); k < 3 * sl.chunk; ++k) {
          INFO("rank " << r << ": float " << k << " past its rows");
          std::uint32_t bits = 0;
          std::memcpy(&bits, &part[k], sizeof bits);
          CHECK(bits == 0xFFFFFFFFu);  // the padding rows are never written
        }
      }
      const hb::CompareResult cmp = ch14::check_forces(got.data(), ref);
      INFO(cmp.report);
      CHECK(cmp.ok);
    }
  }
}
