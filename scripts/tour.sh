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

# Each stop of the tour: a program and small arguments (programs not built are left out).
stops=(
  "common/handbook_info --n 256M"
  "ch11_streaming/streaming --n 32M"
  "ch11_streaming/saxpy_sweep --n 16M --iters 3"
  "ch12_reduction/reduction --n 16M --max-log2 24"
  "ch13_scan/scan --n 16M --max-log2 20"
  "ch14_nbody/nbody"
  "ch15_correlation/normalized_cross_correlation"
  "extras_histogram/histogram"
)
for stop in "${stops[@]}"; do
  read -r program args <<<"$stop"
  [ -x "$bin/$program" ] || continue
  echo
  echo "=== $program $args"
  # shellcheck disable=SC2086
  "$bin/$program" $args
done
