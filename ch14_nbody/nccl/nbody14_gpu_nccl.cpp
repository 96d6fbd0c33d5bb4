// Variant 14 (beyond the text): the all-pairs step on NCCL, one process per GPU.
//
// Compared with variant 12: instead of one process driving every GPU of one machine through
// host memory, each GPU has a process (a *rank*) of its own, which may sit on another machine.
// Rank r owns one slice of the bodies (nbody14_slices.h). Every step it drifts its slice, then
// all-gathers every rank's slice with ncclAllGather on one stream while, on another, variant
// 10 computes the slice's accelerations from the slice itself (which needs nothing from the
// others); once the gather has landed, variant 10 adds the accelerations from every other
// body, and the rank kicks its slice. Only positions and masses travel: 16 bytes per body and
// step.
//
//   nbody14_gpu_nccl --ranks 4 --bodies 1M          this machine's GPUs 0-3, one process each
//   nbody14_gpu_nccl --ranks 8 --scaling strong     1 to 8 ranks on the same bodies
//   nbody14_gpu_nccl --rank R --ranks N --id-file F one rank of N, started by hand or by a
//                                                   launcher on each machine (F on a shared
//                                                   file system; mpirun's rank variables work too)
//
// NCCL is loaded when the program starts (dlopen), so a machine without it gets a clear
// message and exit code 77 rather than a loader error.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <dlfcn.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nccl.h>

#include "hb/bandwidth.h"
#include "hb/cli.h"
#include "hb/device.h"
#include "hb/error.h"
#include "hb/files.h"
#include "hb/memory.h"
#include "hb/report.h"
#include "hb/timing.h"
#include "nbody.h"
#include "nbody14_slices.h"

extern char** environ;

