/// \file
/// \brief How the chapter's programs read their flags, make their data, and measure and judge
///        a variant; shared by the per-variant programs and the driver `histogram`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "hb/cli.h"
#include "hb/memory.h"
#include "hb/report.h"
#include "histogram_check.h"
#include "histogram_data.h"
#include "histogram_variants.h"

namespace histo {

/// Default --n of every program: 64 MiB, well above the 50-60 MB L2 of an H100 or H200.
constexpr std::size_t kDefaultBytes = std::size_t(64) << 20;

/// What a program was asked to do, validated before any GPU work.
struct ProgramOptions {
  hb::CommonOptions common;
  std::vector<Distribution> distributions;  ///< in table order; {Image} with --input
  std::string input;                        ///< the PGM file of --input, or empty
  std::vector<std::uint8_t> image;          ///< its pixels
  std::string command_line;                 ///< the program and its arguments, for the report
};

/// Parses the shared flags plus `--distribution` (all, or one of distribution_names();
/// default all for the driver, uniform for a per-variant program) and `--input FILE.pgm`
/// (reads the image; implies --distribution image; excludes --n). Throws hb::UsageError on
/// anything invalid, including an unreadable or malformed image. Returns nothing when --help
/// was printed. \p with_variant adds --variant (the driver).
std::optional<ProgramOptions> parse_options(const std::string& program,
                                            const std::string& description, bool with_variant,
                                            int argc, const char* const* argv);

/// One input: the bytes on the host and the device, and the CPU's histogram of them.
struct DataSet {
  Distribution distribution = Distribution::Uniform;
  std::vector<std::uint8_t> host;
  hb::DeviceBuffer<std::uint8_t> device;
  Bins reference{};   ///< variant 0's result (computed only when checking)
  bool has_reference = false;

  std::size_t size() const { return host.size(); }
};

/// The data of distribution \p d (the image of \p opt for Image), copied to the current
/// device, with its reference histogram when \p with_reference.
DataSet make_data_set(Distribution d, const ProgramOptions& opt, bool with_reference);

/// One measured row.
struct Measurement {
  double median_ms = 0.0;
  double gbs = 0.0;     ///< input bytes / median time, in 1e9 bytes/s
  Verdict verdict;      ///< of the first call (from poisoned bins) and, if that was exact, the last
  bool checked = false;
};

/// Runs variant \p v on \p data: for a GPU variant one call from poisoned bins, which is
/// checked, one untimed call, \p iters calls timed with CUDA events (median), and a check of
/// the last call's bins; for a CPU variant one untimed call and \p iters calls on the host
/// clock, then a check. \p d_bins (256 counts) and \p ws are the caller's.
Measurement measure(const Variant& v, const DataSet& data, Workspace& ws, std::uint32_t* d_bins,
                    cudaStream_t stream, int iters, bool check);

/// Whether \p m lets the program exit 0: the lesson may lose counts but no bin may exceed
/// the reference (Verdict::plausible); every other variant must be exact when checked.
bool passes(const Variant& v, const Measurement& m);

/// The report every program prints: its header facts (program, command, date, GPU, sizes,
/// seed, iterations, what GB/s and % of CUB mean) and the columns
/// `id | variant | distribution | ms (median) | GB/s | % of CUB | check`.
hb::Report make_report(const std::string& program, const ProgramOptions& opt, std::size_t bytes);

/// Adds the row of \p v measured as \p m on \p d, with \p cub_gbs the CUB rate on the same data.
void add_row(hb::Report& report, const Variant& v, Distribution d, const Measurement& m,
             double cub_gbs);

/// Adds the row of a variant that is left out on this GPU, with the reason, for distribution
/// \p d.
void add_left_out_row(hb::Report& report, const Variant& v, Distribution d);

/// main() of the per-variant programs (histogram_cpu_serial ... histogram_lane_columns_pairs):
/// runs variant \p id alone on the default data (uniform bytes, 64 MiB) next to CUB on the same
/// buffer, checks it against the CPU and prints its time, GB/s and % of CUB. Exit 0 when the
/// check passes (the naive lesson reports its lost counts and exits 0), 1 when it fails.
int variant_program_main(const char* program, int id, int argc, char** argv);

}  // namespace histo
