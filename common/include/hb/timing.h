/// \file
/// \brief Timers: host wall clock (std::chrono::steady_clock) and CUDA events, each with a
///        warm-up and the median of repetitions.
#pragma once

#include <chrono>
#include <functional>
#include <vector>

#include <cuda_runtime_api.h>

namespace hb {

/// Summary of repeated timings, in milliseconds.
struct TimingStats {
  double median_ms = 0.0, min_ms = 0.0, max_ms = 0.0;
  std::vector<double> samples_ms;  ///< in the order measured
};

/// Median, min and max of \p samples (an empty vector gives all zeros).
TimingStats summarize(std::vector<double> samples);

/// Wall-clock stopwatch for host work (including synchronous CUDA calls).
class HostTimer {
 public:
  HostTimer() : start_(std::chrono::steady_clock::now()) {}
  void restart() { start_ = std::chrono::steady_clock::now(); }
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

/// Times \p fn with the host clock: \p warmup untimed calls, then \p iters timed ones.
/// \p fn must finish its own work before returning (synchronize if it launches kernels).
TimingStats time_host(const std::function<void()>& fn, int warmup, int iters);

/// Times the work \p fn enqueues on \p stream with CUDA events around each repetition, after
/// \p warmup untimed calls. The repetitions are enqueued back to back and the host synchronizes
/// once, so host overhead between launches does not show unless the GPU runs dry.
TimingStats time_events(const std::function<void(cudaStream_t)>& fn, cudaStream_t stream,
                        int warmup, int iters);

}  // namespace hb
