// GPU-side pieces of the common layer: memory owners, poisoning, mapped memory, event timers,
// device facts and the bandwidth kernels. Every test here is tagged [gpu].
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <vector>

#include "hb/bandwidth.h"
#include "hb/capability.h"
#include "hb/compare.h"
#include "hb/device.h"
#include "hb/memory.h"
#include "hb/random.h"
#include "hb/bench.h"
#include "hb/error.h"
#include "hb/timing.h"

namespace {

__global__ void write_index(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

}  // namespace

TEST_CASE("device buffers round-trip data and move without double frees", "[gpu]") {
  hb::select_device(0);
  const auto in = hb::uniform_vector<int>(1000, 1, -100, 100);
  hb::DeviceBuffer<int> a(in.size());
  REQUIRE(a.bytes() == in.size() * sizeof(int));
  HB_CUDA_CHECK(cudaMemcpy(a.data(), in.data(), a.bytes(), cudaMemcpyHostToDevice));
  hb::DeviceBuffer<int> b = std::move(a);
  CHECK(a.data() == nullptr);
  CHECK(a.size() == 0);
  hb::PinnedBuffer<int> out(in.size());
  HB_CUDA_CHECK(cudaMemcpy(out.data(), b.data(), b.bytes(), cudaMemcpyDeviceToHost));
  CHECK(hb::compare_exact(out.data(), in.data(), in.size()).ok);
  hb::DeviceBuffer<int> empty(0);
  CHECK(empty.data() == nullptr);
}

__global__ void add_one(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1;
}

TEST_CASE("copy_to_device has landed before work on a non-blocking stream starts", "[gpu]") {
  hb::select_device(0);
  // Large enough that a staged pageable copy would still be in flight when the kernel starts.
  const int n = 1 << 24;
  const auto in = hb::uniform_vector<int>(n, 3, -1000, 1000);
  hb::DeviceBuffer<int> d_in(n), d_out(n);
  hb::poison(d_in.data(), d_in.bytes());
  HB_CUDA_CHECK(cudaDeviceSynchronize());
  hb::Stream s;
  hb::copy_to_device(d_in.data(), in.data(), d_in.bytes());
  // The postcondition itself: nothing of the copy is still in flight when it returns.
  CHECK(cudaStreamQuery(cudaStreamLegacy) == cudaSuccess);
  add_one<<<(n + 255) / 256, 256, 0, s>>>(d_in.data(), d_out.data(), n);
  HB_CHECK_LAUNCH();
  std::vector<int> got(n), want(n);
  HB_CUDA_CHECK(cudaMemcpyAsync(got.data(), d_out.data(), d_out.bytes(), cudaMemcpyDeviceToHost, s));
  s.synchronize();
  for (int i = 0; i < n; ++i) want[i] = in[i] + 1;
  CHECK(hb::compare_exact(got.data(), want.data(), got.size()).ok);
  hb::copy_to_device(d_in.data(), in.data(), 0);  // nothing to copy is fine
}

TEST_CASE("poisoned outputs expose elements a kernel did not write", "[gpu]") {
  hb::select_device(0);
  const int n = 1000;
  hb::DeviceBuffer<int> d(n);
  hb::poison(d.data(), d.bytes());
  write_index<<<(n / 2 + 127) / 128, 128>>>(d.data(), n / 2);  // writes only the first half
  HB_CHECK_LAUNCH();
  std::vector<int> got(n), want(n);
  std::iota(want.begin(), want.end(), 0);
  HB_CUDA_CHECK(cudaMemcpy(got.data(), d.data(), d.bytes(), cudaMemcpyDeviceToHost));
  const auto r = hb::compare_exact(got.data(), want.data(), n);
  CHECK(r.mismatches == n / 2);
  CHECK(got[n - 1] == int(0xA5A5A5A5u));
  // The same read back on a stream, element by element.
  hb::Stream stream;
  std::vector<float> floats(n);
  hb::copy_to_host(floats.data(), reinterpret_cast<const float*>(d.data()), n, stream);
  CHECK_FALSE(hb::is_poisoned(floats[n / 2 - 1]));
  CHECK(hb::is_poisoned(floats[n / 2]));
  CHECK(hb::is_poisoned(floats[n - 1]));
}

TEST_CASE("kernels write mapped host memory through its device pointer", "[gpu]") {
  hb::select_device(0);
  const int n = 33;
  hb::MappedBuffer<int> m(n);
  REQUIRE(m.device_data() != nullptr);
  for (int i = 0; i < n; ++i) m[i] = -1;
  write_index<<<1, 64>>>(m.device_data(), n);
  HB_CHECK_LAUNCH();
  HB_CUDA_CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) REQUIRE(m[i] == i);
}

