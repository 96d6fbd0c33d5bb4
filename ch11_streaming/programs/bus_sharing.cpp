// bus_sharing: beyond the text. Why the pipelined strategy stops short of the transfer bound:
// traffic back to the host slows the traffic to the device, though PCIe has a link for each
// direction. One copy of 8n bytes to the device, alone and beside 4n bytes going back (by a
// copy engine, or by a kernel writing mapped memory at a chosen rate), and the pipeline itself.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hb/bench.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/random.h"
#include "hb/report.h"
#include "hb/timing.h"
#include "pipeline.h"
#include "streaming.h"

namespace {

/// Blocks of the paced kernel: enough for 40 GB/s and more, few enough to leave the GPU idle.
constexpr int kPacedBlocks = 16;

/// What runs beside the copy in: enqueues 4n bytes back to the host, into `out` (which the
/// check reads); `run` is empty for the copy in alone.
struct Beside {
  std::string what;
  std::function<void(cudaStream_t)> run;
  float* out = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  ch11::ProgramSpec spec{"bus_sharing",
                         "How much traffic back to the host slows the copy to the device "
                         "(beyond the text)"};
  spec.chunk_flag = true;
  return ch11::program_main(spec, argc, argv, [](const ch11::StreamingOptions& opt) {
    const std::size_t n = opt.common.n;
    const int iters = opt.common.iters;
    const bool check = !opt.common.no_check;
    const hb::DeviceInfo dev = hb::query_device(opt.common.device);
    // 8n bytes to send (x and y of SAXPY, side by side); n seeded floats to send back, from
    // device memory into pinned memory (copy engine) or mapped memory (kernel).
    hb::PinnedBuffer<float> host_in(2 * n), host_out(n);
    hb::MappedBuffer<float> mapped_out(n);
    hb::DeviceBuffer<float> dev_in(2 * n), dev_back(n);
    const std::vector<float> back = hb::uniform_vector<float>(n, opt.common.seed);
    std::memcpy(host_in.data(), back.data(), n * sizeof(float));
    std::memcpy(host_in.data() + n, back.data(), n * sizeof(float));
    hb::copy_to_device(dev_back.data(), back.data(), n * sizeof(float));
    hb::Stream in, side;
    hb::Event in_start, in_stop, side_start, side_stop;

    std::vector<Beside> besides = {  // rows a, b, c, ...
        {"nothing", {}, nullptr},
        {"copy engine: one cudaMemcpyAsync of 4n bytes back",
         [&](cudaStream_t s) {
           HB_CUDA_CHECK(cudaMemcpyAsync(host_out.data(), dev_back.data(), n * sizeof(float),
                                         cudaMemcpyDeviceToHost, s));
         },
         host_out.data()}};
    for (const double gbs : {10.0, 20.0, 30.0, 40.0, 0.0}) {
      const int blocks = gbs > 0 ? kPacedBlocks : dev.sm_count;
      besides.push_back(
          {"kernel, " + std::to_string(blocks) + " blocks, writing 4n bytes to mapped memory " +
               (gbs > 0 ? "at most " + hb::fixed(gbs, 0) + " GB/s" : "as fast as it goes"),
           [&, gbs, blocks](cudaStream_t s) {
             ch11::launch_paced_copy(mapped_out.device_data(), dev_back.data(), n, gbs, blocks, s);
           },
           mapped_out.data()});
    }
    const auto id = [](std::size_t k) { return std::string(1, char('a' + k)); };

    // [bus-sharing-time]
    // One repetition: the side stream starts when the copy in does; each stream's events
    // time its own work. Returns the milliseconds of the copy in and of what ran beside it
    // (NaN for nothing).
    const auto once = [&](const Beside& b) {
      in_start.record(in);
      if (b.run) {
        HB_CUDA_CHECK(cudaStreamWaitEvent(side, in_start, 0));
        side_start.record(side);
        b.run(side);
        side_stop.record(side);
      }
      HB_CUDA_CHECK(cudaMemcpyAsync(dev_in.data(), host_in.data(), 2 * n * sizeof(float),
                                    cudaMemcpyHostToDevice, in));
      in_stop.record(in);
      in_stop.synchronize();
      const double copy_in = in_stop.elapsed_since(in_start);
      if (!b.run) return std::pair{copy_in, std::nan("")};
      side_stop.synchronize();
      return std::pair{copy_in, double(side_stop.elapsed_since(side_start))};
    };
    // [bus-sharing-time]

    // The pipelined strategy at the driver's chunk sizes, or --chunk.
    const ch11::Inputs inputs = ch11::make_inputs(n, opt.common.seed, opt.alpha, check);
    ch11::Pipeline p(n, ch11::HostKind::Pinned, 3);
    p.load(inputs.x.data(), inputs.y.data());
    const std::vector<std::size_t> chunks = ch11::pipeline_chunk_candidates(n, opt.chunk);

    // The rows take turns, round after round, so that a slow spell of the machine falls on
    // all of them alike; in the last round each row starts from a poisoned output and is
    // checked.
    std::vector<std::vector<double>> in_ms(besides.size()), back_ms(besides.size());
    std::vector<std::vector<double>> pipeline_ms(chunks.size());
    std::vector<std::string> checks(besides.size(), "-"), pipeline_checks(chunks.size());
    std::optional<std::string> failure;
    for (int round = -1; round < iters; ++round) {  // round -1 warms up
      const bool last = round == iters - 1;
      for (std::size_t k = 0; k < besides.size(); ++k) {
        const Beside& b = besides[k];
        if (last && b.out != nullptr) std::memset(b.out, 0xFF, n * sizeof(float));  // NaN
        const auto [in_t, back_t] = once(b);
        if (round < 0) continue;
        in_ms[k].push_back(in_t);
        back_ms[k].push_back(back_t);
        if (!last || b.out == nullptr) continue;
        // Every element sent back must have arrived, bit for bit.
        std::size_t wrong = 0;
        for (std::size_t i = 0; check && i < n; ++i)
          wrong += std::memcmp(&b.out[i], &back[i], sizeof(float)) != 0;
        checks[k] = !check       ? ch11::check_text(std::nullopt)
                    : wrong == 0 ? "ok"
                                 : "FAILED (" + std::to_string(wrong) + " of " +
                                       std::to_string(n) + " elements)";
        if (wrong != 0 && !failure) failure = "row " + id(k) + ": " + checks[k];
      }
      for (std::size_t c = 0; c < chunks.size(); ++c) {
        if (last) p.poison_output();
        const ch11::StageTimes t =
            ch11::run_strategy(p, {ch11::Strategy::Pipelined, 1, {}, chunks[c]}, opt.alpha);
        if (round < 0) continue;
        pipeline_ms[c].push_back(t.wall_ms);
        if (!last) continue;
        std::optional<hb::CompareResult> cmp;
        if (check) cmp = ch11::compare_output(p.hout.data(), inputs, opt.alpha);
        pipeline_checks[c] = ch11::check_text(cmp);
        if (cmp && !cmp->ok && !failure)
          failure = "pipelined, chunk " + std::to_string(chunks[c]) + ": " + cmp->report;
      }
    }

    hb::Report r({"id", "beside the copy in", "its GB/s", "MB back during the copy in",
                  "copy in (ms)", "copy in GB/s", "% of copy in alone",
                  "ms lost per GB sent back", "check"});
    const double up_bytes = double(ch11::kH2DBytesPerElement) * double(n);
    const double back_bytes = double(ch11::kD2HBytesPerElement) * double(n);
    const double alone_ms = hb::summarize(in_ms[0]).median_ms;  // row a: nothing beside
    for (std::size_t k = 0; k < besides.size(); ++k) {
      const bool side_ran = besides[k].run != nullptr;
      const double copy_in = hb::summarize(in_ms[k]).median_ms;
      const double back_time = side_ran ? hb::summarize(back_ms[k]).median_ms : 0.0;
      // Bytes sent back while the copy in ran: all of them if they were done first, else
      // the part their own rate moved in the copy in's time.
      const double during =
          side_ran ? std::min(back_bytes, back_bytes / back_time * copy_in) : 0.0;
      r.row({id(k), besides[k].what,
             side_ran ? hb::fixed(hb::gbs(back_bytes, back_time), 2) : "-",
             hb::fixed(during / 1e6, 1), hb::fixed(copy_in, 3),
             hb::fixed(hb::gbs(up_bytes, copy_in), 2), hb::percent(alone_ms, copy_in),
             side_ran ? hb::fixed((copy_in - alone_ms) / (during / 1e9), 2) : "-", checks[k]});
    }
    // The best chunk size, as in the driver.
    std::vector<double> medians;
    for (const auto& samples : pipeline_ms) medians.push_back(hb::summarize(samples).median_ms);
    const std::size_t best =
        std::size_t(std::min_element(medians.begin(), medians.end()) - medians.begin());
    const double wall = medians[best];
    r.row({"p",
           "SAXPY pipelined, chunk " + std::to_string(chunks[best]) + " floats (wall clock)", "-",
           hb::fixed(back_bytes / 1e6, 1), hb::fixed(wall, 3),
           hb::fixed(hb::gbs(up_bytes, wall), 2), hb::percent(alone_ms, wall),
           hb::fixed((wall - alone_ms) / (back_bytes / 1e9), 2), pipeline_checks[best]});

    ch11::add_facts(r, "bus_sharing", opt,
                    "pinned (copy in, copy engine out), mapped (kernel out)");
    r.fact("copy in", "one cudaMemcpyAsync of 8n bytes host->device, CUDA events, median");
    r.fact("its GB/s", "4n bytes over the median time of what ran beside the copy in");
    r.fact("ms lost per GB sent back",
           "(copy in ms - row a) / GB sent back while the copy in ran; row p: (pipeline ms - "
           "row a) / all 4n bytes");
    r.print(std::cout, opt.common.csv);
    if (failure) throw hb::CheckFailed("bus_sharing: " + *failure);
  });
}