namespace ch14 {
namespace {

constexpr const char* kProgram = "nbody14_gpu_nccl";

// ---------------------------------------------------------------------------------------------
// NCCL, loaded at run time.

struct Nccl {
  decltype(&ncclGetVersion) get_version = nullptr;
  decltype(&ncclGetUniqueId) get_unique_id = nullptr;
  decltype(&ncclCommInitRank) comm_init_rank = nullptr;
  decltype(&ncclCommDestroy) comm_destroy = nullptr;
  decltype(&ncclAllGather) all_gather = nullptr;
  decltype(&ncclAllReduce) all_reduce = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
  std::string path;
  int version = 0;
};

// The first of: $HB_NCCL_LIBRARY, the library CMake found, the loader's own search.
const Nccl& nccl() {
  static const Nccl loaded = [] {
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("HB_NCCL_LIBRARY"); env != nullptr && *env != '\0')
      candidates.push_back(env);
    else {
      if (std::strlen(HB_NCCL_LIBRARY_PATH) > 0) candidates.push_back(HB_NCCL_LIBRARY_PATH);
      candidates.push_back("libnccl.so.2");
    }
    std::string tried;
    for (const std::string& c : candidates) {
      void* lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (lib == nullptr) {
        tried += (tried.empty() ? "" : "; ") + std::string(dlerror());
        continue;
      }
      Nccl n;
      n.path = c;
      const auto get = [&](const char* name) {
        void* f = dlsym(lib, name);
        if (f == nullptr) throw hb::NoDevice(c + " has no " + name + ": not a usable NCCL");
        return f;
      };
      n.get_version = reinterpret_cast<decltype(n.get_version)>(get("ncclGetVersion"));
      n.get_unique_id = reinterpret_cast<decltype(n.get_unique_id)>(get("ncclGetUniqueId"));
      n.comm_init_rank = reinterpret_cast<decltype(n.comm_init_rank)>(get("ncclCommInitRank"));
      n.comm_destroy = reinterpret_cast<decltype(n.comm_destroy)>(get("ncclCommDestroy"));
      n.all_gather = reinterpret_cast<decltype(n.all_gather)>(get("ncclAllGather"));
      n.all_reduce = reinterpret_cast<decltype(n.all_reduce)>(get("ncclAllReduce"));
      n.error_string = reinterpret_cast<decltype(n.error_string)>(get("ncclGetErrorString"));
      n.get_version(&n.version);
      return n;
    }
    throw hb::NoDevice("NCCL is not installed here (" + tried +
                       "). Install it with: python3 -m pip install nvidia-nccl-cu13, or set "
                       "HB_NCCL_LIBRARY to its libnccl.so.2. Nothing was run.");
  }();
  return loaded;
}

void nccl_check(ncclResult_t r, const char* call) {
  if (r != ncclSuccess)
    throw std::runtime_error(std::string("NCCL: ") + call + " failed: " + nccl().error_string(r));
}
#define HB_NCCL_CHECK(call) nccl_check((call), #call)

std::string nccl_version_text(int v) {
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

// ---------------------------------------------------------------------------------------------
// The command line.

struct Options {
  hb::CommonOptions common;
  std::string command_line;
  std::size_t bodies = 64 * 1024;
  int ranks = 1;
  int rank = -1;  ///< -1: the launcher (or mpirun's variables, if set)
  std::string id_file;
  std::string result_file;
  std::string scaling = "none";
  int bodies_per_thread = 4;
  float softening = 0.01f;
  int local_rank = -1;  ///< from a launcher's environment, to pick the GPU
  bool device_given = false;
};

// Rank and size from the environment of an MPI or Slurm launcher, if any.
bool rank_from_environment(Options& o) {
  const auto get = [](const char* name) -> int {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? std::atoi(v) : -1;
  };
  for (const auto& [rank, size, local] :
       {std::tuple{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
        std::tuple{"PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
        std::tuple{"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"}}) {
    if (get(rank) >= 0 && get(size) >= 1) {
      o.rank = get(rank);
      o.ranks = get(size);
      o.local_rank = get(local);
      return true;
    }
  }
  return false;
}

std::optional<Options> parse(int argc, char** argv) {
  hb::CliSpec spec;
  spec.program = kProgram;
  spec.description =
      "Chapter 14, variant 14 (beyond the text): the all-pairs step on NCCL, one process per "
      "GPU. Each rank owns a slice of the bodies, all-gathers the positions every step while "
      "it computes on its own slice, and integrates its slice. Prints ms per step, "
      "interactions/s, the split into compute and exchange, and the overlap.";
  spec.default_n = 64 * 1024;
  spec.min_n = 1;
  spec.max_n = kMaxBodies;
  spec.n_unit = "bodies";
  spec.default_iters = 10;
  hb::Cli cli(spec);
  CLI::App& app = cli.app();
  Options o;
  std::string bodies_text;
  app.add_option("--bodies", bodies_text, "bodies (same as --n; K/M = 2^10/2^20); with "
                 "--scaling weak, bodies per rank");
  app.add_option("--ranks", o.ranks,
                 "ranks (GPUs): the launcher starts this many processes on this machine's GPUs "
                 "0..ranks-1; with --rank, the total over every machine")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  app.add_option("--rank", o.rank, "run as this one rank of --ranks (needs --id-file)")
      ->check(CLI::Range(0, 1023));
  app.add_option("--id-file", o.id_file,
                 "where rank 0 writes the NCCL unique id and the others read it (a shared file "
                 "system across machines)");
  app.add_option("--scaling", o.scaling,
                 "launcher: none (one run of --ranks), strong (1..ranks on the same bodies) or "
                 "weak (1..ranks, --bodies per rank)")
      ->check(CLI::IsMember({"none", "strong", "weak"}))
      ->capture_default_str();
  app.add_option("--bodies-per-thread", o.bodies_per_thread,
                 "variant 10's bodies per thread (1, 2, 4, 8)")
      ->capture_default_str();
  app.add_option("--softening", o.softening, "softening length epsilon")->capture_default_str();
  app.add_option("--result-file", o.result_file, "internal: where rank 0 writes its row");
  if (!cli.parse(argc, argv)) return std::nullopt;
  o.common = cli.options();
  o.command_line = cli.command_line();
  o.device_given = app.count("--device") > 0;
  if (!bodies_text.empty()) {
    if (app.count("--n") > 0) throw hb::UsageError("--bodies and --n are the same flag; give one");
    o.bodies = hb::parse_size(bodies_text, "--bodies");
  } else {
    o.bodies = o.common.n;
  }
  if (o.bodies < 1 || o.bodies > kMaxBodies)
    throw hb::UsageError("--bodies " + std::to_string(o.bodies) + ": must be between 1 and " +
                         std::to_string(kMaxBodies));
  hb::require_range(o.softening, kMinSoftening, kMaxSoftening, "--softening");
  const std::vector<int> factors = blocked_factors();
  if (std::find(factors.begin(), factors.end(), o.bodies_per_thread) == factors.end())
    throw hb::UsageError("--bodies-per-thread " + std::to_string(o.bodies_per_thread) +
                         ": variant 10 is compiled for 1, 2, 4 and 8");
  const bool rank_given = app.count("--rank") > 0;
  if (!rank_given && app.count("--ranks") == 0 && !o.id_file.empty() && rank_from_environment(o)) {
    // started by mpirun or srun: one rank each
  } else if (rank_given) {
    if (o.id_file.empty()) throw hb::UsageError("--rank needs --id-file (where ranks meet)");
    if (o.rank >= o.ranks)
      throw hb::UsageError("--rank " + std::to_string(o.rank) + ": must be below --ranks " +
                           std::to_string(o.ranks));
  } else if (!o.id_file.empty() && o.result_file.empty()) {
    throw hb::UsageError("--id-file belongs to a rank: give --rank too (or start the ranks "
                         "with mpirun)");
  }
  // Rank 0 writes the id; one left from an earlier run would send the others to a meeting
  // that never happens.
  struct stat st {};
  if (o.rank == 0 && stat(o.id_file.c_str(), &st) == 0)
    throw hb::UsageError("--id-file " + hb::printable(o.id_file) +
                         " exists: rank 0 writes a new one each run; remove it or name another");
  if (o.rank == 0) hb::check_output_path(o.id_file, "--id-file");
  if (o.rank >= 0 && o.scaling != "none")
    throw hb::UsageError("--scaling is the launcher's: one rank runs one configuration");
  if (o.rank >= 0 && o.bodies < static_cast<std::size_t>(o.ranks))
    throw hb::UsageError("--bodies " + std::to_string(o.bodies) + ": fewer bodies than the " +
                         std::to_string(o.ranks) + " ranks");
  if (!o.result_file.empty()) {
    if (o.rank < 0) throw hb::UsageError("--result-file is written by a rank: give --rank too");
    hb::check_output_path(o.result_file, "--result-file");
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// One rank.

// The NCCL unique id: rank 0 makes it and writes it (whole, by rename); the others wait for
// the file, at most two minutes.
ncclUniqueId meet(const Options& o) {
  ncclUniqueId id{};
  if (o.rank == 0) {
    HB_NCCL_CHECK(nccl().get_unique_id(&id));
    hb::write_file(o.id_file, std::string(id.internal, sizeof id.internal));
    return id;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  for (;;) {
    std::ifstream f(o.id_file, std::ios::binary);
    if (f.read(id.internal, sizeof id.internal) && f.gcount() == sizeof id.internal) return id;
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("rank " + std::to_string(o.rank) + ": rank 0 never wrote " +
                               o.id_file + " (two minutes)");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

struct RankResult {
  double step_ms = 0, compute_ms = 0, exchange_ms = 0, failures = 0, max_error = 0;
};

// [nbody-nccl-step]
/// One rank's buffers and streams, and its step: drift the slice, gather every slice while
/// the slice's own forces are computed, add the rest, kick.
class Rank {
 public:
  Rank(const Slice& s, const std::vector<float4>& bodies, int bodies_per_thread, float eps2,
       ncclComm_t comm)
      : s_(s), r_(bodies_per_thread), eps2_(eps2), comm_(comm), mine_(s.chunk),
        all_(s.padded()), vel_(3 * s.chunk), force_(3 * s.chunk), before_(3 * s.chunk),
        after_(3 * s.chunk), scratch_(blocked_scratch(s.chunk)) {
    std::vector<float4> slice(s.chunk, make_float4(0, 0, 0, 0));  // massless padding
    std::copy(bodies.begin() + s.begin, bodies.begin() + s.end, slice.begin());
    HB_CUDA_CHECK(cudaMemcpy(mine_.data(), slice.data(), mine_.bytes(), cudaMemcpyHostToDevice));
    vel_.zero();
    buffers_ = {force_.data(), before_.data(), after_.data(), scratch_.data(), scratch_.size()};
  }

  void gather(cudaStream_t stream) {
    HB_NCCL_CHECK(nccl().all_gather(mine_.data(), all_.data(), 4 * s_.chunk, ncclFloat, comm_,
                                    stream));
  }
  void local_forces() { enqueue_local_forces(s_, mine_.data(), buffers_, eps2_, r_, compute_); }
  void remote_forces() { enqueue_remote_forces(s_, all_.data(), buffers_, eps2_, r_, compute_); }

  void step(float dt) {
    enqueue_drift(s_, mine_.data(), vel_.data(), dt, compute_);
    drifted_.record(compute_);
    HB_CUDA_CHECK(cudaStreamWaitEvent(exchange_, drifted_, 0));
    gather(exchange_);  // the other slices arrive ...
    gathered_.record(exchange_);
    local_forces();  // ... while this slice's forces are computed
    HB_CUDA_CHECK(cudaStreamWaitEvent(compute_, gathered_, 0));
    remote_forces();
    enqueue_kick(s_, vel_.data(), force_.data(), dt, compute_);
  }
// [nbody-nccl-step]

  /// The forces of one evaluation from the current positions (no integration), on the host.
  std::vector<float> forces() {
    gather(exchange_);
    gathered_.record(exchange_);
    local_forces();
    HB_CUDA_CHECK(cudaStreamWaitEvent(compute_, gathered_, 0));
    remote_forces();
    std::vector<float> out(3 * s_.rows());
    HB_CUDA_CHECK(cudaMemcpyAsync(out.data(), force_.data(), out.size() * sizeof(float),
                                  cudaMemcpyDeviceToHost, compute_));
    compute_.synchronize();
    return out;
  }

  /// Median milliseconds of \p iters calls of \p work on \p stream after one untimed call.
  template <typename Work>
  double time(const hb::Stream& stream, int iters, Work work) {
    work();
    std::vector<double> ms;
    hb::Event start, stop;
    for (int i = 0; i < iters; ++i) {
      start.record(stream);
      work();
      stop.record(stream);
      stop.synchronize();
      ms.push_back(stop.elapsed_since(start));
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }

  const hb::Stream& compute() const { return compute_; }
  const hb::Stream& exchange() const { return exchange_; }
  void sync() {
    compute_.synchronize();
    exchange_.synchronize();
  }

 private:
  Slice s_;
  int r_;
  float eps2_;
  ncclComm_t comm_;
  hb::DeviceBuffer<float4> mine_, all_;
  hb::DeviceBuffer<float> vel_, force_, before_, after_;
  hb::DeviceBuffer<float4> scratch_;
  SliceBuffers buffers_;
  hb::Stream compute_, exchange_;
  hb::Event drifted_, gathered_;
};

std::vector<std::string> row_columns() {
  return {"ranks", "bodies", "ms per step", "1e9 interactions/s", "compute ms", "exchange ms",
          "% of exchange hidden", "variant 10 ms", "% of variant 10", "check"};
}

void add_rank_facts(hb::Report& r, const Options& o, const hb::DeviceInfo& dev, const Nccl& lib) {
  r.fact("program", kProgram);
  // A rank the launcher started reports the launcher's command, not its own.
  const char* launch = std::getenv("HB_NCCL_LAUNCH_COMMAND");
  r.fact("command", launch != nullptr && *launch != '\0' ? launch : o.command_line);
  r.fact("date", hb::today_utc());
  r.fact("gpu", dev.name + " (rank 0's)");
  r.fact("driver", hb::driver_version_text());
  r.fact("CUDA runtime", hb::cuda_version_text(dev.runtime_version));
  r.fact("NCCL", nccl_version_text(lib.version) + " (" + lib.path + ")");
  r.fact("bodies per thread", std::to_string(o.bodies_per_thread) + " (variant 10)");
  r.fact("softening", hb::fixed(o.softening, 4));
  r.fact("ms per step", "median of " + std::to_string(o.common.iters) +
                            " steps (drift, all-gather beside the own slice's forces, the rest, "
                            "kick), the slowest rank's");
  r.fact("compute ms, exchange ms", "the forces alone and the all-gather alone, medians");
  r.fact("% of exchange hidden", "(compute + exchange - step) / exchange");
  r.fact("variant 10 ms", "one force evaluation of all bodies on rank 0's GPU alone, median: "
                          "the single-GPU kernel variant 14 wraps");
  r.fact("check", "each rank's sampled rows against the float64 reference (tolerance as in "
                  "every variant of the chapter)");
}

// Variant 10 alone on all n bodies on this GPU: the kernel variant 14 wraps, for the ratio.
double single_gpu_ms(const std::vector<float4>& bodies, int r, float eps2, int iters) {
  const std::size_t n = bodies.size();
  hb::DeviceBuffer<float4> d(n), scratch(blocked_scratch(n));
  hb::DeviceBuffer<float> force(3 * n);
  HB_CUDA_CHECK(cudaMemcpy(d.data(), bodies.data(), d.bytes(), cudaMemcpyHostToDevice));
  hb::Stream stream;
  const GpuProblem p{force.data(), d.data(), static_cast<int>(n), eps2, scratch.data(),
                     scratch.size()};
  launch_gpu_blocked(p, r, stream);
  std::vector<double> ms;
  hb::Event start, stop;
  for (int i = 0; i < iters; ++i) {
    start.record(stream);
    launch_gpu_blocked(p, r, stream);
    stop.record(stream);
    stop.synchronize();
    ms.push_back(stop.elapsed_since(start));
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int run_rank(const Options& o) {
  const Nccl& lib = nccl();  // exit 77 with a clear message when NCCL is missing
  int device = o.common.device;
  if (!o.device_given) {
    const int count = hb::device_count();
    if (count == 0) hb::select_device(0);  // throws NoDevice with the reason
    device = (o.local_rank >= 0 ? o.local_rank : o.rank) % count;
  }
  hb::select_device(device);
  const hb::DeviceInfo dev = hb::query_device(device);
  const Slice s = slice_of(o.bodies, o.ranks, o.rank);
  const HostBodies bodies = random_bodies(o.bodies, o.common.seed);  // the same on every rank
  const float eps2 = o.softening * o.softening;

  // The single-GPU reference before NCCL starts, on rank 0's GPU.
  const double single_ms = o.rank == 0 ? single_gpu_ms(bodies.aos, o.bodies_per_thread, eps2,
                                                       o.common.iters)
                                       : 0.0;
  const ncclUniqueId id = meet(o);
  ncclComm_t comm = nullptr;
  HB_NCCL_CHECK(lib.comm_init_rank(&comm, o.ranks, id, o.rank));
  RankResult res;
  {
    Rank rank(s, bodies.aos, o.bodies_per_thread, eps2, comm);
    // Correctness first: this rank's rows against the float64 reference, within the chapter's
    // tolerance (sampled rows, as every other variant).
    if (!o.common.no_check && s.rows() > 0) {
      const std::vector<float> got = rank.forces();
      std::vector<std::size_t> rows;
      for (std::size_t r : sample_rows(s.rows(), 64)) rows.push_back(s.begin + r);
      const Reference ref = reference_forces(bodies, eps2, rows);
      std::vector<float> full(3 * o.bodies, 0.0f);
      std::copy(got.begin(), got.end(), full.begin() + 3 * s.begin);
      const hb::CompareResult cmp = check_forces(full.data(), ref);
      res.failures = cmp ? 0.0 : 1.0;
      res.max_error = cmp.max_error;
      if (!cmp)
        std::fprintf(stderr, "%s: rank %d: %s\n", kProgram, o.rank, cmp.report.c_str());
    }
    const float dt = 1e-4f;  // small: the timed steps barely move the bodies
    res.exchange_ms = rank.time(rank.exchange(), o.common.iters, [&] { rank.gather(rank.exchange()); });
    rank.sync();
    res.compute_ms = rank.time(rank.compute(), o.common.iters, [&] {
      rank.local_forces();
      rank.remote_forces();
    });
    rank.sync();
    res.step_ms = rank.time(rank.compute(), o.common.iters, [&] { rank.step(dt); });
    rank.sync();

    // Every rank's times and checks to every rank: the slowest rank sets the step.
    hb::DeviceBuffer<double> summary(5);
    const double values[5] = {res.step_ms, res.compute_ms, res.exchange_ms, res.failures,
                              res.max_error};
    HB_CUDA_CHECK(cudaMemcpy(summary.data(), values, sizeof values, cudaMemcpyHostToDevice));
    HB_NCCL_CHECK(lib.all_reduce(summary.data(), summary.data(), 5, ncclDouble, ncclMax, comm,
                                 rank.compute()));
    rank.sync();
    double out[5];
    HB_CUDA_CHECK(cudaMemcpy(out, summary.data(), sizeof out, cudaMemcpyDeviceToHost));
    res = {out[0], out[1], out[2], out[3], out[4]};
  }
  HB_NCCL_CHECK(lib.comm_destroy(comm));
  if (o.rank != 0) return res.failures > 0 ? hb::kExitFailed : hb::kExitOk;

  const double n = static_cast<double>(o.bodies);
  const double rate = n * n / (res.step_ms * 1e-3);
  const double overlap = res.exchange_ms > 0
      ? std::clamp((res.compute_ms + res.exchange_ms - res.step_ms) / res.exchange_ms, 0.0, 1.0)
      : 0.0;
  const std::string check = o.common.no_check ? "skipped"
                            : res.failures > 0 ? "FAIL"
                                               : "ok (max " + hb::fixed(res.max_error, 2) + " of tol)";
  std::vector<std::string> row = {std::to_string(o.ranks), std::to_string(o.bodies),
                                  hb::fixed(res.step_ms, 3), hb::fixed(rate / 1e9, 1),
                                  hb::fixed(res.compute_ms, 3), hb::fixed(res.exchange_ms, 3),
                                  o.ranks > 1 ? hb::fixed(100.0 * overlap, 0) : "-",
                                  hb::fixed(single_ms, 3),
                                  hb::fixed(100.0 * single_ms / res.step_ms, 1), check};
  if (!o.result_file.empty()) {
    std::string line;
    for (const auto& c : row) line += (line.empty() ? "" : "\t") + c;
    hb::write_file(o.result_file, line + "\n");
  } else {
    hb::Report r(row_columns());
    add_rank_facts(r, o, dev, lib);
    r.row(row);
    r.print(std::cout, o.common.csv);
  }
  if (res.failures > 0) throw hb::CheckFailed("forces differ from the float64 reference");
  return 0;
}

// ---------------------------------------------------------------------------------------------
// The launcher: one process per GPU of this machine.

// Starts rank r of \p ranks as `this program --rank r ... --device r` for r < ranks, waits for
// every one, and returns the worst exit code (a failed rank's peers are stopped after 10 s).
int launch(const Options& o, int ranks, std::size_t bodies, const std::string& result_file) {
  char dir_template[] = "/tmp/hb_nccl_XXXXXX";
  if (mkdtemp(dir_template) == nullptr)
    throw std::runtime_error(std::string("cannot make a folder in /tmp: ") + std::strerror(errno));
  const std::string dir = dir_template;
  std::vector<pid_t> pids;
  for (int r = 0; r < ranks; ++r) {
    std::vector<std::string> args = {
        kProgram, "--rank", std::to_string(r), "--ranks", std::to_string(ranks), "--id-file",
        dir + "/nccl_id", "--device", std::to_string(r), "--bodies", std::to_string(bodies),
        "--iters", std::to_string(o.common.iters), "--seed", std::to_string(o.common.seed),
        "--softening", hb::fixed(o.softening, 9), "--bodies-per-thread",
        std::to_string(o.bodies_per_thread)};
    if (o.common.csv) args.push_back("--csv");
    if (o.common.no_check) args.push_back("--no-check");
    if (!result_file.empty()) {
      args.push_back("--result-file");
      args.push_back(result_file);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int err = posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), environ);
    if (err != 0) throw std::runtime_error(std::string("cannot start a rank: ") + std::strerror(err));
    pids.push_back(pid);
  }
  std::vector<int> codes;
  std::optional<std::chrono::steady_clock::time_point> stop_at;
  while (codes.size() < pids.size()) {
    int status = 0;
    const pid_t done = waitpid(-1, &status, WNOHANG);
    if (done > 0) {
      codes.push_back(WIFEXITED(status) ? WEXITSTATUS(status) : hb::kExitFailed);
      if (codes.back() != 0 && !stop_at)
        stop_at = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      continue;
    }
    if (stop_at && std::chrono::steady_clock::now() > *stop_at) {
      for (pid_t p : pids) kill(p, SIGTERM);  // peers wait in NCCL for a rank that is gone
      stop_at = std::chrono::steady_clock::now() + std::chrono::hours(1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // A failure (1) outranks a usage error (2), which outranks the rest (3, 77).
  int worst = 0;
  for (const int code : codes)
    if (code == hb::kExitFailed || (worst != hb::kExitFailed && code == hb::kExitUsage) ||
        (worst == 0 && code != 0))
      worst = code;
  std::remove((dir + "/nccl_id").c_str());
  rmdir(dir.c_str());
  return worst;
}

int run_launcher(const Options& o) {
  const Nccl& lib = nccl();  // exit 77 with a clear message when NCCL is missing
  setenv("HB_NCCL_LAUNCH_COMMAND", o.command_line.c_str(), 1);
  std::string why;
  const int gpus = hb::device_count(&why);
  if (gpus == 0) hb::select_device(0);  // throws NoDevice with the reason
  if (o.ranks > gpus)
    throw hb::UsageError("--ranks " + std::to_string(o.ranks) + ": this machine has " +
                         std::to_string(gpus) + " GPU(s); more ranks run on several machines, "
                         "each started with --rank and a shared --id-file");
  if (o.scaling == "none") {
    if (o.bodies < static_cast<std::size_t>(o.ranks))
      throw hb::UsageError("--bodies " + std::to_string(o.bodies) + ": fewer bodies than ranks");
    return launch(o, o.ranks, o.bodies, "");
  }
  // Scaling: 1 .. ranks, one launch each; rank 0 of each writes its row to a file.
  const bool weak = o.scaling == "weak";
  const std::string result = "/tmp/hb_nccl_row_" + std::to_string(getpid());
  std::vector<std::string> columns = row_columns();
  columns.push_back("efficiency vs 1 rank");
  hb::Report r(columns);
  hb::select_device(0);
  add_rank_facts(r, o, hb::query_device(0), lib);
  r.fact("scaling", weak ? "weak: " + std::to_string(o.bodies) + " bodies per rank"
                         : "strong: " + std::to_string(o.bodies) + " bodies in all");
  r.fact("efficiency", "interactions/s per rank over those of 1 rank in this run");
  double one_rank_rate = 0.0;
  int worst = 0;
  for (int p = 1; p <= o.ranks; ++p) {
    const std::size_t bodies = weak ? o.bodies * static_cast<std::size_t>(p) : o.bodies;
    if (bodies > kMaxBodies) break;
    std::remove(result.c_str());
    const int code = launch(o, p, bodies, result);
    if (code != 0) {
      worst = code;
      break;
    }
    std::ifstream in(result);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> row;
    std::istringstream cells(line);
    for (std::string c; std::getline(cells, c, '\t');) row.push_back(c);
    if (row.size() + 1 != columns.size())
      throw std::runtime_error("rank 0 of the " + std::to_string(p) + "-rank run left no row");
    const double rate = std::stod(row[3]);
    if (p == 1) one_rank_rate = rate;
    row.push_back(hb::fixed(100.0 * rate / (p * one_rank_rate), 1) + "%");
    r.row(row);
  }
  std::remove(result.c_str());
  r.print(std::cout, o.common.csv);
  return worst;
}

}  // namespace
}  // namespace ch14

int main(int argc, char** argv) {
  return hb::run_main(ch14::kProgram, [&] {
    const auto o = ch14::parse(argc, argv);
    if (!o) return 0;
    return o->rank >= 0 ? ch14::run_rank(*o) : ch14::run_launcher(*o);
  });
}
