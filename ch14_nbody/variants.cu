// The variant table of chapter 14, and the GPU time step. Every GPU file of kernels/ is
// compiled here, once (listed in nbody_kernels.cuh), so a new GPU variant is one file in
// kernels/ and one row below; the CPU variants are C++ (kernels/0N_cpu_*.cpp).
#include <charconv>
#include <string>

#include "hb/error.h"
#include "hb/memory.h"
#include "nbody.h"
#include "nbody_kernels.cuh"  // written by hb_variant_kernels(nbody_ ...)

namespace ch14 {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = [] {
    constexpr std::size_t K = 1024;
    // The symmetric variants' portable form, below compute capability 9.0.
    const hb::Needs vector_atomics{
        90, "three scalar float atomics per sum instead of one float4 vector atomic"};
    std::vector<Variant> v;
    auto cpu = [&](int id, const char* name, const char* title, const char* source, CpuForcesFn* f,
                   Isa isa, std::size_t bodies) {
      v.push_back({id, name, title, source, Kind::Cpu, bodies, f, isa});
    };
    auto gpu = [&](int id, const char* name, const char* title, const char* source,
                   GpuLauncher f, GpuScratch scratch, const char* param_name,
                   std::vector<int> params, int default_param,
                   GpuSteps steps = enqueue_steps) {
      Variant& x = v.emplace_back(Variant{id, name, title, source, Kind::Gpu, 64 * K});
      x.gpu = f;
      x.scratch = scratch;
      x.steps = steps;
      x.param_name = param_name;
      x.params = std::move(params);
      x.default_param = default_param;
    };
    auto multi = [&](int id, const char* name, const char* title, MultiGpuRun f) {
      Variant& x = v.emplace_back(
          Variant{id, name, title, "section 14.6, Table 14.3", Kind::MultiGpu, 64 * K});
      x.multi = f;
      x.param_name = "bodies per thread";
      x.params = blocked_factors();
      x.default_param = 4;
    };

    // clang-format off
    cpu(0, "cpu_aos", "CPU scalar, AOS (the reference)", "listing 14.2, section 14.2",
        forces_cpu_aos, Isa::None, 4 * K);
    cpu(1, "cpu_soa", "CPU scalar, SOA", "section 14.7",
        forces_cpu_soa, Isa::None, 4 * K);
    cpu(2, "cpu_sse", "CPU SSE, one thread", "listing 14.8, section 14.7",
        forces_cpu_sse, Isa::Sse, 8 * K);
    cpu(3, "cpu_avx2", "CPU AVX2+FMA, one thread", "beyond the text (section 14.8 expects AVX)",
        forces_cpu_avx2, Isa::Avx2, 8 * K);
    cpu(4, "cpu_avx512", "CPU AVX-512, one thread", "beyond the text",
        forces_cpu_avx512, Isa::Avx512, 8 * K);
    cpu(5, "cpu_simd", "CPU SIMD, all cores", "listings 14.9-14.10, section 14.7",
        forces_cpu_simd_threads, Isa::None, 16 * K);
    gpu(6, "gpu_aos", "GPU naive, AOS from global memory", "listing 14.3, Table 14.1, section 14.2",
        launch_gpu_aos, nullptr, "unroll", unroll_factors(), 16);
    gpu(7, "gpu_shared", "GPU shared-memory tiles", "listing 14.4, Table 14.2, section 14.3",
        launch_gpu_shared, nullptr, "unroll", unroll_factors(), 4);
    gpu(8, "gpu_const", "GPU constant memory, 4000 bodies per pass", "listings 14.5-14.6, section 14.4",
        launch_gpu_const, nullptr, nullptr, {}, 0);
    gpu(9, "gpu_shuffle", "GPU warp shuffle", "listing 14.7, section 14.5",
        launch_gpu_shuffle, nullptr, nullptr, {}, 0);
    gpu(10, "gpu_blocked", "GPU several bodies per thread, split columns, rsqrt", "beyond the text",
        launch_gpu_blocked, blocked_scratch, "bodies per thread", blocked_factors(), 4);
    gpu(11, "gpu_symmetric", "GPU symmetric tiles (k = 32)", "figures 14.3-14.4, section 14.1.1",
        launch_gpu_symmetric, symmetric_scratch, nullptr, {}, 0);
    v.back().needs = vector_atomics;
    multi(12, "gpu_multi", "multi-GPU, one host thread", forces_multi_gpu);
    multi(13, "gpu_multi_threads", "multi-GPU, one host thread per GPU", forces_multi_gpu_threads);
    gpu(15, "gpu_graph", "GPU variant 10, each time step one CUDA graph launch", "beyond the text",
        launch_gpu_blocked, blocked_scratch, "bodies per thread", blocked_factors(), 4, enqueue_steps_graph);
    gpu(16, "gpu_symmetric_rows", "GPU symmetric tiles, two rows per lane (k = 64)", "beyond the text",
        launch_gpu_symmetric_rows, symmetric_scratch, nullptr, {}, 0);
    v.back().needs = vector_atomics;
    // clang-format on
    return v;
  }();
  return table;
}

