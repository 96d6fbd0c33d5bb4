#!/usr/bin/env bash
# Builds the whole tree once for each architecture CUDA 13 supports, with warnings as errors,
# and prints one line per architecture. Exit 0 only when every build succeeded.
#
#   bash scripts/build_architectures.sh [ARCH ...] [--summary FILE]
#
# ARCH defaults to 75 80 86 89 90 100 120 (Turing to Blackwell). Each build goes to
# build-arch/sm_ARCH (reused by a later run); --summary also writes the lines to FILE.
set -uo pipefail
cd "$(dirname "$0")/.."
archs=()
summary=
while [ $# -gt 0 ]; do
  case $1 in
    --summary) [ $# -ge 2 ] || { echo "build_architectures.sh: --summary needs a file" >&2; exit 2; }
               summary=$2; shift 2 ;;
    [0-9][0-9]|[0-9][0-9][0-9]) archs+=("$1"); shift ;;
    *) echo "build_architectures.sh: '$1' is not an architecture such as 86 (or --summary FILE)" >&2
       exit 2 ;;
  esac
done
[ ${#archs[@]} -gt 0 ] || archs=(75 80 86 89 90 100 120)
bash scripts/deps.sh || exit 2

lines=("# bash scripts/build_architectures.sh ${archs[*]}"
       "# date: $(date -u +%Y-%m-%d), $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/CUDA \1/p'), $(nproc) cores")
mkdir -p build-arch
status=0
for arch in "${archs[@]}"; do
  dir=build-arch/sm_$arch
  start=$(date +%s)
  if cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHB_WERROR=ON \
         -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$dir.log" 2>&1 &&
     cmake --build "$dir" >>"$dir.log" 2>&1; then
    targets=$(find "$dir" -maxdepth 2 -type f -perm -u+x ! -name '*.sh' | wc -l)
    line="sm_$arch: built, $targets programs and test executables, warnings as errors ($(( $(date +%s) - start )) s)"
  else
    line="sm_$arch: FAILED (log: $dir.log)"
    grep -m5 -E 'error|FAILED' "$dir.log" | sed 's/^/    /'
    status=1
  fi
  echo "$line"
  lines+=("$line")
done
if [ -n "$summary" ]; then printf '%s\n' "${lines[@]}" >"$summary"; fi
exit $status
