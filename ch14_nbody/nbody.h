/// \file
/// \brief What every part of chapter 14 shares: the bodies in both layouts, the float64
///        reference, the leapfrog, the variant signatures and table, and the command line.
///
/// A GPU launcher takes device pointers, a stream and scratch from the caller, enqueues its
/// work, never allocates and never synchronizes.
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

/// Aligns to 64 bytes: a cache line, one AVX-512 vector.
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

/// N bodies on the host: `aos` (x, y, z, mass) for the GPU and listing 14.2, and the same
/// bodies as a structure of arrays (section 14.7), padded with massless bodies to kSoaPad.
struct HostBodies {
  std::size_t n = 0;
  std::vector<float4> aos;
  AlignedFloats x, y, z, m;

  HostBodies() = default;
  explicit HostBodies(std::vector<float4> bodies);
  /// Rebuilds the SOA copy after `aos` changed.
  void sync_soa();
  std::size_t padded() const { return x.size(); }
};

/// The benchmark and test input of the text: positions uniform in \f$[-1, 1)^3\f$, masses
/// uniform in \f$[0.5, 1.5) / N\f$ (total mass about 1), all from (seed, index).
HostBodies random_bodies(std::size_t n, std::uint64_t seed);

struct State {
  HostBodies bodies;
  std::vector<float> vel;  ///< 3 per body (vx, vy, vz)
};

/// A thin cold disk of radius 1 and mass 1, bodies on circular orbits plus a little noise,
/// zero total momentum. Cold disks are unstable: rings and clumps make a picture worth seeing.
State disk_galaxy(std::size_t n, std::uint64_t seed, float softening_sq);

/// The float64 reference of some rows of the force matrix: each row's acceleration and the
/// sum \f$A_i\f$ of the magnitudes of its terms, which scales its tolerance (the chapter page).
struct Reference {
  std::size_t n = 0;               ///< bodies in the problem
  std::vector<std::size_t> rows;   ///< which rows
  std::vector<double> accel;       ///< 3 per row in `rows`
  std::vector<double> magnitude;   ///< \f$A_i\f$ per row in `rows`
};

/// The reference for \p rows of \p bodies (every row when empty), on all CPU cores.
Reference reference_forces(const HostBodies& bodies, float softening_sq,
                           std::vector<std::size_t> rows = {});

/// About \p count rows spread evenly over [0, n), first and last included: checking them costs
/// \p count x N, not N^2, interactions.
std::vector<std::size_t> sample_rows(std::size_t n, std::size_t count);

/// \f$\tau(N) = 2^{-24}(32 + 4\sqrt{N})\f$: a float component passes within \f$\tau(N) A_i\f$
/// of the float64 reference; the chapter page says why, and what it catches.
double tolerance_factor(std::size_t n);

/// Compares rows `ref.rows` of \p got (3 floats per body) with \p ref; max_error is the
/// largest |error| / (A_i tau(N)), so 1.0 is the edge of the tolerance.
hb::CompareResult check_forces(const float* got, const Reference& ref);

// ------------------------------------------------------------------ the leapfrog
// The book's, each velocity update split into two half kicks (kick-drift-kick), so that
// positions and velocities, and so the energy, are known at the same instants.

/// Kick: v += h a for one body.
__host__ __device__ inline void kick_body(float* v, const float* a, float h) {
  v[0] += h * a[0];
  v[1] += h * a[1];
  v[2] += h * a[2];
}

/// Drift: x += dt v for one body; the mass stays.
__host__ __device__ inline void drift_body(float4& p, const float* v, float dt) {
  p.x += dt * v[0];
  p.y += dt * v[1];
  p.z += dt * v[2];
}

/// Energy (the softened potential of the chapter page) and momentum, summed in double.
struct Energy {
  double kinetic = 0.0;
  double potential = 0.0;
  double momentum[3] = {0.0, 0.0, 0.0};
  double momentum_scale = 0.0;  ///< \f$\sum_i m_i \lVert\mathbf{v}_i\rVert\f$, to make momentum drift relative
  double total() const { return kinetic + potential; }
};

Energy measure_energy(const State& s, float softening_sq);

/// How far a simulation drifted: \f$|E_1 - E_0| / |E_0|\f$ and
/// \f$\lVert\mathbf{P}_1 - \mathbf{P}_0\rVert / \sum_i m_i\lVert\mathbf{v}_i\rVert\f$.
struct Drift {
  double energy = 0.0;
  double momentum = 0.0;
};
Drift drift_between(const Energy& before, const Energy& after);

using HostForces = std::function<void(const HostBodies&, float*)>;

/// \p steps leapfrog steps on the host; returns their wall-clock milliseconds.
double simulate_host(State& s, const HostForces& forces, int steps, float dt);

// ------------------------------------------------------------------ the CPU variants (0-5)

