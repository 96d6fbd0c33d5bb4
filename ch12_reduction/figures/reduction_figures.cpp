// The orders of addition of chapter 12's kernels, modelled on the CPU, checked by simulation,
// and drawn as the chapter's figures 12.1 and 12.2.
#include "reduction_figures.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace ch12 {

namespace {

bool power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

// The additions of s, one vector per step, in step order.
std::vector<std::vector<Add>> by_step(const Schedule& s) {
  std::vector<std::vector<Add>> steps;
  int last = 0;
  for (const Add& a : s.adds) {
    if (a.step != last) {
      require(a.step > last, s.name + ": the steps of a schedule must increase");
      steps.emplace_back();
      last = a.step;
    }
    steps.back().push_back(a);
  }
  return steps;
}

int wires_of(const Schedule& s) { return std::max({s.n, s.threads, 1}); }

}  // namespace

// [figures-schedules]
Schedule serial_schedule(int n) {
  require(n >= 1, "serial_schedule: n must be at least 1");
  Schedule s{"serial", "serial (the CPU reference)", "reference.h",
             {"for (std::size_t i = 0; i < n; ++i) s += in[i];"}, n, 1, 0, {}};
  // The accumulator starts with in[0]; each later element is one more step.
  for (int i = 1; i < n; ++i) s.adds.push_back({i, 0, 0, i});
  return s;
}

Schedule neighbored_schedule(int n) {
  require(power_of_two(n), "neighbored_schedule: n must be a power of two");
  Schedule s{"neighbored", "pairwise (variant 10a)", "kernels/10a_neighbored.cuh",
             {"for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {",
              "if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];"},
             n, n, 0, {}};
  int step = 0;
  for (int stride = 1; stride < n; stride *= 2) {
    ++step;
    for (int tid = 0; tid < n; ++tid)
      if (tid % (2 * stride) == 0) s.adds.push_back({step, tid, tid, tid + stride});
  }
  return s;
}

Schedule neighbored_less_schedule(int n) {
  require(power_of_two(n), "neighbored_less_schedule: n must be a power of two");
  Schedule s{"neighbored_less", "pairwise, less divergent (variant 10b)",
             "kernels/10b_neighbored_less.cuh",
             {"for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {",
              "const unsigned index = 2 * stride * tid;",
              "if (index < blockDim.x) s[index] += s[index + stride];"},
             n, n, 0, {}};
  int step = 0;
  for (int stride = 1; stride < n; stride *= 2) {
    ++step;
    for (int tid = 0; tid < n; ++tid) {
      const long long index = 2LL * stride * tid;
      const int i = static_cast<int>(index);
      if (index < n) s.adds.push_back({step, tid, i, i + stride});
    }
  }
  return s;
}

Schedule interleaved_schedule(int n, int threads) {
  require(n >= 1, "interleaved_schedule: n must be at least 1");
  require(power_of_two(threads), "interleaved_schedule: threads must be a power of two");
  Schedule s{"interleaved", "interleaved (variant 1)", "kernels/01_two_pass.cuh",
             {"i += std::size_t(blockDim.x) * gridDim.x) {",
              "for (unsigned active = blockDim.x >> 1; active > 0; active >>= 1) {",
              "if (tid < active) partials[tid] += partials[tid + active];"},
             n, threads, 0, {}};
  // The grid-stride loop with one block: thread t starts with element t and adds t + k B,
  // k = 1, 2, ... Its running sum is modelled as element t (partials[t] in the kernel).
  int step = 0;
  for (long long k = 1; k * threads < n; ++k) {
    ++step;
    for (int t = 0; t < threads; ++t) {
      const long long i = t + k * threads;
      if (i < n) s.adds.push_back({step, t, t, static_cast<int>(i)});
    }
  }
  // The halving steps in shared memory: thread t adds t + active.
  for (int active = threads / 2; active > 0; active /= 2) {
    ++step;
    for (int t = 0; t < active; ++t) s.adds.push_back({step, t, t, t + active});
  }
  return s;
}
// [figures-schedules]

