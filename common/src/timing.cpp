#include "hb/timing.h"

#include <algorithm>

#include "hb/error.h"
#include "hb/memory.h"

namespace hb {

TimingStats summarize(std::vector<double> samples) {
  TimingStats s{0.0, 0.0, 0.0, samples};
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  s.median_ms = (n % 2 == 1) ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  s.min_ms = samples.front();
  s.max_ms = samples.back();
  return s;
}

TimingStats time_host(const std::function<void()>& fn, int warmup, int iters) {
  for (int i = 0; i < warmup; ++i) fn();
  std::vector<double> samples;
  for (int i = 0; i < iters; ++i) {
    HostTimer t;
    fn();
    samples.push_back(t.elapsed_ms());
  }
  return summarize(std::move(samples));
}

TimingStats time_events(const std::function<void(cudaStream_t)>& fn, cudaStream_t stream,
                        int warmup, int iters) {
  for (int i = 0; i < warmup; ++i) fn(stream);
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<std::pair<Event, Event>> marks(static_cast<std::size_t>(std::max(iters, 0)));
  for (const auto& [start, stop] : marks) {
    start.record(stream);
    fn(stream);
    stop.record(stream);
  }
  HB_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<double> samples;
  for (const auto& [start, stop] : marks) samples.push_back(stop.elapsed_since(start));
  return summarize(std::move(samples));
}

}  // namespace hb
