/// \file
/// \brief What every variant of chapter 14 shares: the signatures of the CPU, GPU and multi-GPU
///        variants, the row of the variant table, and the programs built on it (one small
///        program per row, and the driver `nbody`).
///
/// The variants themselves are the files of kernels/, in reading order: the CPU ones (.cpp,
/// compiled as C++, the SIMD ones for their instruction sets) and the GPU ones (.cuh), which
/// variants.cu compiles once, next to the table. A GPU launcher takes
/// device pointers, a stream and any scratch memory from the caller, enqueues its work on the
/// stream, never allocates and never synchronizes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <cuda_runtime.h>  // float4 and __host__ __device__, also for g++

#include "hb/capability.h"
#include "hb/cli.h"
#include "hb/compare.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/memory.h"
#include "hb/pgm.h"
#include "hb/report.h"
#include "reference.h"

namespace ch14 {

// ------------------------------------------------------------------ the CPU variants (0-5)

/// The signature of every CPU variant: \p force receives 3 floats per body.
/// \param threads CPU threads to use (only the all-core variant uses more than one; 0: all)
using CpuForces = void (*)(const HostBodies& bodies, float* force, float softening_sq,
                           int threads);

/// The signature of one SIMD level's row function: rows [row_begin, row_end) of the force
/// matrix, one thread. The all-core variant hands each thread a range of rows.
using CpuRows = void (*)(const HostBodies& bodies, float* force, float softening_sq,
                         std::size_t row_begin, std::size_t row_end);

/// Instruction-set levels of the SIMD variants.
enum class Isa { None, Sse, Avx2, Avx512 };

/// "SSE", "AVX2+FMA", "AVX-512F" ("scalar" for None).
std::string isa_name(Isa isa);
/// Floats per SIMD register at that level (1 for None).
int isa_width(Isa isa);
/// Whether this CPU (and its operating system) supports \p isa; None always is.
bool isa_available(Isa isa);
/// The widest level this CPU supports.
Isa best_isa();
/// The row function of \p isa (nullptr for None, or when this build has no SIMD code).
CpuRows isa_rows(Isa isa);

/// Variant 0, listing 14.2: scalar, AOS input, bodyBodyInteraction<float>.
void forces_cpu_aos(const HostBodies& bodies, float* force, float softening_sq, int threads);
/// Variant 1: the same loop over the SOA arrays.
void forces_cpu_soa(const HostBodies& bodies, float* force, float softening_sq, int threads);
/// Variant 2, listing 14.8: SSE, 4 bodies at a time, rsqrt + one Newton-Raphson step.
void forces_cpu_sse(const HostBodies& bodies, float* force, float softening_sq, int threads);
/// Variant 3: AVX2 with FMA, 8 bodies at a time.
void forces_cpu_avx2(const HostBodies& bodies, float* force, float softening_sq, int threads);
/// Variant 4: AVX-512F, 16 bodies at a time, rsqrt14 + one Newton-Raphson step.
void forces_cpu_avx512(const HostBodies& bodies, float* force, float softening_sq, int threads);
/// Variant 5, listings 14.9-14.10: the widest SIMD level on \p threads threads (OpenMP), each
/// with an equal share of the rows.
void forces_cpu_simd_threads(const HostBodies& bodies, float* force, float softening_sq,
                             int threads);

/// Row functions of the SIMD levels (x86-64 only; the others call isa_rows()).
void rows_sse(const HostBodies& b, float* force, float softening_sq, std::size_t row_begin,
              std::size_t row_end);
void rows_avx2(const HostBodies& b, float* force, float softening_sq, std::size_t row_begin,
               std::size_t row_end);
void rows_avx512(const HostBodies& b, float* force, float softening_sq, std::size_t row_begin,
                 std::size_t row_end);

/// OpenMP's thread count for \p threads (0: OpenMP's default, which honours OMP_NUM_THREADS).
int cpu_threads(int threads);

/// The CPU's model name from /proc/cpuinfo ("unknown" elsewhere), for report headers.
std::string cpu_model();

// ------------------------------------------------------------------ the GPU variants

/// One force evaluation on the current device: the acceleration of all n bodies.
struct GpuProblem {
  float* force = nullptr;          ///< 3 floats per body (x, y, z), n bodies
  const float4* bodies = nullptr;  ///< n bodies: x, y, z, mass
  int n = 0;                       ///< bodies
  float softening_sq = 0.0f;       ///< \f$\varepsilon^2 > 0\f$
  float4* scratch = nullptr;       ///< the caller's scratch memory (see GpuScratch)
  std::size_t scratch_count = 0;   ///< float4 elements at \p scratch
};

/// The signature of every GPU variant. \p param is the variant's tuning knob (the unroll
/// factor of variants 6 and 7, bodies per thread of variant 10; see Variant::params) and is
/// ignored by the others.
using GpuLauncher = void (*)(const GpuProblem& p, int param, cudaStream_t stream);

/// Scratch a variant needs for n bodies, in float4 elements (0: none).
using GpuScratch = std::size_t (*)(std::size_t n);

/// Threads per block of the text's kernels (listing 14.6 launches <<<300, 256>>>).
inline constexpr int kBookThreads = 256;

/// The current device's number of SMs.
inline int sm_count() {
  int device = 0, sms = 0;
  HB_CUDA_CHECK(cudaGetDevice(&device));
  HB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

#if defined(__CUDACC__)
/// As many blocks of \p threads threads as the current GPU holds at once, and no more than
/// \p n bodies need: the grid of the text's grid-stride kernels.
template <typename Kernel>
int resident_grid(Kernel kernel, int n, int threads, std::size_t shared_bytes) {
  int per_sm = 0;
  HB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
  return std::max(1, std::min((n + threads - 1) / threads, std::max(per_sm, 1) * sm_count()));
}
#endif

/// Variant 10: several bodies per thread, the columns split over blocks, rsqrt; the forces of
/// the driver's simulation, and the kernel of the multi-GPU variants.
void launch_gpu_blocked(const GpuProblem& p, int bodies_per_thread, cudaStream_t stream);

/// Bodies per constant-memory pass of variant 8 (listing 14.5's g_bodiesPerPass).
inline constexpr int kConstBodies = 4000;

/// Bodies per thread that variant 10 is compiled for.
const std::vector<int>& blocked_factors();

/// Variant 10 on a range of rows: the acceleration of bodies [row_begin, row_begin + rows)
/// due to all n bodies, written to \p force_rows (3 floats per row, row_begin first). The
/// multi-GPU variants give each GPU one such range.
void launch_gpu_blocked_rows(const float4* bodies, int n, int row_begin, int rows,
                             float* force_rows, float softening_sq, int bodies_per_thread,
                             float4* scratch, std::size_t scratch_count, cudaStream_t stream);

/// How variant 10 splits the force matrix: grid_x blocks of rows, each row block cut into
/// `slices` ranges of columns, each (row block, column range) one thread block.
struct BlockedPlan {
  int grid_x = 0;     ///< blocks over the rows
  int slices = 1;     ///< column ranges (gridDim.y)
  double waves = 0;   ///< blocks / blocks resident at once
  double fill = 0;    ///< fraction of the resident slots busy, averaged over the waves
};

/// Picks the number of column slices for \p rows rows and \p n columns on a GPU that holds
/// \p resident blocks at once: the smallest count in 1 .. \p max_slices whose last wave is as
/// full as any (fill within 2% of the best), and never more slices than column tiles. Pure host
/// arithmetic, tested on the CPU.
BlockedPlan plan_blocked(int rows, int n, int bodies_per_thread, int resident, int max_slices);

/// The plan launch_gpu_blocked_rows() uses on the current device for \p rows rows, \p n
/// columns and \p scratch_count float4 of scratch (no scratch: one slice).
BlockedPlan blocked_plan_for(int rows, int n, int bodies_per_thread, std::size_t scratch_count);

/// Threads per block of variant 10 (one column tile is as many bodies).
inline constexpr int kBlockedThreads = 128;
/// Largest column-slice count of variant 10; its scratch holds this many partial sums per row.
inline constexpr int kMaxSlices = 16;
/// Variant 10's scratch: kMaxSlices partial accelerations per body.
std::size_t blocked_scratch(std::size_t n);

/// The first tile pair of tile row \p I of variant 11, whose pairs (I, J), I <= J < tiles, are
/// numbered row by row: row I holds (I, I), (I, I+1), ..., (I, tiles-1).
__host__ __device__ inline long long symmetric_row_start(long long I, long long tiles) {
  return I * tiles - I * (I - 1) / 2;
}

/// The tile row that holds pair number \p q (the inverse of symmetric_row_start).
__host__ __device__ inline int symmetric_row_of(long long q, int tiles) {
  const double b = 2.0 * tiles + 1.0;
  long long I = static_cast<long long>((b - std::sqrt(b * b - 8.0 * static_cast<double>(q))) / 2.0);
  // The square root is a guess that can be off by one either way; correct it exactly.
  if (I < 0) I = 0;
  if (I > tiles - 1) I = tiles - 1;
  while (I > 0 && symmetric_row_start(I, tiles) > q) --I;
  while (I + 1 < tiles && symmetric_row_start(I + 1, tiles) <= q) ++I;
  return static_cast<int>(I);
}

// ------------------------------------------------------------------ several GPUs (12-13)

/// Everything the multi-GPU variants keep between calls: per GPU its device buffers and
/// stream (made once, outside any timing; the book allocated them in every time step), and
/// the inputs and outputs in portable pinned memory.
class MultiGpu {
 public:
  /// One GPU's share.
  struct Slot {
    int device = 0;
    int row_begin = 0;
    int rows = 0;
    hb::DeviceBuffer<float4> bodies;   ///< all n bodies
    hb::DeviceBuffer<float> force;     ///< 3 floats per row of this slot
    hb::DeviceBuffer<float4> scratch;  ///< variant 10's partial sums
    hb::Stream stream;
  };

  /// One slot per entry of \p devices, each with about n / devices.size() rows.
  /// \param devices the GPUs; may repeat a device (the tests split the rows over "three GPUs"
  ///                that are all device 0, to exercise the split on a machine with one GPU)
  /// \param n       bodies
  /// \param softening_sq \f$\varepsilon^2 > 0\f$
  /// \param bodies_per_thread variant 10's R on every GPU
  MultiGpu(std::vector<int> devices, std::size_t n, float softening_sq, int bodies_per_thread);
  ~MultiGpu();
  MultiGpu(const MultiGpu&) = delete;
  MultiGpu& operator=(const MultiGpu&) = delete;

  std::size_t n() const { return n_; }
  float softening_sq() const { return softening_sq_; }
  int bodies_per_thread() const { return bodies_per_thread_; }
  /// The input: n bodies in portable pinned memory.
  float4* host_bodies() const { return bodies_.data(); }
  /// The output: 3 floats per body in portable pinned memory.
  float* host_force() const { return force_.data(); }
  std::vector<std::unique_ptr<Slot>>& slots() { return slots_; }
  /// The devices, in slot order.
  std::vector<int> devices() const;

 private:
  int previous_device_ = 0;  ///< current when we were made; current again when we are gone
  std::size_t n_;
  float softening_sq_;
  int bodies_per_thread_;
  hb::PinnedBuffer<float4> bodies_;
  hb::PinnedBuffer<float> force_;
  std::vector<std::unique_ptr<Slot>> slots_;
};

/// GPU \p s's part of one force evaluation, enqueued on its stream (its device is made current):
/// all bodies in, its rows computed by variant 10, its rows out to m.host_force().
void enqueue_slot(MultiGpu& m, MultiGpu::Slot& s);

/// The signature of the multi-GPU variants: forces of m.host_bodies() into m.host_force(),
/// returning when every GPU is done.
using MultiGpuRun = void (*)(MultiGpu& m);

/// The devices 0 .. count-1.
std::vector<int> first_devices(int count);

// ------------------------------------------------------------------ the time step on the GPU

/// One leapfrog step on the current GPU, enqueued on \p stream: a half kick of the velocities
/// \p vel with the forces in p.force, a drift of the bodies at p.bodies, the forces of
/// \p launch (tuning \p param) at the new positions, and the second half kick.
void enqueue_step(const GpuProblem& p, float* vel, GpuLauncher launch, int param, float dt,
                  cudaStream_t stream);

/// The signature of how a GPU variant's simulation enqueues \p steps leapfrog steps, the
/// forces of the first kick already in p.force.
using GpuSteps = void (*)(const GpuProblem& p, float* vel, GpuLauncher launch, int param,
                          float dt, int steps, cudaStream_t stream);

/// \p steps calls of enqueue_step(), one after the other: how most GPU variants step.
void enqueue_steps(const GpuProblem& p, float* vel, GpuLauncher launch, int param, float dt,
                   int steps, cudaStream_t stream);

/// Runs \p steps leapfrog steps on the current GPU with launcher \p launch (tuning \p param),
/// enqueued by \p run, keeping the bodies on the GPU throughout; \p s is read before and
/// written after. Returns the milliseconds of the steps (CUDA events).
double simulate_device(State& s, GpuLauncher launch, int param, GpuScratch scratch, int steps,
                       float dt, float softening_sq, GpuSteps run = enqueue_steps);

// ------------------------------------------------------------------ the variant table

/// Where a variant runs, and so which of the table's function pointers it fills.
enum class Kind {
  Cpu,       ///< Variant::cpu on host memory
  Gpu,       ///< Variant::gpu on one GPU's memory
  MultiGpu,  ///< Variant::multi over pinned host memory and several GPUs
};

/// One row of the table.
struct Variant {
  int id = 0;             ///< the number of its file in kernels/, in the order of the chapter page
  const char* name = "";   ///< "gpu_shared": the program is "nbody_" + name
  const char* title = "";  ///< one line for tables and --help
  const char* source = ""; ///< where in the text: "listing 14.4, section 14.3"
  Kind kind = Kind::Cpu;
  CpuForces cpu = nullptr;        ///< Kind::Cpu
  Isa isa = Isa::None;            ///< the SIMD level a CPU variant needs (None: any CPU)
  GpuLauncher gpu = nullptr;      ///< Kind::Gpu
  GpuScratch scratch = nullptr;   ///< Kind::Gpu: scratch it needs (nullptr: none)
  GpuSteps steps = nullptr;       ///< Kind::Gpu: how its simulation enqueues the time steps
  MultiGpuRun multi = nullptr;    ///< Kind::MultiGpu
  const char* param_name = nullptr;  ///< the tuning knob ("unroll"), nullptr when none
  std::vector<int> params;           ///< values the knob is compiled for (a sweep's rows)
  int default_param = 0;             ///< what the programs use unless told otherwise
  std::size_t default_bodies = 0;    ///< bodies of the program and the driver's table
  hb::Needs needs = {};                 ///< the GPU its headline form needs, what runs below it

  /// "nbody_gpu_shared": the name of the variant's program.
  std::string program() const { return std::string("nbody_") + name; }
  bool on_gpu() const { return kind != Kind::Cpu; }
  /// Whether this machine's CPU can run it (always true for GPU variants).
  bool cpu_supported() const { return kind != Kind::Cpu || isa_available(isa); }
};

/// Every variant, variant 0 (the reference) first, in the order of their ids.
const std::vector<Variant>& variants();

/// The variant named \p text ("gpu_shared", "nbody_gpu_shared" or its id "7"); throws
/// hb::UsageError naming \p flag and listing the valid names.
const Variant& find_variant(std::string_view text, const char* flag = "--variant");

/// "cpu_aos, cpu_soa, ..." for messages and --help.
std::string variant_names();

// ------------------------------------------------------------------ the programs

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

/// Renders \p bodies into a \p size x \p size image of the square
/// \f$[-\mathrm{extent}, \mathrm{extent}]^2\f$ of the x-y plane (x to the right, y up).
/// A pixel with c bodies gets \f$255 \log(1 + c) / \log(1 + c_\mathrm{max})\f$; bodies
/// outside the square are left out.
/// \pre size >= 1, extent > 0
hb::GrayImage render_bodies(const std::vector<float4>& bodies, int size, float extent);

}  // namespace ch14