TEST_CASE("event timers measure kernel time, not launch time", "[gpu]") {
  hb::select_device(0);
  const auto dev = hb::query_device(0);
  const long long cycles = static_cast<long long>(dev.clock_khz) * 2;  // about 2 ms
  hb::Stream s;
  const auto t = hb::time_events([&](cudaStream_t st) { spin<<<1, 1, 0, st>>>(cycles); }, s, 1, 5);
  REQUIRE(t.samples_ms.size() == 5);
  // The clock may run below its peak, so the kernel takes at least ~2 ms, not much more.
  CHECK(t.median_ms > 1.5);
  CHECK(t.median_ms < 50.0);
}

TEST_CASE("device facts are plausible for the GPU we run on", "[gpu]") {
  hb::select_device(0);
  const auto d = hb::query_device(0);
  CHECK_FALSE(d.name.empty());
  CHECK(d.cc_major >= 7);
  CHECK(d.sm_count > 0);
  CHECK(d.clock_khz > 100000);
  CHECK(d.memory_bus_bits >= 64);
  CHECK(d.global_memory_bytes > (std::size_t(1) << 30));
  CHECK(d.l2_bytes > 0);
  CHECK(d.shared_per_block_optin >= 48 * 1024);
  CHECK(d.runtime_version >= 13000);
  CHECK(d.driver_version >= d.runtime_version);
  CHECK(d.theoretical_bandwidth_gbs() > 100.0);
}

TEST_CASE("the read-bandwidth kernel folds every word, for odd sizes too", "[gpu]") {
  hb::select_device(0);
  for (std::size_t n16 : {std::size_t(0), std::size_t(1), std::size_t(31), std::size_t(32),
                          std::size_t(33), std::size_t(1000003)}) {
    std::vector<std::uint32_t> words(n16 * 4);
    for (std::size_t i = 0; i < words.size(); ++i)
      words[i] = static_cast<std::uint32_t>(hb::hash64(77, i));
    std::uint32_t want = 0;
    for (auto w : words) want ^= w;
    hb::DeviceBuffer<std::uint32_t> d(words.size());
    if (!words.empty())
      HB_CUDA_CHECK(cudaMemcpy(d.data(), words.data(), d.bytes(), cudaMemcpyHostToDevice));
    INFO("vectors: " << n16);
    CHECK(hb::device_xor_fold(d.data(), n16, nullptr) == want);
  }
}

TEST_CASE("bandwidth measurements count the right bytes and give finite rates", "[gpu]") {
  hb::select_device(0);
  const std::size_t bytes = std::size_t(8) << 20;
  const hb::Bandwidth all[] = {
      hb::measure_device_copy(bytes, 3),
      hb::measure_device_read(bytes, 3),
      hb::measure_host_to_device(bytes, hb::HostMemory::Pinned, 3),
      hb::measure_device_to_host(bytes, hb::HostMemory::Pageable, 3),
      hb::measure_bidirectional(bytes, 3)};
  const std::size_t counted[] = {2 * bytes, bytes, bytes, bytes, 2 * bytes};
  for (int i = 0; i < 5; ++i) {
    INFO("measurement " << i);
    CHECK(all[i].bytes_counted == counted[i]);
    CHECK(std::isfinite(all[i].gbs));
    CHECK(all[i].gbs > 0.1);
    CHECK(all[i].median_ms > 0.0);
  }
}

