// stream4_mapped: section 11.4 of the text (stream4Mapped.cu). Compared with stream3_streams,
// there are no copies and no device arrays at all: x, y and out live in mapped pinned host
// memory and the kernel reads and writes them across the bus. Reads and writes of every part
// of the arrays overlap, so there is no overhang; the price is that the SMs wait on the bus.
#include <iostream>
#include <optional>

#include "hb/device.h"
#include "hb/error.h"
#include "pipeline.h"

int main(int argc, char** argv) {
  return hb::run_main("stream4_mapped", [&] {
    const auto opt = ch11::parse_options(
        {"stream4_mapped", "SAXPY on mapped pinned host memory, no copies (section 11.4)"}, argc,
        argv);
    if (!opt) return 0;
    const std::size_t n = opt->common.n;
    const bool check = !opt->common.no_check;
    hb::select_device(opt->common.device);

    const ch11::Inputs in = ch11::make_inputs(n, opt->common.seed, opt->alpha, check);
    ch11::Pipeline p(n, ch11::HostKind::Mapped, 1);
    p.load(in.x.data(), in.y.data());
    p.poison_output();
    const ch11::StageTimes t =
        ch11::measure_strategy(p, {ch11::Strategy::Mapped}, opt->alpha, 1, opt->common.iters);

    std::optional<hb::CompareResult> cmp;
    if (check) cmp = ch11::compare_output(p.hout.data(), in, opt->alpha);
    hb::Report r = ch11::stage_report(t, n);
    ch11::add_facts(r, "stream4_mapped", *opt,
                    "mapped pinned (cudaHostAllocMapped); the kernel reads and writes it directly");
    r.fact("check", ch11::check_text(cmp));
    r.print(std::cout, opt->common.csv);
    if (cmp) ch11::require_ok(*cmp, "stream4_mapped");
    return 0;
  });
}
