#!/usr/bin/env bash
# Compaction variant 4 at 2^28 int32 and 512 threads with tiles of 20 to 36 elements per
# thread (36, the largest whose ring of three fits a 512-thread block on the H100, is what the
# chapter builds): one build of the compaction's program per tile size, with
# CH13_COMPACT_RING_ITEMS set, then ROUNDS alternating runs of all of them. Runs on the GPU
# machine from the repository root (header-only dependencies from .deps/, as gpu_run.sh).
#
#   bash scripts/compact_tile_sweep.sh [ROUNDS]      (default 2; CSV to $OUT/ch13_compact_tile_items.csv)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
rounds=${1:-2}
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT"
items=(20 24 28 32 36)
for i in "${items[@]}"; do
  {
    cmake -S . -B "build-tile-$i" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$root/.deps" -DCMAKE_CUDA_ARCHITECTURES=90 -DHB_CHAPTERS=ch13_scan \
      "-DCMAKE_CUDA_FLAGS=-DCH13_COMPACT_RING_ITEMS=$i" "-DCMAKE_CXX_FLAGS=-DCH13_COMPACT_RING_ITEMS=$i" &&
    cmake --build "build-tile-$i" -j 4 --target compact4_bulk_copy_ring
  } >"$OUT/tile-build-$i.log" 2>&1 &
done
wait
csv=$OUT/ch13_compact_tile_items.csv
{
  echo "# program: scripts/compact_tile_sweep.sh $rounds"
  echo "# date: $(date -u +%F)"
  echo "# gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo "# driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  echo "# each row: compact4_bulk_copy_ring --n 256M --threads 512 --iters 20, built with CH13_COMPACT_RING_ITEMS = items"
  echo "round,items per thread,tile (elements),us (median),G elements/s,GB/s,% of CUB,% of copy,check"
} >"$csv"
status=0
for r in $(seq "$rounds"); do
  for i in "${items[@]}"; do
    program=build-tile-$i/ch13_scan/compact4_bulk_copy_ring
    [ -x "$program" ] || { echo "compact_tile_sweep: the build with $i items failed" >&2; status=1; continue; }
    # The program prints CUB's row, then variant 4's: id,variant,threads,ms,G el/s,GB/s,% CUB,% copy,selected,check
    row=$("$program" --n 256M --threads 512 --iters 20 --csv | grep '^4,') || status=1
    python3 - "$r" "$i" "$row" >>"$csv" <<'PY' || status=1
import csv, sys
r, items, row = sys.argv[1], int(sys.argv[2]), next(csv.reader([sys.argv[3]]))
print(f"{r},{items},{512 * items},{float(row[3]) * 1000:.2f},{row[4]},{row[5]},{row[6]},{row[7]},{row[9]}")
PY
  done
done
cat "$csv"
exit $status
