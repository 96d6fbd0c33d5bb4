// saxpy_sweep: listing 11.3 of the text for SAXPY on data in device memory: GB/s of the three
// kernel forms, unroll factors 1..16 at 32..1024 threads per block, beside a device copy of the
// same bytes measured in the same run.
#include <cmath>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>

#include "hb/bandwidth.h"
#include "hb/bench.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/report.h"
#include "pipeline.h"
#include "streaming.h"

namespace {

/// Whether element i is outside |got - want| <= atol + rtol |want| (NaN is). Counted on the
/// GPU, so that 288 configurations over 64M floats do not spend minutes comparing on the CPU.
struct Mismatch {
  const float* got;
  const float* want;
  double rtol, atol;
  __device__ bool operator()(std::size_t i) const {
    const double g = got[i], w = want[i];
    return !(std::fabs(g - w) <= atol + rtol * std::fabs(w));
  }
};

}  // namespace

int main(int argc, char** argv) {
  ch11::ProgramSpec spec{"saxpy_sweep",
                         "SAXPY in device memory: GB/s by unroll factor and block size "
                         "(listing 11.3)"};
  spec.default_n = std::size_t(64) << 20;  // 768 MB moved per run, far above the 50-60 MB L2
  return ch11::program_main(spec, argc, argv, [](const ch11::StreamingOptions& opt) {
    const std::size_t n = opt.common.n;
    const bool check = !opt.common.no_check;
    const int iters = opt.common.iters;

    const ch11::Inputs in = ch11::make_inputs(n, opt.common.seed, opt.alpha, check);
    hb::DeviceBuffer<float> x(n), y(n), out(n), reference(check ? n : 0);
    hb::copy_to_device(x.data(), in.x.data(), x.bytes());
    hb::copy_to_device(y.data(), in.y.data(), y.bytes());
    if (check) hb::copy_to_device(reference.data(), in.reference.data(), reference.bytes());
    const ch11::SaxpyTolerance tol = ch11::tolerance_vs_cpu(opt.alpha, in.max_abs_x);
    hb::Stream s;
    // Whether every element of out is within tolerance of the reference.
    const auto out_ok = [&] {
      const thrust::counting_iterator<std::size_t> first(0);
      return thrust::count_if(thrust::cuda::par.on(s), first, first + n,
                              Mismatch{out.data(), reference.data(), tol.rtol, tol.atol}) == 0;
    };

    const double bytes = double(ch11::kBytesPerElement) * double(n);
    const hb::Bandwidth copy = hb::measure_device_copy(ch11::kBytesPerElement * n / 2, iters);

    std::vector<std::string> columns = {"id", "kernel"};
    for (int t : hb::kSweepBlockSizes) columns.push_back("GB/s @" + std::to_string(t));
    columns.insert(columns.end(), {"best GB/s", "best threads", "% of copy", "check"});
    hb::Report r(columns);
    std::vector<std::string> copy_row = {"copy", "cudaMemcpy device->device, same bytes"};
    copy_row.resize(columns.size() - 4, "-");  // no block sizes
    copy_row.insert(copy_row.end(), {hb::fixed(copy.gbs, 1), "-", "100.0", "-"});
    r.row(copy_row);

    struct Best {
      double gbs = 0;
      std::string kernel;
      int threads = 0;
    } best;
    std::size_t failures = 0;
    for (const auto& [form, id] : {std::pair{ch11::SaxpyForm::Unrolled, "unrolled_"},
                                   std::pair{ch11::SaxpyForm::GridStride, "grid_stride_"},
                                   std::pair{ch11::SaxpyForm::Vectorized, "vectorized_"}}) {
      for (int unroll = 1; unroll <= ch11::kMaxUnroll; ++unroll) {
        const ch11::SaxpyLauncher launch = ch11::saxpy_launcher(form, unroll);
        const std::string name = ch11::saxpy_kernel_name(form, unroll);
        std::vector<std::string> row = {id + std::to_string(unroll), name};
        Best row_best{0, name, 0};
        const std::size_t failures_before = failures;
        for (const int threads : hb::kSweepBlockSizes) {
          const hb::Checked t = hb::measure_checked(
              [&](cudaStream_t st) {
                if (check) hb::poison(out.data(), out.bytes(), 0xFF, st);
              },
              [&](cudaStream_t st) {
                launch(out.data(), x.data(), y.data(), n, opt.alpha, {threads, 0}, st);
              },
              out_ok, s, 1, iters, check);
          const double rate = hb::gbs(bytes, t.median_ms);
          row.push_back(hb::fixed(rate, 1));
          if (rate > row_best.gbs) row_best = {rate, name, threads};
          if (!t.ok) ++failures;
        }
        if (row_best.gbs > best.gbs) best = row_best;
        row.insert(row.end(), {hb::fixed(row_best.gbs, 1), std::to_string(row_best.threads),
                               hb::fixed(100.0 * row_best.gbs / copy.gbs, 1),
                               check ? (failures == failures_before ? "ok" : "FAILED")
                                     : "skipped"});
        r.row(row);
      }
    }

    ch11::add_facts(r, "saxpy_sweep", opt, "none (device memory only)");
    r.fact("bytes counted", "12 per element (read x, read y, write out)");
    r.fact("grid",
           "SMs x resident blocks per SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor), "
           "no more than the array needs");
    r.fact("reference", "cudaMemcpy device->device of " + std::to_string(copy.bytes_counted / 2) +
                            " bytes (" + hb::fixed(copy.gbs, 1) + " GB/s counting read + write)");
    r.fact("best", best.kernel + " at " + std::to_string(best.threads) +
                       " threads: " + hb::fixed(best.gbs, 1) + " GB/s, " +
                       hb::fixed(100.0 * best.gbs / copy.gbs, 1) + "% of the copy");
    r.fact("check", check ? (failures == 0 ? "every configuration within tolerance of the CPU"
                                           : std::to_string(failures) + " configurations FAILED")
                          : "skipped (--no-check)");
    r.print(std::cout, opt.common.csv);
    if (failures > 0)
      throw hb::CheckFailed(std::to_string(failures) + " sweep configurations differ from the CPU");
  });
}
