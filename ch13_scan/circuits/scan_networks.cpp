// The circuits of section 13.3, their simulation, and their drawings.
#include "scan_networks.h"

#include "scan_models.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ch13 {

namespace {

bool power_of_two(int n) { return n >= 1 && (n & (n - 1)) == 0; }

void require_power_of_two(int n, const char* what) {
  if (!power_of_two(n)) throw std::invalid_argument(std::string(what) + ": n must be a power of two");
}

// A symbolic value: the sum x_lo + ... + x_hi (empty when lo > hi, the identity).
struct Range {
  int lo;
  int hi;
  bool empty() const { return lo > hi; }
};

// left (+) right, defined only when right starts where left ends.
bool join(Range left, Range right, Range& out) {
  if (left.empty()) {
    out = right;
    return true;
  }
  if (right.empty()) {
    out = left;
    return true;
  }
  if (left.hi + 1 != right.lo) return false;
  out = {left.lo, right.hi};
  return true;
}

std::string text(Range r) {
  if (r.empty()) return "identity";
  return "x" + std::to_string(r.lo) + "..x" + std::to_string(r.hi);
}

}  // namespace

// [networks-builders]
Network serial_network(int n) {
  Network net{"serial", "Serial", n, {}};
  for (int i = 1; i < n; ++i) net.ops.push_back({i, i, i - 1});
  return net;
}

Network brent_kung_network(int n) {
  require_power_of_two(n, "brent_kung_network");
  Network net{"brent_kung", "Brent-Kung", n, {}};
  int level = 0;
  for (int d = 1; d < n; d *= 2) {  // up: a reduction tree, pairs at distance d
    ++level;
    for (int i = 2 * d - 1; i < n; i += 2 * d) net.ops.push_back({level, i, i - d});
  }
  for (int d = n / 4; d >= 1; d /= 2) {  // down: fill in the prefixes the tree skipped
    ++level;
    for (int i = 3 * d - 1; i < n; i += 2 * d) net.ops.push_back({level, i, i - d});
  }
  return net;
}

Network sklansky_network(int n) {
  require_power_of_two(n, "sklansky_network");
  Network net{"sklansky", "Sklansky", n, {}};
  int level = 0;
  for (int d = 1; d < n; d *= 2) {  // blocks of 2d: the left half's last wire feeds the right half
    ++level;
    for (int block = 0; block < n; block += 2 * d)
      for (int j = 0; j < d; ++j) net.ops.push_back({level, block + d + j, block + d - 1});
  }
  return net;
}

Network kogge_stone_network(int n) {
  require_power_of_two(n, "kogge_stone_network");
  Network net{"kogge_stone", "Kogge-Stone", n, {}};
  int level = 0;
  for (int d = 1; d < n; d *= 2) {  // every wire adds the one d to its left
    ++level;
    for (int i = d; i < n; ++i) net.ops.push_back({level, i, i - d});
  }
  return net;
}
// [networks-builders]

// [networks-analyze]
NetworkStats analyze(const Network& net) {
  NetworkStats s;
  std::vector<Range> wire(net.n);
  for (int i = 0; i < net.n; ++i) wire[i] = {i, i};
  std::size_t k = 0;
  int previous_level = 0;
  while (k < net.ops.size()) {
    const int level = net.ops[k].level;
    if (level <= previous_level) {
      s.error = "levels must increase";
      return s;
    }
    previous_level = level;
    ++s.depth;
    // All operations of a level read the values from before the level. Every wire has a
    // node before the level (an operation, or a buffer that passes the value on); it drives
    // the wire's next node and every operation of the level that adds it in.
    const std::vector<Range> before = wire;
    std::vector<bool> written(net.n, false);
    std::vector<int> drives(net.n, 1);
    for (; k < net.ops.size() && net.ops[k].level == level; ++k) {
      const NetworkOp& op = net.ops[k];
      if (op.source < 0 || op.target >= net.n || op.source >= op.target) {
        s.error = "operation with wires out of order at level " + std::to_string(level);
        return s;
      }
      if (written[op.target]) {
        s.error = "wire " + std::to_string(op.target) + " written twice at level " + std::to_string(level);
        return s;
      }
      written[op.target] = true;
      s.max_fanout = std::max(s.max_fanout, ++drives[op.source]);
      if (!join(before[op.source], before[op.target], wire[op.target])) {
        s.error = "level " + std::to_string(level) + ": " + text(before[op.source]) + " + " +
                  text(before[op.target]) + " are not adjacent";
        return s;
      }
      ++s.ops;
    }
  }
  for (int i = 0; i < net.n; ++i) {
    if (wire[i].lo != 0 || wire[i].hi != i) {
      s.error = "output " + std::to_string(i) + " is " + text(wire[i]) + ", not x0..x" + std::to_string(i);
      return s;
    }
  }
  s.is_scan = true;
  return s;
}
// [networks-analyze]

