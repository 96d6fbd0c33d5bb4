/// \file
/// \brief Chapter 11's pipelines: SAXPY on data that starts and ends in host memory, over a
///        Pipeline made once outside the timed region; and what the programs share.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "hb/cli.h"
#include "hb/compare.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/report.h"

namespace ch11 {

/// Bytes SAXPY moves across the bus per element: x and y up, out back ("effective GB/s").
inline constexpr std::size_t kH2DBytesPerElement = 2 * sizeof(float);
inline constexpr std::size_t kD2HBytesPerElement = sizeof(float);
inline constexpr std::size_t kBytesPerElement = kH2DBytesPerElement + kD2HBytesPerElement;

/// Where a pipeline's host arrays live.
enum class HostKind {
  Pageable,  ///< ordinary memory (std::vector): cudaMemcpy stages it through a pinned buffer
  Pinned,    ///< page-locked (cudaHostAlloc): the copy engines read and write it directly
  Mapped     ///< page-locked and mapped: kernels read and write it across the bus
};

inline const char* host_kind_name(HostKind kind) {
  return kind == HostKind::Pageable ? "pageable"
         : kind == HostKind::Pinned ? "pinned"
                                    : "mapped pinned";
}

/// One host array of floats in the memory of \p kind: only the owner of that kind holds any.
struct HostArray {
  HostArray(std::size_t n, HostKind kind);
  float* data() const noexcept { return ptr; }
  float* device_data() const noexcept { return mapped.device_data(); }  ///< Mapped only, else null
  std::vector<float> pageable;
  hb::PinnedBuffer<float> pinned;
  hb::MappedBuffer<float> mapped;
  float* ptr = nullptr;
};

/// Milliseconds of one run (or the medians of several). Stages that overlap others cannot be
/// timed apart: NaN ("-" in the tables).
struct StageTimes {
  static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
  double h2d_ms = kUnknown;     ///< host->device copies of x and y (events)
  double kernel_ms = kUnknown;  ///< the SAXPY kernel (events)
  double d2h_ms = kUnknown;     ///< device->host copy of out (events)
  double events_ms = kUnknown;  ///< first operation to last, CUDA events on the GPU's clock
  double wall_ms = kUnknown;    ///< host wall clock, first call until out is in host memory
};

/// The order in which stream3 enqueues the k chunks' operations (section 11.3).
enum class IssueOrder {
  BreadthFirst,  ///< all host->device copies, then all kernels, then all device->host copies
  DepthFirst     ///< chunk by chunk: copies in, kernel, copy out
};

inline const char* issue_order_name(IssueOrder order) {
  return order == IssueOrder::BreadthFirst ? "breadth-first" : "depth-first";
}

/// The strategies, in the text's order; Pipelined is ours (beyond the text).
enum class Strategy { Synchronous = 1, Async = 2, Streams = 3, Mapped = 4, Pipelined = 5 };

struct StrategyInfo {
  Strategy id;
  const char* program;  ///< the text's program ("stream1_device"), or ours
  const char* name;     ///< short name for tables
  HostKind host;        ///< host memory it needs
};

inline const std::array<StrategyInfo, 5> kStrategies = {{  // ids 1..5 in order
    {Strategy::Synchronous, "stream1_device", "synchronous (pageable)", HostKind::Pageable},
    {Strategy::Async, "stream2_async", "async (pinned)", HostKind::Pinned},
    {Strategy::Streams, "stream3_streams", "streams", HostKind::Pinned},
    {Strategy::Mapped, "stream4_mapped", "mapped (zero-copy)", HostKind::Mapped},
    {Strategy::Pipelined, "streaming", "pipelined (beyond the text)", HostKind::Pinned},
}};

inline const StrategyInfo& strategy_info(Strategy id) {
  return kStrategies.at(std::size_t(id) - 1);
}

struct StrategyConfig {
  Strategy strategy = Strategy::Synchronous;
  int streams = 1;                              ///< Streams: number of streams and chunks
  IssueOrder order = IssueOrder::BreadthFirst;  ///< Streams: issue order
  std::size_t chunk = 0;                        ///< Pipelined: elements per chunk (>= 1)
};

/// "streams, breadth-first, 4 streams" and the like.
std::string describe(const StrategyConfig& config);

/// A half-open range of element indices.
struct Range {
  std::size_t begin = 0, end = 0;
  std::size_t size() const noexcept { return end - begin; }
};

/// Part \p i of \p n elements cut into \p parts consecutive ranges whose sizes differ by at
/// most one (empty ones when n < parts). std::invalid_argument unless 0 <= i < parts.
Range split_range(std::size_t n, int parts, int i);

/// The smallest chunk of the pipelined strategy (256K floats, 1 MB back to the host).
inline constexpr std::size_t kSmallestChunk = std::size_t(256) << 10;
/// The pipelined strategy's chunks, none empty: chunks of \p chunk (the first takes the
/// remainder), then the last min(n, chunk) elements in pieces halving down to \p smallest,
/// which ends the array twice, so that the copies out never queue up (see the chapter page).
std::vector<Range> pipeline_chunks(std::size_t n, std::size_t chunk,
                                   std::size_t smallest = kSmallestChunk);

/// The chunk sizes the driver tries on \p n elements: \p chunk alone when it is not 0,
/// otherwise 1M to 32M floats in powers of two; each at most n, increasing, without repeats.
std::vector<std::size_t> pipeline_chunk_candidates(std::size_t n, std::size_t chunk);

/// A pipeline's buffers, streams and events, made before timing, and the strategies' steps.
struct Pipeline {
  /// Device arrays unless \p host is Mapped; max(\p streams, 3) non-blocking streams (stream3
  /// uses up to \p streams, Pipelined three).
  Pipeline(std::size_t n, HostKind host, int streams);

