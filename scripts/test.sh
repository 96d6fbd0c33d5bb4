#!/usr/bin/env bash
# README command 2: build everything and run every test (CPU tests, GPU tests, sanitizer runs,
# demos, the docs build). Without a CUDA device the GPU, sanitizer and demo tests are reported
# Skipped, never Passed. Under CI (CI=true) warnings are errors.
#
#   bash scripts/test.sh [--architectures LIST]
#
# --architectures sets CMAKE_CUDA_ARCHITECTURES (e.g. "90;80-real;120-real": also compile the
# CUDA code for sm_80 and sm_120, which CI does); without it the build is for the GPUs of this
# machine, or sm_90 where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
archs=()
while [ $# -gt 0 ]; do
  case $1 in
    --architectures)
      [ $# -ge 2 ] && [ -n "$2" ] || { echo "test.sh: --architectures needs a list, e.g. \"80;90\"" >&2; exit 2; }
      archs=(-DCMAKE_CUDA_ARCHITECTURES="$2"); shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument '$1' (usage: bash scripts/test.sh [--architectures LIST])" >&2; exit 2 ;;
  esac
done
bash scripts/deps.sh --docs
cmake --preset default ${CI:+-DHB_WERROR=ON} "${archs[@]}"
cmake --build --preset default
ctest --preset default
