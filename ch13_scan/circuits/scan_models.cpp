// The chapter's CUDA scans as CPU models, checked on symbolic inputs, and drawn as the figures
// of sections 13.1, 13.2, 13.4 and 13.5.
#include "scan_models.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "scan.h"

namespace ch13 {

namespace {

bool power_of_two(long long n) { return n >= 1 && (n & (n - 1)) == 0; }

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

void note(std::string* error, const std::string& what) {
  if (error != nullptr && error->empty()) *error = what;
}

}  // namespace

Span join(Span left, Span right, std::string* error) {
  if (left.empty()) return right;
  if (right.empty()) return left;
  if (left.hi + 1 != right.lo) {
    note(error, span_text(left) + " + " + span_text(right) + " are not adjacent");
    return kEmptySpan;
  }
  return {left.lo, right.hi};
}

std::string span_text(Span s) {
  if (s.empty()) return "0";
  if (s.lo == s.hi) return "x" + std::to_string(s.lo);
  return "x" + std::to_string(s.lo) + "..x" + std::to_string(s.hi);
}

// ---------------------------------------------------------------------------------------
// Blelloch's scan (figures 13.2 to 13.5).

// [models-blelloch]
BlellochModel blelloch_model(int n) {
  require(power_of_two(n), "blelloch_model: n must be a power of two");
  BlellochModel m;
  m.sources = {{"kernels/block/02_blelloch.cuh",
                {"const unsigned n = 2 * blockDim.x;",
                 "for (unsigned d = n / 2; d > 0; d /= 2) {  // up-sweep", "if (tid < d) {",
                 "const unsigned left = offset * (2 * tid + 1) - 1;",
                 "const unsigned right = offset * (2 * tid + 2) - 1;", "s[right] += s[left];",
                 "offset *= 2;", "if (tid == 0) s[n - 1] = T(0);",
                 "for (unsigned d = 1; d < n; d *= 2) {  // down-sweep", "offset /= 2;",
                 "const T t = s[left];", "s[left] = s[right];", "s[right] += t;"}}};
  m.n = n;
  m.threads = n / 2;
  int offset = 1, step = 0;
  for (int d = n / 2; d > 0; d /= 2) {  // up-sweep
    ++step;
    for (int tid = 0; tid < m.threads; ++tid)
      if (tid < d)
        m.up.push_back({step, tid, offset * (2 * tid + 1) - 1, offset * (2 * tid + 2) - 1, offset});
    offset *= 2;
  }
  step = 0;
  for (int d = 1; d < n; d *= 2) {  // down-sweep
    offset /= 2;
    ++step;
    for (int tid = 0; tid < m.threads; ++tid)
      if (tid < d)
        m.down.push_back(
            {step, tid, offset * (2 * tid + 1) - 1, offset * (2 * tid + 2) - 1, offset});
  }
  return m;
}
// [models-blelloch]

namespace {

// The operations of one sweep, one vector per step.
std::vector<std::vector<SweepOp>> steps_of(const std::vector<SweepOp>& ops) {
  std::vector<std::vector<SweepOp>> steps;
  for (const SweepOp& op : ops) {
    if (steps.empty() || steps.back().front().step != op.step) steps.emplace_back();
    steps.back().push_back(op);
  }
  return steps;
}

// Runs the sweeps of m on s, with add(a, b) for a (+) b and the identity zero; calls row(s)
// after each step (and after the clear). All reads of a step come before its writes, as the
// barrier between steps makes them.
template <typename V, typename Add, typename Row>
void run_blelloch(const BlellochModel& m, std::vector<V>& s, V zero, Add add, Row row) {
  for (const auto& step : steps_of(m.up)) {
    const std::vector<V> before = s;
    for (const SweepOp& op : step) s[op.right] = add(before[op.left], before[op.right]);
    row(s);
  }
  s[m.n - 1] = zero;
  row(s);
  for (const auto& step : steps_of(m.down)) {
    const std::vector<V> before = s;
    for (const SweepOp& op : step) {
      s[op.left] = before[op.right];
      s[op.right] = add(before[op.right], before[op.left]);
    }
    row(s);
  }
}

}  // namespace

std::vector<std::vector<long long>> blelloch_rows(const BlellochModel& m,
                                                  const std::vector<long long>& x) {
  require(static_cast<int>(x.size()) == m.n, "blelloch_rows: one input per element");
  std::vector<std::vector<long long>> rows = {x};
  std::vector<long long> s = x;
  run_blelloch(
      m, s, 0LL, [](long long a, long long b) { return a + b; },
      [&](const std::vector<long long>& r) { rows.push_back(r); });
  return rows;
}

ModelCheck check_blelloch(const BlellochModel& m) {
  ModelCheck c;
  // Race-free steps: no element written twice, none read by one thread and written by another.
  for (const auto* sweep : {&m.up, &m.down}) {
    for (const auto& step : steps_of(*sweep)) {
      std::map<int, int> writer;
      std::map<int, std::set<int>> readers;
      for (const SweepOp& op : step) {
        std::vector<int> writes = {op.right};
        if (sweep == &m.down) writes.push_back(op.left);
        for (int w : writes) {
          if (!writer.emplace(w, op.thread).second) {
            c.error = "element " + std::to_string(w) + " written twice in one step";
            return c;
          }
        }
        for (int r : {op.left, op.right}) readers[r].insert(op.thread);
      }
      for (const auto& [element, thread] : writer) {
        const auto r = readers.find(element);
        if (r != readers.end() && (r->second.size() > 1 || *r->second.begin() != thread)) {
          c.error =
              "element " + std::to_string(element) + " read and written by two threads in one step";
          return c;
        }
      }
      for (const SweepOp& op : step) {
        if (op.left < 0 || op.right >= m.n || op.left >= op.right) {
          c.error = "thread " + std::to_string(op.thread) + " indexes out of order or out of range";
          return c;
        }
      }
    }
  }
  std::vector<Span> s(m.n);
  for (int i = 0; i < m.n; ++i) s[i] = input_span(i);
  std::string error;
  run_blelloch(
      m, s, kEmptySpan, [&](Span a, Span b) { return join(a, b, &error); },
      [](const std::vector<Span>&) {});
  if (!error.empty()) {
    c.error = error;
    return c;
  }
  for (int i = 0; i < m.n; ++i) {
    if (s[i] != prefix_span(i - 1)) {
      c.error = "output " + std::to_string(i) + " is " + span_text(s[i]) + ", not " +
                span_text(prefix_span(i - 1));
      return c;
    }
  }
  c.ok = true;
  return c;
}

std::vector<TreeNode> blelloch_tree(const BlellochModel& m, const std::vector<long long>& x) {
  require(static_cast<int>(x.size()) == m.n, "blelloch_tree: one input per element");
  std::vector<TreeNode> nodes;
  std::vector<int> latest(m.n);  // the node each element holds
  for (int i = 0; i < m.n; ++i) {
    nodes.push_back({input_span(i), i, -1, -1, x[i], 0});
    latest[i] = i;
  }
  std::map<std::pair<int, int>, int> made_by;  // (left, right) of an up-sweep op -> its node
  for (const auto& step : steps_of(m.up)) {
    std::vector<int> held = latest;  // the reads of a step see the nodes from before it
    for (const SweepOp& op : step) {
      const TreeNode& a = nodes[held[op.left]];
      const TreeNode& b = nodes[held[op.right]];
      std::string error;
      TreeNode node{
          join(a.span, b.span, &error), op.right, held[op.left], held[op.right], a.up + b.up, 0};
      if (!error.empty()) throw std::logic_error("blelloch_tree: " + error);
      nodes.push_back(node);
      latest[op.right] = static_cast<int>(nodes.size()) - 1;
      made_by[{op.left, op.right}] = latest[op.right];
    }
  }
  // The down-sweep visits the same pairs from the root down: the pair's right element holds
  // the value handed to the node, its left element the left child's sum; the left child gets
  // the first, the right child both added.
  std::vector<long long> s(m.n);
  for (int i = 0; i < m.n; ++i) s[i] = nodes[latest[i]].up;
  s[m.n - 1] = 0;
  nodes[latest[m.n - 1]].down = 0;
  for (const auto& step : steps_of(m.down)) {
    const std::vector<long long> before = s;
    for (const SweepOp& op : step) {
      const auto made = made_by.find({op.left, op.right});
      if (made == made_by.end())
        throw std::logic_error("blelloch_tree: a down-sweep pair the up-sweep never made");
      TreeNode& node = nodes[made->second];
      if (before[op.right] != node.down || before[op.left] != nodes[node.left].up)
        throw std::logic_error("blelloch_tree: the down-sweep does not mirror the up-sweep");
      s[op.left] = before[op.right];
      s[op.right] = before[op.right] + before[op.left];
      nodes[node.left].down = s[op.left];
      nodes[node.right].down = s[op.right];
    }
  }
  return nodes;
}

std::vector<BankStep> blelloch_banks(int threads) {
  const BlellochModel m = blelloch_model(2 * threads);
  std::vector<BankStep> out;
  for (const auto* sweep : {&m.up, &m.down}) {
    for (const auto& step : steps_of(*sweep)) {
      BankStep b;
      b.sweep = sweep == &m.up ? "up" : "down";
      b.step = step.front().step;
      b.offset = step.front().offset;
      b.threads = static_cast<int>(step.size());
      std::map<int, std::vector<const SweepOp*>> warps;
      for (const SweepOp& op : step) warps[op.thread / 32].push_back(&op);
      b.warps = static_cast<int>(warps.size());
      for (const auto& [warp, ops] : warps) {
        // Words per bank for the lanes' s[left], and for their s[right]: the same pattern.
        int ways[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
          std::map<int, std::set<int>> banks;
          for (const SweepOp* op : ops) {
            const int word = k == 0 ? op->left : op->right;
            banks[word % 32].insert(word);
          }
          for (const auto& [bank, words] : banks)
            ways[k] = std::max(ways[k], static_cast<int>(words.size()));
        }
        if (ways[0] != ways[1])
          throw std::logic_error("blelloch_banks: s[left] and s[right] conflict differently");
        b.ways = std::max(b.ways, ways[0]);
        b.passes += ways[0];
      }
      out.push_back(b);
    }
  }
  return out;
}

std::string bank_table_markdown(int threads) {
  // The down-sweep visits the up-sweep's offsets in reverse with the same threads, so one row
  // per offset stands for a step of each sweep.
  const std::vector<BankStep> banks = blelloch_banks(threads);
  const std::size_t half = banks.size() / 2;
  std::ostringstream o;
  o << "| offset | up-sweep step | down-sweep step | threads at work | warps at work | "
       "words in one bank (worst warp) | passes of one access, all warps |\n"
    << "|---:|---:|---:|---:|---:|---:|---:|\n";
  int warps = 0, passes = 0;
  for (std::size_t k = 0; k < half; ++k) {
    const BankStep& up = banks[k];
    const BankStep& down = banks[banks.size() - 1 - k];
    if (up.offset != down.offset || up.threads != down.threads || up.ways != down.ways ||
        up.passes != down.passes)
      throw std::logic_error("bank_table_markdown: the down-sweep does not mirror the up-sweep");
    o << "| " << up.offset << " | " << up.step << " | " << down.step << " | " << up.threads << " | "
      << up.warps << " | " << up.ways << " | " << up.passes << " |\n";
    warps += up.warps + down.warps;
    passes += up.passes + down.passes;
  }
  o << "| both sweeps, every step | | | | " << warps << " | | " << passes << " |\n";
  return o.str();
}

// ---------------------------------------------------------------------------------------
// The block scan of listing 13.3 (figure 13.12).

// [models-block]
void warp_scan_model(std::vector<Span>& s, int base, bool zero_pad, std::string* error) {
  std::vector<Span> t(32);
  for (int lane = 0; lane < 32; ++lane) t[lane] = s.at(base + lane);  // T t = s[0];
  for (int offset = 1; offset < 32; offset *= 2) {
    std::vector<bool> active(32);
    for (int lane = 0; lane < 32; ++lane) {  // if (active) t += s[-offset];
      active[lane] = zero_pad || lane >= offset;
      if (!active[lane]) continue;
      if (base + lane - offset < 0) {
        note(error, "lane " + std::to_string(lane) + " reads before shared memory");
        continue;
      }
      t[lane] = join(s[base + lane - offset], t[lane], error);
    }
    for (int lane = 0; lane < 32; ++lane)  // __syncwarp(); if (active) s[0] = t;
      if (active[lane]) s[base + lane] = t[lane];
  }
}

BlockScanModel scan_block_model(int threads) {
  require(threads >= 32 && threads <= 1024 && threads % 32 == 0,
          "scan_block_model: threads must be a multiple of 32 up to 1024");
  BlockScanModel m;
  m.sources = {{"kernels/block/03_scan_then_fan.cuh",
                {"constexpr int kWarpPartials = 16 + 32;", "T sum = warp_scan<T, kZeroPad>(s);",
                 "if (lane == 31) warp_partials[16 + warp] = sum;",
                 "if (warp == 0) warp_scan<T, kZeroPad>(warp_partials + 16 + lane);",
                 "if (warp > 0) sum += warp_partials[16 + warp - 1];"}},
               {"kernels/warp/03_templated.cuh",
                {"T t = s[0];", "for (int offset = 1; offset < 32; offset *= 2) {",
                 "const bool active = kZeroPad || lane >= offset;", "if (active) t += s[-offset];",
                 "if (active) s[0] = t;"}}};
  m.threads = threads;
  constexpr int kPartials = 16 + 32;
  std::vector<Span> s(threads), partials(kPartials, kEmptySpan);  // init_warp_partials
  for (int tid = 0; tid < threads; ++tid) s[tid] = input_span(tid);
  for (int warp = 0; warp < threads / 32; ++warp) warp_scan_model(s, 32 * warp, false, &m.error);
  m.after_warp_scans = s;
  std::vector<Span> sum = s;
  for (int tid = 0; tid < threads; ++tid) {
    if (tid % 32 != 31) continue;
    const int slot = 16 + tid / 32;
    if (slot >= kPartials)
      note(&m.error, "warp " + std::to_string(tid / 32) + " writes past the partials");
    else
      partials[slot] = sum[tid];
  }
  m.totals = partials;
  warp_scan_model(partials, 16, false, &m.error);  // warp 0 scans the totals
  m.scanned_totals = partials;
  for (int tid = 32; tid < threads; ++tid)
    sum[tid] = join(partials[16 + tid / 32 - 1], sum[tid], &m.error);
  m.result = sum;
  for (int tid = 0; tid < threads; ++tid)
    if (m.result[tid] != prefix_span(tid))
      note(&m.error, "thread " + std::to_string(tid) + " ends with " + span_text(m.result[tid]));
  return m;
}
// [models-block]

// ---------------------------------------------------------------------------------------
// The recursive device scans (figures 13.13 and 13.14).

namespace {

// The inclusive scan of one tile of b elements from first (the block scans; elements past n are
// zeros): out[i] for i < n, and the tile's total.
Span scan_tile(std::vector<Span>& out, const std::vector<Span>& in, std::size_t first, int b,
               std::string* error) {
  Span running = kEmptySpan;
  for (std::size_t i = first; i < std::min(in.size(), first + b); ++i) {
    running = join(running, in[i], error);
    out[i] = running;
  }
  return running;
}

// [models-device]
// scan_fan (listing 13.5): the tiles scanned and their totals written (listing 13.4), the
// totals scanned recursively in place, and fanned out (listing 13.6).
void scan_fan_level(std::vector<Span>& out, std::vector<Span> in, int b, DeviceScanModel& m,
                    int level) {
  const std::size_t n = in.size();
  m.levels.push_back(n);
  if (n <= std::size_t(b)) {
    scan_tile(out, in, 0, b, &m.error);
    if (level == 0) m.top_reads += n, m.top_writes += n;
    return;
  }
  const std::size_t tiles = ceil_div(n, std::size_t(b));
  std::vector<Span> spine(tiles);
  for (std::size_t t = 0; t < tiles; ++t) spine[t] = scan_tile(out, in, t * b, b, &m.error);
  if (level == 0) {
    m.top_reads += n, m.top_writes += n;
    m.tile_scans = out;
    m.tile_totals = spine;
  }
  scan_fan_level(spine, spine, b, m, level + 1);
  if (level == 0) m.scanned_totals = spine;
  for (std::size_t t = 1; t < tiles; ++t) {
    for (std::size_t i = t * b; i < std::min(n, (t + 1) * b); ++i) {
      out[i] = join(spine[t - 1], out[i], &m.error);
      if (level == 0) ++m.top_reads, ++m.top_writes;
    }
  }
}

// scan_reduce_then_scan (listing 13.9): the tiles reduced (listing 13.7), their totals scanned
// recursively in place, and the tiles scanned again from their base sums (listing 13.8).
void reduce_then_scan_level(std::vector<Span>& out, std::vector<Span> in, int b, DeviceScanModel& m,
                            int level) {
  const std::size_t n = in.size();
  m.levels.push_back(n);
  if (n <= std::size_t(b)) {
    scan_tile(out, in, 0, b, &m.error);
    if (level == 0) m.top_reads += n, m.top_writes += n;
    return;
  }
  const std::size_t tiles = ceil_div(n, std::size_t(b));
  std::vector<Span> totals(tiles), scratch(n);
  for (std::size_t t = 0; t < tiles; ++t) totals[t] = scan_tile(scratch, in, t * b, b, &m.error);
  if (level == 0) {
    m.top_reads += n;
    m.tile_totals = totals;
  }
  reduce_then_scan_level(totals, totals, b, m, level + 1);
  if (level == 0) m.scanned_totals = totals;
  for (std::size_t t = 0; t < tiles; ++t) {
    const Span base = t > 0 ? totals[t - 1] : kEmptySpan;
    scan_tile(out, in, t * b, b, &m.error);
    for (std::size_t i = t * b; i < std::min(n, (t + 1) * b); ++i)
      out[i] = join(base, out[i], &m.error);
  }
  if (level == 0) m.top_reads += n, m.top_writes += n;
}
// [models-device]

void check_result(DeviceScanModel& m) {
  for (std::size_t i = 0; i < m.result.size() && m.error.empty(); ++i)
    if (m.result[i] != prefix_span(static_cast<int>(i)))
      note(&m.error, "output " + std::to_string(i) + " is " + span_text(m.result[i]));
}

std::vector<Span> inputs(std::size_t n) {
  std::vector<Span> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = input_span(static_cast<int>(i));
  return in;
}

}  // namespace

DeviceScanModel scan_then_fan_model(std::size_t n, int b) {
  require(n >= 1 && b >= 32 && b % 32 == 0, "scan_then_fan_model: n >= 1 and b a multiple of 32");
  DeviceScanModel m;
  m.sources = {{"kernels/device/03_scan_then_fan.cuh",
                {"if (kWriteSpine && threadIdx.x == blockDim.x - 1) spine[t] = sum;",
                 "if (t > 0 && i < n) out[i] += base_sums[t - 1];", "if (n <= std::size_t(b)) {",
                 "const std::size_t tiles = ceil_div(n, b);",
                 "scan_fan<T>(spine, spine, tiles, ScanKind::Inclusive, b, spine + tiles, scratch, "
                 "stream);"}}};
  m.name = "scan-then-fan";
  m.n = n;
  m.b = b;
  m.result.resize(n);
  scan_fan_level(m.result, inputs(n), b, m, 0);
  check_result(m);
  return m;
}

DeviceScanModel reduce_then_scan_model(std::size_t n, int b) {
  require(n >= 1 && power_of_two(b) && b >= 32,
          "reduce_then_scan_model: n >= 1 and b a power of two");
  DeviceScanModel m;
  m.sources = {{"kernels/device/04_reduce_then_scan.cuh",
                {"if (threadIdx.x == 0) tile_totals[t] = sum;",
                 "const T base_sum = (t > 0 && base_sums != nullptr) ? base_sums[t - 1] : T(0);",
                 "if (n <= kThreads) {", "const std::size_t tiles = ceil_div(n, kThreads);",
                 "scan_reduce_then_scan<T, kThreads>(totals, totals, tiles, ScanKind::Inclusive, "
                 "totals + tiles,"}}};
  m.name = "reduce-then-scan";
  m.n = n;
  m.b = b;
  m.result.resize(n);
  reduce_then_scan_level(m.result, inputs(n), b, m, 0);
  check_result(m);
  return m;
}

// ---------------------------------------------------------------------------------------
// The zero-padded layout (figure 13.15).

// [models-padded]
int padded_slot(int tid, int lane0) { return 49 * (tid / 32) + lane0 + tid % 32; }

int padded_words(int threads) { return 49 * (threads / 32); }
// [models-padded]

Model padded_layout_model() {
  Model m;
  m.sources = {{"kernels/warp/02_zero_padded.cuh",
                {"__host__ __device__ constexpr int zero_padded_index(int tid) { return 49 * (tid "
                 "/ 32) + 16 + tid % 32; }",
                 "return 49 * (threads / 32) * static_cast<int>(sizeof(T));",
                 "if (lane_id() < 16) s[-16] = T(0);  // the warp's padding"}}};
  return m;
}

std::vector<PaddedWord> padded_layout(int threads, int lane0, int words, std::string* error) {
  require(threads >= 32 && threads % 32 == 0, "padded_layout: threads must be a multiple of 32");
  std::vector<PaddedWord> w(std::max(words, padded_slot(threads - 1, lane0) + 1));
  for (int tid = 0; tid < threads; ++tid) {
    const int slot = padded_slot(tid, lane0);
    if (w[slot].thread >= 0 || w[slot].zero_of >= 0)
      note(error, "word " + std::to_string(slot) + " is used twice");
    w[slot].thread = tid;
    if (tid % 32 < 16) {
      const int zero = slot - 16;
      if (zero < 0 || w[zero].thread >= 0 || w[zero].zero_of >= 0)
        note(error, "the padding of thread " + std::to_string(tid) + " lands on a used word");
      else
        w[zero].zero_of = tid;
    }
  }
  for (int i = words; i < static_cast<int>(w.size()); ++i)
    if (w[i].thread >= 0 || w[i].zero_of >= 0)
      note(error, "word " + std::to_string(i) + " lies past the " + std::to_string(words) +
                      " words of the block");
  // The warp scan's reads: lane l reads 1 .. 16 words before its own, which must be its own
  // warp's padding or a lower lane of its warp (the values written after the padding).
  for (int tid = 0; tid < threads; ++tid) {
    for (int offset = 1; offset <= 16; offset *= 2) {
      const int word = padded_slot(tid, lane0) - offset;
      const bool own = word >= 0 && ((w[word].thread >= 0 && w[word].thread / 32 == tid / 32) ||
                                     (w[word].zero_of >= 0 && w[word].zero_of / 32 == tid / 32));
      if (!own)
        note(error, "thread " + std::to_string(tid) + " reads word " + std::to_string(word) +
                        ", not its warp's");
    }
  }
  return w;
}

// ---------------------------------------------------------------------------------------
// Drawing.

namespace {

std::string fixed(double v) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(2);
  o << v;
  return o.str();
}

std::string pos(double x, double y) { return "pos=\"" + fixed(x) + "," + fixed(y) + "!\""; }

// The opening of every figure of this file: fixed positions, straight edges.
// At most 7.4 inches wide: wider drawings are scaled down to fit the page.
std::string dot_header(const std::string& graph) {
  return "digraph " + graph +
         " {\n"
         "  // Generated by scan_networks (ch13_scan/circuits/scan_models.cpp); do not edit.\n"
         "  graph [layout=neato, splines=false, outputorder=edgesfirst, bgcolor=white, pad=0.15, "
         "size=\"7.4,20\"];\n"
         "  node [shape=box, fontname=Helvetica, fontsize=10, fixedsize=true, height=0.3, "
         "width=0.45];\n"
         "  edge [color=\"#666666\", arrowsize=0.5];\n";
}

const char* kRowLabel = "shape=plaintext, fixedsize=false, fontsize=9";
const char* kChanged = "style=filled, fillcolor=\"#fde8c8\"";
const char* kIdentity = "style=filled, fillcolor=\"#e0e0e0\"";

std::vector<long long> example() {  // the complexity post's example: 1 .. 8
  std::vector<long long> x(8);
  for (int i = 0; i < 8; ++i) x[i] = i + 1;
  return x;
}

Figure figure_13_1() {
  const std::vector<long long> x = example();
  const std::size_t n = x.size();
  std::vector<long long> inc(n), exc(n);
  const long long total = cpu_inclusive_scan(inc.data(), x.data(), n);
  cpu_exclusive_scan(exc.data(), x.data(), n);
  const double dx = 0.6, dy = 0.9, left = -1.05;
  std::ostringstream o;
  o << dot_header("inclusive_exclusive_8");
  o << "  in_label [" << kRowLabel << ", label=\"input\", " << pos(left, 0) << "];\n"
    << "  inc_label [" << kRowLabel << ", label=\"inclusive\", " << pos(left, -dy) << "];\n"
    << "  exc_label [" << kRowLabel << ", label=\"exclusive\", " << pos(left, -2 * dy) << "];\n";
  for (std::size_t i = 0; i < n; ++i) {
    o << "  in" << i << " [label=\"" << x[i] << "\", " << pos(i * dx, 0) << "];\n"
      << "  inc" << i << " [label=\"" << inc[i] << "\", " << kChanged << ", " << pos(i * dx, -dy)
      << "];\n"
      << "  exc" << i << " [label=\"" << exc[i] << "\", " << (i == 0 ? kIdentity : kChanged) << ", "
      << pos(i * dx, -2 * dy) << "];\n";
  }
  o << "  total [label=\"" << total << "\", " << kIdentity << ", " << pos(n * dx, -2 * dy) << "];\n"
    << "  total_label [" << kRowLabel << ", label=\"the total\", " << pos(n * dx + 0.75, -2 * dy)
    << "];\n";
  for (std::size_t i = 0; i < n; ++i) {
    o << "  in" << i << " -> inc" << i << ";\n"
      << "  exc" << i << " -> inc" << i << " [color=black];\n"
      << "  inc" << i << " -> "
      << (i + 1 < n ? "exc" + std::to_string(i + 1) : std::string("total"))
      << " [style=dashed, color=\"#2060b0\"];\n";
  }
  o << "}\n";
  return {
      "inclusive_exclusive_8",
      "Figure 13.1: the inclusive and the exclusive scan of 1 to 8, from the CPU scans of listings "
      "13.1 and 13.2. Each inclusive output is the exclusive output below it plus the input "
      "above it (solid arrows); the exclusive scan is the inclusive one moved one place to the "
      "right (dashed), the identity 0 in front and the total " +
          std::to_string(total) + " left over.",
      o.str()};
}

// Figures 13.2 and 13.4: the array after each step of one sweep.
Figure sweep_array(const BlellochModel& m, bool up) {
  const std::vector<std::vector<long long>> rows = blelloch_rows(m, example());
  const int steps_up = static_cast<int>(steps_of(m.up).size());
  // Rows shown: up: the input and the up-sweep's steps; down: the up-sweep's result, the clear
  // and the down-sweep's steps.
  const int first = up ? 0 : steps_up;
  const int last = up ? steps_up : static_cast<int>(rows.size()) - 1;
  const std::vector<std::vector<SweepOp>> steps = steps_of(up ? m.up : m.down);
  const double dx = 0.6, dy = 0.75, left = -1.45;
  const std::string name = up ? "blelloch_up_sweep_array_8" : "blelloch_down_sweep_array_8";
  std::ostringstream o;
  o << dot_header(name);
  for (int r = first; r <= last; ++r) {
    const int k = r - first;  // row on the figure
    std::string label;
    if (up)
      label = k == 0 ? "input"
                     : "step " + std::to_string(k) + ", offset " +
                           std::to_string(steps[k - 1].front().offset);
    else if (k == 0)
      label = "after the up-sweep";
    else if (k == 1)
      label = "s[n - 1] = 0";
    else
      label = "step " + std::to_string(k - 1) + ", offset " +
              std::to_string(steps[k - 2].front().offset);
    o << "  row" << k << " [" << kRowLabel << ", label=\"" << label << "\", " << pos(left, -k * dy)
      << "];\n";
    std::set<int> changed;
    const std::vector<SweepOp>* ops = nullptr;
    if (up && k > 0) ops = &steps[k - 1];
    if (!up && k > 1) ops = &steps[k - 2];
    if (ops)
      for (const SweepOp& op : *ops) {
        changed.insert(op.right);
        if (!up) changed.insert(op.left);
      }
    if (!up && k == 1) changed.insert(m.n - 1);
    for (int i = 0; i < m.n; ++i) {
      o << "  r" << k << "_" << i << " [label=\"" << rows[r][i] << "\""
        << (changed.count(i) ? std::string(", ") + kChanged : "") << ", " << pos(i * dx, -k * dy)
        << "];\n";
      if (k > 0 && !changed.count(i))
        o << "  r" << k - 1 << "_" << i << " -> r" << k << "_" << i
          << " [color=\"#bbbbbb\", arrowhead=none];\n";
    }
    if (!up && k == 1) o << "  r0_" << m.n - 1 << " -> r1_" << m.n - 1 << " [style=dotted];\n";
    if (ops) {
      for (const SweepOp& op : *ops) {
        const std::string a = "r" + std::to_string(k - 1) + "_", b = "r" + std::to_string(k) + "_";
        o << "  " << a << op.left << " -> " << b << op.right << " [color=\"#c0392b\"];\n"
          << "  " << a << op.right << " -> " << b << op.right << " [color=black];\n";
        if (!up)
          o << "  " << a << op.right << " -> " << b << op.left
            << " [style=dashed, color=\"#2060b0\"];\n";
      }
    }
  }
  o << "}\n";
  if (up)
    return {
        name,
        "Figure 13.2: the up-sweep of 1 to 8 (array view), step by step as block variant 2 indexes "
        "it: "
        "in each step thread t adds s[left] (red) into s[right], left = offset (2t + 1) - 1 and "
        "right = offset (2t + 2) - 1; shaded: the elements the step writes.",
        o.str()};
  return {
      name,
      "Figure 13.4: the down-sweep (array view): the last element is cleared, then in each step "
      "thread t moves s[right] to s[left] (dashed) and writes s[right] + s[left] (red and black) "
      "to "
      "s[right]. The last row is the exclusive scan.",
      o.str()};
}

// Figures 13.3 and 13.5: the balanced tree of the up-sweep, with the values of one sweep.
Figure sweep_tree(const BlellochModel& m, bool up) {
  const std::vector<TreeNode> nodes = blelloch_tree(m, example());
  const double dx = 1.05, dy = 0.85;
  const std::string name = up ? "blelloch_up_sweep_tree_8" : "blelloch_down_sweep_tree_8";
  std::ostringstream o;
  o << dot_header(name) << "  node [shape=ellipse, width=0.95, height=0.5, fontsize=9];\n";
  std::vector<int> parent(nodes.size(), -1);
  for (std::size_t k = 0; k < nodes.size(); ++k)
    if (nodes[k].left >= 0) parent[nodes[k].left] = parent[nodes[k].right] = static_cast<int>(k);
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const TreeNode& t = nodes[k];
    int depth = 0;  // log2 of the width
    while ((1 << depth) < t.span.hi - t.span.lo + 1) ++depth;
    const double x = (t.span.lo + t.span.hi) / 2.0 * dx;
    const double y = depth * dy;  // the root on top
    std::string value;
    if (up) {
      value = std::to_string(t.up);
    } else if (parent[k] < 0) {
      value = "0 (cleared)";
    } else if (nodes[parent[k]].left == static_cast<int>(k)) {
      value = std::to_string(t.down);
    } else {
      const TreeNode& sibling = nodes[nodes[parent[k]].left];
      value = std::to_string(nodes[parent[k]].down) + " + " + std::to_string(sibling.up) + " = " +
              std::to_string(t.down);
    }
    o << "  n" << k << " [label=\"" << span_text(t.span) << "\\n"
      << value << "\"" << (!up && t.left < 0 ? std::string(", ") + kChanged : "") << ", "
      << pos(x, y) << "];\n";
  }
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    if (nodes[k].left < 0) continue;
    for (int child : {nodes[k].left, nodes[k].right}) {
      if (up)
        o << "  n" << child << " -> n" << k << ";\n";
      else
        o << "  n" << k << " -> n" << child
          << (child == nodes[k].right ? " [color=\"#c0392b\"]" : "") << ";\n";
    }
  }
  o << "}\n";
  if (up)
    return {name,
            "Figure 13.3: the up-sweep (tree view): each node is one addition of figure 13.2, the "
            "sum of "
            "its two children; the root is the total. The tree is read off the model: a node's "
            "children "
            "are the values its addition reads.",
            o.str()};
  return {name,
          "Figure 13.5: the down-sweep (tree view): the root gets the identity; each node hands "
          "its value "
          "to its left child, and its value plus the left child's up-sweep sum to its right child "
          "(red). "
          "The leaves get the exclusive scan.",
          o.str()};
}

