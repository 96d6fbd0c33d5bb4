#!/usr/bin/env bash
# Packs a finished build for another machine: its programs, test executables, the files ctest
# reads and the small data files the tests use; no objects or libraries. Programs share most
# of their bytes (the static CUDA runtime), so xz with a large window packs a whole build into
# a few tens of MB.
#
#   bash scripts/pack_build.sh BUILD_DIR ARCHIVE.tar.xz
#
# Unpack it from the repository root of a checkout of the same tree at the same absolute path
# (ctest's files name absolute paths): tar -xJf ARCHIVE.tar.xz. Then run the tests there, e.g.
# HB_STEPS=test bash scripts/gpu_run.sh with the knobs the build was made with.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: bash scripts/pack_build.sh BUILD_DIR ARCHIVE.tar.xz" >&2; exit 2; }
build=${1%/}
[ -f "$build/CTestTestfile.cmake" ] || { echo "pack_build: $build is not a finished build" >&2; exit 2; }
mkdir -p "$(dirname "$2")"
tar --exclude=CMakeFiles --exclude='*.o' --exclude='*.a' --exclude='.ninja_*' \
    --exclude=build.ninja --exclude='*.log' -cf - "$build" | xz -9 -T0 >"$2.tmp"
mv "$2.tmp" "$2"
echo "pack_build: $build -> $2 ($(du -h "$2" | cut -f1))"
