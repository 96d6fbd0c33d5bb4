// stream1_device: section 11.1 of the text (stream1Device.cu). SAXPY on 128M floats that start
// and end in ordinary (pageable) host memory: copy x and y to the GPU with cudaMemcpy, run the
// kernel, copy out back. The report shows where the time goes: almost all of it in the copies.
#include <iostream>
#include <optional>

#include "hb/device.h"
#include "hb/error.h"
#include "pipeline.h"

int main(int argc, char** argv) {
  return hb::run_main("stream1_device", [&] {
    const auto opt =
        ch11::parse_options({"stream1_device",
                             "SAXPY through the GPU with synchronous cudaMemcpy from pageable "
                             "memory (section 11.1)"},
                            argc, argv);
    if (!opt) return 0;
    const std::size_t n = opt->common.n;
    const bool check = !opt->common.no_check;
    hb::select_device(opt->common.device);

    // We make the inputs and the CPU reference first, then copy the inputs into the pipeline's
    // host arrays, so that neither shows in the timings.
    const ch11::Inputs in = ch11::make_inputs(n, opt->common.seed, opt->alpha, check);
    ch11::Pipeline p(n, ch11::HostKind::Pageable, 1);
    p.load(in.x.data(), in.y.data());
    p.poison_output();
    const ch11::StageTimes t =
        ch11::measure_strategy(p, {ch11::Strategy::Synchronous}, opt->alpha, 1, opt->common.iters);

    std::optional<hb::CompareResult> cmp;
    if (check) cmp = ch11::compare_output(p.hout.data(), in, opt->alpha);
    hb::Report r = ch11::stage_report(t, n);
    ch11::add_facts(r, "stream1_device", *opt, "pageable (std::vector), synchronous cudaMemcpy");
    r.fact("check", ch11::check_text(cmp));
    r.print(std::cout, opt->common.csv);
    if (cmp) ch11::require_ok(*cmp, "stream1_device");
    return 0;
  });
}