// A figure of boxes in rows: rows of values (one box per warp or tile) and rows of totals set
// half a column to the right, so that the arrows from a value row to the final row pass between
// the totals.
struct Grid {
  struct Row {
    std::string label;
    bool shifted = false;
    std::vector<std::string> boxes;
    bool changed = false;
  };
  struct Link {
    int r1, c1, r2, c2;
    std::string attrs;
  };
  std::vector<Row> rows;
  std::vector<Link> links;
};

std::string grid_dot(const std::string& name, const Grid& g) {
  const double dx = 1.85, dy = 0.75, box = 1.7, small = 1.15, left = -2.2;
  std::ostringstream o;
  o << dot_header(name) << "  node [fontsize=9];\n";
  for (std::size_t r = 0; r < g.rows.size(); ++r) {
    const Grid::Row& row = g.rows[r];
    o << "  label" << r << " [" << kRowLabel << ", label=\"" << row.label << "\", "
      << pos(left, -dy * r) << "];\n";
    for (std::size_t c = 0; c < row.boxes.size(); ++c) {
      o << "  b" << r << "_" << c << " [label=\"" << row.boxes[c]
        << "\", width=" << fixed(row.shifted ? small : box)
        << (row.changed ? std::string(", ") + kChanged : "") << ", "
        << pos(c * dx + (row.shifted ? dx / 2 : 0), -dy * r) << "];\n";
    }
  }
  for (const Grid::Link& l : g.links)
    o << "  b" << l.r1 << "_" << l.c1 << " -> b" << l.r2 << "_" << l.c2
      << (l.attrs.empty() ? "" : " [" + l.attrs + "]") << ";\n";
  o << "}\n";
  return o.str();
}

