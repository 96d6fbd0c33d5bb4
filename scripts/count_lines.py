#!/usr/bin/env python3
"""Counts the non-blank lines of each chapter by role: lesson, machinery, tests, pages.

    python3 scripts/count_lines.py [--rev REV]

A file is *lesson* when it lies in a chapter's kernels/ folder or when its name is a numbered
step (reduction4_single_pass.cuh, scan6_..., 04_single_pass.cuh); *tests* under tests/;
*figures* the code that draws a page's figures from models of the kernels (a chapter's figures/
or circuits/ folder); *pages* are Markdown and the drawings; everything else in a chapter
folder, and the shared layer (common/include, common/src), is *machinery*. With --rev the counts are taken from that
commit (git show), so a tree can be compared with an earlier one.
"""
import argparse
import re
import subprocess
import sys
from collections import defaultdict

CODE = (".h", ".hpp", ".cpp", ".cu", ".cuh", ".txt", ".cmake", ".sh")
NUMBERED = re.compile(r"^([a-z]+_?)?[0-9]{1,2}[a-z]?_")


def role(path):
    parts = path.split("/")
    name = parts[-1]
    if name.endswith((".md", ".dot")):
        return "pages"
    if not name.endswith(CODE):
        return None
    if "figures" in parts or "circuits" in parts or name.startswith("scan_networks"):
        return "figures"  # (scan_networks.* drew chapter 13's circuits before circuits/ existed)
    if "tests" in parts or "fuzz" in parts:
        return "tests"
    if parts[0] == "common":
        return "machinery" if len(parts) > 1 and parts[1] in ("include", "src") else None
    if "kernels" in parts or NUMBERED.match(name):
        return "lesson"
    return "machinery"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rev", default="HEAD", help="commit to count (default HEAD)")
    args = ap.parse_args()
    files = subprocess.run(["git", "ls-tree", "-r", "--name-only", args.rev], check=True,
                           capture_output=True, text=True).stdout.split()
    counts = defaultdict(lambda: defaultdict(int))
    for f in files:
        top = f.split("/")[0]
        if not (top.startswith("ch1") or top.startswith("extras_") or top == "common"):
            continue
        r = role(f)
        if r is None:
            continue
        text = subprocess.run(["git", "show", f"{args.rev}:{f}"], check=True, capture_output=True,
                              text=True, errors="replace").stdout
        counts[top][r] += sum(1 for line in text.splitlines() if line.strip())
    roles = ["lesson", "machinery", "tests", "figures", "pages"]
    print(f"# python3 scripts/count_lines.py --rev {args.rev}")
    print("folder," + ",".join(roles))
    total = defaultdict(int)
    for top in sorted(counts):
        print(top + "," + ",".join(str(counts[top][r]) for r in roles))
        for r in roles:
            total[r] += counts[top][r]
    print("total," + ",".join(str(total[r]) for r in roles))
    return 0


if __name__ == "__main__":
    sys.exit(main())
