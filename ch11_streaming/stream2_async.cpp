// stream2_async: section 11.2 of the text (stream2Async.cu). Compared with stream1_device,
// the host arrays are pinned and every copy is a cudaMemcpyAsync in one stream: the copy
// engines read and write host memory directly at the bus rate, and the CPU enqueues the whole
// pipeline at once instead of waiting at each step. The stages still run one after another.
#include <iostream>
#include <optional>

#include "hb/device.h"
#include "hb/error.h"
#include "pipeline.h"

int main(int argc, char** argv) {
  return hb::run_main("stream2_async", [&] {
    const auto opt =
        ch11::parse_options({"stream2_async",
                             "SAXPY through the GPU with pinned memory and cudaMemcpyAsync "
                             "(section 11.2)"},
                            argc, argv);
    if (!opt) return 0;
    const std::size_t n = opt->common.n;
    const bool check = !opt->common.no_check;
    hb::select_device(opt->common.device);

    const ch11::Inputs in = ch11::make_inputs(n, opt->common.seed, opt->alpha, check);
    ch11::Pipeline p(n, ch11::HostKind::Pinned, 1);
    p.load(in.x.data(), in.y.data());
    p.poison_output();
    const ch11::StageTimes t =
        ch11::measure_strategy(p, {ch11::Strategy::Async}, opt->alpha, 1, opt->common.iters);

    std::optional<hb::CompareResult> cmp;
    if (check) cmp = ch11::compare_output(p.hout.data(), in, opt->alpha);
    hb::Report r = ch11::stage_report(t, n);
    ch11::add_facts(r, "stream2_async", *opt,
                    "pinned (cudaHostAlloc), cudaMemcpyAsync in one stream");
    r.fact("check", ch11::check_text(cmp));
    r.print(std::cout, opt->common.csv);
    if (cmp) ch11::require_ok(*cmp, "stream2_async");
    return 0;
  });
}
