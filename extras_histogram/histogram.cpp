// histogram: the chapter driver. Every variant of the table on every distribution, one row
// each, with its median time, its rate and its speed relative to CUB's histogram measured in
// the same run on the same buffer; the CPU reference checks every row.
//
// We first measure how fast the GPU can merely read the same number of bytes (the ceiling of
// any histogram that reads its input once), then, for each distribution, make the data, count
// it on the CPU, measure CUB, and measure each variant. The run fails (exit 1) when any
// variant other than the naive lesson is not exact; the lesson's row says how many counts it
// lost.
#include <iostream>
#include <string>

#include "hb/bandwidth.h"
#include "hb/capability.h"
#include "hb/device.h"
#include "hb/error.h"
#include "histogram_harness.h"

int main(int argc, char** argv) {
  return hb::run_main("histogram", [&] {
    const auto opt = histo::parse_options(
        "histogram",
        "Chapter extras: every 256-bin histogram variant on every distribution, against CUB",
        true, argc, argv);
    if (!opt) return 0;
    hb::select_device(opt->common.device);
    const std::size_t n = opt->common.n;
    const int iters = opt->common.iters;
    const bool check = !opt->common.no_check;

    histo::Workspace ws(n);
    hb::Stream stream;
    hb::DeviceBuffer<std::uint32_t> d_bins(histo::kBins);
    hb::Report report = histo::make_report("histogram", *opt, n);
    if (n >= 16) {
      const hb::Bandwidth read = hb::measure_device_read(n / 16 * 16, iters);
      report.fact("device read ceiling, same bytes (GB/s)", hb::fixed(read.gbs, 1));
    }

    // [histogram-driver-loop]
    const histo::Variant& cub = histo::library_variant();
    std::string failures;
    for (const histo::Distribution d : opt->distributions) {
      const histo::DataSet data = histo::make_data_set(d, *opt, check);
      const histo::Measurement reference =
          histo::measure(cub, data, ws, d_bins.data(), stream, iters, check);
      const histo::Variant* best = nullptr;
      double best_gbs = 0.0;
      for (const histo::Variant& v : histo::variants()) {
        if (opt->common.variant >= 0 && v.id != opt->common.variant) continue;
        if (hb::form_here(v.needs) == hb::Form::None) {
          histo::add_left_out_row(report, v, d);
          continue;
        }
        const histo::Measurement m =
            v.id == cub.id ? reference
                           : histo::measure(v, data, ws, d_bins.data(), stream, iters, check);
        histo::add_row(report, v, d, m, reference.gbs);
        if (!histo::passes(v, m))
          failures += "variant " + std::to_string(v.id) + " " + v.name + " on " + histo::name(d) +
                      ": " + m.verdict.text + "\n" + m.verdict.details;
        if (v.on_gpu() && v.role == histo::Role::Variant && histo::passes(v, m) &&
            m.gbs > best_gbs) {
          best = &v;
          best_gbs = m.gbs;
        }
      }
      if (best != nullptr && reference.gbs > 0)
        report.fact("fastest GPU variant on " + histo::name(d),
                    std::to_string(best->id) + " " + best->name + ", " +
                        hb::fixed(best_gbs / reference.gbs, 2) + "x CUB");
    }
    // [histogram-driver-loop]

    report.print(std::cout, opt->common.csv);
    if (!failures.empty()) throw hb::CheckFailed("variants that are not exact:\n" + failures);
    return 0;
  });
}
