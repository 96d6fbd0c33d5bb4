// Chapter 11's kernels: the launcher tables (host logic, no GPU needed) and, tagged [gpu],
// every kernel form with every unroll factor 1..16 on the sizes where tiling goes wrong.
//
// Outputs are poisoned (0xFF bytes, a NaN) before each launch, with 64 guard elements past the
// end: an element the kernel forgets fails the comparison, an element it writes past n changes
// a guard. Data is random with a fixed seed (printed on failure). Results are compared with
// hb::compare_relative against the exact result in double within tolerance_vs_exact(); see
// tests/test_streaming.cpp for why that and not ULPs.
#include <catch2/catch.hpp>

#include <cstring>
#include <set>
#include <stdexcept>
#include <vector>

#include "hb/compare.h"
#include "hb/device.h"
#include "hb/memory.h"
#include "hb/random.h"
#include "hb/testing.h"
#include "kernels/02_unrolled.cuh"
#include "streaming.h"

TEST_CASE("the launcher tables hold a distinct launcher for every unroll factor from 1 to 16") {
  std::set<ch11::SaxpyLauncher> seen;
  for (const auto form : {ch11::SaxpyForm::GridStride, ch11::SaxpyForm::Unrolled,
                          ch11::SaxpyForm::Vectorized}) {
    for (int u = 1; u <= ch11::kMaxUnroll; ++u) {
      const auto launch = ch11::saxpy_launcher(form, u);
      CHECK(launch != nullptr);
      seen.insert(launch);
    }
    CHECK_THROWS_AS(ch11::saxpy_launcher(form, 0), std::out_of_range);
    CHECK_THROWS_AS(ch11::saxpy_launcher(form, ch11::kMaxUnroll + 1), std::out_of_range);
  }
  CHECK(seen.size() == 3 * ch11::kMaxUnroll);
  CHECK(ch11::saxpy_kernel_name(ch11::SaxpyForm::Unrolled, 4) == "saxpy_unrolled<4>");
  CHECK(ch11::saxpy_kernel_name(ch11::SaxpyForm::GridStride, 1) == "saxpy_grid_stride<1>");
  CHECK(ch11::saxpy_kernel_name(ch11::SaxpyForm::Vectorized, 16) == "saxpy_vectorized<16>");
}

TEST_CASE("every kernel form and unroll factor matches the exact result on edge sizes", "[gpu]") {
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed(2024);
  const float alpha = -1.75f;
  const std::size_t big = (std::size_t(1) << 20) + 7, guard = 64;
  const auto x = hb::uniform_vector<float>(big, seed, -1.0f, 1.0f);
  const auto y = hb::uniform_vector<float>(big, seed + 1, -1.0f, 1.0f);
  // Element i of the exact result does not depend on n, so one reference serves every size.
  std::vector<double> want(big);
  ch11::saxpy_exact(want.data(), x.data(), y.data(), big, alpha);
  const auto tol = ch11::tolerance_vs_exact(alpha, ch11::max_abs(x.data(), big));

  hb::DeviceBuffer<float> dx(big), dy(big), dout(big + guard);
  hb::copy_to_device(dx.data(), x.data(), dx.bytes());
  hb::copy_to_device(dy.data(), y.data(), dy.bytes());
  hb::Stream s;
  std::vector<float> got(big + guard);
  std::vector<unsigned char> poison(guard * sizeof(float), 0xFF);

  for (const auto form : {ch11::SaxpyForm::GridStride, ch11::SaxpyForm::Unrolled,
                          ch11::SaxpyForm::Vectorized}) {
    for (int unroll = 1; unroll <= ch11::kMaxUnroll; ++unroll) {
      const auto launch = ch11::saxpy_launcher(form, unroll);
      for (const int threads : {32, 256, 1024}) {
        // max_blocks 3: a grid too small for the array, so the grid-stride loops go round
        // several times before the remainder.
        for (const int max_blocks : {0, 3}) {
          // The standard sizes (0, 1, 31, 32, 33, block +- 1, a prime, a large one) and the
          // edges of the unrolled kernel's tiles.
          const std::size_t tile = std::size_t(unroll) * threads;
          std::vector<std::size_t> sizes = hb::standard_sizes(std::size_t(threads), big);
          for (const std::size_t t : {tile - 1, tile, tile + 1, 3 * tile + 1, 7 * tile + 5})
            sizes.push_back(t);
          for (const std::size_t n : sizes) {
            if (n > big) continue;
            INFO(ch11::saxpy_kernel_name(form, unroll)
                 << ", " << threads << " threads, max_blocks " << max_blocks << ", n " << n
                 << ", seed " << seed);
            hb::poison(dout.data(), dout.bytes(), 0xFF, s);
            launch(dout.data(), dx.data(), dy.data(), n, alpha, {threads, max_blocks}, s);
            HB_CUDA_CHECK(cudaMemcpyAsync(got.data(), dout.data(), (n + guard) * sizeof(float),
                                          cudaMemcpyDeviceToHost, s));
            HB_CUDA_CHECK(cudaStreamSynchronize(s));
            const auto r =
                hb::compare_relative(got.data(), want.data(), n, tol.rtol, tol.atol, "outputs");
            INFO(r.report);
            CHECK(r.ok);
            CHECK(std::memcmp(got.data() + n, poison.data(), poison.size()) == 0);
          }
        }
      }
    }
  }
}

