/// \file
/// \brief What every part of chapter 14 shares: the bodies on the host in both layouts of the
///        text, the chapter's inputs, the float64 reference with its tolerance, the leapfrog
///        with the energy and momentum that tell whether a simulation is right, the signatures
///        of the CPU, GPU and multi-GPU variants, the variant table, and the command line of
///        the programs built on it (one small program per row, and the driver `nbody`).
///
/// The variants themselves are the files of kernels/, in reading order: the CPU ones (.cpp,
/// compiled as C++, the SIMD ones for their instruction sets) and the GPU ones (.cuh), which
/// variants.cu compiles once, next to the table. A GPU launcher takes
/// device pointers, a stream and any scratch memory from the caller, enqueues its work on the
/// stream, never allocates and never synchronizes.
///
/// The leapfrog is the book's, with each velocity update split into two half kicks
/// ("kick-drift-kick"): the same trajectory, but positions and velocities at the same instants,
/// so that the energy can be measured; one force evaluation per step (the last one is reused
/// by the next step's first kick).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
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
#include "kernels/common.h"

namespace ch14 {

// ------------------------------------------------------------------ bodies and the reference

/// SIMD code reads whole vectors of up to 16 floats (AVX-512); the SOA arrays are padded to a
/// multiple of this with bodies of mass 0 at the origin, which add exactly 0 to every sum.
inline constexpr std::size_t kSoaPad = 16;

/// Largest body count the programs accept (\f$N^2 \approx 1.8 \cdot 10^{13}\f$ interactions,
/// about ten seconds per force evaluation on an H200).
inline constexpr std::size_t kMaxBodies = std::size_t(1) << 22;

/// A std::allocator that aligns to 64 bytes: a cache line, one AVX-512 vector.
template <typename T>
struct Aligned64 {
  using value_type = T;
  Aligned64() = default;
  template <typename U>
  Aligned64(const Aligned64<U>&) noexcept {}  // NOLINT: rebinding
  T* allocate(std::size_t count) {
    return static_cast<T*>(::operator new(count * sizeof(T), std::align_val_t(64)));
  }
  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, std::align_val_t(64)); }
  bool operator==(const Aligned64&) const noexcept { return true; }
  bool operator!=(const Aligned64&) const noexcept { return false; }
};

using AlignedFloats = std::vector<float, Aligned64<float>>;

/// N bodies on the host. `aos` is what the GPU and listing 14.2 read: one float4
/// (x, y, z, mass) per body. `x`, `y`, `z`, `m` are the same bodies as a structure of arrays
/// (section 14.7), padded with massless bodies to a multiple of kSoaPad.
struct HostBodies {
  std::size_t n = 0;
  std::vector<float4> aos;
  AlignedFloats x, y, z, m;

  HostBodies() = default;
  /// Takes the bodies in AOS form and builds the padded SOA copy.
  explicit HostBodies(std::vector<float4> bodies);
  /// Rebuilds the SOA copy after `aos` changed (the integrator moves the bodies).
  void sync_soa();
  /// Length of the padded SOA arrays: n rounded up to a multiple of kSoaPad.
  std::size_t padded() const { return x.size(); }
};

/// The benchmark and test input of the text: positions uniform in \f$[-1, 1)^3\f$, masses
/// uniform in \f$[0.5, 1.5) / N\f$ (total mass about 1), all from (seed, index).
HostBodies random_bodies(std::size_t n, std::uint64_t seed);

/// Positions and velocities of a simulation.
struct State {
  HostBodies bodies;
  std::vector<float> vel;  ///< 3 per body (vx, vy, vz)
};

/// The simulation's start: a thin, cold disk of radius 1 and total mass 1, each body on a
/// circular orbit for the mass inside its radius, plus a small random velocity; the total
/// momentum is made zero. Cold disks are unstable, so it soon forms rings and clumps, which
/// makes a picture worth looking at.
State disk_galaxy(std::size_t n, std::uint64_t seed, float softening_sq);

