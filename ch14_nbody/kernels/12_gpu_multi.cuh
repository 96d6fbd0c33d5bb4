/// \file
/// \brief Chapter 14, variant 12: multi-GPU, one host thread.
///
/// This file also holds the state both multi-GPU variants share (MultiGpu, declared in nbody.h).
/* [changed]
Compared with variant 10: the same kernel on every GPU at once (section 14.6). The bodies sit in
portable pinned host memory; GPU k copies all of them in, computes its own range of about N/G
rows and copies those back. One host thread drives all GPUs.
[changed] */
#pragma once

#include "hb/error.h"
#include "nbody.h"

namespace ch14 {

MultiGpu::MultiGpu(std::vector<int> devices, std::size_t n, float softening_sq,
                   int bodies_per_thread)
    : n_(n),
      softening_sq_(softening_sq),
      bodies_per_thread_(bodies_per_thread),
      bodies_(n),
      force_(3 * n) {
  HB_CUDA_CHECK(cudaGetDevice(&previous_device_));
  const std::size_t g = devices.size();
  for (std::size_t k = 0; k < g; ++k) {
    // Slot k's device must be current while its buffers and stream are made.
    HB_CUDA_CHECK(cudaSetDevice(devices[k]));
    auto s = std::make_unique<Slot>();
    s->device = devices[k];
    s->row_begin = static_cast<int>(n * k / g);
    s->rows = static_cast<int>(n * (k + 1) / g) - s->row_begin;
    s->bodies = hb::DeviceBuffer<float4>(n);
    s->force = hb::DeviceBuffer<float>(3 * std::size_t(s->rows));
    s->scratch = hb::DeviceBuffer<float4>(blocked_scratch(std::size_t(s->rows)));
    slots_.push_back(std::move(s));
  }
  HB_CUDA_CHECK(cudaSetDevice(previous_device_));
}

MultiGpu::~MultiGpu() {
  // Each slot's stream and buffers are released with their own device current.
  for (auto& s : slots_) {
    cudaSetDevice(s->device);
    s.reset();
  }
  cudaSetDevice(previous_device_);
}

std::vector<int> first_devices(int count) {
  std::vector<int> d;
  for (int k = 0; k < count; ++k) d.push_back(k);
  return d;
}

// [nbody-multi-enqueue]
void enqueue_slot(MultiGpu& m, MultiGpu::Slot& s) {
  HB_CUDA_CHECK(cudaSetDevice(s.device));
  if (s.rows == 0) return;
  HB_CUDA_CHECK(cudaMemcpyAsync(s.bodies.data(), m.host_bodies(), m.n() * sizeof(float4),
                                cudaMemcpyHostToDevice, s.stream));
  launch_gpu_blocked_rows(s.bodies.data(), static_cast<int>(m.n()), s.row_begin, s.rows,
                          s.force.data(), m.softening_sq(), m.bodies_per_thread(),
                          s.scratch.data(), s.scratch.size(), s.stream);
  HB_CUDA_CHECK(cudaMemcpyAsync(m.host_force() + 3 * std::size_t(s.row_begin), s.force.data(),
                                s.force.bytes(), cudaMemcpyDeviceToHost, s.stream));
}
// [nbody-multi-enqueue]

// [nbody-multi-single-thread]
void forces_multi_gpu(MultiGpu& m) {
  // Every call above is asynchronous: the loop returns at once and all GPUs work together.
  int current = 0;
  HB_CUDA_CHECK(cudaGetDevice(&current));
  for (auto& s : m.slots()) enqueue_slot(m, *s);
  for (auto& s : m.slots()) s->stream.synchronize();
  HB_CUDA_CHECK(cudaSetDevice(current));
}
// [nbody-multi-single-thread]

}  // namespace ch14
