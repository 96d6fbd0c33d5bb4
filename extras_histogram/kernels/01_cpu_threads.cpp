/// \file
/// \brief Histograms, variant 1: CPU, all cores, private histograms merged (the post's method 2).
#include <algorithm>
#include <array>
#include <thread>
#include <vector>

#include "histogram.h"

namespace histo {

namespace {
// [histogram-cpu-private]
// One thread's share. Four private histograms, byte i counted in histogram i % 4: a run of
// equal bytes would otherwise make every increment wait for the store of the one before it
// (the CPU's own read-modify-write chain, the same one variant 14 cuts on the GPU).
void count_share(const std::uint8_t* in, std::size_t n, std::uint32_t* bins) {
  std::array<std::array<std::uint32_t, kBins>, 4> h{};
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    h[0][in[i]]++;
    h[1][in[i + 1]]++;
    h[2][in[i + 2]]++;
    h[3][in[i + 3]]++;
  }
  for (; i < n; ++i) h[0][in[i]]++;
  for (int b = 0; b < kBins; ++b) bins[b] = h[0][b] + h[1][b] + h[2][b] + h[3][b];
}
// [histogram-cpu-private]
}  // namespace

// [histogram-cpu-threads]
void histogram_cpu_threads(const std::uint8_t* in, std::size_t n, std::uint32_t* bins,
                           unsigned threads) {
  if (threads == 0) {
    // All cores, but shares of at least 64 KiB: below that a thread costs more to start than
    // it saves.
    const std::size_t min_share = std::size_t(1) << 16;
    threads = std::max(1u, std::thread::hardware_concurrency());
    threads = unsigned(std::min<std::size_t>(threads, std::max<std::size_t>(1, n / min_share)));
  }
  threads = unsigned(std::min<std::size_t>(threads, std::max<std::size_t>(1, n)));
  std::vector<std::array<std::uint32_t, kBins>> partial(threads);
  // Joins whatever was started, also when starting a thread throws.
  struct Pool {
    std::vector<std::thread> threads;
    ~Pool() {
      for (auto& th : threads)
        if (th.joinable()) th.join();
    }
  } pool;
  const std::size_t share = (n + threads - 1) / threads;
  for (unsigned t = 1; t < threads; ++t) {
    const std::size_t begin = std::min(n, t * share), end = std::min(n, begin + share);
    pool.threads.emplace_back(count_share, in + begin, end - begin, partial[t].data());
  }
  count_share(in, std::min(n, share), partial[0].data());
  for (auto& th : pool.threads) th.join();
  // The reduction: add the private histograms bin by bin.
  for (int b = 0; b < kBins; ++b) {
    std::uint32_t sum = 0;
    for (const auto& p : partial) sum += p[b];
    bins[b] = sum;
  }
}
// [histogram-cpu-threads]

}  // namespace histo
