// Chapter 12 GPU tests: every variant of the table against the CPU on the sizes where
// reductions break (empty, one element, around a warp, around a block, a prime, large),
// with several block sizes, poisoned outputs, extreme values, back-to-back calls and
// misaligned inputs; and the typed and predicate launchers of variants 7, 8 and 10e.
//
// Under compute-sanitizer (HB_UNDER_SANITIZER=1) sizes above 2^20 are skipped and fewer
// block sizes are tried, but every variant and every edge case still runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>
#include <map>
#include <set>
#include <vector>

#include "hb/device.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/random.h"
#include "hb/testing.h"
#include "reduction.h"
#include "reference.h"

namespace {

constexpr long long kPoison = static_cast<long long>(0xA5A5A5A5A5A5A5A5ull);

std::size_t large_size() { return (std::size_t(1) << 24) + 3; }

// compute-sanitizer's racecheck, synccheck and initcheck do not follow kernels launched from
// the GPU (a documented limitation); memcheck does. scripts/run_sanitizer.sh names the tool in
// HB_SANITIZER_TOOL, so under the sanitizer such variants run with memcheck only.
bool skipped_here(const ch12::Variant& v) {
  if (!hb::under_sanitizer() || !v.launches_from_gpu) return false;
  const char* tool = std::getenv("HB_SANITIZER_TOOL");
  return tool == nullptr || std::string(tool) != "memcheck";
}

// The standard edge sizes (hb::standard_sizes), plus 2^27 outside the sanitizer.
std::vector<std::size_t> sizes() {
  auto s = hb::standard_sizes(1024, large_size());
  if (!hb::under_sanitizer()) s.push_back(std::size_t(1) << 27);
  return s;
}

// Block sizes to try for a variant: the interesting ones its rule allows. Sizes above 2^20
// only get the default and one more, to keep the run short.
std::vector<int> block_sizes(const ch12::Variant& v, std::size_t n) {
  std::vector<int> want;
  if (hb::under_sanitizer()) {
    want = {v.default_threads, 8, 33, 96, 32};
  } else if (n > (std::size_t(1) << 20)) {
    want = {v.default_threads, 1000, 1024};
  } else {
    want = {v.default_threads, 1, 2, 32, 33, 64, 96, 100, 1000, 1023, 1024};
  }
  std::vector<int> out;
  for (int t : want) {
    if (v.threads == ch12::BlockRule::Library) return {v.default_threads};
    if (v.accepts_threads(t) && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    if ((hb::under_sanitizer() || n > (std::size_t(1) << 20)) && out.size() == 2) break;
  }
  return out;
}

// Runs a launcher once into a poisoned output of two elements and returns the first; the
// second must stay poisoned (nothing writes past the result).
struct Runner {
  explicit Runner(ch12::Scratch& s) : scratch(s) {}
  ch12::Scratch& scratch;
  hb::Stream stream;
  hb::DeviceBuffer<long long> out{2};

  long long run(const ch12::Variant& v, const int* d_in, std::size_t n, int threads) {
    hb::poison(out.data(), out.bytes(), 0xA5, stream);
    v.launch(d_in, n, out.data(), threads, scratch, stream);
    long long host[2] = {0, 0};
    HB_CUDA_CHECK(cudaMemcpyAsync(host, out.data(), sizeof host, cudaMemcpyDeviceToHost, stream));
    HB_CUDA_CHECK(cudaStreamSynchronize(stream));
    CHECK(host[1] == kPoison);
    return host[0];
  }
};

// One input for all sizes of a test: the sizes are prefixes of it.
struct Input {
  std::vector<int> host;
  hb::DeviceBuffer<int> device;
  explicit Input(std::vector<int> h) : host(std::move(h)), device(host.size()) {
    if (!host.empty())
      hb::copy_to_device(device.data(), host.data(), device.bytes());
  }
};

template <typename T>
hb::DeviceBuffer<T> to_device(const std::vector<T>& host) {
  hb::DeviceBuffer<T> d(host.size());
  if (!host.empty())
    hb::copy_to_device(d.data(), host.data(), d.bytes());
  return d;
}

template <typename R>
R read_back(const R* d, cudaStream_t stream) {
  R r{};
  HB_CUDA_CHECK(cudaMemcpyAsync(&r, d, sizeof r, cudaMemcpyDeviceToHost, stream));
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return r;
}

}  // namespace

TEST_CASE("every variant matches the CPU on the standard sizes with several block sizes", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed << " (replay with HB_TEST_SEED)");
  const auto all_sizes = sizes();
  const Input input(ch12::make_input(all_sizes.back(), seed));
  ch12::Scratch scratch(all_sizes.back());
  Runner runner(scratch);
  std::map<std::pair<ch12::Result, std::size_t>, long long> expected;  // the CPU, once per size
  for (const auto& v : ch12::variants()) {
    if (skipped_here(v)) continue;
    // Sizes around the block sizes this variant will use, too (one or two elements per thread).
    std::set<std::size_t> ns(all_sizes.begin(), all_sizes.end());
    for (int t : block_sizes(v, 0))
      for (std::size_t k : {std::size_t(t), 2 * std::size_t(t)})
        for (std::size_t n : {k - 1, k, k + 1}) ns.insert(n);
    for (std::size_t n : ns) {
      const auto key = std::make_pair(v.result, n);
      if (expected.count(key) == 0) expected[key] = ch12::cpu_expected(v.result, input.host.data(), n);
      const long long want = expected[key];
      for (int t : block_sizes(v, n)) {
        INFO("variant " << v.id << " (" << v.title << "), n = " << n << ", threads = " << t);
        CHECK(runner.run(v, input.device.data(), n, t) == want);
      }
    }
  }
}

