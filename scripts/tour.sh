#!/usr/bin/env bash
# README command 1: build everything, then take a short tour of the demos on generated data.
# On a machine without a CUDA device the tour says so, lists what was built, and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake --preset default
cmake --build --preset default
bin=build

set +e
"$bin/common/test_common" --hb-has-device >/dev/null
has_device=$?
set -e
if [ "$has_device" -ne 0 ] && [ "$has_device" -ne 77 ]; then
  echo "tour: could not ask for a CUDA device (exit $has_device)" >&2
  exit 1
fi
if [ "$has_device" -eq 77 ]; then
  cat <<MSG

==============================================================================
Built everything, but this machine has no CUDA device (or no NVIDIA driver), so
there is nothing to run: every program here measures a GPU. On a machine with an
NVIDIA GPU, run this script again, or run a program directly, for example:

  $bin/common/handbook_info           device facts and bandwidth ceilings
  $bin/<chapter>/<program> --help     every program lists its flags

The tests still run here: bash scripts/test.sh (GPU tests show as Skipped).
==============================================================================
MSG
  exit 0
fi

# Each stop of the tour: what it shows and which page explains it, then the program and small
# arguments (programs not built are left out).
stops=(
  "The GPU's facts and the bandwidth ceilings every chapter compares with (page: Platform)|common/handbook_info --n 256M"
  "Four ways to stream SAXPY between host and GPU, and the bus they share (page: 11. Streaming workloads)|ch11_streaming/streaming --n 32M"
  "SAXPY on device memory: unroll factor x block size, against the device copy (page: 11. Streaming workloads)|ch11_streaming/saxpy_sweep --n 16M --iters 3"
  "Every reduction of the text and the blog posts, then sizes from launch latency to bandwidth, against CUB (page: 12. Reduction)|ch12_reduction/reduction --n 16M --max-log2 24"
  "Every device-wide scan x block size, then sizes, against CUB (page: 13. Scan)|ch13_scan/scan --n 16M --max-log2 20"
  "All-pairs N-body on the CPU's SIMD units and the GPU, the book's Table 14.4 (page: 14. N-body)|ch14_nbody/nbody"
  "Normalized cross-correlation from textures to tensor cores, against the CPU (page: 15. Normalized cross-correlation)|ch15_correlation/normalized_cross_correlation"
  "256-bin histograms on easy and adversarial data, against CUB (page: Extras: 256-bin histograms)|extras_histogram/histogram"
)
ran=()
for stop in "${stops[@]}"; do
  what=${stop%%|*}
  read -r program args <<<"${stop#*|}"
  [ -x "$bin/$program" ] || continue
  echo
  echo "=== $program $args"
  echo "    $what"
  # shellcheck disable=SC2086
  "$bin/$program" $args
  ran+=("$program")
done

echo
echo "=============================================================================="
echo "Tour done: ${#ran[@]} programs ran and passed their checks."
if [ -x "$bin/docs/your_gpu" ]; then "$bin/docs/your_gpu"; fi
cat <<MSG

Where to read next:
  cmake --build $bin --target docs   then open $bin/docs/html/index.html: a page per chapter
                                     that explains each variant you just ran, with our numbers;
                                     the page "Your GPU" says what needs which GPU.
  $bin/<chapter>/<program> --help    every program lists its flags; each variant is a program.
  bash scripts/test.sh               every test, on this GPU.
==============================================================================
MSG
