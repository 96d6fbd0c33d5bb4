/// \file
/// \brief How chapter 14 measures and checks a variant, and the programs built on that: one
///        small program per variant (nbody_cpu_aos ... nbody_gpu_multi_threads) and the driver
///        `nbody`.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hb/cli.h"
#include "hb/compare.h"
#include "hb/device.h"
#include "hb/report.h"
#include "nbody_bodies.h"
#include "nbody_variants.h"

namespace ch14 {

/// Which program parses the command line, and so which flags it has.
struct ProgramSpec {
  std::string program;
  std::string description;
  const Variant* variant = nullptr;  ///< the per-variant programs; nullptr for the driver
};

/// The range of --softening: its square stays a normal float (above about 1.2e-38) and the
/// forces between bodies a unit apart stay far from zero.
constexpr double kMinSoftening = 1e-6;
constexpr double kMaxSoftening = 100.0;
/// The range of --dt: the cold disk stays together for thousands of steps of the default 0.005.
constexpr double kMinDt = 1e-7;
constexpr double kMaxDt = 1.0;

/// The command line of the chapter's programs, after validation.
struct Options {
  hb::CommonOptions common;
  std::size_t bodies = 0;      ///< --bodies (= --n); 0: each variant's default
  std::size_t cpu_bodies = 0;  ///< driver: --cpu-bodies; 0: each CPU variant's default
  int unroll = 0;              ///< --unroll (variants 6, 7); 0: the variant's default
  int bodies_per_thread = 0;   ///< --bodies-per-thread (variants 10, 12, 13); 0: default
  int gpus = 0;                ///< --gpus; 0: every visible GPU
  int threads = 0;             ///< --threads; 0: OpenMP's default
  int steps = 100;             ///< driver: --steps of the simulation (0: no simulation)
  float dt = 0.005f;           ///< driver: --dt
  float softening = 0.01f;     ///< --softening \f$\varepsilon\f$ (the kernels get its square)
  std::string variant;         ///< driver: --variant (empty: all)
  std::string sweep;           ///< driver: --unroll-sweep VARIANT
  std::string image;           ///< driver: --image FILE.pgm
  int image_size = 1024;       ///< driver: --image-size
  std::string command_line;    ///< as typed, for the report
  float softening_sq() const { return softening * softening; }
};

/// Parses and validates \p argv for the program \p spec describes. Returns nothing when
/// --help was printed; throws hb::UsageError (exit code 2) on any bad flag or value, before
/// any GPU work: 0 bodies, negative steps, an unknown variant, a knob value the variant is
/// not compiled for, an image file that cannot be written.
std::optional<Options> parse_options(const ProgramSpec& spec, int argc, const char* const* argv);

/// The bodies variant \p v runs on: --bodies (--cpu-bodies for CPU rows of the driver) or its
/// default.
std::size_t bodies_for(const Variant& v, const Options& opt, bool driver);

/// The knob value variant \p v runs with: --unroll or --bodies-per-thread, or its default (0
/// for variants without a knob).
int knob_for(const Variant& v, const Options& opt);

/// One measured row.
struct Measurement {
  const Variant* variant = nullptr;
  std::size_t bodies = 0;
  int param = 0;         ///< the knob's value (0 when the variant has none)
  int gpus = 1;          ///< GPUs used (multi-GPU variants)
  int slices = 0;        ///< variant 10's column slices (0: not applicable)
  double median_ms = 0;  ///< one force evaluation
  std::optional<hb::CompareResult> check;  ///< empty with --no-check
  double interactions_per_s() const;
};

/// The float64 references of the rows the programs check (sample_rows(n, 256)), one per
/// body count, computed once and kept.
class ReferenceCache {
 public:
  const Reference& get(const HostBodies& bodies, float softening_sq);

 private:
  std::map<std::size_t, Reference> cache_;
};

/// Runs variant \p v on \p bodies with knob \p param: one run from a poisoned output that is
/// checked against the reference (unless --no-check), then the median of --iters timed runs
/// (CUDA events for one GPU, the host clock for the CPU and for several GPUs). GPU variants run
/// on the current device; multi-GPU variants on \p devices.
/// \param v       the variant
/// \param bodies  its input (the reference is computed from these)
/// \param param   its knob value (unroll factor, bodies per thread; ignored without a knob)
/// \param opt     --iters, --no-check, --softening, --threads
/// \param refs    the float64 references, computed once per body count
/// \param devices the GPUs of a multi-GPU variant
/// \param scratch_count variant 10's scratch in float4 (0: one column slice); ignored by others
Measurement measure(const Variant& v, const HostBodies& bodies, int param, const Options& opt,
                    ReferenceCache& refs, const std::vector<int>& devices = {},
                    std::optional<std::size_t> scratch_count = std::nullopt);

/// The FP32 issue bound of \p dev in interactions/s:
/// fp32_lanes_per_second() / kIssueSlotsPerInteraction.
double issue_bound(const hb::DeviceInfo& dev);

/// Header facts every report of the chapter shares (program, command, date, CPU, GPU when
/// \p dev is given, softening, seed, iterations, how rows are checked).
void add_facts(hb::Report& r, const std::string& program, const Options& opt,
               const hb::DeviceInfo* dev);

/// "ok (max 0.12 of tolerance)", "FAILED (3 of 768 ...)", or "not checked".
std::string check_text(const std::optional<hb::CompareResult>& c);

/// Throws hb::CheckFailed with the comparison's report when \p c failed.
void require_ok(const std::optional<hb::CompareResult>& c, const std::string& what);

/// main() of the per-variant programs: runs variant \p id alone on its default bodies, checks
/// it against the float64 reference and prints interactions/s (and, on the GPU, % of the FP32
/// issue bound). The multi-GPU programs print the scaling table (Table 14.3) over 1 .. G GPUs.
int variant_program_main(const char* program, int id, int argc, char** argv);

}  // namespace ch14