TEST_CASE("every variant sums extreme int32 values without overflow", "[gpu]") {
  const ch12::Variant v = GENERATE(from_range(ch12::variants()));
  const int value = GENERATE(INT_MAX, INT_MIN);
  if (skipped_here(v)) return;
  hb::select_device(0);
  const std::size_t n = hb::under_sanitizer() ? (std::size_t(1) << 20) - 3 : large_size();
  const Input input(std::vector<int>(n, value));
  ch12::Scratch scratch(n);
  Runner runner(scratch);
  INFO("variant " << v.id << ", every element " << value << ", n = " << n);
  CHECK(runner.run(v, input.device.data(), n, v.default_threads) ==
        ch12::cpu_expected(v.result, input.host.data(), n));
}

TEST_CASE("every variant gives the right answer in 100 back-to-back calls of changing size", "[gpu]") {
  // Single-pass kernels leave their ticket (and 11b its accumulator) at zero for the next
  // call; a call that forgot would corrupt the one after it. We enqueue 100 calls without
  // synchronizing, each writing its own output slot, with grids of different sizes.
  const ch12::Variant v = GENERATE(from_range(ch12::variants()));
  if (skipped_here(v)) return;
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const bool small = hb::under_sanitizer();
  const std::vector<std::size_t> ns = small ? std::vector<std::size_t>{4099, 33, 1, 70001}
                                            : std::vector<std::size_t>{1000003, 33, 4099, 1, (std::size_t(1) << 20) - 5};
  const Input input(ch12::make_input(std::size_t(1) << 20, seed));
  ch12::Scratch scratch(input.host.size());
  hb::Stream stream;
  const int kCalls = small ? 8 : 100;
  hb::DeviceBuffer<long long> out(kCalls);
  hb::poison(out.data(), out.bytes(), 0xA5, stream);
  for (int i = 0; i < kCalls; ++i)
    v.launch(input.device.data(), ns[i % ns.size()], out.data() + i, v.default_threads, scratch,
             stream);
  std::vector<long long> got(kCalls);
  HB_CUDA_CHECK(cudaMemcpyAsync(got.data(), out.data(), out.bytes(), cudaMemcpyDeviceToHost, stream));
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (int i = 0; i < kCalls; ++i) {
    const std::size_t n = ns[i % ns.size()];
    INFO("variant " << v.id << ", call " << i << ", n = " << n);
    CHECK(got[i] == ch12::cpu_expected(v.result, input.host.data(), n));
  }
}

