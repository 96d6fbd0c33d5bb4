#!/usr/bin/env bash
# Copies the header-only dependencies (CLI11, Catch2 with its CMake files) from this
# machine's Debian packages into .deps/ (git-ignored), so that a GPU machine without
# Debian packages or network can build the repository: carry .deps with the run and
# configure with -DCMAKE_PREFIX_PATH=$PWD/.deps (scripts/gpu_run.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .deps
bash scripts/deps.sh   # needs the Debian packages themselves, not an earlier .deps
mkdir -p .deps/include .deps/share/cmake .deps/lib/cmake
cp -r /usr/include/CLI .deps/include/
cp -r /usr/share/cmake/CLI11 .deps/share/cmake/
cp -r /usr/include/catch2 .deps/include/
cp -r /usr/lib/cmake/Catch2 .deps/lib/cmake/
cp /usr/lib/libCatch2WithMain.a .deps/lib/   # named by the Catch2 CMake files
du -sh .deps
