#!/usr/bin/env bash
# Makes sure the build's Debian packages and the CUDA Toolkit are present.
# As root, installs what is missing (apt-get); otherwise prints the exact command and fails.
# Usage: scripts/deps.sh [--docs]   (--docs adds Doxygen, Graphviz, MathJax and gnuplot)
set -euo pipefail

packages=(cmake ninja-build g++ catch2 libcli11-dev python3)
if [ "${1:-}" = "--docs" ]; then
  packages+=(doxygen graphviz libjs-mathjax gnuplot-nox)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
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
