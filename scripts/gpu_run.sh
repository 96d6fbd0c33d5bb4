#!/usr/bin/env bash
# Runs on the GPU machine (see README, "Running on a GPU machine"): configure, build, run the
# tests of every label, the sanitizer label and the benchmarks, and leave logs and CSV in
# $OUT (default: ./gpu-out). Prepare on a machine with Debian packages first:
#   bash scripts/stage_deps.sh        # puts CLI11 and Catch2 into .deps/
# then on the GPU machine, from the repository root:
#   bash scripts/gpu_run.sh
# Knobs (environment): HB_LABELS   ctest labels to run          (default 'cpu|gpu|demo')
#                      HB_SANITIZE 1 to run the sanitizer label (default 1)
#                      HB_BENCH    regex of benchmarks to run   (default '.', all; '' none)
#                      HB_CHAPTERS chapters to build            (default all)
#                      HB_JIT_ARCHITECTURE  e.g. 75-virtual or 80-virtual: build PTX for that
#                                  older architecture only, so the driver JIT-compiles it and
#                                  this GPU runs exactly the code of such a GPU (the Turing or
#                                  Ampere forms of every variant). Defaults then: labels
#                                  'gpu|demo', no sanitizer, no benchmarks; a Skipped test is
#                                  accepted only when it says which capability it lacks.
#                      HB_BUILD_DIR  the build folder (default build-gpu, or build-gpu-NN
#                                  for HB_JIT_ARCHITECTURE=NN-virtual); e.g. build, to test
#                                  what README command 1 built
#                      HB_STEPS    'build', 'test' or 'build,test' (default). 'build' alone
#                                  configures and builds (no GPU needed), so a slow machine's
#                                  time goes to running: build here, pack the build with
#                                  scripts/pack_build.sh, unpack it on the GPU machine (the
#                                  checkout at the same absolute path) and run HB_STEPS=test
#                                  there with the same knobs.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT"
work=$(mktemp -d)
logs=$work/gpu-run
mkdir -p "$logs/results"
jit=${HB_JIT_ARCHITECTURE:-}
if [ -n "$jit" ]; then
  case $jit in
    [0-9][0-9]-virtual|[0-9][0-9][0-9]-virtual) ;;
    *) echo "gpu_run: HB_JIT_ARCHITECTURE must look like 80-virtual, not '$jit'" >&2; exit 2 ;;
  esac
  labels=${HB_LABELS-gpu|demo}
  sanitize=${HB_SANITIZE-0}
  bench=${HB_BENCH-}
  build=${HB_BUILD_DIR:-build-gpu-${jit%-virtual}}
  archs=(-DCMAKE_CUDA_ARCHITECTURES="$jit")
  # Every test process JIT-compiles its program's PTX; the driver's cache keeps the result.
  export CUDA_CACHE_PATH=$work/jit-cache CUDA_CACHE_MAXSIZE=4294967296
else
  labels=${HB_LABELS-cpu|gpu|demo}
  sanitize=${HB_SANITIZE-1}
  bench=${HB_BENCH-.}
  build=${HB_BUILD_DIR:-build-gpu}
  archs=()
fi
status=0
steps=${HB_STEPS:-build,test}
case $steps in
  build|test|build,test) ;;
  *) echo "gpu_run: HB_STEPS must be build, test or build,test, not '$steps'" >&2; exit 2 ;;
esac

step() { echo; echo "=== $*"; }

{
  step "machine"
  date -u
  nvidia-smi || true
  nvcc --version | tail -2
} 2>&1 | tee "$logs/machine.txt"

if [[ $steps == *build* ]]; then
  step "configure and build"
  chapters=()
  [ -n "${HB_CHAPTERS:-}" ] && chapters=(-DHB_CHAPTERS="$HB_CHAPTERS")
  if ! { cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
           -DCMAKE_PREFIX_PATH="$root/.deps" "${chapters[@]}" "${archs[@]}" &&
         cmake --build "$build" -j "$(nproc)"; } >"$logs/build.log" 2>&1; then
    tail -50 "$logs/build.log"
    echo "BUILD FAILED"
    tar -C "$work" -czf "$OUT/gpu-run.tar.gz" gpu-run
    exit 1
  fi
  tail -3 "$logs/build.log"
  if [ "$steps" = build ]; then echo "gpu_run: built $build"; exit 0; fi
elif [ ! -f "$build/CTestTestfile.cmake" ]; then
  echo "gpu_run: HB_STEPS=test needs a finished build in $build (unpack one made by HB_STEPS=build)" >&2
  exit 2
fi

if [ -n "$labels" ]; then
  step "ctest -L '$labels'"
  ctest --test-dir "$build" -L "$labels" --output-on-failure --timeout 900 -j "${HB_CTEST_JOBS:-1}" \
      >"$logs/ctest.log" 2>&1 || status=1
  grep -E 'tests passed|tests failed|Skipped|\*\*\*|Failed' "$logs/ctest.log" | tail -40
  if [ -z "$jit" ]; then
    # On the GPU machine no test may be skipped: a Skipped GPU test here means it did not run.
    if grep -q '(Skipped)' "$logs/ctest.log"; then echo "FAILED: tests were skipped"; status=1; fi
  else
    # Built for an older GPU, a test may be Skipped only for a capability that GPU lacks, and
    # must say which: we run each Skipped test again and keep its reason.
    : >"$logs/skipped.txt"
    for number in $(sed -n 's/^ *\([0-9][0-9]*\) - .*(Skipped)$/\1/p' "$logs/ctest.log"); do
      reason=$(ctest --test-dir "$build" -I "$number,$number" -V 2>&1 | grep -m1 -E 'SKIPPED: .*needs ')
      name=$(sed -n "s/^ *$number - \(.*\) (Skipped)\$/\1/p" "$logs/ctest.log")
      if [ -z "$reason" ]; then
        echo "FAILED: test $number ($name) was skipped without a capability reason"; status=1
      fi
      echo "$name: ${reason#*SKIPPED: }" >>"$logs/skipped.txt"
    done
    echo "skipped for a capability: $(wc -l <"$logs/skipped.txt") test(s)"
    cat "$logs/skipped.txt"
    cp "$logs/skipped.txt" "$OUT/" 2>/dev/null
  fi
