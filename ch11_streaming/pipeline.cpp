// The machinery of chapter 11's pipelines (pipeline.h): host memory of each kind, the strategy
// table, the steps the strategies (kernels/04_pipelines.cpp) are made of, and their
// measurement.
#include "pipeline.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "hb/error.h"
#include "hb/timing.h"
#include "streaming.h"

namespace ch11 {

HostArray::HostArray(std::size_t n, HostKind kind)
    : pageable(kind == HostKind::Pageable ? n : 0),
      pinned(kind == HostKind::Pinned ? n : 0),
      mapped(kind == HostKind::Mapped ? n : 0),
      ptr(kind == HostKind::Pageable ? pageable.data()
          : kind == HostKind::Pinned ? pinned.data()
                                     : mapped.data()) {}

const std::vector<StrategyInfo>& strategies() {
  static const std::vector<StrategyInfo> table = {
      {Strategy::Synchronous, "stream1_device", "synchronous (pageable)", HostKind::Pageable},
      {Strategy::Async, "stream2_async", "async (pinned)", HostKind::Pinned},
      {Strategy::Streams, "stream3_streams", "streams", HostKind::Pinned},
      {Strategy::Mapped, "stream4_mapped", "mapped (zero-copy)", HostKind::Mapped},
      {Strategy::Pipelined, "streaming", "pipelined (beyond the text)", HostKind::Pinned},
  };
  return table;
}

std::string describe(const StrategyConfig& c) {
  std::string s = strategy_info(c.strategy).name;
  if (c.strategy == Strategy::Streams) {
    s += std::string(", ") + issue_order_name(c.order) + ", " + std::to_string(c.streams) +
         (c.streams == 1 ? " stream" : " streams");
  } else if (c.strategy == Strategy::Pipelined) {
    const bool whole_m = c.chunk % (std::size_t(1) << 20) == 0;
    s += ", chunks of " +
         (whole_m ? std::to_string(c.chunk >> 20) + "M" : std::to_string(c.chunk)) + " floats";
    if (c.chunk > kSmallestChunk) s += " halving to 256K at the end";
  }
  return s;
}

std::vector<std::size_t> pipeline_chunk_candidates(std::size_t n, std::size_t chunk) {
  std::vector<std::size_t> chunks;
  if (chunk > 0) {
    chunks = {chunk};
  } else {
    for (const int m : {1, 2, 4, 8, 16, 32}) chunks.push_back(std::size_t(m) << 20);
  }
  for (std::size_t& c : chunks) c = std::min(c, n);
  chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
  return chunks;
}

Pipeline::Pipeline(std::size_t n_, HostKind host_, int stream_count)
    : n(n_),
      host(host_),
      hx(n_, host_),
      hy(n_, host_),
      hout(n_, host_),
      dx(host_ == HostKind::Mapped ? 0 : n_),
      dy(host_ == HostKind::Mapped ? 0 : n_),
      dout(host_ == HostKind::Mapped ? 0 : n_) {
  streams.resize(static_cast<std::size_t>(std::max(stream_count, 3)));
}

void Pipeline::load(const float* x, const float* y) {
  std::copy_n(x, n, hx.data());
  std::copy_n(y, n, hy.data());
}

void Pipeline::poison_output() {
  std::fill(hout.data(), hout.data() + n, std::numeric_limits<float>::quiet_NaN());
  if (!dout.empty()) {
    hb::poison(dout.data(), dout.bytes(), 0xFF);
    HB_CUDA_CHECK(cudaDeviceSynchronize());
  }
}

void Pipeline::require_device_arrays(const char* what, bool pinned) const {
  if (host == HostKind::Mapped)
    throw std::invalid_argument(std::string(what) + " needs device arrays (not a Mapped pipeline)");
  if (pinned && host == HostKind::Pageable)
    throw std::invalid_argument(std::string(what) + " needs pinned host memory");
}

namespace {
void copy_async(float* dst, const float* src, std::size_t count, cudaMemcpyKind kind,
                cudaStream_t s) {
  if (count > 0) HB_CUDA_CHECK(cudaMemcpyAsync(dst, src, count * sizeof(float), kind, s));
}
}  // namespace

void Pipeline::copy_in(Range r, cudaStream_t s) {
  copy_async(dx.data() + r.begin, hx.data() + r.begin, r.size(), cudaMemcpyHostToDevice, s);
  copy_async(dy.data() + r.begin, hy.data() + r.begin, r.size(), cudaMemcpyHostToDevice, s);
}

void Pipeline::compute(Range r, float alpha, cudaStream_t s) {
  launch_pipeline_kernel(dout.data() + r.begin, dx.data() + r.begin, dy.data() + r.begin,
                         r.size(), alpha, s);
}

void Pipeline::copy_out(Range r, cudaStream_t s) {
  copy_async(hout.data() + r.begin, dout.data() + r.begin, r.size(), cudaMemcpyDeviceToHost, s);
}

StageTimes Pipeline::times(double wall_ms, bool stages) const {
  StageTimes t;
  if (stages) {
    t.h2d_ms = after_h2d.elapsed_since(start);
    t.kernel_ms = after_kernel.elapsed_since(after_h2d);
    t.d2h_ms = stop.elapsed_since(after_kernel);
  }
  t.events_ms = stop.elapsed_since(start);
  t.wall_ms = wall_ms;
  return t;
}

StageTimes run_strategy(Pipeline& p, const StrategyConfig& c, float alpha) {
  switch (c.strategy) {
    case Strategy::Synchronous: return run_synchronous(p, alpha);
    case Strategy::Async: return run_async(p, alpha);
    case Strategy::Streams: return run_streams(p, alpha, c.streams, c.order);
    case Strategy::Mapped: return run_mapped(p, alpha);
    case Strategy::Pipelined: return run_pipelined(p, alpha, c.chunk);
  }
  throw std::invalid_argument("unknown strategy");
}

StageTimes median_times(const std::vector<StageTimes>& runs) {
  StageTimes m;
  for (double StageTimes::*field : {&StageTimes::h2d_ms, &StageTimes::kernel_ms,
                                    &StageTimes::d2h_ms, &StageTimes::events_ms,
                                    &StageTimes::wall_ms}) {
    std::vector<double> v;
    for (const auto& r : runs)
      if (!std::isnan(r.*field)) v.push_back(r.*field);
    m.*field = v.empty() ? StageTimes::kUnknown : hb::summarize(v).median_ms;
  }
  return m;
}

StageTimes measure_strategy(Pipeline& p, const StrategyConfig& c, float alpha, int warmup,
                            int iters) {
  for (int i = 0; i < warmup; ++i) run_strategy(p, c, alpha);
  std::vector<StageTimes> runs;
  for (int i = 0; i < iters; ++i) runs.push_back(run_strategy(p, c, alpha));
  return median_times(runs);
}

TransferBound transfer_bound(std::size_t n, double h2d_gbs, double d2h_gbs) {
  if (!(h2d_gbs > 0) || !(d2h_gbs > 0))
    throw std::invalid_argument("transfer_bound: rates must be positive");
  const double elements = static_cast<double>(n);
  auto ms = [](double bytes, double rate_gbs) { return bytes / (rate_gbs * 1e9) * 1e3; };
  TransferBound b{ms(kH2DBytesPerElement * elements, h2d_gbs), "host->device"};
  const double down = ms(kD2HBytesPerElement * elements, d2h_gbs);
  if (down > b.ms) b = {down, "device->host"};
  return b;
}

}  // namespace ch11
