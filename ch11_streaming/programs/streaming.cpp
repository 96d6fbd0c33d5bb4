// streaming: the chapter driver, Table 11.1 / Figure 11.1 of the text in one run: every way of
// streaming SAXPY through the GPU (the text's four and ours) against the transfer bound.
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hb/bandwidth.h"
#include "hb/bench.h"
#include "hb/report.h"
#include "pipeline.h"

namespace {

// Every candidate, each from a poisoned output and checked; the one with the smallest median
// wall clock, carrying the first failed check among them.
ch11::Outcome best_of(ch11::Pipeline& p, const std::vector<ch11::StrategyConfig>& candidates,
                      const ch11::StreamingOptions& opt, const ch11::Inputs& in) {
  std::optional<ch11::Outcome> best;
  std::optional<hb::CompareResult> failure;
  for (const auto& c : candidates) {
    const ch11::Outcome o = ch11::measure_and_check(p, c, opt, in);
    if (o.failed() && !failure) failure = o.check;
    if (!best || o.times.wall_ms < best->times.wall_ms) best = o;
  }
  if (failure) best->check = failure;
  return *best;
}

}  // namespace

int main(int argc, char** argv) {
  ch11::ProgramSpec spec{"streaming",
                         "Chapter 11 driver: every streaming strategy against the transfer "
                         "bound (Table 11.1)"};
  spec.max_streams_flag = true;
  spec.chunk_flag = true;
  return ch11::program_main(spec, argc, argv, [](const ch11::StreamingOptions& opt) {
    using ch11::Strategy;
    const std::size_t n = opt.common.n;
    const int iters = opt.common.iters;

    // [streaming-bound]
    // The ceilings, measured with exactly the bytes the pipeline moves: 8n up and 4n down. The
    // bound is the slower direction. We also measure 6n each way at once (12n in all), the
    // bidirectional rate, for the report only: two long copies in opposite directions share
    // the bus worse than a pipeline's chunks do, so it is no ceiling (see transfer_bound()).
    const hb::Bandwidth up =
        hb::measure_host_to_device(ch11::kH2DBytesPerElement * n, hb::HostMemory::Pinned, iters);
    const hb::Bandwidth down =
        hb::measure_device_to_host(ch11::kD2HBytesPerElement * n, hb::HostMemory::Pinned, iters);
    const hb::Bandwidth both = hb::measure_bidirectional(ch11::kBytesPerElement * n / 2, iters);
    const ch11::TransferBound bound = ch11::transfer_bound(n, up.gbs, down.gbs);
    // The bound assumes each direction keeps its own rate while the other runs. What two long
    // copies with this pipeline's bytes do we measure too: 8n up and 4n down at the same
    // time, copies alone (no kernel, no dependencies between them).
    const hb::Bandwidth copies = hb::measure_bidirectional(
        ch11::kH2DBytesPerElement * n, ch11::kD2HBytesPerElement * n, iters);
    // [streaming-bound]

    const ch11::Inputs in = ch11::make_inputs(n, opt.common.seed, opt.alpha, !opt.common.no_check);
    // Stream3 at its best of both issue orders and 1 .. --max-streams streams; ours at its
    // best chunk size.
    std::vector<ch11::StrategyConfig> streams, pipelined;
    for (const auto order : {ch11::IssueOrder::BreadthFirst, ch11::IssueOrder::DepthFirst})
      for (int k = 1; k <= opt.max_streams; ++k) streams.push_back({Strategy::Streams, k, order});
    for (const std::size_t c : ch11::pipeline_chunk_candidates(n, opt.chunk))
      pipelined.push_back({Strategy::Pipelined, 1, {}, c});
    const std::vector<std::vector<ch11::StrategyConfig>> searches = {
        {{Strategy::Synchronous}}, {{Strategy::Async}}, streams, pipelined, {{Strategy::Mapped}}};
    // One pipeline per kind of host memory, for the strategies that need it.
    std::map<Strategy, ch11::Outcome> rows;  // in the order of the ids
    for (const auto host :
         {ch11::HostKind::Pageable, ch11::HostKind::Pinned, ch11::HostKind::Mapped}) {
      ch11::Pipeline p(n, host, host == ch11::HostKind::Pinned ? opt.max_streams : 1);
      p.load(in.x.data(), in.y.data());
      for (const auto& candidates : searches)
        if (ch11::strategy_info(candidates[0].strategy).host == host)
          rows.emplace(candidates[0].strategy, best_of(p, candidates, opt, in));
    }

    const double bytes = double(ch11::kBytesPerElement) * double(n);
    hb::Report r({"id", "strategy", "ms (median)", "effective GB/s", "% of transfer bound",
                  "% of copies alone", "check"});
    r.row({"0", "transfer bound (set by " + bound.limit + ")", hb::fixed(bound.ms, 3),
           hb::fixed(hb::gbs(bytes, bound.ms), 2), "100.0", "-", "-"});
    r.row({"0c", "copies alone, both directions at once (measured)",
           hb::fixed(copies.median_ms, 3), hb::fixed(hb::gbs(bytes, copies.median_ms), 2),
           hb::percent(bound.ms, copies.median_ms), "100.0", "-"});
    std::optional<hb::CompareResult> failure;
    for (const auto& [id, o] : rows) {
      const double ms = o.times.wall_ms;
      r.row({std::to_string(int(id)), ch11::describe(o.config), hb::fixed(ms, 3),
             hb::fixed(hb::gbs(bytes, ms), 2), hb::percent(bound.ms, ms),
             hb::percent(copies.median_ms, ms), ch11::check_text(o.check)});
      if (o.failed() && !failure) failure = o.check;
    }
    ch11::add_facts(r, "streaming", opt,
                    "per strategy: pageable (1), pinned (2, 3, 5), mapped (4)");
    auto rate = [](const hb::Bandwidth& b) {
      return hb::fixed(b.gbs, 2) + " (" + std::to_string(b.bytes_counted) + " bytes)";
    };
    r.fact("host->device pinned (GB/s)", rate(up));
    r.fact("device->host pinned (GB/s)", rate(down));
    r.fact("both directions pinned (GB/s, total)", rate(both));
    r.fact("transfer bound", hb::fixed(bound.ms, 3) + " ms, set by " + bound.limit);
    r.fact("ms", "host wall clock of the whole pipeline, median; % of bound = bound ms / ms");
    r.fact("copies alone", "8 bytes per element up and 4 down in two streams at once, CUDA "
                           "events, median; % of copies alone = their ms / ms");
    r.print(std::cout, opt.common.csv);
    if (failure) ch11::require_ok(*failure, "streaming");
  });
}