// "x32..x63", or for a run of per-element prefixes ("x32..x(32+i)") the one label that says what
// element i of the run holds; the spans must be that pattern.
// \p what names element i of the run ("lane l"), \p index its index ("l").
std::string run_label(const std::vector<Span>& s, std::size_t first, std::size_t count,
                      const std::string& what, const std::string& index) {
  const int lo = s[first].lo, base = s[first].hi;
  for (std::size_t i = 0; i < count; ++i)
    if (s[first + i].lo != lo || s[first + i].hi != base + static_cast<int>(i))
      throw std::logic_error("run_label: not a run of prefixes from x" + std::to_string(lo));
  return what + ": x" + std::to_string(lo) + "..x" +
         (base == 0 ? index : "(" + std::to_string(base) + "+" + index + ")");
}

const char* kFan = "color=\"#c0392b\"";
const char* kTotal = "color=\"#2060b0\"";

Figure figure_13_12() {
  const int threads = 128, warps = threads / 32;
  const BlockScanModel m = scan_block_model(threads);
  if (!m.error.empty()) throw std::logic_error("figure 13.12: " + m.error);
  Grid g;
  std::vector<Span> in(threads);
  for (int t = 0; t < threads; ++t) in[t] = input_span(t);
  Grid::Row values{"the block's values", false, {}, false},
      scanned{"step 1: every warp scans", false, {}, true},
      totals{"warp_partials[16 + w]", true, {}, true},
      scanned_totals{"step 2: warp 0 scans them", true, {}, true},
      result{"step 3: + warp_partials[16 + w - 1]", false, {}, true};
  for (int w = 0; w < warps; ++w) {
    values.boxes.push_back("warp " + std::to_string(w) + ": " + span_text({32 * w, 32 * w + 31}));
    scanned.boxes.push_back(run_label(m.after_warp_scans, 32 * w, 32, "lane l", "l"));
    totals.boxes.push_back(span_text(m.totals[16 + w]));
    scanned_totals.boxes.push_back(span_text(m.scanned_totals[16 + w]));
    result.boxes.push_back(run_label(m.result, 32 * w, 32, "lane l", "l"));
    g.links.push_back({0, w, 1, w, ""});
    g.links.push_back({1, w, 2, w, kTotal});
    g.links.push_back({2, w, 3, w, ""});
    g.links.push_back({1, w, 4, w, ""});
    if (w + 1 < warps) g.links.push_back({3, w, 4, w + 1, kFan});
  }
  g.rows = {values, scanned, totals, scanned_totals, result};
  return {"scan_then_fan_block_128",
          "Figure 13.12: scan-then-fan in shared memory, a block of 128 threads (listing 13.3, "
          "block variant 3). "
          "Step 1: each warp scans its 32 values and lane 31 writes the warp's total (blue). Step "
          "2: warp 0 scans "
          "the totals, inclusive. Step 3: warp w adds the scanned total of warp w - 1 (red): the "
          "first scanned "
          "total goes to the second warp.",
          grid_dot("scan_then_fan_block_128", g)};
}

