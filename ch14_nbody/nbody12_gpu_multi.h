/// \file
/// \brief Variants 12 and 13, section 14.6: the rows of the force matrix split across GPUs.
///
/// Compared with variant 10: the same kernel, on every GPU in the list at once. The bodies
/// sit in portable pinned host memory, which every GPU can copy from at the full bus rate;
/// GPU k copies all N bodies in, computes its own contiguous range of rows (about N / G of
/// them) and copies those accelerations back into the pinned output. Variant 12 drives all
/// GPUs from one host thread (every call is asynchronous, so one thread keeps them all busy);
/// variant 13 gives each GPU a host thread of its own, as the book's multithreaded version.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include <vector_types.h>

#include "hb/memory.h"

namespace ch14 {

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

/// Variant 12: one host thread enqueues every GPU's work, then waits for all of them. The
/// calling thread's current device is the same afterwards.
void forces_multi_gpu(MultiGpu& m);
/// Variant 13: one host thread per GPU (std::thread), each enqueues and waits for its own.
void forces_multi_gpu_threads(MultiGpu& m);

/// The devices 0 .. count-1.
std::vector<int> first_devices(int count);

}  // namespace ch14
