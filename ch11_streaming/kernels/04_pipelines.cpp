// The four ways of section 11.1-11.4 to stream SAXPY through the GPU, plus one of ours: host
// code that enqueues the copies and the kernel of kernels/02_unrolled.cuh on a Pipeline
// (pipeline.h), which made every buffer, stream and event beforehand.
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
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "hb/error.h"
#include "hb/timing.h"
#include "pipeline.h"
#include "streaming.h"

namespace ch11 {

StageTimes run_synchronous(Pipeline& p, float alpha) {
  p.require_device_arrays("run_synchronous", false);
  // Copies that skip an empty array.
  auto copy = [](float* dst, const float* src, std::size_t count, cudaMemcpyKind kind) {
    if (count > 0) HB_CUDA_CHECK(cudaMemcpy(dst, src, count * sizeof(float), kind));
  };
  hb::HostTimer wall;
  // [stream1-pipeline]
  // As in the book, everything goes to the legacy default stream (0). cudaMemcpy from pageable
  // memory returns only when the data has left the user's buffer, so the CPU waits at each step
  // and the events record when the GPU got the next request, bubbles included.
  p.start.record(0);
  copy(p.dx.data(), p.hx.data(), p.n, cudaMemcpyHostToDevice);
  copy(p.dy.data(), p.hy.data(), p.n, cudaMemcpyHostToDevice);
  p.after_h2d.record(0);
  launch_pipeline_kernel(p.dout.data(), p.dx.data(), p.dy.data(), p.n, alpha, 0);
  p.after_kernel.record(0);
  copy(p.hout.data(), p.dout.data(), p.n, cudaMemcpyDeviceToHost);
  p.stop.record(0);
  p.stop.synchronize();
  // [stream1-pipeline]
  return p.times(wall.elapsed_ms(), true);
}

StageTimes run_async(Pipeline& p, float alpha) {
  p.require_device_arrays("run_async", true);
  const cudaStream_t s = p.streams[0];
  const Range all{0, p.n};
  hb::HostTimer wall;
  // [stream2-pipeline]
  // The same sequence, but every call only enqueues work (cudaMemcpyAsync and the launch): the
  // CPU issues all of it at once and the GPU records each event when it gets there. Pinned
  // memory lets the copy engines read and write the host arrays directly.
  p.start.record(s);
  p.copy_in(all, s);
  p.after_h2d.record(s);
  p.compute(all, alpha, s);
  p.after_kernel.record(s);
  p.copy_out(all, s);
  p.stop.record(s);
  p.stop.synchronize();
  // [stream2-pipeline]
  return p.times(wall.elapsed_ms(), true);
}

Range split_range(std::size_t n, int parts, int i) {
  if (parts < 1 || i < 0 || i >= parts) throw std::invalid_argument("split_range: bad part");
  const std::size_t base = n / std::size_t(parts), extra = n % std::size_t(parts);
  // The first `extra` parts get one element more.
  const std::size_t ii = std::size_t(i);
  const std::size_t begin = ii * base + std::min(ii, extra);
  return {begin, begin + base + (ii < extra ? 1 : 0)};
}

StageTimes run_streams(Pipeline& p, float alpha, int k, IssueOrder order) {
  p.require_device_arrays("run_streams", true);
  if (k < 1 || std::size_t(k) > p.streams.size())
    throw std::invalid_argument("run_streams: stream count out of range");
  auto stream = [&](int i) -> cudaStream_t { return p.streams[std::size_t(i)]; };
  // Chunk i of each array is split_range(n, k, i): unlike the book's N / nStreams, the
  // remainder is not dropped.
  auto chunk = [&](int i) { return split_range(p.n, k, i); };

  hb::HostTimer wall;
  // Our streams are non-blocking, so they do not wait for each other through the default
  // stream as the book's did: stream 0 forks the others off an event and joins them at the end,
  // and the two timing events bracket everything, as in the book.
  p.start.record(stream(0));
  for (int i = 1; i < k; ++i) HB_CUDA_CHECK(cudaStreamWaitEvent(stream(i), p.start, 0));
  // [stream3-issue]
  if (order == IssueOrder::BreadthFirst) {
    // Listing 11.6: every chunk's copies in, then every kernel, then every copy out.
    for (int i = 0; i < k; ++i) p.copy_in(chunk(i), stream(i));
    for (int i = 0; i < k; ++i) p.compute(chunk(i), alpha, stream(i));
    for (int i = 0; i < k; ++i) p.copy_out(chunk(i), stream(i));
  } else {
    // The same operations chunk by chunk.
    for (int i = 0; i < k; ++i) {
      p.copy_in(chunk(i), stream(i));
      p.compute(chunk(i), alpha, stream(i));
      p.copy_out(chunk(i), stream(i));
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
  return p.times(wall.elapsed_ms(), false);
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
  launch_pipeline_kernel(p.hout.device_data(), p.hx.device_data(), p.hy.device_data(), p.n,
                         alpha, s);
  p.stop.record(s);
  p.stop.synchronize();
  // [stream4-pipeline]
  // The kernel is the whole pipeline here: its time is the total.
  return p.times(wall.elapsed_ms(), false);
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
  p.require_device_arrays("run_pipelined", true);
  if (chunk == 0) throw std::invalid_argument("run_pipelined: chunk must be at least 1");
  const cudaStream_t in = p.streams[0], work = p.streams[1], out = p.streams[2];
  const std::vector<Range> chunks = pipeline_chunks(p.n, chunk);  // before the clock starts
  hb::HostTimer wall;
  // [pipelined-issue]
  p.start.record(in);
  HB_CUDA_CHECK(cudaStreamWaitEvent(out, p.start, 0));  // so `stop` follows `start` even if n == 0
  for (const Range r : chunks) {
    p.copy_in(r, in);
    p.ready.record(in);  // this chunk's inputs are on the device
    HB_CUDA_CHECK(cudaStreamWaitEvent(work, p.ready, 0));
    p.compute(r, alpha, work);
    p.done.record(work);  // this chunk's results are ready
    HB_CUDA_CHECK(cudaStreamWaitEvent(out, p.done, 0));
    p.copy_out(r, out);
  }
  // The copy-out stream waited for every kernel, and each kernel for its copies in, so its end
  // is the end of everything.
  p.stop.record(out);
  p.stop.synchronize();
  // [pipelined-issue]
  return p.times(wall.elapsed_ms(), false);
}

}  // namespace ch11
