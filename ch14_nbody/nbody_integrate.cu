// Leapfrog on the GPU: the bodies stay in device memory for the whole simulation; each step
// is a kick kernel, a drift kernel, one force evaluation and another kick.
#include "hb/error.h"
#include "hb/memory.h"
#include "nbody_integrate.h"

namespace ch14 {

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
double simulate_device(State& s, GpuLauncher launch, int param, GpuScratch scratch, int steps,
                       float dt, float softening_sq) {
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
  const int threads = 256, blocks = (n + threads - 1) / threads;
  hb::Event start, stop;
  start.record(stream);
  launch(p, param, stream);
  for (int step = 0; step < steps; ++step) {
    kick<<<blocks, threads, 0, stream>>>(vel.data(), force.data(), n, 0.5f * dt);
    drift<<<blocks, threads, 0, stream>>>(pos.data(), vel.data(), n, dt);
    launch(p, param, stream);
    kick<<<blocks, threads, 0, stream>>>(vel.data(), force.data(), n, 0.5f * dt);
    HB_CHECK_LAUNCH();
  }
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
