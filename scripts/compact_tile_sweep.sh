#!/usr/bin/env bash
# The tile and ring shapes of the compactions with a ring, at 2^28 int32 and 512 threads: one
# build of the compaction's program per shape, then ROUNDS alternating runs of all of them.
#   variant 4: tiles of 20 to 36 elements per thread in a ring of three (36, the largest whose
#              ring fits a 512-thread block on the H100, is what the chapter builds), with
#              CH13_COMPACT_RING_ITEMS set; CSV ch13_compact_tile_items.csv
#   variant 5: rings of 3 to 5 tiles of 20 to 36 elements per thread (the chapter builds 3 of
#              36), with CH13_LANE_RUN_STAGES and CH13_LANE_RUN_ITEMS set;
#              CSV ch13_compact5_ring_shapes.csv
# Runs on the GPU machine from the repository root (header-only dependencies from .deps/, as
# gpu_run.sh).
#
#   bash scripts/compact_tile_sweep.sh [ROUNDS [VARIANT]]   (default 2 rounds, variant 4; CSV to $OUT)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
rounds=${1:-2}
variant=${2:-4}
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT"
case "$variant" in
  4) program_name=compact4_bulk_copy_ring
     shapes=(3:20 3:24 3:28 3:32 3:36)
     csv=$OUT/ch13_compact_tile_items.csv ;;
  5) program_name=compact5_lane_runs
     shapes=(3:28 3:36 4:20 4:28 5:20)
     csv=$OUT/ch13_compact5_ring_shapes.csv ;;
  *) echo "compact_tile_sweep: VARIANT must be 4 or 5, not '$variant'" >&2; exit 2 ;;
esac
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "compact_tile_sweep: ROUNDS must be a positive whole number, not '$rounds'" >&2; exit 2; }
flags_of() {  # stages:items -> the compiler flags of that build
  local stages=${1%%:*} items=${1##*:}
  if [ "$variant" = 4 ]; then echo "-DCH13_COMPACT_RING_ITEMS=$items"
  else echo "-DCH13_LANE_RUN_STAGES=$stages -DCH13_LANE_RUN_ITEMS=$items"; fi
}
for shape in "${shapes[@]}"; do
  dir=build-tile-$variant-${shape/:/-}
  flags=$(flags_of "$shape")
  {
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$root/.deps" -DCMAKE_CUDA_ARCHITECTURES=90 -DHB_CHAPTERS=ch13_scan \
      "-DCMAKE_CUDA_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" &&
    cmake --build "$dir" -j 3 --target "$program_name"
  } >"$OUT/tile-build-$variant-${shape/:/-}.log" 2>&1 &
done
wait
{
  echo "# program: scripts/compact_tile_sweep.sh $rounds $variant"
  echo "# date: $(date -u +%F)"
  echo "# gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo "# driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  if [ "$variant" = 4 ]; then
    echo "# each row: compact4_bulk_copy_ring --n 256M --threads 512 --iters 20, built with CH13_COMPACT_RING_ITEMS = items"
    echo "round,items per thread,tile (elements),us (median),G elements/s,GB/s,% of CUB,% of copy,check"
  else
    echo "# each row: compact5_lane_runs --n 256M --threads 512 --iters 20, built with CH13_LANE_RUN_STAGES = stages, CH13_LANE_RUN_ITEMS = items"
    echo "round,stages,items per thread,tile (elements),shared memory per block (KiB),us (median),G elements/s,GB/s,% of CUB,% of copy,check"
  fi
} >"$csv"
status=0
for r in $(seq "$rounds"); do
  for shape in "${shapes[@]}"; do
    program=build-tile-$variant-${shape/:/-}/ch13_scan/$program_name
    [ -x "$program" ] || { echo "compact_tile_sweep: the build of $shape (stages:items) failed" >&2; status=1; continue; }
    # The program prints CUB's row, then the variant's: id,variant,threads,ms,G el/s,GB/s,% CUB,% copy,selected,check
    row=$("$program" --n 256M --threads 512 --iters 20 --csv | grep "^$variant,") || status=1
    python3 - "$r" "$variant" "$shape" "$row" >>"$csv" <<'PY' || status=1
import csv, sys
r, variant, shape, row = sys.argv[1], sys.argv[2], sys.argv[3], next(csv.reader([sys.argv[4]]))
stages, items = (int(x) for x in shape.split(":"))
rest = f"{float(row[3]) * 1000:.2f},{row[4]},{row[5]},{row[6]},{row[7]},{row[9]}"
if variant == "4":
    print(f"{r},{items},{512 * items},{rest}")
else:
    print(f"{r},{stages},{items},{512 * items},{stages * items * 4 * 512 / 1024:.0f},{rest}")
PY
  done
done
cat "$csv"
exit $status