Figure figure_13_13() {
  const int b = 128, tiles = 4;
  const DeviceScanModel m = scan_then_fan_model(std::size_t(b) * tiles, b);
  if (!m.error.empty()) throw std::logic_error("figure 13.13: " + m.error);
  Grid g;
  Grid::Row values{"in", false, {}, false}, scanned{"scan_and_write_partials", false, {}, true},
      totals{"spine[t]", true, {}, true},
      scanned_totals{"scan_fan(spine): 1 block", true, {}, true},
      result{"scan_add_base_sums", false, {}, true};
  for (int t = 0; t < tiles; ++t) {
    values.boxes.push_back("tile " + std::to_string(t) + ": " + span_text({b * t, b * t + b - 1}));
    scanned.boxes.push_back(run_label(m.tile_scans, std::size_t(b) * t, b, "element i", "i"));
    totals.boxes.push_back(span_text(m.tile_totals[t]));
    scanned_totals.boxes.push_back(span_text(m.scanned_totals[t]));
    result.boxes.push_back(run_label(m.result, std::size_t(b) * t, b, "element i", "i"));
    g.links.push_back({0, t, 1, t, ""});
    g.links.push_back({1, t, 2, t, kTotal});
    g.links.push_back({2, t, 3, t, ""});
    g.links.push_back({1, t, 4, t, ""});
    if (t + 1 < tiles) g.links.push_back({3, t, 4, t + 1, kFan});
  }
  g.rows = {values, scanned, totals, scanned_totals, result};
  return {"scan_then_fan_global_512",
          "Figure 13.13: scan-then-fan in global memory, 512 elements in tiles of 128 (listings "
          "13.4 to 13.6, "
          "scan variant 3): every tile is scanned and written, its total goes to the spine (blue), "
          "the spine "
          "is scanned by the same function (here one block; a longer spine recursively), and tile "
          "t adds "
          "spine[t - 1] (red). The tiles are read and written twice: 4N accesses.",
          grid_dot("scan_then_fan_global_512", g)};
}

