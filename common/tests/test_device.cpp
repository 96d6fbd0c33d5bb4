// Device detection must never crash, with or without a GPU.
#include <catch2/catch.hpp>

#include "hb/device.h"
#include "hb/error.h"

TEST_CASE("device_count never throws and explains an empty machine", "[device]") {
  std::string why;
  const int n = hb::device_count(&why);
  CHECK(n >= 0);
  if (n == 0) CHECK_FALSE(why.empty());
  CHECK(hb::device_available() == (n > 0));
}

TEST_CASE("select_device reports no GPU as NoDevice and a bad index as a usage error", "[device]") {
  if (hb::device_count() == 0) {
    CHECK_THROWS_AS(hb::select_device(0), hb::NoDevice);
    CHECK_THROWS_WITH(hb::select_device(0), Catch::Contains("no CUDA device"));
  } else {
    CHECK_THROWS_AS(hb::select_device(1000), hb::UsageError);
  }
}

TEST_CASE("version text and derived device rates", "[device]") {
  CHECK(hb::cuda_version_text(13000) == "13.0");
  CHECK(hb::cuda_version_text(12080) == "12.8");
  hb::DeviceInfo d;
  d.memory_clock_khz = 2619000;
  d.memory_bus_bits = 5120;
  CHECK(d.theoretical_bandwidth_gbs() == Approx(3352.32));
  d.sm_count = 132;
  d.clock_khz = 1980000;
  CHECK(d.fp32_lanes_per_second() == Approx(132.0 * 128 * 1.98e9));
  d.cc_major = 9;
  CHECK(d.compute_capability() == "9.0");
}

TEST_CASE("HB_CUDA_CHECK throws CudaError naming the call and the place", "[device]") {
  // An invalid device index fails with or without a GPU.
  try {
    HB_CUDA_CHECK(cudaSetDevice(-1));
    FAIL("cudaSetDevice(-1) did not fail");
  } catch (const hb::CudaError& e) {
    const std::string what = e.what();
    CHECK(what.find("cudaSetDevice(-1)") != std::string::npos);
    CHECK(what.find("test_device.cpp:") != std::string::npos);
    CHECK(e.code() != cudaSuccess);
  }
}

TEST_CASE("run_main maps each kind of failure to its exit code", "[device]") {
  CHECK(hb::run_main("t", [] { return 0; }) == 0);
  CHECK(hb::run_main("t", []() -> int { throw hb::UsageError("bad flag"); }) == 2);
  CHECK(hb::run_main("t", []() -> int { throw hb::CheckFailed("wrong sum"); }) == 1);
  CHECK(hb::run_main("t", []() -> int { throw hb::NoDevice("none"); }) == 77);
  CHECK(hb::run_main("t", []() -> int {
          throw hb::CudaError(cudaErrorInvalidValue, "call", "f.cu", 1);
        }) == 1);
  CHECK(hb::run_main("t", []() -> int { throw std::runtime_error("other"); }) == 1);
}

TEST_CASE("resident blocks: threads per SM over the block size, between 1 and 32 per SM", "[device]") {
  const hb::Residency h100{132, 2048};
  CHECK(h100.blocks(256) == 132 * 8);
  CHECK(h100.blocks(1024) == 132 * 2);
  CHECK(h100.blocks(32) == 132 * 32);     // 64 would fit by threads; the SM holds 32 blocks
  CHECK(h100.blocks(4096) == 132);        // a block too large still counts once per SM
  CHECK(hb::Residency{}.blocks(256) == 0);  // no device read: nothing resident
}