TEST_CASE("the vectorized kernel matches on pointers that are or are not 16-byte aligned", "[gpu]") {
  // Offsets of 4 floats keep the float4 path; offsets of 1 to 3 take the scalar fallback.
  hb::select_device(0);
  const std::uint64_t seed = hb::test_seed(2025);
  const float alpha = 0.5f;
  const std::size_t big = 100003, guard = 64;
  const auto x = hb::uniform_vector<float>(big + 8, seed, -1.0f, 1.0f);
  const auto y = hb::uniform_vector<float>(big + 8, seed + 1, -1.0f, 1.0f);
  hb::DeviceBuffer<float> dx(big + 8), dy(big + 8), dout(big + 8 + guard);
  hb::copy_to_device(dx.data(), x.data(), dx.bytes());
  hb::copy_to_device(dy.data(), y.data(), dy.bytes());
  hb::Stream s;
  std::vector<unsigned char> poison(guard * sizeof(float), 0xFF);
  for (const std::size_t in_offset : {std::size_t(0), std::size_t(1), std::size_t(4)}) {
    for (const std::size_t out_offset : {std::size_t(0), std::size_t(3), std::size_t(4)}) {
      std::vector<double> want(big);
      ch11::saxpy_exact(want.data(), x.data() + in_offset, y.data() + in_offset, big, alpha);
      const auto tol = ch11::tolerance_vs_exact(alpha, ch11::max_abs(x.data() + in_offset, big));
      for (const int unroll : {1, 3, 16}) {
        for (const std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(4099), big}) {
          INFO("unroll " << unroll << ", input offset " << in_offset << ", output offset "
                         << out_offset << ", n " << n);
          hb::poison(dout.data(), dout.bytes(), 0xFF, s);
          ch11::saxpy_launcher(ch11::SaxpyForm::Vectorized, unroll)(
              dout.data() + out_offset, dx.data() + in_offset, dy.data() + in_offset, n, alpha,
              {128, 0}, s);
          std::vector<float> got(n + guard);
          HB_CUDA_CHECK(cudaMemcpyAsync(got.data(), dout.data() + out_offset,
                                        (n + guard) * sizeof(float), cudaMemcpyDeviceToHost, s));
          HB_CUDA_CHECK(cudaStreamSynchronize(s));
          const auto r = hb::compare_relative(got.data(), want.data(), n, tol.rtol, tol.atol, "outputs");
          INFO(r.report);
          CHECK(r.ok);
          CHECK(std::memcmp(got.data() + n, poison.data(), poison.size()) == 0);
        }
      }
    }
  }
}

TEST_CASE("the grid size follows occupancy and never exceeds what the array needs", "[gpu]") {
  hb::select_device(0);
  const auto dev = hb::query_device(0);
  const void* kernel = reinterpret_cast<const void*>(ch11::saxpy_unrolled<4>);
  CHECK(ch11::saxpy_grid_size(kernel, {256, 0}, 0, 1024) == 0);
  CHECK(ch11::saxpy_grid_size(kernel, {256, 0}, 1, 1024) == 1);
  CHECK(ch11::saxpy_grid_size(kernel, {256, 0}, 1025, 1024) == 2);
  const int full = ch11::saxpy_grid_size(kernel, {256, 0}, std::size_t(1) << 30, 1024);
  CHECK(full >= dev.sm_count);
  CHECK(full % dev.sm_count == 0);
  CHECK(full <= dev.sm_count * (dev.max_threads_per_sm / 256));
  CHECK(ch11::saxpy_grid_size(kernel, {256, 3}, std::size_t(1) << 30, 1024) == 3);
}

