#!/usr/bin/env python3
"""Prints the lines of Nsight Compute CSV reports (ncu --csv --page details, as written by
scripts/profile.sh) that say where a kernel's time goes, one column per report.

    python3 scripts/ncu_summary.py REPORT.csv [REPORT.csv ...]
"""
import csv
import io
import pathlib
import sys

SHOWN = [
    ("GPU Speed Of Light Throughput", "Duration"),
    ("GPU Speed Of Light Throughput", "SM Frequency"),
    ("GPU Speed Of Light Throughput", "DRAM Throughput"),
    ("GPU Speed Of Light Throughput", "L1/TEX Cache Throughput"),
    ("GPU Speed Of Light Throughput", "Compute (SM) Throughput"),
    ("Compute Workload Analysis", "Issue Slots Busy"),
    ("Memory Workload Analysis", "Mem Pipes Busy"),
    ("Scheduler Statistics", "No Eligible"),
    ("Scheduler Statistics", "Active Warps Per Scheduler"),
    ("Scheduler Statistics", "Eligible Warps Per Scheduler"),
    ("Warp State Statistics", "Warp Cycles Per Issued Instruction"),
    ("Instruction Statistics", "Issued Instructions"),
    ("Launch Statistics", "Registers Per Thread"),
    ("Occupancy", "Achieved Occupancy"),
] + [
    # Added by scripts/profile.sh's --metrics (reports made before it show "-").
    ("Command line profiler metrics", f"smsp__average_warps_issue_stalled_{reason}_per_issue_active.ratio")
    for reason in ("long_scoreboard", "short_scoreboard", "mio_throttle", "wait", "barrier")
] + [
    ("Command line profiler metrics", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"),
    ("Command line profiler metrics", "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active"),
]


def metrics(path):
    lines = [l for l in pathlib.Path(path).read_text().splitlines(True) if l.startswith('"')]
    rows = list(csv.DictReader(io.StringIO("".join(lines))))
    return {(r["Section Name"], r["Metric Name"]): (r["Metric Value"], r["Metric Unit"]) for r in rows}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    reports = [(pathlib.Path(p).stem, metrics(p)) for p in sys.argv[1:]]
    print("metric," + ",".join(name for name, _ in reports))
    for key in SHOWN:
        unit = next((m[key][1] for _, m in reports if key in m), "")
        cells = [m.get(key, ("-", ""))[0].replace(",", "") for _, m in reports]
        print(f"{key[1]} ({unit})," + ",".join(cells))


if __name__ == "__main__":
    main()
