#!/usr/bin/env bash
# Profiles the fastest kernel of each chapter against its ceiling with Nsight Compute, on the GPU
# machine, from a finished build (scripts/gpu_run.sh builds one): the speed-of-light,
# occupancy, scheduler, warp-state and instruction sections of one launch after the warm-up
# (summed up by scripts/ncu_summary.py), the opcodes of the N-body kernels' SASS
# (scripts/sass_counts.py: the instruction count behind the FP32 issue bound), and the time of
# one call of chapter 15's FFT route split among its kernels (scripts/ncu_kernels.py).
#
#   bash scripts/profile.sh [BUILD_DIR]       (default build-gpu; results in $OUT/profiles.tar.gz)
#
# HB_PROFILES is a regex of the names below to profile (default: all; the FFT split and the
# SASS counts run only with the default).
#
# One launch per kernel, at the sizes of the chapters' tables; the clocks are left as the GPU
# runs them (--clock-control none), so the durations match the tables' medians.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
OUT=${OUT:-$PWD/gpu-out}
[ -f "$build/CTestTestfile.cmake" ] || { echo "profile: $build is not a finished build" >&2; exit 2; }
command -v ncu >/dev/null || { echo "profile: ncu (Nsight Compute) is not on the PATH" >&2; exit 2; }
work=$(mktemp -d)/profiles
mkdir -p "$work" "$OUT"
status=0
sections=(--section SpeedOfLight --section LaunchStats --section Occupancy --section SchedulerStats
          --section WarpStateStats --section ComputeWorkloadAnalysis --section InstructionStats
          --section MemoryWorkloadAnalysis)
# What the warps wait for (cycles per issued instruction, by reason) and the shared-memory
# traffic: the sections above give only their totals.
stalls=(long_scoreboard short_scoreboard mio_throttle lg_throttle wait barrier math_pipe_throttle
        not_selected)
metrics=$(printf 'smsp__average_warps_issue_stalled_%s_per_issue_active.ratio,' "${stalls[@]}")
metrics+=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active
sections+=(--metrics "$metrics")

# name | kernel regex | launches to skip (warm-up and checks) | program and arguments
profiles=(
  "nbody_symmetric|nbody_symmetric|3|ch14_nbody/nbody_gpu_symmetric --bodies 64K --iters 3"
  "nbody_symmetric_rows|nbody_symmetric_rows|3|ch14_nbody/nbody_gpu_symmetric_rows --bodies 64K --iters 3"
  "nbody_blocked|nbody_blocked|3|ch14_nbody/nbody_gpu_blocked --bodies 64K --iters 3"
  "scan7|scan7_kernel|3|ch13_scan/scan7_bulk_copy_lookback --n 256M --threads 512 --iters 3"
  "scan_cub|DeviceScanKernel|3|ch13_scan/scan0b_cub --n 256M --iters 3"
  "compact3|compact3_kernel|3|ch13_scan/compact3_bulk_copy_lookback --n 256M --iters 3"
  "scan8|scan8_kernel|3|ch13_scan/scan8_bulk_copy_ring --n 256M --threads 512 --iters 3"
  "compact4|compact4_kernel|3|ch13_scan/compact4_bulk_copy_ring --n 256M --threads 512 --iters 3"
  "compact5|compact5_kernel|3|ch13_scan/compact5_lane_runs --n 256M --threads 512 --iters 3"
  "scan10|scan10_kernel|3|ch13_scan/scan10_early_refill --n 256M --iters 3"
  "scan11|scan10_kernel|3|ch13_scan/scan11_anchored_lookback --n 256M --iters 3"
  "compact6|compact5_kernel|3|ch13_scan/compact6_anchored_lookback --n 256M --threads 512 --iters 3"
  "reduce11b|reduction11b_kernel|3|ch12_reduction/reduction11b_vectorized_atomics --n 256M --iters 3"
  "histogram13|histogram_lane_columns_kernel|3|extras_histogram/histogram_lane_columns_atomic --n 256M --iters 3"
  "histogram16|histogram_permute_kernel|3|extras_histogram/histogram_lane_columns_permute --n 256M --iters 3"
  "histogram17|histogram_permute_kernel|3|extras_histogram/histogram_l2_prefetch --n 256M --iters 3"
  "corr_tensor_52|corr_tensor_kernel|3|ch15_correlation/corr_tensor --padWidth 1024 --padHeight 1024 --iters 3"
  "corr_dp4a_16|corr_dp4a_kernel|3|ch15_correlation/corr_dp4a --padWidth 1024 --padHeight 1024 --wTemplate 16 --hTemplate 16 --iters 3"
)
for entry in "${profiles[@]}"; do
  IFS='|' read -r name kernel skip cmd <<<"$entry"
  echo "$name" | grep -Eq "${HB_PROFILES:-.}" || continue
  read -r program args <<<"$cmd"
  [ -x "$build/$program" ] || { echo "profile: $program not built, skipped"; continue; }
  echo "=== $name: $program $args"
  # shellcheck disable=SC2086
  if ! ncu --clock-control none -k "regex:$kernel" --launch-skip "$skip" --launch-count 1 \
         "${sections[@]}" --csv --page details "$build/$program" $args \
         >"$work/$name.csv" 2>"$work/$name.err"; then
    echo "FAILED: ncu on $program"; tail -5 "$work/$name.err"; status=1
  fi
done

python3 scripts/ncu_summary.py "$work"/*.csv >"$work/summary.txt" && cat "$work/summary.txt"
mv "$work/summary.txt" "$work/summary.csv"

# Chapter 15's FFT route is seven kernels and library calls per call: every launch of a short run
# (the template's preparation, the untimed and the timed calls), its time split among them.
fft=ch15_correlation/corr_fft
if [ -z "${HB_PROFILES:-}" ] && [ -x "$build/$fft" ]; then
  echo "=== corr_fft_52: $fft --padWidth 1024 --padHeight 1024 --iters 3 (every launch)"
  # Caches are left as the previous kernel leaves them (--cache-control none): each kernel of
  # the route reads what its predecessor wrote, often from L2, as it does outside the profiler.
  if ncu --clock-control none --cache-control none --csv --page details \
       --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
       "$build/$fft" --padWidth 1024 --padHeight 1024 --iters 3 \
       >"$work/fft_launches_52.txt" 2>"$work/fft_launches_52.err" &&
     python3 scripts/ncu_kernels.py "$work/fft_launches_52.txt" fft_finish_kernel \
       >"$work/corr_fft_52_kernels.csv"; then
    cat "$work/corr_fft_52_kernels.csv"
  else
    echo "FAILED: ncu on $fft"; tail -5 "$work/fft_launches_52.err"; status=1
  fi
fi

if [ -z "${HB_PROFILES:-}" ] && command -v cuobjdump >/dev/null && [ -x "$build/ch14_nbody/nbody" ]; then
  # Every chapter 14 program holds every kernel of the chapter library: one dump serves all.
  cuobjdump -sass "$build/ch14_nbody/nbody" >"$work/nbody.sass"
  python3 scripts/sass_counts.py "$work/nbody.sass" nbody_blocked nbody_symmetric \
      | tee "$work/nbody_sass_counts.csv"
fi

tar -C "$(dirname "$work")" -czf "$OUT/profiles.tar.gz" profiles
echo "profile: status $status; $OUT/profiles.tar.gz"
exit $status