Figure figure_13_14() {
  const int b = 128, tiles = 4;
  const DeviceScanModel m = reduce_then_scan_model(std::size_t(b) * tiles, b);
  if (!m.error.empty()) throw std::logic_error("figure 13.14: " + m.error);
  Grid g;
  Grid::Row values{"in", false, {}, false}, totals{"scan_reduce_blocks", true, {}, true},
      scanned_totals{"scan the totals: 1 block", true, {}, true},
      result{"scan_with_base_sums", false, {}, true};
  for (int t = 0; t < tiles; ++t) {
    values.boxes.push_back("tile " + std::to_string(t) + ": " + span_text({b * t, b * t + b - 1}));
    totals.boxes.push_back(span_text(m.tile_totals[t]));
    scanned_totals.boxes.push_back(span_text(m.scanned_totals[t]));
    result.boxes.push_back(run_label(m.result, std::size_t(b) * t, b, "element i", "i"));
    g.links.push_back({0, t, 1, t, kTotal});
    g.links.push_back({1, t, 2, t, ""});
    g.links.push_back({0, t, 3, t, ""});
    if (t + 1 < tiles) g.links.push_back({2, t, 3, t + 1, kFan});
  }
  g.rows = {values, totals, scanned_totals, result};
  return {"reduce_then_scan_512",
          "Figure 13.14: reduce-then-scan, 512 elements in tiles of 128 (listings 13.7 to 13.9, "
          "scan variant 4): "
          "the first pass only reduces each tile (blue), the totals are scanned, and the second "
          "pass scans "
          "every tile again from the scanned total of the tiles before it (red). The tiles are "
          "read twice "
          "and written once: 3N accesses.",
          grid_dot("reduce_then_scan_512", g)};
}

