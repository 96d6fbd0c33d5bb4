// The four ways of section 11.1-11.4 to stream SAXPY through the GPU, plus one of ours.
//
// Every strategy moves the same bytes: x and y (8 bytes per element) to the GPU and out
// (4 bytes) back. What changes is how much of that traffic overlaps with the rest:
//   1 synchronous:  nothing overlaps; pageable memory also costs a staging copy on the CPU.
//   2 async:        pinned memory lets the copy engines run at the bus rate; still in sequence.
//   3 streams:      k chunks in k streams; chunk i's kernel and copy-out overlap chunk i+1's
//                   copy-in, but the first copy-in and the last copy-out stick out ("overhang").
//   4 mapped:       the kernel itself reads and writes host memory across the bus, so traffic
//                   in both directions overlaps with no copies at all.
//   5 pipelined:    (ours) many small chunks through one stream per engine.
#include "pipeline.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "hb/error.h"
#include "hb/timing.h"
#include "streaming.h"

namespace ch11 {

const char* host_kind_name(HostKind kind) {
  switch (kind) {
    case HostKind::Pageable: return "pageable";
    case HostKind::Pinned: return "pinned";
    case HostKind::Mapped: return "mapped pinned";
  }
  return "?";
}

HostArray::HostArray(std::size_t n, HostKind kind) : n_(n) {
  switch (kind) {
    case HostKind::Pageable:
      pageable_.resize(n);
      ptr_ = pageable_.data();
      break;
    case HostKind::Pinned:
      pinned_ = hb::PinnedBuffer<float>(n);
      ptr_ = pinned_.data();
      break;
    case HostKind::Mapped:
      mapped_ = hb::MappedBuffer<float>(n);
      ptr_ = mapped_.data();
      device_ptr_ = mapped_.device_data();
      break;
  }
}

const char* issue_order_name(IssueOrder order) {
  return order == IssueOrder::BreadthFirst ? "breadth-first" : "depth-first";
}

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

const StrategyInfo& strategy_info(Strategy id) {
  for (const auto& s : strategies())
    if (s.id == id) return s;
  throw std::invalid_argument("unknown strategy");
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

Range split_range(std::size_t n, int parts, int i) {
  if (parts < 1 || i < 0 || i >= parts) throw std::invalid_argument("split_range: bad part");
  const std::size_t base = n / std::size_t(parts), extra = n % std::size_t(parts);
  // The first `extra` parts get one element more.
  const std::size_t ii = std::size_t(i);
  const std::size_t begin = ii * base + std::min(ii, extra);
  return {begin, begin + base + (ii < extra ? 1 : 0)};
}

// [pipeline-chunks]
std::vector<Range> pipeline_chunks(std::size_t n, std::size_t chunk, std::size_t smallest) {
  if (chunk == 0 || smallest == 0) throw std::invalid_argument("pipeline_chunks: zero chunk");
  // The tail, from the end of the array backwards: smallest, smallest, 2 smallest, 4 smallest,
  // ... (each piece as large as all the pieces after it), up to chunk elements in all.
  const std::size_t tail = std::min(n, chunk);
  std::vector<std::size_t> tail_sizes;  // from the last piece backwards
  for (std::size_t done = 0, piece = smallest; done < tail;) {
    const std::size_t size = std::min(piece, tail - done);
    tail_sizes.push_back(size);
    done += size;
    if (tail_sizes.size() > 1) piece *= 2;
  }
  std::vector<Range> ranges;
  std::size_t begin = 0;
  const std::size_t head = n - tail;
  // The first chunk takes the remainder, so every later one before the tail is whole.
  if (head % chunk != 0) {
    ranges.push_back({0, head % chunk});
    begin = head % chunk;
  }
  for (; begin < head; begin += chunk) ranges.push_back({begin, begin + chunk});
  for (auto it = tail_sizes.rbegin(); it != tail_sizes.rend(); ++it) {
    ranges.push_back({begin, begin + *it});
    begin += *it;
  }
  return ranges;
}
// [pipeline-chunks]

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
    : n(n_), host(host_), hx(n_, host_), hy(n_, host_), hout(n_, host_) {
  if (host != HostKind::Mapped) {
    dx = hb::DeviceBuffer<float>(n);
    dy = hb::DeviceBuffer<float>(n);
    dout = hb::DeviceBuffer<float>(n);
  }
  streams.resize(static_cast<std::size_t>(std::max(stream_count, 3)));
}

void Pipeline::load(const float* x, const float* y) {
  if (n == 0) return;
  std::memcpy(hx.data(), x, n * sizeof(float));
  std::memcpy(hy.data(), y, n * sizeof(float));
}

void Pipeline::poison_output() {
  std::fill(hout.data(), hout.data() + n, std::numeric_limits<float>::quiet_NaN());
  if (!dout.empty()) {
    hb::poison(dout.data(), dout.bytes(), 0xFF);
    HB_CUDA_CHECK(cudaDeviceSynchronize());
  }
}

namespace {

// Copies that skip empty ranges (a chunk may be empty when n < streams).
void copy_async(float* dst, const float* src, std::size_t count, cudaMemcpyKind kind,
                cudaStream_t s) {
  if (count > 0) HB_CUDA_CHECK(cudaMemcpyAsync(dst, src, count * sizeof(float), kind, s));
}
void copy_sync(float* dst, const float* src, std::size_t count, cudaMemcpyKind kind) {
  if (count > 0) HB_CUDA_CHECK(cudaMemcpy(dst, src, count * sizeof(float), kind));
}

void require_device_arrays(const Pipeline& p, const char* what) {
  if (p.host == HostKind::Mapped)
    throw std::invalid_argument(std::string(what) + " needs device arrays (not a Mapped pipeline)");
}
void require_pinned(const Pipeline& p, const char* what) {
  require_device_arrays(p, what);
  if (p.host == HostKind::Pageable)
    throw std::invalid_argument(std::string(what) + " needs pinned host memory");
}

// Reads the stage events after p.stop has completed.
StageTimes stage_times(const Pipeline& p, double wall_ms) {
  StageTimes t;
  t.h2d_ms = p.after_h2d.elapsed_since(p.start);
  t.kernel_ms = p.after_kernel.elapsed_since(p.after_h2d);
  t.d2h_ms = p.stop.elapsed_since(p.after_kernel);
  t.events_ms = p.stop.elapsed_since(p.start);
  t.wall_ms = wall_ms;
  return t;
}
StageTimes total_times(const Pipeline& p, double wall_ms) {
  StageTimes t;
  t.events_ms = p.stop.elapsed_since(p.start);
  t.wall_ms = wall_ms;
  return t;
}

}  // namespace

StageTimes run_synchronous(Pipeline& p, float alpha) {
  require_device_arrays(p, "run_synchronous");
  hb::HostTimer wall;
  // [stream1-pipeline]
  // As in the book, everything goes to the legacy default stream (0). cudaMemcpy from pageable
  // memory returns only when the data has left the user's buffer, so the CPU waits at each step
  // and the events record when the GPU got the next request, bubbles included.
  p.start.record(0);
  copy_sync(p.dx.data(), p.hx.data(), p.n, cudaMemcpyHostToDevice);
  copy_sync(p.dy.data(), p.hy.data(), p.n, cudaMemcpyHostToDevice);
  p.after_h2d.record(0);
  PipelineKernel::launch(p.dout.data(), p.dx.data(), p.dy.data(), p.n, alpha, 0);
  p.after_kernel.record(0);
  copy_sync(p.hout.data(), p.dout.data(), p.n, cudaMemcpyDeviceToHost);
  p.stop.record(0);
  p.stop.synchronize();
  // [stream1-pipeline]
  return stage_times(p, wall.elapsed_ms());
}

StageTimes run_async(Pipeline& p, float alpha) {
  require_pinned(p, "run_async");
  const cudaStream_t s = p.streams[0];
  hb::HostTimer wall;
  // [stream2-pipeline]
  // The same sequence, but every call only enqueues work: the CPU issues all of it at once and
  // the GPU records each event when it gets there. Pinned memory lets the copy engines read
  // and write the host arrays directly.
  p.start.record(s);
  copy_async(p.dx.data(), p.hx.data(), p.n, cudaMemcpyHostToDevice, s);
  copy_async(p.dy.data(), p.hy.data(), p.n, cudaMemcpyHostToDevice, s);
  p.after_h2d.record(s);
  PipelineKernel::launch(p.dout.data(), p.dx.data(), p.dy.data(), p.n, alpha, s);
  p.after_kernel.record(s);
  copy_async(p.hout.data(), p.dout.data(), p.n, cudaMemcpyDeviceToHost, s);
  p.stop.record(s);
  p.stop.synchronize();
  // [stream2-pipeline]
  return stage_times(p, wall.elapsed_ms());
}

StageTimes run_streams(Pipeline& p, float alpha, int k, IssueOrder order) {
  require_pinned(p, "run_streams");
  if (k < 1 || std::size_t(k) > p.streams.size())
    throw std::invalid_argument("run_streams: stream count out of range");
  auto stream = [&](int i) -> cudaStream_t { return p.streams[std::size_t(i)]; };
  // Chunk i of each array is split_range(n, k, i): unlike the book's N / nStreams, the
  // remainder is not dropped.
  auto copy_in = [&](int i) {
    const Range r = split_range(p.n, k, i);
    copy_async(p.dx.data() + r.begin, p.hx.data() + r.begin, r.size(), cudaMemcpyHostToDevice,
               stream(i));
    copy_async(p.dy.data() + r.begin, p.hy.data() + r.begin, r.size(), cudaMemcpyHostToDevice,
               stream(i));
  };
  auto compute = [&](int i) {
    const Range r = split_range(p.n, k, i);
    PipelineKernel::launch(p.dout.data() + r.begin, p.dx.data() + r.begin, p.dy.data() + r.begin,
                           r.size(), alpha, stream(i));
  };
  auto copy_out = [&](int i) {
    const Range r = split_range(p.n, k, i);
    copy_async(p.hout.data() + r.begin, p.dout.data() + r.begin, r.size(), cudaMemcpyDeviceToHost,
               stream(i));
  };

  hb::HostTimer wall;
  // Our streams are non-blocking, so they do not wait for each other through the default
  // stream as the book's did: stream 0 forks the others off an event and joins them at the end,
  // and the two timing events bracket everything, as in the book.
  p.start.record(stream(0));
  for (int i = 1; i < k; ++i) HB_CUDA_CHECK(cudaStreamWaitEvent(stream(i), p.start, 0));
  // [stream3-issue]
  if (order == IssueOrder::BreadthFirst) {
    // Listing 11.6: every chunk's copies in, then every kernel, then every copy out.
    for (int i = 0; i < k; ++i) copy_in(i);
    for (int i = 0; i < k; ++i) compute(i);
    for (int i = 0; i < k; ++i) copy_out(i);
  } else {
    // The same operations chunk by chunk.
    for (int i = 0; i < k; ++i) {
      copy_in(i);
      compute(i);
      copy_out(i);
    }
  }
  // [stream3-issue]
  for (int i = 1; i < k; ++i) {
    // A wait sees the event's most recent record at the time of the call, so one event serves
    // every stream in turn.
    p.done.record(stream(i));
    HB_CUDA_CHECK(cudaStreamWaitEvent(stream(0), p.done, 0));
  }
  p.stop.record(stream(0));
  p.stop.synchronize();
  return total_times(p, wall.elapsed_ms());
}

StageTimes run_mapped(Pipeline& p, float alpha) {
  if (p.host != HostKind::Mapped)
    throw std::invalid_argument("run_mapped needs mapped host memory");
  const cudaStream_t s = p.streams[0];
  hb::HostTimer wall;
  // [stream4-pipeline]
  // Listing 11.7: the kernel gets the device aliases of the mapped host arrays. Each warp's
  // loads become reads across the bus, and its stores are posted writes that need no reply.
  p.start.record(s);
  PipelineKernel::launch(p.hout.device_data(), p.hx.device_data(), p.hy.device_data(), p.n, alpha,
                         s);
  p.stop.record(s);
  p.stop.synchronize();
  // [stream4-pipeline]
  // The kernel is the whole pipeline here: its time is the total.
  return total_times(p, wall.elapsed_ms());
}

// Beyond the text. SAXPY on data in host memory can be no faster than the bus: 8 bytes per
// element must go up and 4 come down (transfer_bound()). Our target is a pipeline
// within 5% of that bound; stream3 falls short for two reasons. Its "overhang": nothing
// overlaps the first chunk's copy-in or the last chunk's copy-out, so with k chunks about 1/k
// of the shorter direction is exposed (with the book's 8 streams, 1/8 of the device->host
// time, several percent of the total). And on GPUs with several copy engines, copies issued
// to different streams may run on different engines at once; then the k copy-ins share the
// bus and finish together, and the first kernel starts late.
//
// We therefore cut the arrays into chunks (by default the best of 1M to 32M floats) and give
// each engine one stream: all copies in go, in order, to one stream (one engine at the full
// bus rate, chunks arriving one after another), kernels to a second, copies out to a third,
// and an event hands each chunk from one stream to the next. The overhang is then the last
// chunk's kernel and copy-out, so the last chunks halve in size down to 256K floats
// (pipeline_chunks()): what sticks out at the end is 1 MB back, about 20 us, while the large
// chunks before them keep the number of operations (and the small gaps between copies) low.
// What remains between us and the bound is that per-chunk overhead and however much the
// copy-in slows down while the copy-out runs beside it (row 0c of the driver measures that).
//
// We considered mapped output with copied inputs (the kernel writing `out` straight to host
// memory): it overlaps as well, but keeps SMs waiting on posted writes for the whole pipeline
// and ties the kernel's speed to PCIe write behaviour; the copy engine does the same for free.
StageTimes run_pipelined(Pipeline& p, float alpha, std::size_t chunk) {
  require_pinned(p, "run_pipelined");
  if (chunk == 0) throw std::invalid_argument("run_pipelined: chunk must be at least 1");
  const cudaStream_t in = p.streams[0], work = p.streams[1], out = p.streams[2];
  const std::vector<Range> chunks = pipeline_chunks(p.n, chunk);  // before the clock starts
  hb::HostTimer wall;
  // [pipelined-issue]
  p.start.record(in);
  HB_CUDA_CHECK(cudaStreamWaitEvent(out, p.start, 0));  // so `stop` follows `start` even if n == 0
  for (const Range r : chunks) {
    const std::size_t begin = r.begin, len = r.size();
    copy_async(p.dx.data() + begin, p.hx.data() + begin, len, cudaMemcpyHostToDevice, in);
    copy_async(p.dy.data() + begin, p.hy.data() + begin, len, cudaMemcpyHostToDevice, in);
    p.ready.record(in);  // this chunk's inputs are on the device
    HB_CUDA_CHECK(cudaStreamWaitEvent(work, p.ready, 0));
    PipelineKernel::launch(p.dout.data() + begin, p.dx.data() + begin, p.dy.data() + begin, len,
                           alpha, work);
    p.done.record(work);  // this chunk's results are ready
    HB_CUDA_CHECK(cudaStreamWaitEvent(out, p.done, 0));
    copy_async(p.hout.data() + begin, p.dout.data() + begin, len, cudaMemcpyDeviceToHost, out);
  }
  // The copy-out stream waited for every kernel, and each kernel for its copies in, so its end
  // is the end of everything.
  p.stop.record(out);
  p.stop.synchronize();
  // [pipelined-issue]
  return total_times(p, wall.elapsed_ms());
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
  auto median = [&](double StageTimes::*field) {
    std::vector<double> v;
    for (const auto& r : runs)
      if (!std::isnan(r.*field)) v.push_back(r.*field);
    return v.empty() ? StageTimes::kUnknown : hb::summarize(v).median_ms;
  };
  StageTimes m;
  m.h2d_ms = median(&StageTimes::h2d_ms);
  m.kernel_ms = median(&StageTimes::kernel_ms);
  m.d2h_ms = median(&StageTimes::d2h_ms);
  m.events_ms = median(&StageTimes::events_ms);
  m.wall_ms = median(&StageTimes::wall_ms);
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