/// The float64 reference of a set of rows of the force matrix: each row's acceleration,
/// summed in double from the float inputs with bodyBodyInteraction<double>, and the row's
/// "magnitude sum" \f$A_i = \sum_j |m_j|\,\lVert\mathbf{d}_{ij}\rVert /
/// (\lVert\mathbf{d}_{ij}\rVert^2 + \varepsilon^2)^{3/2}\f$, which scales its tolerance.
struct Reference {
  std::size_t n = 0;               ///< bodies in the problem
  std::vector<std::size_t> rows;   ///< which rows
  std::vector<double> accel;       ///< 3 per row in `rows`
  std::vector<double> magnitude;   ///< \f$A_i\f$ per row in `rows`
};

/// The reference for \p rows of \p bodies (every row when \p rows is empty). Runs on all CPU
/// cores (OpenMP).
Reference reference_forces(const HostBodies& bodies, float softening_sq,
                           std::vector<std::size_t> rows = {});

/// About \p count rows spread evenly over [0, n), always including the first and the last:
/// the programs check these, so checking 64K bodies costs \p count x N, not N^2, interactions.
std::vector<std::size_t> sample_rows(std::size_t n, std::size_t count);

/// \f$\tau(N) = 2^{-24}(32 + 4\sqrt{N})\f$: a float component passes within \f$\tau(N) A_i\f$
/// of the float64 reference. 32 units cover the roundings of one interaction (the SIMD code's
/// rsqrt + Newton step included), \f$4\sqrt{N}\f$ the random walk of N rounded terms (Higham,
/// "Accuracy and Stability of Numerical Algorithms", 2.8) with a margin of 7 standard
/// deviations; the chapter page has the measured errors and why one missing body still fails.
double tolerance_factor(std::size_t n);

/// Compares rows `ref.rows` of \p got (3 floats per body, all n bodies) with \p ref within
/// tolerance_factor(ref.n) x magnitude. max_error is the largest |error| / (A_i tau(N)), so
/// 1.0 is the edge of the tolerance.
hb::CompareResult check_forces(const float* got, const Reference& ref);

// ------------------------------------------------------------------ the leapfrog

/// Kick: \f$\mathbf{v} \mathrel{+}= h\,\mathbf{a}\f$ for one body (3 floats each).
__host__ __device__ inline void kick_body(float* v, const float* a, float h) {
  v[0] += h * a[0];
  v[1] += h * a[1];
  v[2] += h * a[2];
}

/// Drift: \f$\mathbf{x} \mathrel{+}= \Delta t\,\mathbf{v}\f$ for one body; the mass stays.
__host__ __device__ inline void drift_body(float4& p, const float* v, float dt) {
  p.x += dt * v[0];
  p.y += dt * v[1];
  p.z += dt * v[2];
}

/// Energy and momentum of a state, summed in double. With softening, the potential energy
/// that matches our accelerations is
/// \f$U = -\sum_{i<j} m_i m_j / \sqrt{\lVert\mathbf{x}_i - \mathbf{x}_j\rVert^2 + \varepsilon^2}\f$.
struct Energy {
  double kinetic = 0.0;
  double potential = 0.0;
  double momentum[3] = {0.0, 0.0, 0.0};
  double momentum_scale = 0.0;  ///< \f$\sum_i m_i \lVert\mathbf{v}_i\rVert\f$, to make momentum drift relative
  double total() const { return kinetic + potential; }
};

/// Energy and momentum of \p s (all CPU cores; \f$O(N^2)\f$ for the potential).
Energy measure_energy(const State& s, float softening_sq);

/// How far a simulation drifted: \f$|E_1 - E_0| / |E_0|\f$ and
/// \f$\lVert\mathbf{P}_1 - \mathbf{P}_0\rVert / \sum_i m_i\lVert\mathbf{v}_i\rVert\f$.
struct Drift {
  double energy = 0.0;
  double momentum = 0.0;
};
Drift drift_between(const Energy& before, const Energy& after);

