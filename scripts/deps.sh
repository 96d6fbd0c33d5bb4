#!/usr/bin/env bash
# Makes sure the build's tools and libraries are present: Debian packages and the CUDA
# Toolkit. As root, installs what is missing (apt-get); otherwise prints the exact command
# and exits 2. Header-only libraries staged in .deps/ (scripts/stage_deps.sh) count as
# present, so a GPU machine without Debian packages can build too.
# Usage: scripts/deps.sh [--docs]   (--docs adds Doxygen, Graphviz, MathJax, gnuplot and
#                                    Chromium, which checks the rendered pages)
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
need_command() {  # <command> <Debian package>
  command -v "$1" >/dev/null 2>&1 || missing+=("$2")
}
need_file() {     # <file> <Debian package>
  [ -e "$1" ] || [ -e ".deps/include/${1#/usr/include/}" ] || missing+=("$2")
}

need_command cmake cmake
need_command ninja ninja-build
need_command g++ g++
need_command python3 python3
need_file /usr/include/catch2/catch.hpp catch2
need_file /usr/include/CLI/CLI.hpp libcli11-dev
if [ "${1:-}" = "--docs" ]; then
  need_command doxygen doxygen
  need_command dot graphviz
  need_command gnuplot gnuplot-nox
  need_file /usr/share/javascript/mathjax/MathJax.js libjs-mathjax
  need_command chromium chromium
fi

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "deps: missing Debian packages. Install them with:" >&2
    echo "  sudo apt-get install --no-install-recommends ${missing[*]}" >&2
    exit 2
  fi
fi

nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
  echo "deps: the CUDA Toolkit 13 (nvcc) was not found. Install it from NVIDIA" >&2
  echo "  (https://developer.nvidia.com/cuda-downloads) into /usr/local/cuda, or set CUDACXX." >&2
  exit 2
fi
version=$("$nvcc" --version | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1.\2/p')
if [ "${version%%.*}" -lt 13 ]; then
  echo "deps: $nvcc is CUDA $version; this repository needs CUDA 13 or newer." >&2
  exit 2
fi