/// Every CPU variant: 3 floats per body into \p force; \p threads (0: all) for the all-core one.
using CpuForcesFn = void(const HostBodies& bodies, float* force, float softening_sq, int threads);

/// One SIMD level's rows [row_begin, row_end), one thread; the all-core variant splits rows.
using CpuRowsFn = void(const HostBodies& bodies, float* force, float softening_sq,
                       std::size_t row_begin, std::size_t row_end);
using CpuRows = CpuRowsFn*;

enum class Isa { None, Sse, Avx2, Avx512 };

std::string isa_name(Isa isa);  ///< "SSE", "AVX2+FMA", "AVX-512F" ("scalar" for None)
int isa_width(Isa isa);         ///< floats per register (1 for None)
bool isa_available(Isa isa);    ///< this CPU and its OS support it; None always
Isa best_isa();
CpuRows isa_rows(Isa isa);      ///< nullptr for None, or when this CPU lacks the level

/// Variants 0-5, kernels/00_cpu_aos.cpp to kernels/05_cpu_simd.cpp (each of type CpuForcesFn).
CpuForcesFn forces_cpu_aos, forces_cpu_soa, forces_cpu_sse, forces_cpu_avx2, forces_cpu_avx512,
    forces_cpu_simd_threads;

/// Row functions of the SIMD levels (off x86-64 empty: use isa_rows()).
CpuRowsFn rows_sse, rows_avx2, rows_avx512;

/// \p threads, or OpenMP's default (which honours OMP_NUM_THREADS) for 0.
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

/// Every GPU variant; \p param is its knob (Variant::params), ignored by those without one.
using GpuLauncher = void (*)(const GpuProblem& p, int param, cudaStream_t stream);

/// Scratch a variant needs for n bodies, in float4 elements (0: none).
using GpuScratch = std::size_t (*)(std::size_t n);

/// Variant 10: the driver's simulation and every GPU of the multi-GPU variants use it.
void launch_gpu_blocked(const GpuProblem& p, int bodies_per_thread, cudaStream_t stream);

const std::vector<int>& blocked_factors();

/// Variant 10 on rows [row_begin, row_begin + rows) into \p force_rows: one GPU's share.
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

/// Column slices for a GPU holding \p resident blocks: the smallest count in 1 .. \p max_slices
/// whose last wave is as full as any (within 2%), never more than column tiles.
BlockedPlan plan_blocked(int rows, int n, int bodies_per_thread, int resident, int max_slices);

/// The plan launch_gpu_blocked_rows() uses on the current device (no scratch: one slice).
BlockedPlan blocked_plan_for(int rows, int n, int bodies_per_thread, std::size_t scratch_count);

inline constexpr int kBlockedThreads = 128;  ///< variant 10's block, and column tile
inline constexpr int kMaxSlices = 16;         ///< its scratch: this many partial sums per row
std::size_t blocked_scratch(std::size_t n);

// ------------------------------------------------------------------ several GPUs (12-13)

/// What the multi-GPU variants keep between calls: per GPU its buffers and stream (made once,
/// outside any timing; the book allocated them every step), and pinned inputs and outputs.
class MultiGpu {
 public:
  struct Slot {
    int device = 0;
    int row_begin = 0;
    int rows = 0;
    hb::DeviceBuffer<float4> bodies;   ///< all n bodies
    hb::DeviceBuffer<float> force;     ///< 3 floats per row of this slot
    hb::DeviceBuffer<float4> scratch;  ///< variant 10's partial sums
    hb::Stream stream;
  };

  /// One slot per entry of \p devices, about n / devices.size() rows each. \p devices may
  /// repeat a device: the tests split over "three GPUs" that are all device 0.
  MultiGpu(std::vector<int> devices, std::size_t n, float softening_sq, int bodies_per_thread);
  ~MultiGpu();
  MultiGpu(const MultiGpu&) = delete;
  MultiGpu& operator=(const MultiGpu&) = delete;

  std::size_t n() const { return n_; }
  float softening_sq() const { return softening_sq_; }
  int bodies_per_thread() const { return bodies_per_thread_; }
  float4* host_bodies() const { return bodies_.data(); }  ///< the input, pinned
  float* host_force() const { return force_.data(); }     ///< the output, pinned
  std::vector<std::unique_ptr<Slot>>& slots() { return slots_; }

 private:
  int previous_device_ = 0;  ///< current when we were made; current again when we are gone
  std::size_t n_;
  float softening_sq_;
  int bodies_per_thread_;
  hb::PinnedBuffer<float4> bodies_;
  hb::PinnedBuffer<float> force_;
  std::vector<std::unique_ptr<Slot>> slots_;
};

/// Slot \p s's share on its stream: all bodies in, its rows by variant 10, its rows out.
void enqueue_slot(MultiGpu& m, MultiGpu::Slot& s);