Figure figure_13_15() {
  const int threads = 256, warps = threads / 32;
  std::string error;
  const std::vector<PaddedWord> words = padded_layout(threads, 16, padded_words(threads), &error);
  if (!error.empty()) throw std::logic_error("figure 13.15: " + error);
  std::ostringstream o;
  o << "digraph zero_padded_layout_256 {\n"
    << "  // Generated by scan_networks (ch13_scan/circuits/scan_models.cpp); do not edit.\n"
    << "  graph [bgcolor=white, pad=0.15, size=\"7.4,20\"];\n"
    << "  node [shape=plaintext, fontname=Helvetica, fontsize=7];\n"
    << "  layout [label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" "
       "cellpadding=\"1\">\n";
  o << "    <tr><td border=\"0\"></td>";
  for (int k = 0; k < 49; ++k)
    o << "<td border=\"0\">" << (k % 16 == 0 || k == 48 ? "+" + std::to_string(k) : "") << "</td>";
  o << "</tr>\n";
  for (int w = 0; w < warps; ++w) {
    o << "    <tr><td border=\"0\" align=\"right\">warp " << w << ", from " << 49 * w << " </td>";
    for (int k = 0; k < 49; ++k) {
      const PaddedWord& p = words[49 * w + k];
      if (p.zero_of >= 0)
        o << "<td bgcolor=\"#e0e0e0\" width=\"11\">0</td>";
      else if (p.thread >= 0)
        o << "<td bgcolor=\"#fde8c8\" width=\"11\">" << p.thread % 32 << "</td>";
      else
        o << "<td width=\"11\"> </td>";
    }
    o << "</tr>\n";
  }
  o << "  </table>>];\n}\n";
  return {
      "zero_padded_layout_256",
      "Figure 13.15: the zero-padded layout of a block of 256 threads (8 warps), from the kernels' "
      "zero_padded_index: warp w owns the 49 words from 49 w, 16 zeros (gray), its lanes 0 to 31 "
      "at "
      "49 w + 16 + lane, and one word unused. A lane reads 1 to 16 words before its own: the "
      "values of "
      "its warp's lower lanes, or zeros, never another warp's words.",
      o.str()};
}

}  // namespace

std::vector<Figure> chapter_figures() {
  const BlellochModel m = blelloch_model(8);
  std::vector<Figure> all = {figure_13_1(), sweep_array(m, true), sweep_tree(m, true),
                             sweep_array(m, false), sweep_tree(m, false)};
  for (Figure& f : circuit_figures()) all.push_back(std::move(f));
  for (Figure f : {figure_13_12(), figure_13_13(), figure_13_14(), figure_13_15()})
    all.push_back(std::move(f));
  return all;
}

}  // namespace ch13