// The text is a string_view, not a const std::string&: GCC 13 warns (-Wdangling-reference)
// when a function returning a reference is called with a temporary std::string.
const Variant& find_variant(std::string_view text, const char* flag) {
  const auto& all = variants();
  // A decimal id, leading zeros allowed ("07" is 7): digits only, no sign, nothing after them.
  unsigned long id = 0;
  const char* end = text.data() + text.size();
  if (const auto r = std::from_chars(text.data(), end, id); r.ec == std::errc() && r.ptr == end)
    for (const auto& v : all)
      if (static_cast<unsigned long>(v.id) == id) return v;
  for (const auto& v : all)
    if (text == v.name || text == v.program()) return v;
  throw hb::UsageError(std::string(flag) + " '" + hb::printable(std::string(text)) +
                       "': no such variant (an id 0-" + std::to_string(all.back().id) +
                       " or one of: " + variant_names() + ")");
}

std::string variant_names() {
  std::string s;
  for (const auto& v : variants()) s += (s.empty() ? "" : ", ") + std::string(v.name);
  return s;
}

namespace {

__global__ void kick(float* __restrict__ vel, const float* __restrict__ force, int n, float h) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    kick_body(vel + 3 * i, force + 3 * i, h);
}

__global__ void drift(float4* __restrict__ pos, const float* __restrict__ vel, int n, float dt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    drift_body(pos[i], vel + 3 * i, dt);
}

}  // namespace

// [nbody-leapfrog-device]
void enqueue_step(const GpuProblem& p, float* vel, GpuLauncher launch, int param, float dt,
                  cudaStream_t stream) {
  const int threads = 256, blocks = (p.n + threads - 1) / threads;
  kick<<<blocks, threads, 0, stream>>>(vel, p.force, p.n, 0.5f * dt);
  HB_CHECK_LAUNCH();
  drift<<<blocks, threads, 0, stream>>>(const_cast<float4*>(p.bodies), vel, p.n, dt);
  HB_CHECK_LAUNCH();
  launch(p, param, stream);
  kick<<<blocks, threads, 0, stream>>>(vel, p.force, p.n, 0.5f * dt);
  HB_CHECK_LAUNCH();
}

void enqueue_steps(const GpuProblem& p, float* vel, GpuLauncher launch, int param, float dt,
                   int steps, cudaStream_t stream) {
  for (int step = 0; step < steps; ++step) enqueue_step(p, vel, launch, param, dt, stream);
}

double simulate_device(State& s, GpuLauncher launch, int param, GpuScratch scratch, int steps,
                       float dt, float softening_sq, GpuSteps run) {
  const int n = static_cast<int>(s.bodies.n);
  if (n == 0) return 0.0;
  hb::DeviceBuffer<float4> pos(s.bodies.n), work(scratch != nullptr ? scratch(s.bodies.n) : 0);
  hb::DeviceBuffer<float> vel(3 * s.bodies.n), force(3 * s.bodies.n);
  hb::Stream stream;
  HB_CUDA_CHECK(cudaMemcpyAsync(pos.data(), s.bodies.aos.data(), pos.bytes(),
                                cudaMemcpyHostToDevice, stream));
  HB_CUDA_CHECK(cudaMemcpyAsync(vel.data(), s.vel.data(), vel.bytes(), cudaMemcpyHostToDevice,
                                stream));
  const GpuProblem p{force.data(), pos.data(), n, softening_sq, work.data(), work.size()};
  hb::Event start, stop;
  start.record(stream);
  launch(p, param, stream);  // the forces of the first kick
  run(p, vel.data(), launch, param, dt, steps, stream);
  stop.record(stream);
  HB_CUDA_CHECK(cudaMemcpyAsync(s.bodies.aos.data(), pos.data(), pos.bytes(),
                                cudaMemcpyDeviceToHost, stream));
  HB_CUDA_CHECK(cudaMemcpyAsync(s.vel.data(), vel.data(), vel.bytes(), cudaMemcpyDeviceToHost,
                                stream));
  stream.synchronize();
  s.bodies.sync_soa();
  return stop.elapsed_since(start);
}
// [nbody-leapfrog-device]

}  // namespace ch14