fi

if [ "$sanitize" = 1 ]; then
  step "ctest -L sanitizer"
  ctest --test-dir "$build" -L sanitizer -V --timeout 1800 \
      >"$logs/sanitizer.log" 2>&1 || status=1
  grep -E 'tests passed|tests failed|Skipped|\*\*\*|Failed|SUMMARY' "$logs/sanitizer.log" | tail -40
  if grep -q '(Skipped)' "$logs/sanitizer.log"; then echo "FAILED: sanitizer runs were skipped"; status=1; fi
fi

# Benchmarks: "<csv name>|<program and arguments>" (programs not built are skipped). Each
# writes its table as CSV, which docs/results/ keeps. Programs run in the folder of the CSV
# files, so a picture a program writes (e.g. --image ch14_bodies.pgm) lands beside its table.
benchmarks=(
  "handbook_info|common/handbook_info --n 1G --iters 20"
  "ch11_summary|ch11_streaming/streaming --n 128M --iters 10"
  "ch11_saxpy_sweep|ch11_streaming/saxpy_sweep --n 64M --iters 10"
  "ch11_streams|ch11_streaming/stream3_streams --n 128M --iters 5"
  "ch11_bus_sharing|ch11_streaming/bus_sharing --n 128M --iters 10"
  "ch12_block_sweep|ch12_reduction/reduction --sweep threads --iters 20"
  "ch12_size_sweep|ch12_reduction/reduction --sweep sizes --iters 50"
  "ch13_block_sweep|ch13_scan/scan --sweep threads --iters 20"
  "ch13_size_sweep|ch13_scan/scan --sweep sizes --iters 20"
  "ch13_size_sweep_float|ch13_scan/scan --sweep sizes --type float --exclusive --iters 20"
  "ch13_warp_scans|ch13_scan/scan --sweep warp --n 16M --reps 64 --iters 20"
  "ch13_block_scans|ch13_scan/scan --sweep block --n 16M --reps 16 --iters 20"
  "ch13_compact_block_sweep|ch13_scan/compact --sweep threads --iters 20"
  "ch13_compact_size_sweep|ch13_scan/compact --sweep sizes --iters 20"
  "ch13_instruction_counts|ch13_scan/scan_instruction_counts"
  "extras_histogram|extras_histogram/histogram --n 256M --iters 20"
  "extras_histogram_64m|extras_histogram/histogram --iters 20"
  "extras_histogram_scene|extras_histogram/histogram --distribution scene --n 256M --iters 20"
  "ch14_table14_4|ch14_nbody/nbody --steps 400 --image ch14_bodies.pgm"
  "ch14_table14_1|ch14_nbody/nbody --unroll-sweep gpu_aos"
  "ch14_table14_2|ch14_nbody/nbody --unroll-sweep gpu_shared"
  "ch14_blocked_sweep|ch14_nbody/nbody --unroll-sweep gpu_blocked"
  "ch14_nccl_1rank|ch14_nbody/nbody14_gpu_nccl --ranks 1 --bodies 64K --iters 10"
  "ch15_neighbourhood|ch15_correlation/normalized_cross_correlation --neighbourhood"
  "ch15_rates_52|ch15_correlation/normalized_cross_correlation --padWidth 1024 --padHeight 1024 --iters 20"
  "ch15_rates_16|ch15_correlation/normalized_cross_correlation --padWidth 1024 --padHeight 1024 --wTemplate 16 --hTemplate 16 --iters 20"
  "ch15_rates_8|ch15_correlation/normalized_cross_correlation --padWidth 1024 --padHeight 1024 --wTemplate 8 --hTemplate 8 --iters 20"
  "ch15_sweep|ch15_correlation/normalized_cross_correlation --padWidth 1024 --padHeight 1024 --sweep --iters 10"
  "ch15_default_scene|ch15_correlation/normalized_cross_correlation --variant 8 --iters 20 --write-input ch15_scene.pgm --output ch15_correlation.pgm"
)
if [ -n "$bench" ]; then
  for entry in "${benchmarks[@]}"; do
    name=${entry%%|*}
    read -r program args <<<"${entry#*|}"
    echo "$name" | grep -Eq "$bench" || continue
    [ -x "$build/$program" ] || continue
    exe=$root/$build/$program
    step "benchmark $name: $program $args"
    # shellcheck disable=SC2086
    if ! (cd "$logs/results" && "$exe" $args --csv >"$name.csv" 2>"$name.err"); then
      echo "FAILED: $program $args"; cat "$logs/results/$name.err"; status=1
    fi
    cat "$logs/results/$name.csv"
  done
fi

tar -C "$work" -czf "$OUT/gpu-run.tar.gz" gpu-run
cp "$logs/ctest.log" "$OUT/" 2>/dev/null
echo
echo "gpu_run: status $status; logs and CSV in $OUT/gpu-run.tar.gz"
exit $status
