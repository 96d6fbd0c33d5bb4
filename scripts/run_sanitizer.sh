#!/usr/bin/env bash
# Runs a chapter's GPU tests under one compute-sanitizer tool; used by the `sanitizer` ctest
# label.  Usage: run_sanitizer.sh <compute-sanitizer or empty> <tool> <test-executable>
# Exit 77 (ctest: Skipped) when the tool or a CUDA device is missing; 1 on any reported error
# or hazard; 0 when the tool reports none and every test passed.
set -u
sanitizer=$1 tool=$2 exe=$3
if [ -z "$sanitizer" ] || [ ! -x "$sanitizer" ]; then
  echo "SKIPPED: compute-sanitizer was not found at configure time"
  exit 77
fi
"$exe" --hb-has-device
rc=$?
if [ "$rc" -eq 77 ]; then exit 77; fi   # no CUDA device: Skipped
if [ "$rc" -ne 0 ]; then echo "FAILED: $exe --hb-has-device exited $rc"; exit 1; fi
# Tests read this to cap their largest sizes (see common/tests/support/hb/testing.h).
export HB_UNDER_SANITIZER=1
# and this to know which tool watches them (some tools do not support every feature, e.g.
# only memcheck supports dynamic parallelism).
export HB_SANITIZER_TOOL=$tool

extra=()
# Tests tagged [large] are too slow under any sanitizer tool; they are left out here (the
# filter line Catch2 prints shows it), never reported as passed.
tests="[gpu]~[large]"
case $tool in
  # Tests tagged [racy] race on purpose (a lesson, e.g. the naive histogram); racecheck would
  # rightly report them, so only racecheck leaves them out. The other tools still run them.
  racecheck) extra=(--racecheck-report all); tests="[gpu]~[racy]~[large]" ;;
esac
log=$(mktemp)
"$sanitizer" --tool "$tool" --error-exitcode 1 --print-limit 20 "${extra[@]}" "$exe" "$tests" --warn NoTests 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
# Races and hazards are summarized as "N hazards displayed (E errors, W warnings)": a warning
# is a hazard too, so we fail on any non-zero count, not only on the exit code.
if grep -Eq 'SUMMARY: [1-9][0-9]* (error|hazard)|\(([1-9][0-9]*) errors|, [1-9][0-9]* warnings\)' "$log"; then
  echo "FAILED: compute-sanitizer $tool reported problems"
  rc=1
fi
rm -f "$log"
exit "$rc"