TEST_CASE("every variant accepts input pointers that are not 16-byte aligned", "[gpu]") {
  // The vectorized variants add the elements before the first and after the last whole
  // int4 one by one; the sizes below 8 leave no whole vector at some offsets.
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  const std::size_t big = hb::under_sanitizer() ? 100003 : (std::size_t(1) << 20) + 7;
  const Input input(ch12::make_input(big + 8, seed));
  ch12::Scratch scratch(input.host.size());
  Runner runner(scratch);
  for (const auto& v : ch12::variants()) {
    if (skipped_here(v)) continue;
    for (std::size_t offset = 0; offset < 4; ++offset) {
      for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(3),
                            std::size_t(4), std::size_t(5), std::size_t(7), std::size_t(1025), big}) {
        for (int t : {32, 256}) {
          if (!v.accepts_threads(t)) t = v.default_threads;
          INFO("variant " << v.id << ", offset " << offset << " elements, n = " << n
                          << ", threads = " << t);
          CHECK(runner.run(v, input.device.data() + offset, n, t) ==
                ch12::cpu_expected(v.result, input.host.data() + offset, n));
        }
      }
    }
  }
}

namespace {

// Variant 7 with one reduction type over its sizes and block sizes.
template <typename R, typename T>
void check_typed(const std::vector<T>& host, const std::vector<std::size_t>& ns,
                 ch12::Scratch& scratch, cudaStream_t stream, const char* what) {
  const auto d_in = to_device(host);
  hb::DeviceBuffer<R> d_out(1);
  for (std::size_t n : ns) {
    const R want = ch12::cpu_reduce<R>(host.data(), n);
    for (int t : {1, 64, 1024}) {
      INFO(what << ", n = " << n << ", threads = " << t);
      hb::poison(d_out.data(), d_out.bytes(), 0xA5, stream);
      ch12::reduce7_typed<R, T>(d_in.data(), n, d_out.data(), t, scratch, stream);
      const R got = read_back(d_out.data(), stream);
      CHECK(ch12::matches(got, want, host.data(), n));
    }
  }
}

}  // namespace

TEST_CASE("the templated reduction computes every reduction type for int and float and double", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  std::vector<std::size_t> ns = {0, 1, 31, 33, 1025, 1000003};
  if (!hb::under_sanitizer()) ns.push_back(large_size());
  const std::size_t n = ns.back();
  ch12::Scratch scratch(n);
  hb::Stream stream;
  const auto ints = hb::uniform_vector<int>(n, seed, -1000, 1000);
  const auto floats = hb::uniform_vector<float>(n, seed + 1, -1.0f, 1.0f);
  const auto doubles = hb::uniform_vector<double>(n, seed + 2, -1.0, 1.0);
  check_typed<ch12::Sum<int>>(ints, ns, scratch, stream, "sum of int");
  check_typed<ch12::SumSquares<int>>(ints, ns, scratch, stream, "sum and squares of int");
  check_typed<ch12::Min<int>>(ints, ns, scratch, stream, "min of int");
  check_typed<ch12::Max<int>>(ints, ns, scratch, stream, "max of int");
  check_typed<ch12::Sum<float>>(floats, ns, scratch, stream, "sum of float");
  check_typed<ch12::SumSquares<float>>(floats, ns, scratch, stream, "sum and squares of float");
  check_typed<ch12::Min<float>>(floats, ns, scratch, stream, "min of float");
  check_typed<ch12::Max<float>>(floats, ns, scratch, stream, "max of float");
  check_typed<ch12::Sum<double>>(doubles, ns, scratch, stream, "sum of double");
  check_typed<ch12::SumSquares<double>>(doubles, ns, scratch, stream, "sum and squares of double");
  check_typed<ch12::Min<double>>(doubles, ns, scratch, stream, "min of double");
  check_typed<ch12::Max<double>>(doubles, ns, scratch, stream, "max of double");

  // Our float data are multiples of 2^-23, so their sum is exact in double whatever the
  // order: the GPU must match the CPU bit for bit, not only within the tolerance.
  const auto d_in = to_device(floats);
  hb::DeviceBuffer<ch12::Sum<float>> d_out(1);
  ch12::reduce7_typed<ch12::Sum<float>, float>(d_in.data(), n, d_out.data(), 256, scratch, stream);
  CHECK(read_back(d_out.data(), stream).sum == ch12::cpu_reduce<ch12::Sum<float>>(floats.data(), n).sum);
}