ScheduleStats analyze(const Schedule& s) {
  ScheduleStats st;
  const int wires = wires_of(s);
  // count[w][i]: how many times input i is in element w's value.
  std::vector<std::vector<int>> count(wires, std::vector<int>(s.n, 0));
  for (int i = 0; i < s.n; ++i) count[i][i] = 1;
  st.race_free = true;
  for (const auto& step : by_step(s)) {
    std::set<int> targets, sources;
    for (const Add& a : step) {
      if (a.target < 0 || a.target >= wires || a.source < 0 || a.source >= wires) {
        st.error = "step " + std::to_string(a.step) + ": an element out of range";
        return st;
      }
      if (!targets.insert(a.target).second && st.error.empty()) {
        st.race_free = false;
        st.error = "step " + std::to_string(a.step) + ": element " + std::to_string(a.target) +
                   " is written twice";
      }
      sources.insert(a.source);
    }
    for (int t : targets) {
      if (sources.count(t) && st.race_free) {
        st.race_free = false;
        st.error = "step " + std::to_string(step.front().step) + ": element " + std::to_string(t) +
                   " is read and written";
      }
    }
    // Every read of the step happens before every write (the barrier between steps).
    std::vector<std::vector<int>> read;
    for (const Add& a : step) read.push_back(count[a.source]);
    for (std::size_t k = 0; k < step.size(); ++k)
      for (int i = 0; i < s.n; ++i) count[step[k].target][i] += read[k][i];
    st.steps = step.front().step;
  }
  st.adds = static_cast<int>(s.adds.size());
  st.each_once = s.result >= 0 && s.result < wires;
  for (int i = 0; st.each_once && i < s.n; ++i) st.each_once = count[s.result][i] == 1;
  if (!st.each_once && st.error.empty()) st.error = "the result does not hold every element once";
  return st;
}

std::vector<long long> partial_sums(const Schedule& s, const std::vector<long long>& in) {
  require(static_cast<int>(in.size()) == s.n, "partial_sums: one input per element");
  std::vector<long long> value(wires_of(s), 0);
  std::copy(in.begin(), in.end(), value.begin());
  std::vector<long long> written;
  for (const auto& step : by_step(s)) {
    std::vector<long long> read;
    for (const Add& a : step) read.push_back(value[a.source]);
    for (std::size_t k = 0; k < step.size(); ++k) {
      value[step[k].target] += read[k];
      written.push_back(value[step[k].target]);
    }
  }
  return written;
}

// [figures-banks]
std::vector<StepAccess> shared_accesses(const Schedule& s) {
  std::vector<StepAccess> out;
  for (const auto& step : by_step(s)) {
    StepAccess a;
    a.step = step.front().step;
    a.active_threads = static_cast<int>(step.size());
    // Each warp's source reads: 4-byte word w lies in bank w % 32, and a warp needs as many
    // passes as the most distinct words any one bank holds.
    std::map<int, std::map<int, std::set<int>>> words;  // warp -> bank -> words
    for (const Add& add : step) words[add.thread / 32][add.source % 32].insert(add.source);
    a.active_warps = static_cast<int>(words.size());
    for (const auto& [warp, banks] : words) {
      int degree = 0;
      for (const auto& [bank, ws] : banks) degree = std::max(degree, static_cast<int>(ws.size()));
      a.conflict = std::max(a.conflict, degree);
      a.passes += degree;
    }
    out.push_back(a);
  }
  return out;
}
// [figures-banks]

