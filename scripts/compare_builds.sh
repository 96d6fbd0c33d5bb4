#!/usr/bin/env bash
# Runs the same benchmarks from two source trees, alternately, on one GPU, and compares every
# timed row: did a change move performance beyond run-to-run noise? Runs on the GPU machine.
#
#   bash scripts/compare_builds.sh OLD_SOURCE_DIR [ROUNDS]
#
# OLD_SOURCE_DIR holds the earlier tree (e.g. `git archive <commit> | tar -x -C old`); the new
# tree is this one. Both are built for this GPU with the chapters the benchmarks need (header-
# only dependencies from .deps/, as scripts/gpu_run.sh). Each round runs every benchmark from
# the old build, then from the new (ROUNDS, default 3). CSVs and the comparison
# (compare_builds.txt: per row, the median over rounds of old and new "ms (median)" and their
# ratio) go to $OUT (default ./gpu-out).
#
# HB_COMPARE is a regex of the benchmark names to run (default: all).
# HB_STEPS=build builds both trees and stops (no GPU needed); HB_STEPS=run runs what an earlier
# HB_STEPS=build left in build-compare-old and build-compare-new (packed and unpacked with
# scripts/pack_build.sh, to build on one machine and measure on another). Default: both.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
old_src=${1:?usage: compare_builds.sh OLD_SOURCE_DIR [ROUNDS]}
rounds=${2:-3}
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT/compare"
benchmarks=(
  "stream1|ch11_streaming/stream1_device --n 64M --iters 10"
  "stream2|ch11_streaming/stream2_async --n 64M --iters 10"
  "stream3|ch11_streaming/stream3_streams --n 64M --iters 10"
  "stream4|ch11_streaming/stream4_mapped --n 64M --iters 10"
  "reduction0|ch12_reduction/reduction0_cub --n 64M --iters 20"
  "reduction1|ch12_reduction/reduction1_two_pass --n 64M --iters 20"
  "reduction2|ch12_reduction/reduction2_warp_sync --n 64M --iters 20"
  "reduction3|ch12_reduction/reduction3_unrolled --n 64M --iters 20"
  "reduction4|ch12_reduction/reduction4_single_pass --n 64M --iters 20"
  "reduction5|ch12_reduction/reduction5_atomics --n 64M --iters 20"
  "reduction6|ch12_reduction/reduction6_any_block_size --n 64M --iters 20"
  "reduction7|ch12_reduction/reduction7_templated --n 64M --iters 20"
  "reduction8a|ch12_reduction/reduction8a_syncthreads_count --n 64M --iters 20"
  "reduction8b|ch12_reduction/reduction8b_ballot --n 64M --iters 20"
  "reduction9|ch12_reduction/reduction9_shuffle --n 64M --iters 20"
  "reduction10a|ch12_reduction/reduction10a_neighbored --n 64M --iters 20"
  "reduction10b|ch12_reduction/reduction10b_neighbored_less --n 64M --iters 20"
  "reduction10c|ch12_reduction/reduction10c_global_memory --n 64M --iters 20"
  "reduction10d|ch12_reduction/reduction10d_shared_memory --n 64M --iters 20"
  "reduction10e|ch12_reduction/reduction10e_relaunch --n 64M --iters 20"
  "reduction10f|ch12_reduction/reduction10f_recursive --n 64M --iters 20"
  "reduction11a|ch12_reduction/reduction11a_vectorized --n 64M --iters 20"
  "reduction11b|ch12_reduction/reduction11b_vectorized_atomics --n 64M --iters 20"
  "scan6|ch13_scan/scan6_decoupled_lookback --n 256M --iters 20"
  "scan7|ch13_scan/scan7_bulk_copy_lookback --n 256M --iters 20"
  "scan7_float|ch13_scan/scan7_bulk_copy_lookback --n 256M --type float --exclusive --iters 20"
  "compact3|ch13_scan/compact3_bulk_copy_lookback --n 256M --iters 20"
  "nbody_aos|ch14_nbody/nbody_gpu_aos --bodies 64K --iters 10"
  "nbody_shared|ch14_nbody/nbody_gpu_shared --bodies 64K --iters 10"
  "nbody_const|ch14_nbody/nbody_gpu_const --bodies 64K --iters 10"
  "nbody_shuffle|ch14_nbody/nbody_gpu_shuffle --bodies 64K --iters 10"
  "nbody_blocked|ch14_nbody/nbody_gpu_blocked --bodies 64K --iters 10"
  "nbody_symmetric|ch14_nbody/nbody_gpu_symmetric --bodies 64K --iters 10"
  "corr_52|ch15_correlation/normalized_cross_correlation --padWidth 1024 --padHeight 1024 --iters 20"
  "histogram_all|extras_histogram/histogram --n 64M --iters 10"
  "histogram_packed|extras_histogram/histogram_per_thread_packed --n 256M --iters 20"
  "histogram_columns|extras_histogram/histogram_lane_columns_atomic --n 256M --iters 20"
  "histogram_pairs|extras_histogram/histogram_lane_columns_pairs --n 256M --iters 20"
)
selected=()
for entry in "${benchmarks[@]}"; do
  echo "${entry%%|*}" | grep -Eq "${HB_COMPARE:-.}" && selected+=("$entry")
