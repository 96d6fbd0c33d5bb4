/// \file
/// \brief What chapter 11's programs share besides the pipelines: their flags, seeded inputs
///        with the CPU reference, the check, and the report header and stage table.
///
/// The pipelines themselves (pipeline.h) know nothing of flags or reports; the programs in this
/// folder are short mains over both headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hb/cli.h"
#include "hb/compare.h"
#include "hb/report.h"
#include "pipeline.h"

namespace ch11 {

/// --n of the pipeline programs: 128M floats, as in the text.
inline constexpr std::size_t kDefaultN = std::size_t(128) << 20;

/// Flags and defaults of one chapter-11 program.
struct ProgramSpec {
  std::string program;      ///< executable name (for messages and --help)
  std::string description;  ///< one line for --help
  std::size_t default_n = kDefaultN;
  bool max_streams_flag = false;  ///< accept --max-streams
  bool chunk_flag = false;        ///< accept --chunk
};

/// The largest |--alpha|: the data's values are of order one, so a * x + y stays far from
/// float overflow and the check's tolerance stays meaningful.
inline constexpr double kMaxAlpha = 1e6;

/// Parsed options of a chapter-11 program.
struct StreamingOptions {
  hb::CommonOptions common;
  float alpha = 2.0f;
  int max_streams = 8;
  std::size_t chunk = 0;  ///< 0: let the driver choose
  std::string command;    ///< the command line as given, for the report header
};

/// Parses the shared flags (hb::Cli) plus --alpha and, where \p spec asks, --max-streams and
/// --chunk. Returns nothing after --help; throws hb::UsageError on bad input (before any GPU
/// work).
std::optional<StreamingOptions> parse_options(const ProgramSpec& spec, int argc,
                                              const char* const* argv);

/// Seeded inputs x, y uniform in [-1, 1) and, unless the check is off, the CPU reference.
struct Inputs {
  std::vector<float> x, y;
  std::vector<float> reference;  ///< saxpy_cpu(x, y); empty when not checking
  float max_abs_x = 0.0f;
};
Inputs make_inputs(std::size_t n, std::uint64_t seed, float alpha, bool with_reference);

/// Compares \p out with the CPU reference within tolerance_vs_cpu().
hb::CompareResult compare_output(const float* out, const Inputs& in, float alpha);
/// Throws hb::CheckFailed (exit code 1) naming \p what when \p result failed.
void require_ok(const hb::CompareResult& result, const std::string& what);
/// The "check" fact or cell: "ok", "FAILED (k of n outputs)", or "skipped (--no-check)" when
/// \p result is empty.
std::string check_text(const std::optional<hb::CompareResult>& result);

/// Adds the header block shared by the chapter's programs: the facts of every chapter
/// (hb::add_run_facts: program, command, date, GPU, compute capability, SMs, driver, CUDA
/// runtime), then copy engines, N, bytes, host memory, alpha, seed, iterations.
void add_facts(hb::Report& report, const std::string& program, const StreamingOptions& opt,
               const std::string& host_memory);
/// The book's report of one run: one row per stage that could be timed (host->device, kernel,
/// device->host, total on the GPU's clock, total wall clock), with ms and GB/s.
hb::Report stage_report(const StageTimes& t, std::size_t n);

/// What distinguishes the one-strategy programs stream1_device, stream2_async and
/// stream4_mapped: everything else about them is the same.
struct OneStrategyProgram {
  const char* name;         ///< executable name
  const char* description;  ///< one line for --help
  HostKind host;            ///< where the host arrays live
  Strategy strategy;        ///< how the data moves
  const char* memory;       ///< the "host memory" fact of the report
};

/// The main of a one-strategy program: parse the flags, make seeded inputs and the CPU
/// reference (outside the timings), run the strategy (one warm-up, then the median of
/// --iters), check the output and print the book's report. Returns the exit code; throws
/// what hb::run_main maps to exit codes.
int run_one_strategy(const OneStrategyProgram& program, int argc, char** argv);

}  // namespace ch11
