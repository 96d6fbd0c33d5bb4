#!/usr/bin/env bash
# The instruction counts of section 13.5.4 (listings 13.19-13.21), for sm_90.
#
#   count_instructions.sh <warp_scan_sass.cubin> [--csv] [--check] [--help]
#
# CMake compiles warp_scan_sass.cu into the cubin (target ch13_sass) and writes a wrapper,
# build/ch13_scan/scan_instruction_counts, that passes it. For each warp scan we disassemble
# its kernel with cuobjdump and count the instructions between the two reads of the clock
# (S2UR/CS2R ... SR_CLOCKLO) that bracket the scan. NOPs are counted apart: on sm_90 a
# __syncwarp() in converged code leaves a NOP where it was. Prints an aligned table, or with
# --csv the same as CSV with `# key: value` facts (docs/results/ch13_instruction_counts.csv).
# --check also verifies what the chapter page claims (exit 1 otherwise). No GPU is needed.
# Exit codes: 0 ok, 1 a check failed, 2 bad usage, 77 cuobjdump or nvdisasm not found.
set -uo pipefail
program=scan_instruction_counts
usage_error() { echo "$program: error: $*" >&2; exit 2; }
skip() { echo "SKIPPED: $*"; exit 77; }
[ $# -ge 1 ] || usage_error "missing the cubin (see --help)"
cubin=$1 csv=0 check=0 command_line=$program
shift
for arg in "$@"; do
  command_line+=" $arg"
  case $arg in
    --csv) csv=1 ;;
    --check) check=1 ;;
    --help | -h) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) usage_error "unknown argument '$arg' (see --help)" ;;
  esac
done
[ -f "$cubin" ] || usage_error "no such cubin: $cubin (build the target ch13_sass first)"

# CUOBJDUMP, else the PATH, else the usual CUDA folders.
cuobjdump=${CUOBJDUMP:-$(PATH="$PATH:/usr/local/cuda/bin:/usr/local/cuda-13.0/bin" command -v cuobjdump || true)}
[ -n "$cuobjdump" ] || skip "cuobjdump not found (set CUOBJDUMP or add the CUDA bin folder to PATH)"
# cuobjdump disassembles with nvdisasm from the same folder or the PATH.
PATH=$(dirname "$cuobjdump"):$PATH
command -v nvdisasm >/dev/null || skip "nvdisasm not found next to $cuobjdump or on the PATH"

# id | kernel | variant | listing | instructions the book counted on SM 3.0
rows=(
  "0|sass_warp0_cub|CUB WarpScan<int>::InclusiveSum|-|-"
  "1|sass_warp1_conditional|shared memory, lane tests, s[0] += s[-d]|13.13|-"
  "2|sass_warp2_zero_padded|shared memory, zero-padded, s[0] += s[-d]|13.14|-"
  "3u|sass_warp3_templated_unpadded|templated, no padding (kZeroPad = false)|13.16 (SASS: 13.19)|30"
  "3|sass_warp3_templated|templated, zero-padded (kZeroPad = true)|13.16 (SASS: 13.20)|17"
  "4|sass_warp4_shuffle|__shfl_up_sync, lane tests|13.17 in C++|-"
  "5|sass_warp5_shuffle_ptx|shfl.sync.up with predicate, inline PTX|13.17 (SASS: 13.21)|11"
)

# Prints "total shfl lds sts add other nop" for one kernel's SASS on stdin.
count() {
  awk '
    /\/\*[0-9a-f]+\*\// {
      sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, ""); sub(/;.*/, "")  # the instruction alone
      if (/SR_CLOCKLO/) { region++; next }
      if (region != 1) next
      op = $1 ~ /^@/ ? $2 : $1  # past a predicate
      if (op ~ /^NOP/) { nop++; next }
      total++
      if (op ~ /^SHFL/) shfl++
      else if (op ~ /^LDS/) lds++
      else if (op ~ /^STS/) sts++
      else if (op ~ /^(IADD|IMAD\.IADD|VIADD|FADD)/) add++
      else other++
    }
    END { printf "%d %d %d %d %d %d %d\n", total, shfl, lds, sts, add, other, nop }'
}

header="id|variant|listing|SM 3.0 (book)|sm_90 instructions|SHFL|LDS|STS|adds|other|NOP"
declare -A total_of
lines=()
for row in "${rows[@]}"; do
  IFS='|' read -r id kernel variant listing book <<<"$row"
  sass=$("$cuobjdump" -sass -fun "$kernel" "$cubin" 2>&1) || { echo "$program: cuobjdump failed on $kernel: $sass" >&2; exit 1; }
  read -r total shfl lds sts add other nop <<<"$(count <<<"$sass")"
  total_of[$id]=$total
  lines+=("$id|$variant|$listing|$book|$total|$shfl|$lds|$sts|$add|$other|$nop")
done
table() { printf '%s\n' "$header" "${lines[@]}"; }

release=$("$cuobjdump" --version | grep -o 'release [0-9.]*' | head -1)
if [ "$csv" = 1 ]; then
  printf '# %s\n' "program: $program" "command: $command_line" "date: $(date -u +%F)" \
    "gpu: none needed (SASS of a cubin compiled for sm_90)" "cuobjdump: ${release:-unknown}" \
    "counted: instructions between the two clock reads that bracket each warp scan of 32 int; NOPs apart"
  # Cells that hold a comma or a quote are quoted, their quotes doubled.
  table | awk -F'|' -v OFS=, '{
    for (i = 1; i <= NF; i++) if ($i ~ /[,"]/) { gsub(/"/, "\"\"", $i); $i = "\"" $i "\"" }
    $1 = $1; print }'
else
  echo "Instruction counts of the warp scans (sm_90, cuobjdump ${release:-?}): instructions between"
  echo "the clock reads around each scan of 32 int; NOPs (left by __syncwarp) apart."
  echo
  table | column -t -s '|' 2>/dev/null || table
fi

if [ "$check" = 1 ]; then
  status=0
  fail() { echo "CHECK FAILED: $*" >&2; status=1; }
  for id in 0 1 2 3u 3 4 5; do
    [ "${total_of[$id]:-0}" -gt 0 ] || fail "no instructions counted for variant $id"
  done
  # What the chapter page says: the predicated shuffle is the shortest, zero padding beats the
  # lane tests, and the shuffles beat shared memory.
  [ "${total_of[5]}" -lt "${total_of[4]}" ] || fail "the PTX shuffle (5) is not shorter than __shfl_up_sync (4)"
  [ "${total_of[3]}" -lt "${total_of[3u]}" ] || fail "zero padding (3) is not shorter than lane tests (3u)"
  [ "${total_of[5]}" -lt "${total_of[3]}" ] || fail "the shuffle (5) is not shorter than shared memory (3)"
  exit $status
fi