std::string access_table_markdown(int threads) {
  require(power_of_two(threads) && threads >= 32 && threads <= 1024,
          "access_table_markdown: threads must be a power of two from 32 to 1024");
  struct Row {
    std::string kernel, order;
    Schedule s;
  };
  const std::vector<Row> rows = {
      {"10a, neighbored pairs", "`s[t] += s[t + stride]` if t is a multiple of 2 stride",
       neighbored_schedule(threads)},
      {"10b, neighbored pairs, less divergent",
       "`s[2 stride t] += s[2 stride t + stride]` if 2 stride t < B",
       neighbored_less_schedule(threads)},
      {"10d, halving (variant 1's order)", "`s[t] += s[t + active]` if t < active",
       interleaved_schedule(threads, threads)},
  };
  auto join = [](const std::vector<int>& v) {
    std::ostringstream o;
    for (std::size_t i = 0; i < v.size(); ++i) o << (i ? ", " : "") << v[i];
    return o.str();
  };
  std::ostringstream o;
  o << "| kernel | in each step, thread t adds | warps at work, step by step | "
       "warp-steps | largest bank conflict, step by step | passes of the reads |\n"
    << "|:---|:---|:---|---:|:---|---:|\n";
  for (const Row& r : rows) {
    std::vector<int> warps, conflicts;
    int warp_steps = 0, passes = 0;
    for (const StepAccess& a : shared_accesses(r.s)) {
      warps.push_back(a.active_warps);
      conflicts.push_back(a.conflict);
      warp_steps += a.active_warps;
      passes += a.passes;
    }
    o << "| " << r.kernel << " | " << r.order << " | " << join(warps) << " | " << warp_steps
      << " | " << join(conflicts) << " | " << passes << " |\n";
  }
  return o.str();
}

// [figures-warp]
std::vector<int> warp_offsets() {
  // warp_reduce_sum(): for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(...)
  std::vector<int> offsets;
  for (int offset = 16; offset > 0; offset /= 2) offsets.push_back(offset);
  return offsets;
}

std::vector<LaneCounts> warp_contributions(Shuffle kind) {
  LaneCounts c{};
  for (int l = 0; l < 32; ++l) c[l][l] = 1;
  std::vector<LaneCounts> steps{c};
  for (int offset : warp_offsets()) {
    const LaneCounts before = c;
    for (int l = 0; l < 32; ++l) {
      // The lane a shuffle reads from; __shfl_down_sync past the warp's end returns the
      // caller's own value.
      const int from = kind == Shuffle::Xor ? (l ^ offset) : (l + offset < 32 ? l + offset : l);
      for (int j = 0; j < 32; ++j) c[l][j] = before[l][j] + before[from][j];
    }
    steps.push_back(c);
  }
  return steps;
}
// [figures-warp]

