/// \file
/// \brief Chapter 14, variant 15: GPU time step as one CUDA graph (variant 10's kernels).
/* [changed]
Compared with variant 10: the same kernels, launched differently. One time step of the
simulation (a half kick, a drift, variant 10's force kernels and the second half kick: four or
five kernel launches) is recorded once, by stream capture, into a CUDA graph; the graph is
instantiated once, and every step is then one cudaGraphLaunch. The forces, and so this row of
the table, are variant 10's; what changes is the simulation's time per step.
[changed] */
/* [notes]
A graph saves the CPU's work per launch: each kernel launch costs the host some driver work,
and the GPU may wait for it between two short kernels. A replayed graph hands
the driver the whole step at once, already checked and laid out, so one call starts four or five
kernels. That matters when a step's kernels are short, that is at small body counts; at large
ones the O(N^2) force kernel dominates and the step takes as long as before, because a graph
does not make a kernel itself any faster. Capture records the launches exactly as enqueued,
with their arguments, grids and the slice plan of that moment: the bodies, buffers and sizes
must stay the same for every replay, which is true of a simulation that keeps its bodies in
place. The one capture and instantiation count in the simulation's time.
[notes] */
#pragma once

#include <memory>
#include <type_traits>

#include "hb/error.h"
#include "nbody.h"

namespace ch14 {

// [nbody-graph-owners]
/// A graph and its executable form are plain handles; a unique_ptr with the matching destroy
/// function owns each, so every way out of a function, an exception too, frees them.
struct GraphDelete {
  void operator()(cudaGraph_t g) const { cudaGraphDestroy(g); }
};
struct GraphExecDelete {
  void operator()(cudaGraphExec_t e) const { cudaGraphExecDestroy(e); }
};
using Graph = std::unique_ptr<std::remove_pointer_t<cudaGraph_t>, GraphDelete>;
using GraphExec = std::unique_ptr<std::remove_pointer_t<cudaGraphExec_t>, GraphExecDelete>;
// [nbody-graph-owners]

// [nbody-graph-capture]
/// Records the work of one enqueue_step() on \p stream into a graph; none of it runs. If the
/// step throws, the capture is ended (the stream is usable again) and its graph freed.
inline Graph capture_step(const GpuProblem& p, float* vel, GpuLauncher launch, int param,
                          float dt, cudaStream_t stream) {
  HB_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  try {
    enqueue_step(p, vel, launch, param, dt, stream);
  } catch (...) {
    cudaGraph_t partial = nullptr;
    cudaStreamEndCapture(stream, &partial);
    const Graph discarded{partial};
    throw;
  }
  cudaGraph_t g = nullptr;
  HB_CUDA_CHECK(cudaStreamEndCapture(stream, &g));
  return Graph{g};
}

/// The leapfrog steps of variant 15: one step captured and instantiated once, then launched
/// \p steps times. Destroying an executable graph that is still running is allowed: CUDA frees
/// it when the last launch is done.
void enqueue_steps_graph(const GpuProblem& p, float* vel, GpuLauncher launch, int param,
                         float dt, int steps, cudaStream_t stream) {
  if (steps <= 0) return;
  const Graph step = capture_step(p, vel, launch, param, dt, stream);
  cudaGraphExec_t instantiated = nullptr;
  HB_CUDA_CHECK(cudaGraphInstantiate(&instantiated, step.get(), 0));
  const GraphExec exec{instantiated};
  for (int s = 0; s < steps; ++s) HB_CUDA_CHECK(cudaGraphLaunch(exec.get(), stream));
}
// [nbody-graph-capture]

}  // namespace ch14
