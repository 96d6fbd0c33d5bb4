// stream3_streams: section 11.3 of the text (stream3Streams.cu). Compared with stream2_async,
// the arrays are cut into k chunks and each chunk gets its own stream, so the GPU may copy one
// chunk while it computes or copies back another. We try k = 1 .. --max-streams in the book's
// breadth-first issue order (listing 11.6) and, for comparison, depth-first.
#include <iostream>
#include <optional>
#include <string>

#include "hb/bandwidth.h"
#include "hb/bench.h"
#include "pipeline.h"

int main(int argc, char** argv) {
  ch11::ProgramSpec spec{"stream3_streams",
                         "SAXPY through the GPU in k chunks on k streams (section 11.3)"};
  spec.max_streams_flag = true;
  return ch11::program_main(spec, argc, argv, [](const ch11::StreamingOptions& opt) {
    const std::size_t n = opt.common.n;
    const ch11::Inputs in = ch11::make_inputs(n, opt.common.seed, opt.alpha, !opt.common.no_check);
    ch11::Pipeline p(n, ch11::HostKind::Pinned, opt.max_streams);
    p.load(in.x.data(), in.y.data());

    // The ceiling, as in the driver `streaming`: each direction at its own measured rate.
    const ch11::TransferBound bound = ch11::transfer_bound(
        n,
        hb::measure_host_to_device(ch11::kH2DBytesPerElement * n, hb::HostMemory::Pinned,
                                   opt.common.iters).gbs,
        hb::measure_device_to_host(ch11::kD2HBytesPerElement * n, hb::HostMemory::Pinned,
                                   opt.common.iters).gbs);
    hb::Report r({"id", "issue order", "streams", "ms (median)", "GB/s", "% of transfer bound",
                  "check"});
    std::optional<hb::CompareResult> first_failure;
    for (const auto order : {ch11::IssueOrder::BreadthFirst, ch11::IssueOrder::DepthFirst}) {
      for (int k = 1; k <= opt.max_streams; ++k) {
        // Every configuration starts from a poisoned output and is checked on its own.
        const ch11::Outcome o =
            ch11::measure_and_check(p, {ch11::Strategy::Streams, k, order}, opt, in);
        if (o.failed() && !first_failure) first_failure = o.check;
        const double ms = o.times.wall_ms;
        const std::string id =
            (order == ch11::IssueOrder::BreadthFirst ? "bf" : "df") + std::to_string(k);
        r.row({id, ch11::issue_order_name(order), std::to_string(k), hb::fixed(ms, 3),
               hb::fixed(hb::gbs(double(ch11::kBytesPerElement) * double(n), ms), 2),
               hb::percent(bound.ms, ms), ch11::check_text(o.check)});
      }
    }
    ch11::add_facts(r, "stream3_streams", opt,
                    "pinned (cudaHostAlloc), cudaMemcpyAsync in k streams");
    r.fact("ms", "host wall clock of the whole pipeline, median");
    r.fact("transfer bound", hb::fixed(bound.ms, 3) + " ms, set by " + bound.limit +
                                 " (% of transfer bound: its time / the row's time)");
    r.print(std::cout, opt.common.csv);
    if (first_failure) ch11::require_ok(*first_failure, "stream3_streams");
  });
}