namespace {

std::string pos(double x, double y) {
  std::ostringstream p;
  p.setf(std::ios::fixed);
  p.precision(3);
  p << "pos=\"" << x << "," << y << "!\"";
  return p.str();
}

const char* kHeader =
    "  graph [layout=neato, splines=false, outputorder=edgesfirst, bgcolor=white, pad=0.15];\n"
    "  node [fontname=Helvetica, fontsize=10, label=\"\"];\n"
    "  edge [dir=none, color=\"#666666\", penwidth=1.0];\n";

// [figures-trees]
// Figure 12.1: each schedule as a circuit on its elements, side by side. Wires run down from
// the inputs; a circle on wire `target` in row `step` is an addition, labelled with the value
// it writes, and a line joins it to the point where it reads wire `source`.
std::string trees_dot(const std::string& graph,
                      const std::vector<std::pair<Schedule, std::string>>& panels,
                      const std::vector<long long>& in) {
  const double dx = 0.36, dy = 0.40, gap = 0.75;
  std::ostringstream o;
  o << "digraph " << graph << " {\n"
    << "  // Generated by reduction_figures (ch12_reduction/figures/reduction_figures.cpp); do not edit.\n"
    << kHeader;
  std::ostringstream edges;
  double x0 = 0;
  for (std::size_t p = 0; p < panels.size(); ++p) {
    const Schedule& s = panels[p].first;
    const ScheduleStats st = analyze(s);
    const std::vector<long long> values = partial_sums(s, in);
    const std::string id = "p" + std::to_string(p) + "_";
    o << "  " << id << "title [shape=plaintext, fontsize=11, label=\"" << panels[p].second << "\", "
      << pos(x0 + (s.n - 1) * dx / 2, 0.85) << "];\n";
    std::vector<std::vector<std::pair<double, std::string>>> wire(s.n);
    for (int i = 0; i < s.n; ++i) {
      const std::string name = id + "x" + std::to_string(i);
      o << "  " << name << " [shape=plaintext, width=0.3, height=0.2, label=\"" << in[i] << "\", "
        << pos(x0 + i * dx, 0.35) << "];\n";
      wire[i].push_back({0.35, name});
    }
    // Each step's row: its fan-out points lie `rise` above its circles, high enough that a line
    // passing over another circle of the same step clears it (0.17 in per wire it spans).
    std::vector<double> row_y(st.steps + 1, 0.0), rise(st.steps + 1, 0.5 * dy);
    for (const Add& a : s.adds) {
      for (const Add& b : s.adds) {
        const int lo = std::min(a.source, a.target), hi = std::max(a.source, a.target);
        if (b.step == a.step && b.target > lo && b.target < hi)
          rise[a.step] = std::max(rise[a.step], 0.17 * (hi - lo));
      }
    }
    for (int k = 1; k <= st.steps; ++k) row_y[k] = row_y[k - 1] - (rise[k] + 0.5 * dy);
    std::set<std::pair<int, int>> fans;
    for (std::size_t k = 0; k < s.adds.size(); ++k) {
      const Add& a = s.adds[k];
      const double y = row_y[a.step];
      const std::string op = id + "op" + std::to_string(k);
      o << "  " << op << " [shape=circle, width=0.27, height=0.27, fixedsize=true, fontsize=8, "
        << "style=filled, fillcolor=\"#eef3f8\", color=\"#1f4e79\", label=\"" << values[k] << "\", "
        << pos(x0 + a.target * dx, y) << "];\n";
      wire[a.target].push_back({y, op});
      const std::string fan = id + "f" + std::to_string(a.step) + "_" + std::to_string(a.source);
      if (fans.insert({a.step, a.source}).second) {
        o << "  " << fan << " [shape=point, width=0.05, color=\"#333333\", "
          << pos(x0 + a.source * dx, y + rise[a.step]) << "];\n";
        wire[a.source].push_back({y + rise[a.step], fan});
      }
      edges << "  " << fan << " -> " << op << ";\n";
    }
    const double bottom = row_y[st.steps] - dy;
    const std::string out = id + "sum";
    o << "  " << out << " [shape=plaintext, width=0.3, height=0.2, fontsize=11, label=\"sum\", "
      << pos(x0 + s.result * dx, bottom) << "];\n";
    wire[s.result].push_back({bottom, out});
    for (auto& points : wire) {
      std::sort(points.begin(), points.end(),
                [](const auto& a, const auto& b) { return a.first > b.first; });
      if (points.size() < 2) continue;
      o << "  ";
      for (std::size_t q = 0; q < points.size(); ++q) o << (q ? " -> " : "") << points[q].second;
      o << ";\n";
    }
    x0 += (s.n - 1) * dx + gap;
  }
  o << edges.str() << "}\n";
  return o.str();
}
// [figures-trees]

// [figures-lanes]
// Figure 12.2: one row per step, one 4-wide, 8-high rectangle per lane; the cell of lane j
// (column j % 4, row j / 4) is dark when lane j's value is in the lane's sum, red when it is
// in it more than once. Runs of equal cells in a column are drawn as one box.
std::string lanes_dot(const std::string& graph, const std::vector<LaneCounts>& steps,
                      const std::vector<std::string>& row_labels) {
  const double c = 0.045, pitch_x = 4 * c + 0.055, pitch_y = 8 * c + 0.2, left = 0.95;
  std::ostringstream o;
  o << "digraph " << graph << " {\n"
    << "  // Generated by reduction_figures (ch12_reduction/figures/reduction_figures.cpp); do not edit.\n"
    << kHeader
    << "  node [shape=box, style=filled, fixedsize=true, penwidth=0, width=" << c
    << ", fillcolor=\"#2c3e50\"];\n";
  for (int l = 0; l < 32; ++l) {
    o << "  lane" << l << " [shape=plaintext, style=solid, width=0.2, height=0.15, fontsize=7, "
      << "label=\"" << l << "\", " << pos(left + l * pitch_x + 2 * c, 0.16) << "];\n";
  }
  for (std::size_t r = 0; r < steps.size(); ++r) {
    const double top = -static_cast<double>(r) * pitch_y;
    o << "  row" << r << " [shape=plaintext, style=solid, width=0.8, height=0.2, fontsize=9, "
      << "label=\"" << row_labels[r] << "\", " << pos(0.4, top - 4 * c) << "];\n";
    for (int l = 0; l < 32; ++l) {
      const double x = left + l * pitch_x;
      o << "  frame" << r << "_" << l << " [width=" << 4 * c << ", height=" << 8 * c
        << ", fillcolor=white, color=\"#999999\", penwidth=0.5, " << pos(x + 2 * c, top - 4 * c)
        << "];\n";
      for (int col = 0; col < 4; ++col) {
        int row = 0;
        while (row < 8) {
          const int n = steps[r][l][row * 4 + col];
          int end = row + 1;
          while (end < 8 && steps[r][l][end * 4 + col] == n) ++end;
          if (n > 0) {
            o << "  c" << r << "_" << l << "_" << col << "_" << row
              << " [height=" << (end - row) * c
              << (n == 1 ? "" : ", fillcolor=\"#c0392b\"") << ", "
              << pos(x + (col + 0.5) * c, top - (row + (end - row) / 2.0) * c) << "];\n";
          }
          row = end;
        }
      }
    }
  }
  o << "}\n";
  return o.str();
}
// [figures-lanes]

}  // namespace