TEST_CASE("the paced copy copies every element exactly, aligned or not, into device or mapped memory",
          "[gpu]") {
  hb::select_device(0);
  const std::size_t big = 100003, guard = 64;
  const auto src = hb::uniform_vector<float>(big + 8, hb::test_seed(2026), -1.0f, 1.0f);
  hb::DeviceBuffer<float> dsrc(big + 8), ddst(big + 8 + guard);
  hb::MappedBuffer<float> mapped(big + 8 + guard);
  hb::copy_to_device(dsrc.data(), src.data(), dsrc.bytes());
  hb::Stream s;
  std::vector<unsigned char> poison(guard * sizeof(float), 0xFF);
  for (const bool to_mapped : {false, true}) {
    for (const std::size_t src_offset : {std::size_t(0), std::size_t(1), std::size_t(4)}) {
      for (const std::size_t dst_offset : {std::size_t(0), std::size_t(3)}) {
        for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7),
                                    std::size_t(1023), std::size_t(1024), std::size_t(1025), big}) {
          for (const double gbs : {0.0, 50.0}) {
            for (const int blocks : {1, 3}) {
              INFO((to_mapped ? "mapped" : "device") << " destination, source offset "
                   << src_offset << ", destination offset " << dst_offset << ", n " << n
                   << ", " << gbs << " GB/s, " << blocks << " blocks");
              std::vector<float> got(n + guard);
              if (to_mapped) {
                std::memset(mapped.data(), 0xFF, mapped.bytes());
                ch11::launch_paced_copy(mapped.device_data() + dst_offset, dsrc.data() + src_offset,
                                        n, gbs, blocks, s);
                HB_CUDA_CHECK(cudaStreamSynchronize(s));
                std::memcpy(got.data(), mapped.data() + dst_offset, got.size() * sizeof(float));
              } else {
                hb::poison(ddst.data(), ddst.bytes(), 0xFF, s);
                ch11::launch_paced_copy(ddst.data() + dst_offset, dsrc.data() + src_offset, n,
                                        gbs, blocks, s);
                HB_CUDA_CHECK(cudaMemcpyAsync(got.data(), ddst.data() + dst_offset,
                                              got.size() * sizeof(float),
                                              cudaMemcpyDeviceToHost, s));
                HB_CUDA_CHECK(cudaStreamSynchronize(s));
              }
              CHECK(std::memcmp(got.data(), src.data() + src_offset, n * sizeof(float)) == 0);
              CHECK(std::memcmp(got.data() + n, poison.data(), poison.size()) == 0);
            }
          }
        }
      }
    }
  }
  CHECK_THROWS_AS(ch11::launch_paced_copy(ddst.data(), dsrc.data(), 10, 0.0, 0, s),
                  std::invalid_argument);
}

TEST_CASE("the paced copy takes at least its bytes over its rate", "[gpu]") {
  // 4M floats (16.8 MB) at 4 GB/s: the last tile may not start before 4.19 ms. Unpaced, four
  // blocks copy the same bytes in a fraction of that (checked too, outside the sanitizer).
  hb::select_device(0);
  const std::size_t n = std::size_t(4) << 20;
  const double gbs = 4.0, want_ms = double(n * sizeof(float)) / (gbs * 1e9) * 1e3;
  hb::DeviceBuffer<float> src(n), dst(n);
  hb::Stream s;
  hb::poison(src.data(), src.bytes(), 0x3C, s);
  hb::Event start, stop;
  auto time_copy = [&](double rate) {
    start.record(s);
    ch11::launch_paced_copy(dst.data(), src.data(), n, rate, 4, s);
    stop.record(s);
    stop.synchronize();
    return double(stop.elapsed_since(start));
  };
  time_copy(0.0);  // warm-up
  const double paced_ms = time_copy(gbs);
  INFO("paced " << paced_ms << " ms, at least " << want_ms << " ms expected");
  CHECK(paced_ms >= 0.99 * want_ms);
  if (!hb::under_sanitizer()) {
    const double unpaced_ms = time_copy(0.0);
    INFO("unpaced " << unpaced_ms << " ms");
    CHECK(unpaced_ms < 0.5 * want_ms);
  }
}
