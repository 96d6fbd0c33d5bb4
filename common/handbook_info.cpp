// handbook_info: the facts of the GPU and the ceilings every chapter compares against.
//
// We print what the device is (name, compute capability, SMs, clocks, memory) and then
// measure, in one run, the rates that bound the book's workloads:
//   - device-to-device copy bandwidth (bytes read + bytes written), the ceiling of SAXPY;
//   - read-only bandwidth, the ceiling of reductions and histograms;
//   - host<->device transfers from pinned and pageable memory, and both directions at once,
//     the ceilings of chapter 11's streaming programs.
// Before timing anything we check that the data survives a round trip (host -> device ->
// device -> host) and that the read kernel folds it correctly, so a broken copy cannot
// produce a fast-looking number.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <vector>

#include "hb/bandwidth.h"
#include "hb/capability.h"
#include "hb/cli.h"
#include "hb/compare.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/random.h"
#include "hb/report.h"

namespace {

// Round trip of seeded bytes through the device, and the XOR fold against the CPU.
void self_check(std::size_t bytes, std::uint64_t seed) {
  std::vector<std::uint8_t> in(bytes), out(bytes, 0);
  hb::fill_uniform(in.data(), bytes, seed);
  hb::DeviceBuffer<std::uint8_t> a(bytes), b(bytes);
  hb::poison(b.data(), bytes);
  HB_CUDA_CHECK(cudaMemcpy(a.data(), in.data(), bytes, cudaMemcpyHostToDevice));
  HB_CUDA_CHECK(cudaMemcpy(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice));
  HB_CUDA_CHECK(cudaMemcpy(out.data(), b.data(), bytes, cudaMemcpyDeviceToHost));
  const auto cmp = hb::compare_exact(out.data(), in.data(), bytes, "bytes");
  if (!cmp) throw hb::CheckFailed("round trip host -> device -> device -> host: " + cmp.report);

  std::uint32_t want = 0;
  for (std::size_t i = 0; i + 4 <= bytes; i += 4)
    want ^= std::uint32_t(in[i]) | std::uint32_t(in[i + 1]) << 8 | std::uint32_t(in[i + 2]) << 16 |
            std::uint32_t(in[i + 3]) << 24;
  const std::uint32_t got = hb::device_xor_fold(a.data(), bytes / 16, nullptr);
  if (got != want) {
    char msg[128];
    std::snprintf(msg, sizeof msg, "read kernel folded 0x%08x, CPU 0x%08x", got, want);
    throw hb::CheckFailed(msg);
  }
}

std::string mib(std::size_t bytes) { return hb::fixed(double(bytes) / (1 << 20), 0) + " MiB"; }

}  // namespace

int main(int argc, char** argv) {
  return hb::run_main("handbook_info", [&] {
    hb::CliSpec spec;
    spec.program = "handbook_info";
    spec.description = "Device facts and measured bandwidth ceilings (decimal GB/s).";
    spec.default_n = std::size_t(256) << 20;
    spec.min_n = std::size_t(1) << 20;
    spec.max_n = std::size_t(16) << 30;
    spec.n_unit = "bytes per transfer";
    hb::Cli cli(spec);
    if (!cli.parse(argc, argv)) return 0;
    const auto& opt = cli.options();
    const std::size_t bytes = opt.n / 16 * 16;  // whole 16-byte vectors for the read kernel

    hb::select_device(opt.device);
    const hb::DeviceInfo dev = hb::query_device(opt.device);
    // The copies use two device buffers and up to two host buffers (pinned and pageable) of
    // --n bytes each: say so before any work rather than fail half way.
    hb::require_device_memory(2 * bytes, "--n " + std::to_string(opt.n) + " (two device buffers)");
    hb::require_host_memory(2 * bytes, "--n " + std::to_string(opt.n) + " (two host buffers)");

    if (!opt.no_check) self_check(std::min<std::size_t>(bytes, std::size_t(16) << 20), opt.seed);

    hb::Report r({"id", "measurement", "MB moved", "ms (median)", "GB/s", "% of datasheet DRAM"});
    r.fact("program", "handbook_info");
    r.fact("command", cli.command_line());
    r.fact("date", hb::today_utc());
    r.fact("gpu", dev.name);
    r.fact("compute capability", hb::capability_summary());
    r.fact("SMs", std::to_string(dev.sm_count));
    r.fact("SM clock (MHz)", std::to_string(dev.clock_khz / 1000));
    r.fact("memory clock (MHz)", std::to_string(dev.memory_clock_khz / 1000));
    r.fact("memory bus (bits)", std::to_string(dev.memory_bus_bits));
    r.fact("global memory", mib(dev.global_memory_bytes));
    r.fact("L2 cache", mib(dev.l2_bytes));
    r.fact("shared memory per block (opt-in, KiB)", std::to_string(dev.shared_per_block_optin / 1024));
    r.fact("copy engines", std::to_string(dev.async_engines));
    r.fact("datasheet DRAM bandwidth (GB/s)", hb::fixed(dev.theoretical_bandwidth_gbs(), 0));
    r.fact("FP32 lanes x clock (Gop/s)", hb::fixed(dev.fp32_lanes_per_second() / 1e9, 0));
    r.fact("driver", hb::driver_version_text());
    r.fact("CUDA runtime", hb::cuda_version_text(dev.runtime_version));
    r.fact("CUDA driver API", hb::cuda_version_text(dev.driver_version));
    r.fact("bytes per transfer", std::to_string(bytes));
    r.fact("iterations", std::to_string(opt.iters) + " (median reported)");
    r.fact("check", opt.no_check ? "skipped (--no-check)" : "round trip and read kernel exact");

    const double peak = dev.theoretical_bandwidth_gbs();
    auto add = [&](const char* id, const char* what, const hb::Bandwidth& b, bool device_side) {
      r.row({id, what, hb::fixed(b.bytes_counted / 1e6, 0), hb::fixed(b.median_ms, 3),
             hb::fixed(b.gbs, 1), device_side ? hb::fixed(100.0 * b.gbs / peak, 1) : "-"});
    };
    add("d2d_copy", "device copy (read + write)", hb::measure_device_copy(bytes, opt.iters), true);
    std::vector<double> per_buffer;
    add("device_read", "device read-only kernel", hb::measure_device_read(bytes, opt.iters, &per_buffer),
        true);
    add("h2d_pinned", "host->device, pinned",
        hb::measure_host_to_device(bytes, hb::HostMemory::Pinned, opt.iters), false);
    add("d2h_pinned", "device->host, pinned",
        hb::measure_device_to_host(bytes, hb::HostMemory::Pinned, opt.iters), false);
    add("bidir_pinned", "both directions at once, pinned (total)",
        hb::measure_bidirectional(bytes, opt.iters), false);
    add("h2d_pageable", "host->device, pageable",
        hb::measure_host_to_device(bytes, hb::HostMemory::Pageable, opt.iters), false);
    add("d2h_pageable", "device->host, pageable",
        hb::measure_device_to_host(bytes, hb::HostMemory::Pageable, opt.iters), false);
    std::string rates;
    for (double g : per_buffer) rates += (rates.empty() ? "" : ", ") + hb::fixed(g, 1);
    r.fact("device read, each of two buffers (GB/s)", rates);
    r.print(std::cout, opt.csv);
    return 0;
  });
}
