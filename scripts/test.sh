#!/usr/bin/env bash
# README command 2: build everything and run every test (CPU tests, GPU tests, sanitizer runs,
# demos, the docs build). Without a CUDA device the GPU, sanitizer and demo tests are reported
# Skipped, never Passed. Under CI (CI=true) warnings are errors.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh --docs
cmake --preset default ${CI:+-DHB_WERROR=ON}
cmake --build --preset default
ctest --preset default