AlgorithmStats blelloch_stats(int n) {
  const BlellochModel m = blelloch_model(n);
  AlgorithmStats a;
  a.is_scan = check_blelloch(m).ok;
  int up = 0, down = 0;
  for (const SweepOp& op : m.up) up = std::max(up, op.step);
  for (const SweepOp& op : m.down) down = std::max(down, op.step);
  a.steps = up + down;
  a.ops = static_cast<int>(m.up.size() + m.down.size());
  return a;
}

AlgorithmStats naive_stats(int n) {
  if (n < 1) throw std::invalid_argument("naive_stats: n must be at least 1");
  AlgorithmStats a;
  a.is_scan = true;
  for (int i = 0; i < n; ++i) {
    // Output i: the ranges x_0 .. x_i, added in adjacent pairs until one is left.
    std::vector<Range> level;
    for (int j = 0; j <= i; ++j) level.push_back({j, j});
    int steps = 0;
    while (level.size() > 1) {
      ++steps;
      std::vector<Range> next;
      for (std::size_t j = 0; j < level.size(); j += 2) {
        if (j + 1 == level.size()) {
          next.push_back(level[j]);
          continue;
        }
        Range sum{};
        a.is_scan = a.is_scan && join(level[j], level[j + 1], sum);
        ++a.ops;
        next.push_back(sum);
      }
      level = next;
    }
    a.is_scan = a.is_scan && level[0].lo == 0 && level[0].hi == i;
    a.steps = std::max(a.steps, steps);
  }
  return a;
}

std::vector<bool> spine_ops(const Network& net) {
  // Walk back from the last output: an operation is on the spine if its result reaches it.
  std::vector<bool> on(net.ops.size(), false);
  std::vector<bool> needed(net.n, false);  // wires whose current value the spine still needs
  needed[net.n - 1] = true;
  for (std::size_t k = net.ops.size(); k-- > 0;) {
    const NetworkOp& op = net.ops[k];
    if (!needed[op.target]) continue;
    on[k] = true;
    needed[op.source] = true;  // the target keeps being needed: it was an operand too
  }
  return on;
}

std::vector<bool> left_half_ops(const Network& net) {
  std::vector<bool> on(net.ops.size());
  for (std::size_t k = 0; k < net.ops.size(); ++k) on[k] = net.ops[k].target < net.n / 2;
  return on;
}