/// The multi-GPU variants: m.host_bodies() to m.host_force(), returning when all GPUs are done.
using MultiGpuRun = void (*)(MultiGpu& m);

std::vector<int> first_devices(int count);

// ------------------------------------------------------------------ the time step on the GPU

/// One leapfrog step on \p stream: half kick with p.force, drift, \p launch, half kick.
void enqueue_step(const GpuProblem& p, float* vel, GpuLauncher launch, int param, float dt,
                  cudaStream_t stream);

/// How a GPU variant enqueues \p steps leapfrog steps, the first kick's forces in p.force.
using GpuSteps = void (*)(const GpuProblem& p, float* vel, GpuLauncher launch, int param,
                          float dt, int steps, cudaStream_t stream);

/// \p steps calls of enqueue_step(): how most GPU variants step.
void enqueue_steps(const GpuProblem& p, float* vel, GpuLauncher launch, int param, float dt,
                   int steps, cudaStream_t stream);

/// \p steps leapfrog steps on the current GPU, the bodies kept there; returns the events' ms.
double simulate_device(State& s, GpuLauncher launch, int param, GpuScratch scratch, int steps,
                       float dt, float softening_sq, GpuSteps run = enqueue_steps);

// ------------------------------------------------------------------ the variant table

/// Where a variant runs, and so which of Variant's function pointers it fills.
enum class Kind { Cpu, Gpu, MultiGpu };

struct Variant {
  int id = 0;               ///< the number of its file in kernels/, the order of the chapter page
  const char* name = "";    ///< "gpu_shared": the program is "nbody_" + name
  const char* title = "";   ///< one line for tables and --help
  const char* source = "";  ///< where in the text: "listing 14.4, section 14.3"
  Kind kind = Kind::Cpu;
  std::size_t default_bodies = 0;    ///< bodies of the program and the driver's table
  CpuForcesFn* cpu = nullptr;        ///< Kind::Cpu
  Isa isa = Isa::None;               ///< the SIMD level a CPU variant needs (None: any CPU)
  GpuLauncher gpu = nullptr;         ///< Kind::Gpu
  GpuScratch scratch = nullptr;      ///< Kind::Gpu: scratch it needs (nullptr: none)
  GpuSteps steps = nullptr;          ///< Kind::Gpu: how its simulation enqueues the time steps
  MultiGpuRun multi = nullptr;       ///< Kind::MultiGpu
  const char* param_name = nullptr;  ///< the tuning knob ("unroll"), nullptr when none
  std::vector<int> params{};         ///< values the knob is compiled for (a sweep's rows)
  int default_param = 0;             ///< what the programs use unless told otherwise
  hb::Needs needs = {};              ///< the GPU its headline form needs, what runs below it

  std::string program() const { return std::string("nbody_") + name; }
  bool on_gpu() const { return kind != Kind::Cpu; }
  bool cpu_supported() const { return kind != Kind::Cpu || isa_available(isa); }
};

/// Every variant, in the order of their ids.
const std::vector<Variant>& variants();

/// The variant named \p text ("gpu_shared", "nbody_gpu_shared" or "7"); else hb::UsageError.
const Variant& find_variant(std::string_view text, const char* flag = "--variant");

std::string variant_names();

// ------------------------------------------------------------------ the programs

/// The range of --softening: its square stays a normal float (above about 1.2e-38) and the
/// forces between bodies a unit apart stay far from zero.
constexpr double kMinSoftening = 1e-6;
constexpr double kMaxSoftening = 100.0;

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

/// The command line of variant \p v's program, or of the driver when \p v is nullptr; nothing
/// after --help; hb::UsageError (exit 2) on any bad flag or value, before any GPU work.
std::optional<Options> parse_options(const std::string& program, const Variant* v, int argc,
                                     const char* const* argv);

/// --bodies (--cpu-bodies for the driver's CPU rows) or the variant's default.
std::size_t bodies_for(const Variant& v, const Options& opt, bool driver);
/// --unroll or --bodies-per-thread, or the variant's default (0 without a knob).
int knob_for(const Variant& v, const Options& opt);

/// main() of a variant's program: checked against the reference, in interactions/s (the
/// multi-GPU ones: Table 14.3 over 1 .. G GPUs).
int variant_program_main(const char* program, const char* id, int argc, char** argv);

/// main() of `nbody`: Table 14.4 and a simulation, or with --unroll-sweep Table 14.1 or 14.2.
int driver_main(int argc, char** argv);

/// \p bodies in the x-y square [-extent, extent]^2 (y up), size pixels square; a pixel of c
/// bodies gets 255 log(1 + c) / log(1 + c_max). \pre size >= 1, extent > 0
hb::GrayImage render_bodies(const std::vector<float4>& bodies, int size, float extent);

}  // namespace ch14