/// Forces of all bodies on the host: 3 floats per body into the second argument.
using HostForces = std::function<void(const HostBodies&, float*)>;

/// Runs \p steps leapfrog steps of \p dt on the host, with \p forces for the accelerations.
/// Returns the wall-clock milliseconds of the steps.
double simulate_host(State& s, const HostForces& forces, int steps, float dt);

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

/// Variants 0-5, kernels/00_cpu_aos.cpp to kernels/05_cpu_simd.cpp (the table in variants.cu
/// says what each is); only variant 5 uses more than one thread.
void forces_cpu_aos(const HostBodies& bodies, float* force, float softening_sq, int threads);
void forces_cpu_soa(const HostBodies& bodies, float* force, float softening_sq, int threads);
void forces_cpu_sse(const HostBodies& bodies, float* force, float softening_sq, int threads);
void forces_cpu_avx2(const HostBodies& bodies, float* force, float softening_sq, int threads);
void forces_cpu_avx512(const HostBodies& bodies, float* force, float softening_sq, int threads);
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

// ------------------------------------------------------------------ the GPU variants

/// One force evaluation on the current device: the acceleration of all n bodies.
struct GpuProblem {
  float* force = nullptr;          ///< 3 floats per body (x, y, z), n bodies
  const float4* bodies = nullptr;  ///< n bodies: x, y, z, mass
  int n = 0;
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

/// Variant 10: several bodies per thread, the columns split over blocks, rsqrt; the forces of
/// the driver's simulation, and the kernel of the multi-GPU variants.
void launch_gpu_blocked(const GpuProblem& p, int bodies_per_thread, cudaStream_t stream);

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

  /// One slot per entry of \p devices, each with about n / devices.size() rows, every GPU
  /// running variant 10 with \p bodies_per_thread. \p devices may repeat a device (the tests
  /// split the rows over "three GPUs" that are all device 0, to exercise the split on a
  /// machine with one GPU).
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

/// The range of --softening: its square stays a normal float (above about 1.2e-38) and the
/// forces between bodies a unit apart stay far from zero.
constexpr double kMinSoftening = 1e-6;
constexpr double kMaxSoftening = 100.0;

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

/// Parses and validates \p argv for \p program: variant \p v's own program, or the driver when
/// \p v is nullptr (which decides the flags). Returns nothing when --help was printed; throws
/// hb::UsageError (exit code 2) on any bad flag or value, before any GPU work: 0 bodies,
/// negative steps, an unknown variant, a knob value the variant is not compiled for, an image
/// file that cannot be written.
std::optional<Options> parse_options(const std::string& program, const Variant* v, int argc,
                                     const char* const* argv);

/// The bodies variant \p v runs on: --bodies (--cpu-bodies for CPU rows of the driver) or its
/// default.
std::size_t bodies_for(const Variant& v, const Options& opt, bool driver);

/// The knob value variant \p v runs with: --unroll or --bodies-per-thread, or its default (0
/// for variants without a knob).
int knob_for(const Variant& v, const Options& opt);

/// main() of the per-variant programs: runs variant \p id alone on its default bodies, checks
/// it against the float64 reference and prints interactions/s (and, on the GPU, % of the FP32
/// issue bound). The multi-GPU programs print the scaling table (Table 14.3) over 1 .. G GPUs.
int variant_program_main(const char* program, const char* id, int argc, char** argv);

/// main() of the driver `nbody`: Table 14.4 and a simulation, or with --unroll-sweep Table 14.1
/// or 14.2.
int driver_main(int argc, char** argv);

/// Renders \p bodies into a \p size x \p size image of the square
/// \f$[-\mathrm{extent}, \mathrm{extent}]^2\f$ of the x-y plane (x to the right, y up).
/// A pixel with c bodies gets \f$255 \log(1 + c) / \log(1 + c_\mathrm{max})\f$; bodies
/// outside the square are left out.
/// \pre size >= 1, extent > 0
hb::GrayImage render_bodies(const std::vector<float4>& bodies, int size, float extent);

}  // namespace ch14