  void load(const float* x, const float* y);  ///< into the host arrays, outside any timed region
  /// NaN in the host and device outputs: an element a run forgets cannot pass the check.
  void poison_output();
  /// std::invalid_argument, naming \p what, unless the pipeline has device arrays (is not
  /// Mapped) and, where \p pinned, pinned host memory.
  void require_device_arrays(const char* what, bool pinned) const;
  /// Enqueue on \p s, for the elements of \p r (nothing when empty): the copies of x and y to
  /// the device, the kernel, the copy of out to the host.
  void copy_in(Range r, cudaStream_t s);
  void compute(Range r, float alpha, cudaStream_t s);
  void copy_out(Range r, cudaStream_t s);
  /// The times of the run that `stop` ended: the events' total, the stages too where
  /// \p stages (the strategy recorded them in order), and \p wall_ms.
  StageTimes times(double wall_ms, bool stages) const;

  std::size_t n;
  HostKind host;
  HostArray hx, hy, hout;
  hb::DeviceBuffer<float> dx, dy, dout;  ///< empty for Mapped
  std::vector<hb::Stream> streams;
  hb::Event start, after_h2d, after_kernel, stop;  ///< stage boundaries
  hb::Event ready, done;  ///< reused for cross-stream dependencies (fork, join, chunk hand-off)
};

// The strategies (kernels/04_pipelines.cpp): each runs the whole pipeline once, and throws
// std::invalid_argument when the pipeline's memory does not fit it (pinned, except where said).

/// Section 11.1 (stream1Device): synchronous cudaMemcpy on the legacy default stream, from
/// pageable or pinned memory.
StageTimes run_synchronous(Pipeline& p, float alpha);
StageTimes run_async(Pipeline& p, float alpha);  ///< 11.2 (stream2Async): all in one stream

/// Section 11.3 (stream3Streams): \p streams chunks, one per stream (at most p.streams.size()),
/// issued in \p order.
StageTimes run_streams(Pipeline& p, float alpha, int streams, IssueOrder order);
StageTimes run_mapped(Pipeline& p, float alpha);  ///< 11.4 (stream4Mapped): mapped, no copies

/// Beyond the text: chunks (pipeline_chunks(), chunk >= 1) through one stream per engine.
StageTimes run_pipelined(Pipeline& p, float alpha, std::size_t chunk);

StageTimes run_strategy(Pipeline& p, const StrategyConfig& config, float alpha);
/// \p warmup untimed runs, then \p iters timed ones: the median of each field (NaN stays NaN).
StageTimes measure_strategy(Pipeline& p, const StrategyConfig& config, float alpha, int warmup,
                            int iters);
StageTimes median_times(const std::vector<StageTimes>& runs);

/// The fastest the pipeline can be, given how fast the bus moves data.
struct TransferBound {
  double ms = 0.0;
  std::string limit;  ///< which term sets it: "host->device" or "device->host"
};

/// Each direction at its own measured rate (decimal GB/s, both positive, else
/// std::invalid_argument) all the time: \f$t = \max(8n / r_{h2d},\ 4n / r_{d2h})\f$. No third
/// term for both at once: a pipeline's short copies beat two long ones (see the chapter page).
TransferBound transfer_bound(std::size_t n, double h2d_gbs, double d2h_gbs);

// What the programs share.

struct ProgramSpec {
  std::string program;
  std::string description;                         ///< one line for --help
  std::size_t default_n = std::size_t(128) << 20;  ///< 128M floats, as in the text
  bool max_streams_flag = false;                   ///< accept --max-streams
  bool chunk_flag = false;                         ///< accept --chunk
};

struct StreamingOptions {
  hb::CommonOptions common;
  float alpha = 2.0f;
  int max_streams = 8;
  std::size_t chunk = 0;  ///< 0: let the driver choose
  std::string command;    ///< the command line as given, for the report header
};

/// The shared flags, --alpha and, where \p spec asks, --max-streams and --chunk (nothing after
/// --help).
std::optional<StreamingOptions> parse_options(const ProgramSpec& spec, int argc,
                                              const char* const* argv);

/// Seeded inputs x, y uniform in [-1, 1) and, unless the check is off, the CPU reference.
struct Inputs {
  std::vector<float> x, y;
  std::vector<float> reference;  ///< empty when not checking
  float max_abs_x = 0.0f;
};
Inputs make_inputs(std::size_t n, std::uint64_t seed, float alpha, bool with_reference);

/// \p out against the CPU reference, within tolerance_vs_cpu().
hb::CompareResult compare_output(const float* out, const Inputs& in, float alpha);

/// Throws hb::CheckFailed naming \p what when \p result failed.
inline void require_ok(const hb::CompareResult& result, const std::string& what) {
  if (!result.ok) throw hb::CheckFailed(what + ": " + result.report);
}

/// "ok", "FAILED (k of n outputs)", or "skipped (--no-check)" when \p result is empty.
inline std::string check_text(const std::optional<hb::CompareResult>& result) {
  if (!result) return "skipped (--no-check)";
  if (result->ok) return "ok";
  return "FAILED (" + std::to_string(result->mismatches) + " of " + std::to_string(result->count) +
         " outputs)";
}

/// One measured configuration: its median times and its check (empty with --no-check).
struct Outcome {
  StrategyConfig config;
  StageTimes times;
  std::optional<hb::CompareResult> check;
  bool failed() const { return check && !check->ok; }
};
/// Runs \p config from a poisoned output (one warm-up, then the median of --iters) and, unless
/// --no-check, compares the output with the CPU reference.
Outcome measure_and_check(Pipeline& p, const StrategyConfig& config, const StreamingOptions& opt,
                          const Inputs& in);

/// The facts every program's report starts with, \p host_memory among them.
void add_facts(hb::Report& report, const std::string& program, const StreamingOptions& opt,
               const std::string& host_memory);
/// The book's report of one run: one row per stage that could be timed, with ms and GB/s.
hb::Report stage_report(const StageTimes& t, std::size_t n);

/// Every program's main: the flags of \p spec, --device selected, \p body, within hb::run_main.
int program_main(const ProgramSpec& spec, int argc, char** argv,
                 const std::function<void(const StreamingOptions&)>& body);
/// The main of stream1_device, stream2_async and stream4_mapped: \p strategy in the host memory
/// and under the name of its kStrategies row, checked, in the book's report.
int run_one_strategy(Strategy strategy, const char* description, const char* memory, int argc,
                     char** argv);

}  // namespace ch11