TEST_CASE("the code's capability is the GPU's, or an older one the driver compiled PTX for", "[gpu]") {
  hb::select_device(0);
  const hb::Capability gpu = hb::device_capability(0);
  const hb::Capability code = hb::code_capability();
  INFO("GPU " << gpu << ", code " << code << ": " << hb::capability_summary());
  CHECK(code >= hb::kOldestCapability);
  CHECK(code <= gpu);
  CHECK(hb::capability_summary().rfind(hb::capability_text(gpu), 0) == 0);
  CHECK((hb::capability_summary() == hb::capability_text(gpu)) == (code == gpu));
  // Shared memory: never more than the GPU grants, nor more than the code's architecture does.
  const hb::DeviceInfo d = hb::query_device(0);
  CHECK(hb::shared_per_block_limit() <= d.shared_per_block_optin);
  CHECK(hb::shared_per_block_limit() <= hb::architecture_shared_limit(code));
  CHECK(hb::shared_per_block_limit() >= 48 * 1024);
}

TEST_CASE("a variant beyond this GPU is refused with a one-line reason that names both capabilities", "[gpu]") {
  hb::select_device(0);
  const hb::Needs future{200, nullptr};
  CHECK(hb::form_here(future) == hb::Form::None);
  const std::string reason = hb::left_out_reason(future);
  CHECK(reason.rfind("needs compute capability 20.0, this GPU ", 0) == 0);
  CHECK(reason.find(hb::capability_text(hb::code_capability())) != std::string::npos);
  CHECK_THROWS_AS(hb::require_runs_here(future), hb::LeftOut);
  CHECK(hb::form_note(future) == "left out: " + reason);
  const hb::Needs portable{200, "the old way"};
  CHECK(hb::form_here(portable) == hb::Form::Portable);
  CHECK(hb::form_note(portable) ==
        "portable form: the old way (the headline form needs compute capability 20.0)");
  const hb::Needs huge{0, nullptr, std::size_t(1) << 30};
  CHECK(hb::left_out_reason(huge).rfind("needs 1048576 KiB of shared memory per block", 0) == 0);
}

TEST_CASE("a checked measurement times the calls and catches a wrong result before or after",
          "[gpu]") {
  hb::select_device(0);
  const int n = 1 << 20;
  hb::DeviceBuffer<int> out(n);
  hb::Stream stream;
  auto poison = [&](cudaStream_t st) { hb::poison(out.data(), out.bytes(), 0xA5, st); };
  auto call = [&](cudaStream_t st) { write_index<<<n / 256, 256, 0, st>>>(out.data(), n); };
  auto last_is = [&](int want) {
    int last = 0;
    HB_CUDA_CHECK(cudaMemcpyAsync(&last, out.data() + n - 1, sizeof last, cudaMemcpyDeviceToHost,
                                  stream));
    HB_CUDA_CHECK(cudaStreamSynchronize(stream));
    return last == want;
  };
  const hb::Checked good = hb::measure_checked(poison, call, [&] { return last_is(n - 1); },
                                               stream, 1, 5, true);
  CHECK(good.ok);
  CHECK(good.median_ms > 0.0);
  CHECK_FALSE(hb::measure_checked(poison, call, [&] { return last_is(n); }, stream, 1, 5, true).ok);
  // The second check runs after the timed calls: a call that breaks state is caught there.
  int calls = 0;
  CHECK_FALSE(hb::measure_checked(poison, call, [&] { return ++calls == 1; }, stream, 1, 5, true).ok);
  // Without checking, the check is never called.
  CHECK(hb::measure_checked(poison, call, [] { return false; }, stream, 1, 5, false).ok);
}
