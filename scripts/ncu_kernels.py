#!/usr/bin/env python3
"""Splits the time of one call of a multi-kernel route among its kernels, from an Nsight Compute
CSV report of every launch of a program (ncu --csv --page details with the metrics
gpu__time_duration.sum and dram__throughput.avg.pct_of_peak_sustained_elapsed, or the
SpeedOfLight section), as scripts/profile.sh writes it for chapter 15's FFT route.

    python3 scripts/ncu_kernels.py REPORT.csv CALL_KERNEL

CALL_KERNEL is the last kernel of each call of the route (e.g. fft_finish_kernel). The launches
after one of its launches up to and including the next form one call; the first call (which
also holds the preparation, e.g. the template's transform) and the launches after the last call
(e.g. a peak search) are left out. For every kernel (cuFFT's included) the table gives its
launches per call, mean duration, DRAM throughput and share of the kernel time of one call.
"""
import collections
import csv
import io
import pathlib
import re
import sys

UNITS = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3,
         "s": 1e6, "second": 1e6}


DURATION = ("Duration", "gpu__time_duration.sum")
DRAM = ("DRAM Throughput", "dram__throughput.avg.pct_of_peak_sustained_elapsed")


def launches(path):
    """The launches of the report in order: (kernel name, duration in us, DRAM throughput in %)."""
    lines = [l for l in pathlib.Path(path).read_text().splitlines(True) if l.startswith('"')]
    by_id = collections.OrderedDict()
    for r in csv.DictReader(io.StringIO("".join(lines))):
        entry = by_id.setdefault(r["ID"], {"name": r["Kernel Name"]})
        value = r["Metric Value"].replace(",", "")
        if r["Metric Name"] in DURATION:
            entry["us"] = float(value) * UNITS[r["Metric Unit"]]
        elif r["Metric Name"] in DRAM:
            entry["dram"] = float(value)
    return [(short_name(e["name"]), e["us"], e.get("dram", float("nan")))
            for e in by_id.values() if "us" in e]


def short_name(name):
    """The kernel's name without its parameter list and template arguments."""
    name = re.sub(r"\(.*$", "", re.sub(r"^void\s+", "", name))
    depth, out = 0, []
    for ch in name:
        depth += ch == "<"
        if depth == 0:
            out.append(ch)
        depth -= ch == ">"
    return "".join(out).split("::")[-1].strip() or name


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    runs = launches(sys.argv[1])
    ends = [i for i, (name, _, _) in enumerate(runs) if sys.argv[2] in name]
    if len({runs[i][0] for i in ends}) != 1 or len(ends) < 2:
        sys.exit(f"ncu_kernels: {sys.argv[2]} must name one kernel launched at least twice")
    calls = len(ends) - 1
    kernels = collections.OrderedDict()
    for name, us, dram in runs[ends[0] + 1:ends[-1] + 1]:
        k = kernels.setdefault(name, {"n": 0, "us": 0.0, "dram": 0.0})
        k["n"] += 1
        k["us"] += us
        k["dram"] += dram
    per_call = sum(k["us"] for k in kernels.values()) / calls
    print(f"# calls: {calls} (the first of {calls + 1} left out); kernel time per call: {per_call:.2f} us")
    print("kernel,launches per call,mean us,DRAM %,us per call,% of kernel time per call")
    for name, k in kernels.items():
        share = k["us"] / calls
        print(f"{name},{k['n'] / calls:g},{k['us'] / k['n']:.2f},{k['dram'] / k['n']:.1f},"
              f"{share:.2f},{100 * share / per_call:.1f}")


if __name__ == "__main__":
    main()