TEST_CASE("predicate reductions count with every predicate and block size", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  std::vector<std::size_t> ns = {0, 1, 31, 32, 33, 1023, 1025, 1000003};
  if (!hb::under_sanitizer()) ns.push_back(large_size());
  const std::size_t n = ns.back();
  ch12::Scratch scratch(n);
  hb::Stream stream;
  const auto ints = hb::uniform_vector<int>(n, seed, -1000, 1000);
  const auto floats = hb::uniform_vector<float>(n, seed + 1, -1.0f, 1.0f);
  const auto di = to_device(ints);
  const auto df = to_device(floats);
  hb::DeviceBuffer<long long> out(1);
  auto run = [&](auto launch, const auto* d, std::size_t count, int t) {
    hb::poison(out.data(), out.bytes(), 0xA5, stream);
    launch(d, count, out.data(), t, scratch, stream);
    return read_back(out.data(), stream);
  };
  for (std::size_t k : ns) {
    const long long odd = ch12::cpu_count_if(ints.data(), k, ch12::IsOdd{});
    const long long pos = ch12::cpu_count_if(ints.data(), k, ch12::IsPositive{});
    const long long fpos = ch12::cpu_count_if(floats.data(), k, ch12::IsPositive{});
    for (int t : {33, 64, 96, 1024}) {
      INFO("n = " << k << ", threads = " << t);
      CHECK(run(ch12::count8a_syncthreads_count<int, ch12::IsOdd>, di.data(), k, t) == odd);
      CHECK(run(ch12::count8a_syncthreads_count<int, ch12::IsPositive>, di.data(), k, t) == pos);
      CHECK(run(ch12::count8a_syncthreads_count<float, ch12::IsPositive>, df.data(), k, t) == fpos);
      if (t % 32 != 0) continue;
      CHECK(run(ch12::count8b_ballot<int, ch12::IsOdd>, di.data(), k, t) == odd);
      CHECK(run(ch12::count8b_ballot<int, ch12::IsPositive>, di.data(), k, t) == pos);
      CHECK(run(ch12::count8b_ballot<float, ch12::IsPositive>, df.data(), k, t) == fpos);
    }
  }
}

TEST_CASE("the relaunching reduction sums doubles like the third blog post", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed();
  INFO("seed " << seed);
  std::vector<std::size_t> ns = {0, 1, 63, 64, 65, 2047, 2049, 1000003};
  if (!hb::under_sanitizer()) ns.push_back(large_size());
  const std::size_t n = ns.back();
  ch12::Scratch scratch(n);
  hb::Stream stream;
  const auto host = hb::uniform_vector<double>(n, seed, -1.0, 1.0);
  const auto d_in = to_device(host);
  hb::DeviceBuffer<double> out(1);
  for (std::size_t k : ns) {
    const double want = ch12::cpu_reduce<double>(host.data(), k);
    for (int t : {32, 1024}) {
      INFO("n = " << k << ", threads = " << t);
      hb::poison(out.data(), out.bytes(), 0xA5, stream);
      ch12::reduce10e_typed<double, double>(d_in.data(), k, out.data(), t, scratch, stream);
      CHECK(ch12::matches(read_back(out.data(), stream), want, host.data(), k));
    }
  }
}
