#!/usr/bin/env python3
"""Generates the parts of the documentation that come from data, before Doxygen runs.

  * docs/results/<name>.csv -> <out>/<name>.md : the measured table as Markdown, with the
    facts of its header (GPU, driver, CUDA, date, command) above it. Chapter pages pull it
    in with `\\includedoc <name>.md`.
  * docs/plots/<name>.gp    -> <out>/<name>.svg : gnuplot scripts get `results` (the folder of
    the CSV files) and `out` (the SVG to write). Pages show it with `\\image html <name>.svg`.
  * docs/results/<name>.pgm -> <out>/<name>.png : pictures programs wrote (browsers do not
    show PGM). Pages show them with `\\image html <name>.png`.
  * <out>/pages/chapter_map.md : the map of the chapters that exist, as a Graphviz graph.

Only the Python standard library is used.
"""
import argparse
import csv
import pathlib
import re
import struct
import subprocess
import sys
import zlib

# What each chapter builds on, beyond the common layer and the platform measurements.
BUILDS_ON = {
    "ch13_scan": ["ch12_reduction"],
    "extras_histogram": ["ch12_reduction"],
    "ch15_correlation": ["ch12_reduction"],
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
        # Doxygen reads '<', '>', '|', '\\' and '::' (a link request) as markup; escape them.
        for a, b in (("\\", "\\\\"), ("|", "\\|"), ("<", "&lt;"), (">", "&gt;"), ("::", "\\::")):
            text = text.replace(a, b)
        return text

    out = []
    shown = {k: v for k, v in facts}
    summary = [f"**{cell(shown[k])}**" if k == "gpu" else f"{k} {cell(shown[k])}"
               for k in ("gpu", "driver", "CUDA runtime", "date") if k in shown]
    if [k for k in ("gpu", "driver", "CUDA runtime", "date") if k in shown] == ["date"]:
        # A table no GPU measured (computed on the CPU): only its date.
        out.append(f"Recorded on {cell(shown['date'])}.")
    elif summary:
        out.append("Measured on " + ", ".join(summary) + ".")
    if "command" in shown:
        out.append(f"Command: `{shown['command']}`.")
    other = [(k, v) for k, v in facts if k not in ("gpu", "driver", "CUDA runtime", "date", "command", "program")]
    if other:
        # One paragraph with the command: a separate one runs into it inside \includedoc.
        if not out:
            out.append("")
        out[-1] += " Also recorded: " + "; ".join(f"{cell(k)} {cell(v)}" for k, v in other) + "."
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


def pgm_to_png(pgm: pathlib.Path, png: pathlib.Path) -> None:
    """Binary (P5) 8-bit PGM to an 8-bit gray-scale PNG, with the standard library alone."""
    data = pgm.read_bytes()
    fields, pos = [], 2
    if data[:2] != b"P5":
        raise SystemExit(f"{pgm}: only binary PGM (P5) is converted")
    while len(fields) < 3:
        while data[pos:pos + 1].isspace() or data[pos:pos + 1] == b"#":
            if data[pos:pos + 1] == b"#":
                pos = data.index(b"\n", pos)
            pos += 1
        end = pos
        while data[end:end + 1].isdigit():
            end += 1
        fields.append(int(data[pos:end]))
        pos = end
    width, height, maxval = fields
    if maxval > 255:
        raise SystemExit(f"{pgm}: 16-bit PGM is not converted")
    pixels = data[pos + 1:pos + 1 + width * height]
    if len(pixels) != width * height:
        raise SystemExit(f"{pgm}: truncated pixel data")
    rows = b"".join(b"\x00" + pixels[y * width:(y + 1) * width] for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png.write_bytes(b"\x89PNG\r\n\x1a\n" +
                    chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) +
                    chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


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
    for path in sorted(results.glob("*.pgm")):
        pgm_to_png(path, a.out / (path.stem + ".png"))
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