// [networks-dot]
std::string to_dot(const Network& net, const std::vector<bool>& highlight, bool exclusive_outputs) {
  const NetworkStats stats = analyze(net);
  const double dx = 0.45, dy = 0.42;  // inches between wires and between levels
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(2);
  auto pos = [&](double x, double y) {
    std::ostringstream p;
    p.setf(std::ios::fixed);
    p.precision(2);
    p << "pos=\"" << x << "," << y << "!\"";
    return p.str();
  };
  const std::string graph = net.name + "_" + std::to_string(net.n) + (exclusive_outputs ? "_exclusive" : "");
  o << "digraph " << graph << " {\n"
    << "  // Generated by scan_networks (ch13_scan/circuits/scan_networks.cpp); do not edit.\n"
    << "  graph [layout=neato, splines=false, outputorder=edgesfirst, bgcolor=white, pad=0.15];\n"
    << "  node [shape=point, width=0.05, color=\"#333333\", label=\"\"];\n"
    << "  edge [dir=none, color=\"#666666\", penwidth=1.0];\n"
    << "  node [fontname=Helvetica, fontsize=10];\n";
  // The points of each wire from top to bottom: (y, node name).
  std::vector<std::vector<std::pair<double, std::string>>> wire(net.n);
  for (int i = 0; i < net.n; ++i) {
    const std::string name = "x" + std::to_string(i);
    o << "  " << name << " [shape=plaintext, width=0.3, height=0.2, label=\"x" << i << "\", "
      << pos(i * dx, 0.3) << "];\n";
    wire[i].push_back({0.3, name});
  }
  std::map<std::pair<int, int>, std::string> fans;  // (level, wire) -> fan-out point
  std::ostringstream edges;
  for (std::size_t k = 0; k < net.ops.size(); ++k) {
    const NetworkOp& op = net.ops[k];
    const bool red = !highlight.empty() && highlight[k];
    const double y = -op.level * dy;
    const std::string node = "op" + std::to_string(op.level) + "_" + std::to_string(op.target);
    o << "  " << node << " [shape=circle, width=0.11, style=filled, "
      << (red ? "color=\"#c0392b\", fillcolor=\"#c0392b\"" : "color=black, fillcolor=black") << ", "
      << pos(op.target * dx, y) << "];\n";
    wire[op.target].push_back({y, node});
    auto key = std::make_pair(op.level, op.source);
    if (fans.count(key) == 0) {
      const std::string fan = "fan" + std::to_string(op.level) + "_" + std::to_string(op.source);
      fans[key] = fan;
      o << "  " << fan << " [" << pos(op.source * dx, y + 0.45 * dy) << "];\n";
      wire[op.source].push_back({y + 0.45 * dy, fan});
    }
    edges << "  " << fans[key] << " -> " << node
          << (red ? " [color=\"#c0392b\", penwidth=1.6]" : "") << ";\n";
  }
  const double bottom = -(stats.depth + 1) * dy;
  for (int i = 0; i < net.n; ++i) {
    const std::string name = "y" + std::to_string(i);
    o << "  " << name << " [shape=plaintext, width=0.3, height=0.2, label=\"y" << i << "\", "
      << pos(i * dx, bottom) << "];\n";
    wire[i].push_back({bottom, name});
  }
  if (exclusive_outputs) {
    // Figure 13.7: the exclusive output i is the inclusive output i - 1 (the identity for
    // output 0), and the last inclusive output is the total.
    const double row = bottom - 1.6 * dy;
    o << "  e0 [shape=plaintext, width=0.3, height=0.2, label=\"0\", " << pos(0, row) << "];\n";
    for (int i = 1; i < net.n; ++i) {
      o << "  e" << i << " [shape=plaintext, width=0.3, height=0.2, label=\"e" << i << "\", "
        << pos(i * dx, row) << "];\n";
      edges << "  y" << i - 1 << " -> e" << i << " [style=dashed];\n";
    }
    o << "  total [shape=plaintext, width=0.4, height=0.2, label=\"sum\", " << pos(net.n * dx, row)
      << "];\n";
    edges << "  y" << net.n - 1 << " -> total [style=dashed];\n";
  }
  for (auto& points : wire) {
    std::sort(points.begin(), points.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    o << "  ";
    for (std::size_t p = 0; p < points.size(); ++p) o << (p ? " -> " : "") << points[p].second;
    o << ";\n";
  }
  o << edges.str() << "}\n";
  return o.str();
}
// [networks-dot]

namespace {

Figure figure(const Network& net, const std::string& what, const std::vector<bool>& highlight,
              const std::string& note, bool exclusive = false) {
  const NetworkStats s = analyze(net);
  std::ostringstream caption;
  caption << net.title << ", " << net.n << " inputs (" << what << "): " << s.ops
          << " operations in " << s.depth << " steps, largest fan-out " << s.max_fanout;
  if (!note.empty()) caption << "; " << note;
  caption << ".";
  return {net.name + (exclusive ? "_exclusive" : "") + "_" + std::to_string(net.n), caption.str(),
          to_dot(net, highlight, exclusive)};
}

}  // namespace

std::vector<Figure> circuit_figures() {
  const Network bk16 = brent_kung_network(16);
  const Network sk16 = sklansky_network(16);
  return {
      figure(serial_network(8), "figure 13.6", {}, ""),
      figure(serial_network(16), "figure 13.6 at 16 inputs", {}, ""),
      figure(serial_network(8), "figure 13.7", {},
             "below, the exclusive outputs (dashed) and the total", true),
      figure(brent_kung_network(8), "figure 13.8", {}, ""),
      figure(bk16, "figure 13.9", spine_ops(bk16), "in red, the spine that computes the last output"),
      figure(sklansky_network(8), "figure 13.10 at 8 inputs", {}, ""),
      figure(sk16, "figure 13.10", left_half_ops(sk16),
             "in red, the left 8-input Sklansky circuit of the recursion"),
      figure(kogge_stone_network(8), "figure 13.11 at 8 inputs", {}, ""),
      figure(kogge_stone_network(16), "figure 13.11", {}, ""),
  };
}

// [networks-table]
std::string complexity_table_markdown() {
  struct Row {
    std::string name, steps, work, used;
    NetworkStats s8, s16;
  };
  const std::vector<Row> rows = {
      {"Serial (figure 13.6)", "\\f$n-1\\f$", "\\f$n-1\\f$", "scan variant 0a (the CPU)",
       analyze(serial_network(8)), analyze(serial_network(16))},
      {"Kogge-Stone (figure 13.11) = Hillis-Steele", "\\f$\\log_2 n\\f$",
       "\\f$n \\log_2 n - n + 1\\f$", "warp variants 1-6, block and scan variants 1",
       analyze(kogge_stone_network(8)), analyze(kogge_stone_network(16))},
      {"Sklansky (figure 13.10)", "\\f$\\log_2 n\\f$", "\\f$\\frac{n}{2} \\log_2 n\\f$",
       "none (Merrill found it slow)", analyze(sklansky_network(8)), analyze(sklansky_network(16))},
      {"Brent-Kung (figures 13.8, 13.9)", "\\f$2 \\log_2 n - 1\\f$", "\\f$2n - 2 - \\log_2 n\\f$",
       "the circuit behind Blelloch's scan", analyze(brent_kung_network(8)),
       analyze(brent_kung_network(16))},
  };
  std::ostringstream o;
  o << "| circuit | steps (depth) | operations (work) | steps, n = 8 | operations, n = 8 | "
       "steps, n = 16 | operations, n = 16 | largest fan-out, n = 16 | used by |\n"
    << "|:---|:---|:---|---:|---:|---:|---:|---:|:---|\n";
  for (const Row& r : rows) {
    o << "| " << r.name << " | " << r.steps << " | " << r.work << " | " << r.s8.depth << " | "
      << r.s8.ops << " | " << r.s16.depth << " | " << r.s16.ops << " | " << r.s16.max_fanout
      << " | " << r.used << " |\n";
  }
  const AlgorithmStats n8 = naive_stats(8), n16 = naive_stats(16);
  o << "| Naive, one reduction per output (the complexity post) | "
       "\\f$\\lceil\\log_2 n\\rceil\\f$ | \\f$n(n-1)/2\\f$ | "
    << n8.steps << " | " << n8.ops << " | " << n16.steps << " | " << n16.ops << " | - | none |\n";
  const AlgorithmStats b8 = blelloch_stats(8), b16 = blelloch_stats(16);
  o << "| Blelloch, exclusive (section 13.2) | \\f$2 \\log_2 n\\f$ | \\f$2(n-1)\\f$ | " << b8.steps
    << " | " << b8.ops << " | " << b16.steps << " | " << b16.ops
    << " | - | block and scan variants 2 |\n";
  return o.str();
}
// [networks-table]

}  // namespace ch13
