#!/usr/bin/env python3
"""Generates the parts of the documentation that come from data, before Doxygen runs.

  * docs/results/<name>.csv -> <out>/<name>.md : the measured table as Markdown, with the
    facts of its header (GPU, driver, CUDA, date, command) above it. Chapter pages pull it
    in with `\\includedoc <name>.md`.
  * docs/plots/<name>.gp    -> <out>/<name>.svg : gnuplot scripts get `results` (the folder of
    the CSV files) and `out` (the SVG to write). Pages show it with `\\image html <name>.svg`.
  * <out>/pages/chapter_map.md : the map of the chapters that exist, as a Graphviz graph.

Only the Python standard library is used.
"""
import argparse
import csv
import pathlib
import re
import subprocess
import sys

# What each chapter builds on, beyond the common layer and the platform measurements.
BUILDS_ON = {
    "ch13_scan": ["ch12_reduction"],
    "extras_histogram": ["ch12_reduction", "ch15_correlation"],
}


def csv_to_markdown(path: pathlib.Path) -> str:
    facts, rows = [], []
    with path.open(newline="") as f:
        lines = f.read().splitlines()
    body = []
    for line in lines:
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition(":")
            facts.append((key.strip(), value.strip()))
        elif line.strip():
            body.append(line)
    rows = list(csv.reader(body))
    if not rows:
        raise SystemExit(f"{path}: no table")
    header, data = rows[0], rows[1:]
    for i, r in enumerate(data):
        if len(r) != len(header):
            raise SystemExit(f"{path}: row {i + 1} has {len(r)} cells, header has {len(header)}")

    def cell(text: str) -> str:
        # Doxygen reads '<', '>', '|' and '\\' as markup; escape them in table cells.
        for a, b in (("\\", "\\\\"), ("|", "\\|"), ("<", "&lt;"), (">", "&gt;")):
            text = text.replace(a, b)
        return text

    out = []
    shown = {k: v for k, v in facts}
    summary = [f"**{cell(shown[k])}**" if k == "gpu" else f"{k} {cell(shown[k])}"
               for k in ("gpu", "driver", "CUDA runtime", "date") if k in shown]
    if summary:
        out.append("Measured on " + ", ".join(summary) + ".")
    if "command" in shown:
        out.append(f"Command: `{shown['command']}`.")
    other = [(k, v) for k, v in facts if k not in ("gpu", "driver", "CUDA runtime", "date", "command", "program")]
    if other:
        out.append("")
        out.append(" Also recorded: " + "; ".join(f"{cell(k)} {cell(v)}" for k, v in other) + ".")
    out.append("")
    numeric = re.compile(r"^-?[0-9.]+(e[-+]?[0-9]+)?%?$|^-$")
    align = ["---:" if data and all(numeric.match(r[c]) for r in data) else ":---"
             for c in range(len(header))]
    out.append("| " + " | ".join(cell(h) for h in header) + " |")
    out.append("|" + "|".join(align) + "|")
    for r in data:
        out.append("| " + " | ".join(cell(c) for c in r) + " |")
    out.append("")
    return "\n".join(out)


def chapter_map(source: pathlib.Path, chapters: list[str]) -> str:
    present = []
    for ch in chapters:
        readme = source / ch / "README.md"
        if not readme.exists():
            continue
        first = readme.read_text().splitlines()[0]
        m = re.match(r"#\s*(.*?)\s*\{#(\w+)\}", first)
        if not m:
            raise SystemExit(f"{readme}: the first line must be '# Title {{#label}}'")
        present.append((ch, m.group(1), m.group(2)))
    out = ["# Chapter map {#chapter_map}", "",
           "How the chapters build on each other. Every chapter uses the common layer and "
           "compares with the ceilings of the \\ref platform page. Chapters not written yet are "
           "not listed.", "", "\\dot", "digraph chapters {",
           '  rankdir=LR; node [shape=box, style=rounded, fontname="Helvetica", fontsize=10];',
           '  platform [label="Platform and common layer", URL="\\ref platform"];']
    labels = {ch: label for ch, _, label in present}
    for ch, title, label in present:
        out.append(f'  {label} [label="{title}", URL="\\ref {label}"];')
        deps = [labels[d] for d in BUILDS_ON.get(ch, []) if d in labels] or ["platform"]
        for d in deps:
            out.append(f"  {d} -> {label};")
    out += ["}", "\\enddot", ""]
    for ch, title, label in present:
        out.append(f"- \\ref {label} (`{ch}/`)")
    if not present:
        out.append("No chapter is written yet.")
    out.append("")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--source", required=True, type=pathlib.Path)
    ap.add_argument("--out", required=True, type=pathlib.Path)
    ap.add_argument("--gnuplot", default="gnuplot")
    ap.add_argument("--chapters", nargs="*", default=[])
    a = ap.parse_args()
    (a.out / "pages").mkdir(parents=True, exist_ok=True)
    results = a.source / "docs" / "results"
    for path in sorted(results.glob("*.csv")):
        (a.out / (path.stem + ".md")).write_text(csv_to_markdown(path))
    for script in sorted((a.source / "docs" / "plots").glob("*.gp")):
        svg = a.out / (script.stem + ".svg")
        cmd = [a.gnuplot, "-e", f"results='{results}'; out='{svg}'", str(script)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0 or not svg.exists():
            sys.stderr.write(f"gnuplot failed on {script}:\n{done.stderr}")
            return 1
    (a.out / "pages" / "chapter_map.md").write_text(chapter_map(a.source, a.chapters))
    return 0


if __name__ == "__main__":
    sys.exit(main())