done
benchmarks=("${selected[@]}")
[ ${#benchmarks[@]} -gt 0 ] || { echo "compare_builds: HB_COMPARE='${HB_COMPARE:-}' selects no benchmark" >&2; exit 2; }
# Build only the chapters the selected benchmarks come from.
chapters=$(for entry in "${benchmarks[@]}"; do p=${entry#*|}; echo "${p%%/*}"; done | sort -u | paste -sd';')
steps=${HB_STEPS:-build,run}
case $steps in
  build|run|build,run) ;;
  *) echo "compare_builds: HB_STEPS must be build, run or build,run, not '$steps'" >&2; exit 2 ;;
esac
for side in old new; do
  [[ $steps == *build* ]] || break
  src=$root; [ "$side" = old ] && src=$old_src
  if ! { cmake -S "$src" -B "build-compare-$side" -G Ninja -DCMAKE_BUILD_TYPE=Release \
           -DCMAKE_PREFIX_PATH="$root/.deps" -DCMAKE_CUDA_ARCHITECTURES=90 \
           -DHB_CHAPTERS="$chapters" &&
         cmake --build "build-compare-$side" -j "$(nproc)"; } >"$OUT/compare/build-$side.log" 2>&1; then
    tail -30 "$OUT/compare/build-$side.log"; echo "compare_builds: the $side build failed"; exit 1
  fi
done
[ "$steps" = build ] && { echo "compare_builds: built build-compare-old and build-compare-new"; exit 0; }
status=0
for round in $(seq 1 "$rounds"); do
  for entry in "${benchmarks[@]}"; do
    name=${entry%%|*}
    read -r program args <<<"${entry#*|}"
    for side in old new; do
      # shellcheck disable=SC2086
      if ! "build-compare-$side/$program" $args --csv >"$OUT/compare/$name.$side.$round.csv" 2>&1; then
        echo "FAILED: $side $program $args"; status=1
      fi
    done
  done
done
python3 - "$OUT/compare" "$rounds" "${benchmarks[@]}" <<'PY' | tee "$OUT/compare_builds.txt"
import csv, io, statistics, sys
folder, rounds, entries = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def table(path):
    lines = [l for l in open(path) if not l.startswith('#')]
    rows = list(csv.reader(io.StringIO(''.join(lines))))
    return rows[0], rows[1:]
print("# old vs new, median over %d alternating rounds of each row's 'ms (median)'" % rounds)
worst = 0.0
missing = []
for entry in entries:
    name = entry.split('|')[0]
    per_row = {}
    for side in ('old', 'new'):
        for r in range(1, rounds + 1):
            head, rows = table('%s/%s.%s.%d.csv' % (folder, name, side, r))
            col = head.index('ms (median)')
            keys = [i for i, h in enumerate(head) if h not in ('ms (median)',) and not any(
                u in h for u in ('GB/s', 'G elem', 'Mpix', 'G tpx', 'GFLOP', '%', ' x ', 'x CPU', 'x variant', 'check', 'interactions'))]
            for row in rows:
                try:
                    ms = float(row[col])
                except ValueError:
                    continue
                key = ' '.join(row[i] for i in keys[:4])
                per_row.setdefault(key, {'old': [], 'new': []})[side].append(ms)
    print('\n## %s: %s' % (name, entry.split('|')[1]))
    for key, v in per_row.items():
        if len(v['old']) != rounds or len(v['new']) != rounds:
            # A row the other build does not print (or not in every round) is a change of
            # the table, not of speed: say so, and fail the comparison.
            print('%-70s ROWS old %d new %d (of %d rounds)' % (key[:70], len(v['old']), len(v['new']), rounds))
            missing.append(name + ': ' + key)
            continue
        o, n = statistics.median(v['old']), statistics.median(v['new'])
        change = 100.0 * (n - o) / o if o > 0 else 0.0
        worst = max(worst, change)
        print('%-70s old %10.4f ms  new %10.4f ms  %+6.2f%%' % (key[:70], o, n, change))
print('\nlargest slowdown of any row: %+.2f%%' % worst)
print('rows printed by one build only: %d' % len(missing))
sys.exit(1 if missing else 0)
PY
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
exit $status