std::vector<Figure> chapter_figures() {
  std::vector<long long> one_to_eight;
  for (int i = 1; i <= 8; ++i) one_to_eight.push_back(i);
  const Schedule serial = serial_schedule(8), pairwise = neighbored_schedule(8),
                 interleaved = interleaved_schedule(8, 4);
  auto steps = [](const Schedule& s) { return std::to_string(analyze(s).steps) + " steps"; };
  std::vector<std::string> xor_rows{"start"}, down_rows{"start"};
  for (int offset : warp_offsets()) {
    xor_rows.push_back("lane ^ " + std::to_string(offset));
    down_rows.push_back("lane + " + std::to_string(offset));
  }
  return {
      {"reduction_trees_8",
       "Figure 12.1: a reduction of 8 elements (the blog post's 1 to 8). Serial: one unit, 7 "
       "steps. Pairwise, as the neighbored kernels add: 3 steps, but adjacent threads touch "
       "elements far apart. Interleaved by a factor of 4, as variant 1's four threads add: "
       "3 steps, and the threads at work are always the lowest-numbered ones. Each circle is "
       "an addition with the value it writes.",
       trees_dot("reduction_trees_8",
                 {{serial, "serial: " + steps(serial)},
                  {pairwise, "pairwise (10a): " + steps(pairwise)},
                  {interleaved, "interleaved by 4 (variant 1): " + steps(interleaved)}},
                 one_to_eight)},
      {"warp_butterfly",
       "Figure 12.2: a warp reduction with __shfl_xor_sync (variant 9). Each rectangle is one "
       "lane's sum, its 32 cells the lanes 0 to 31 in rows of 4; a dark cell is a lane whose "
       "value the sum holds. Every step doubles the contributions, and after 5 steps every "
       "lane holds all 32.",
       lanes_dot("warp_butterfly", warp_contributions(Shuffle::Xor), xor_rows)},
      {"warp_shuffle_down",
       "The same reduction with __shfl_down_sync (the text's footnote 5): as many shuffles, "
       "but only lane 0 ends with the sum. A lane whose partner lies past the end of the warp "
       "gets its own value back; red cells are values counted more than once.",
       lanes_dot("warp_shuffle_down", warp_contributions(Shuffle::Down), down_rows)},
  };
}

}  // namespace ch12
