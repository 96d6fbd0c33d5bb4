#!/usr/bin/env python3
"""Generates the parts of the documentation that come from data, and finishes the HTML.

Before Doxygen (the default):

  * docs/results/<name>.csv -> <out>/<name>.md : the measured table, with its provenance (GPU,
    date, driver, command, and the CSV file) above it and the other facts of the CSV header in
    a folded block. A long table is folded too, after a small table of the same numbers
    (SMALL_TABLES says which). Chapter pages pull it in with `\\includedoc <name>.md`.
  * docs/results/h200/<name>.csv -> <out>/<name>_h200.md : the same for the second GPU's run.
  * docs/plots/<name>.gp    -> <out>/<name>.svg : gnuplot scripts get `results` (the folder of
    the CSV files) and `out` (the SVG to write). Pages show it with `\\image html <name>.svg`.
  * docs/results/<name>.pgm -> <out>/<name>.png : pictures programs wrote (browsers do not
    show PGM). Pages show them with `\\image html <name>.png`.
  * <out>/pages/chapter_map.md : the map of the chapters, drawn from what each chapter page's
    "What this builds on" section names, as a Graphviz graph, and the reading order.
  * <out>/pages/folders.dox : a one-line description of every source folder (--folders) for
    the file list and the folder pages, each with a link to its chapter page.

After Doxygen (--finish HTML):

  * the CSV and text files of docs/results are copied to HTML/results, so that every table
    links to its data and the folder still works when copied or zipped;
  * every chapter page gets previous / next chapter links at its top and bottom;
  * every file and folder page of a chapter folder links back to its chapter page;
  * `docs/results/...` paths quoted in the reading pages link to the copied files;
  * every piece of code a chapter page shows with \\snippet names its file, linked to the
    line where it starts in the file's source page;
  * in the code shown on the reading pages, Doxygen's commands inside `///` comments read as
    plain words (`\\param n how many` as `n: how many`, `\\pre` as `Requires:`), and their
    formulas render (the file pages keep the source as it is);
  * the main page's own sections leave the navigation tree, so that the chapters come first.

Only the Python standard library is used.
"""
import argparse
import csv
import html
import json
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import zlib

# A table with more rows than this is folded, after the small table of SMALL_TABLES.
LONG = 30

# The small table a reader sees first, for each long table:
#   ("pivot", row keys, column, {column value: heading}, value column, caption)
#       one row per distinct row key, one column per listed value of `column`;
#   ("best", family key, rank column, kept columns, caption)
#       the first row of each family (the id up to its last '_') with the largest rank value,
#       after the rows without a family (the reference).
SIZES = {str(k): f"n = 2<sup>{k}</sup>" for k in (10, 16, 20, 24, 28)}
SMALL_TABLES = {
    "ch11_saxpy_sweep": ("best", "id", "% of copy", ["id", "kernel", "best GB/s", "best threads", "% of copy"],
                         "The best block size and unroll factor of each kernel form"),
    "ch12_size_sweep": ("pivot", ["id", "variant"], "log2 n", SIZES, "us (median)",
                        "Microseconds per reduction (median) at five of the sizes"),
    "ch13_size_sweep": ("pivot", ["id", "variant"], "log2 n", SIZES, "us (median)",
                        "Microseconds per scan (median) at five of the sizes"),
    "ch13_size_sweep_float": ("pivot", ["id", "variant"], "log2 n", SIZES, "us (median)",
                              "Microseconds per scan (median) at five of the sizes"),
    "ch13_compact_size_sweep": ("pivot", ["id", "variant"], "log2 n", SIZES, "us (median)",
                                "Microseconds per compaction (median) at five of the sizes"),
    "ch15_sweep": ("pivot", ["id", "variant"], "template",
                   {t: t for t in ("8x8", "16x16", "52x52", "96x96", "256x256")}, "Mpix/s",
                   "Mpix/s at five of the template sizes"),
    "extras_histogram": ("pivot", ["id", "variant"], "distribution",
                         {d: d for d in ("uniform", "equal", "hot", "ramp")}, "GB/s",
                         "GB/s on each of the four distributions"),
    "extras_histogram_64m": ("pivot", ["id", "variant"], "distribution",
                             {d: d for d in ("uniform", "equal", "hot", "ramp")}, "GB/s",
                             "GB/s on each of the four distributions"),
}

# Tables whose reference row is timed twice: once for the rate every row is divided by, once
# in the sweep beside the others. Its own "% of" cell then shows how far two timings of the same
# code differ, and the note under the table says so: (reference id, "% of" column).
TIMED_TWICE = {
    "ch13_block_sweep": ("0b", "% of CUB"),
    "ch13_compact_block_sweep": ("0b", "% of CUB"),
}

# The facts shown in the provenance sentence; every other fact of a CSV header is folded.
SHOWN = ("gpu", "date", "driver", "CUDA runtime", "command", "program")
NUMERIC = re.compile(r"^-?[0-9.]+(e[-+]?[0-9]+)?%?$|^-$")


def read_csv(path: pathlib.Path):
    facts, body = [], []
    for line in path.read_text().splitlines():
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
    return facts, header, data


def tidy(text: str) -> str:
    """A temporary folder of the run that wrote a file is no part of how to reproduce it."""
    return re.sub(r"/(?:tmp|var/tmp)/\S*/([^/\s]+)", r"\1", text)


def heading(text: str) -> str:
    return html.escape(re.sub(r"\bus\b", "µs", text))


def table_html(header, rows) -> str:
    right = [bool(rows) and all(NUMERIC.match(r[c]) for r in rows) for c in range(len(header))]
    side = lambda c: "Right" if right[c] else "Left"  # noqa: E731
    # Wide tables scroll inside their own box on a narrow screen, not the whole page.
    out = ['<div class="hb-wide"><table class="markdownTable">', '<tr class="markdownTableHead">']
    out.append("".join(f'<th class="markdownTableHead{side(c)}">{h}</th>' for c, h in enumerate(header)))
    out.append("</tr>")
    for i, r in enumerate(rows):
        parity = "Odd" if i % 2 == 0 else "Even"
        out.append(f'<tr class="markdownTableRow{parity}">' +
                   "".join(f'<td class="markdownTableBody{side(c)}">{html.escape(v)}</td>'
                           for c, v in enumerate(r)) + "</tr>")
    out.append("</table></div>")
    return "\n".join(out)


def small_table_columns(spec):
    if spec[0] == "pivot":
        return list(spec[1]) + [spec[2], spec[4]]
    return [spec[1], spec[2]] + list(spec[3])


def small_table(name, header, data):
    spec = SMALL_TABLES.get(name)
    col = {h: i for i, h in enumerate(header)}
    if spec is None or not all(c in col for c in small_table_columns(spec)):
        return None
    if spec[0] == "pivot":
        _, keys, column, picks, value, caption = spec
        order, cells = [], {}
        for r in data:
            key = tuple(r[col[k]] for k in keys)
            if key not in cells:
                order.append(key)
                cells[key] = {}
            cells[key][r[col[column]]] = r[col[value]]
        # A sweep that no longer reaches a picked value shows the others.
        picks = {p: h for p, h in picks.items() if any(p in c for c in cells.values())}
        if not picks:
            return None
        head = [heading(k) for k in keys] + list(picks.values())
        rows = [list(k) + [cells[k].get(p, "-") for p in picks] for k in order]
        return caption + ":", table_html(head, rows)
    _, family, rank, kept, caption = spec
    best = {}
    rows = []
    for r in data:
        fam = r[col[family]].rpartition("_")[0]
        if not fam:
            rows.append(r)
            continue
        if not NUMERIC.match(r[col[rank]]) or r[col[rank]] == "-":
            continue
        if fam not in best or float(r[col[rank]].rstrip("%")) > float(best[fam][col[rank]].rstrip("%")):
            best[fam] = r
    rows += list(best.values())
    return caption + ":", table_html([heading(k) for k in kept], [[r[col[k]] for k in kept] for r in rows])


def provenance(facts: dict, csv_name: str) -> str:
    gpu, date, driver = facts.get("gpu"), facts.get("date"), facts.get("driver")
    when = f" on {html.escape(date)}" if date else ""
    versions = []
    if driver:
        # Files written before the driver's own version was read record the driver API's.
        versions.append(f"CUDA driver API {driver}" if re.fullmatch(r"[0-9]+\.[0-9]+", driver)
                        else f"driver {driver}")
    if facts.get("CUDA runtime"):
        versions.append(f"CUDA runtime {facts['CUDA runtime']}")
    versions = f" ({html.escape(', '.join(versions))})" if versions else ""
    if gpu and re.match(r"none\b", gpu, re.IGNORECASE):
        detail = re.search(r"\((.*)\)", gpu)
        first = "No GPU was needed" + (f" ({html.escape(detail.group(1))})" if detail else "") + \
                f"; recorded{when}{versions}"
    elif gpu:
        first = f"Measured on <b>{html.escape(gpu)}</b>{when}{versions}"
    else:
        first = f"Recorded{when}{versions}"
    out = first + "."
    if facts.get("command"):
        out += f" Command: <code>{html.escape(tidy(facts['command']))}</code>."
    out += f' The numbers as CSV: <a href="results/{csv_name}"><code>docs/results/{csv_name}</code></a>.'
    return out


def timed_twice_note(name, header, data) -> str:
    ref, column = TIMED_TWICE[name]
    col = {h: i for i, h in enumerate(header)}
    row = next((r for r in data if "id" in col and r[col["id"]] == ref), None)
    if row is None or column not in col or not NUMERIC.match(row[col[column]]) or \
            float(row[col[column]]) == 100.0:
        return ""  # the table changed shape, or the two timings agree: nothing to explain
    value = float(row[col[column]])
    return (f'<p class="hb-note">Row {html.escape(ref)} is the reference, timed twice: once for the '
            f'rate every row is divided by, and once in the sweep beside the others. Its own '
            f'{value:.1f} in &ldquo;{html.escape(column)}&rdquo; is that second timing against the '
            f'first: two timings of the same code differed by {abs(value - 100):.1f}%.</p>')


def csv_to_page(path: pathlib.Path, csv_name: str = "") -> str:
    """The measured table of one CSV as an HTML block that \\includedoc places in a page.

    It is HTML, not Markdown: inside \\includedoc Doxygen joins paragraphs, and its <details>
    breaks the block apart."""
    facts, header, data = read_csv(path)
    shown = dict(facts)
    out = ["\\htmlonly", '<div class="hb-results">', f'<p class="hb-provenance">{provenance(shown, csv_name or path.name)}</p>']
    other = [(k, v) for k, v in facts if k not in SHOWN]
    if other:
        out.append('<details class="hb-facts"><summary>How it was measured</summary><ul>')
        out += [f"<li><b>{html.escape(k)}</b>: {html.escape(tidy(v))}</li>" for k, v in other]
        out.append("</ul></details>")
    head = [heading(h) for h in header]
    small = small_table(path.stem, header, data) if len(data) > LONG else None
    if len(data) > LONG and small is None:
        sys.stderr.write(f"make_docs_pages: {path.name} has {len(data)} rows and no small table "
                         f"in SMALL_TABLES: only its folded table is shown\n")
    if len(data) <= LONG:
        out.append(table_html(head, data))
    else:
        if small:
            out.append(f'<p class="hb-caption">{small[0]}</p>')
            out.append(small[1])
        out.append(f'<details class="hb-table"><summary>The whole table: {len(data)} rows</summary>')
        out.append(table_html(head, data))
        out.append("</details>")
    if path.stem in TIMED_TWICE:
        out.append(timed_twice_note(path.stem, header, data))
    out = [line for line in out if line]
    out += ["</div>", "\\endhtmlonly", ""]
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


def chapter_pages(source: pathlib.Path, chapters: list[str]):
    """(folder, title, label, builds-on section) of every chapter with a page, in reading order."""
    present = []
    for ch in chapters:
        readme = source / ch / "README.md"
        if not readme.exists():
            continue
        text = readme.read_text()
        m = re.match(r"#\s*(.*?)\s*\{#(\w+)\}", text.splitlines()[0])
        if not m:
            raise SystemExit(f"{readme}: the first line must be '# Title {{#label}}'")
        section = re.search(r"^## What this builds on\s*$(.*?)(?=^## )", text, re.M | re.S)
        present.append((ch, m.group(1), m.group(2), section.group(1) if section else ""))
    return present


def builds_on(present):
    """Which earlier chapters each chapter names in its "What this builds on" section: a \\ref to
    the chapter's page, or "chapter N" in words."""
    number = {}
    for ch, _, label, _ in present:
        m = re.match(r"ch(\d+)_", ch)
        if m:
            number[m.group(1)] = label
    deps = {}
    for ch, _, label, text in present:
        named = set(re.findall(r"\\ref (\w+)", text)) | \
            {number[n] for n in re.findall(r"\b[Cc]hapters? (\d+)", text) if n in number}
        deps[label] = [l for _, _, l, _ in present if l in named and l != label]
    return deps


def chapter_map(source: pathlib.Path, chapters: list[str]) -> str:
    present = chapter_pages(source, chapters)
    deps = builds_on(present)
    out = ["# Chapter map {#chapter_map}", "",
           "How the chapters build on each other. An arrow from one chapter to another means that "
           "the later one uses an idea or code of the earlier one, as its section "
           "*What this builds on* says; every chapter also uses the common layer and compares "
           "with the ceilings measured on the \\ref platform page. Click a box to open its page.",
           "", "\\dot", "digraph chapters {",
           '  rankdir=TB; node [shape=box, style=rounded, fontname="Helvetica", fontsize=10];',
           '  platform [label="Platform and common layer", URL="\\ref platform"];']
    for ch, title, label, _ in present:
        out.append(f'  {label} [label="{title}", URL="\\ref {label}"];')
        for d in deps[label] or ["platform"]:
            out.append(f"  {d} -> {label};")
    out += ["}", "\\enddot", ""]
    if present:
        out.append("Read them in this order; each page links to the previous and the next one:")
        out.append("")
        for i, (ch, title, label, _) in enumerate(present):
            uses = deps[label]
            after = (" (builds on " + " and ".join(f"\\ref {d}" for d in uses) + ")") if uses else ""
            out.append(f"{i + 1}. \\ref {label}, folder `{ch}/`{after}")
    else:
        out.append("No chapter is written yet.")
    out.append("")
    return "\n".join(out)


# What each source folder holds, for the file list. A chapter folder without an entry is
# described by its chapter's title.
FOLDERS = {
    "ch11_streaming": "SAXPY between host and GPU: the four programs of the text, the pipeline beyond "
                      "it, the kernels and their sweep.",
    "ch12_reduction": "Every reduction of the text and the blog posts: the table of variants, the "
                      "driver, the CPU reference.",
    "ch12_reduction/kernels": "The reductions in reading order, one file per step of the chapter.",
    "ch13_scan": "Scans at the warp, block and device level, and stream compaction.",
    "ch13_scan/kernels": "The scans in reading order, one folder per level, one file per step of the "
                         "chapter.",
    "ch13_scan/kernels/warp": "The warp scans of section 13.5, one file per variant.",
    "ch13_scan/kernels/block": "The block scans of sections 13.2 to 13.5, one file per variant.",
    "ch13_scan/kernels/device": "The device-wide scans, from the CPU and CUB to the single pass, one "
                                "file per variant.",
    "ch13_scan/kernels/compact": "The stream compactions of section 13.6, one file per variant.",
    "ch13_scan/circuits": "The circuits of section 13.3 and the CPU models of the kernels that the "
                          "chapter's figures are drawn from.",
    "ch14_nbody": "The N-body force on the CPU and the GPU, the leapfrog simulation, several GPUs.",
    "ch14_nbody/kernels": "The N-body variants in reading order, one file per step of the chapter.",
    "ch14_nbody/nccl": "Variant 14: one process per GPU, the bodies exchanged through NCCL.",
    "ch15_correlation": "Normalized cross-correlation from textures to tensor cores, and the FFT route.",
    "ch15_correlation/kernels": "The correlation variants in reading order, one file per step of the "
                                "chapter.",
    "extras_histogram": "256-bin histograms: the three methods of the blog post and the variants "
                        "beyond it.",
    "extras_histogram/kernels": "The histogram variants in reading order, one file per step of the "
                                "chapter.",
    "common": "The shared layer: its headers, their sources, tests, fuzz harnesses, and the "
              "handbook_info program of the platform page.",
    "common/include": "The shared layer's headers.",
    "common/include/hb": "The common layer (hb::) every chapter uses: errors and exit codes, memory "
                         "owners, timing, the command line, report tables, device facts and ceilings.",
    "docs": "The platform page and the program that writes the \"Your GPU\" page.",
}


def folders_dox(source: pathlib.Path, chapters: list[str], folders: list[str]) -> str:
    pages = {ch: (title, label) for ch, title, label, _ in chapter_pages(source, chapters)}
    out = []
    for folder in folders:
        chapter = folder.split("/")[0]
        text = FOLDERS.get(folder)
        if chapter in pages:
            title, label = pages[chapter]
            text = (text or title + ".") + f" The chapter page: \\ref {label}."
        elif text is None:
            continue
        out += ["/**", f"\\dir {folder}", f"\\brief {text}", "*/", ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# After Doxygen.

COMMENT = re.compile(r'(<span class="comment">)(///[^<]*)(</span>)')
TAGS = [
    (re.compile(r"^(///\s*)\\t?param(?:\[[a-z, ]+\])?\s+(\w+)\s*"), r"\1\2: "),
    (re.compile(r"^(///\s*)\\pre\s+"), r"\1Requires: "),
    (re.compile(r"^(///\s*)\\post\s+"), r"\1Afterwards: "),
    (re.compile(r"^(///\s*)\\returns?\s+"), r"\1Returns: "),
    (re.compile(r"^(///\s*)\\throws?\s+"), r"\1Throws: "),
    (re.compile(r"^(///\s*)\\(?:brief|details)\s+"), r"\1"),
    (re.compile(r"\\(?:p|c|a|ref)\s+([\w:.]+)"), r"\1"),
    (re.compile(r"\\f\$(.*?)\\f\$"), r"\\(\1\\)"),
    (re.compile(r"\\f\[(.*?)\\f\]"), r"\\[\1\\]"),
]


def code_key(lines) -> tuple:
    """What identifies a piece of code across Doxygen's rendering: its lines without blanks,
    indentation or comment lines."""
    return tuple(s for s in (l.strip() for l in lines) if s and not s.startswith("//"))


def file_pages(folder: pathlib.Path) -> dict:
    """Repository path of each source file -> its Doxygen file page, from the navigation path
    at the bottom of the page."""
    pages = {}
    for page in folder.glob("*_source.html"):
        text = page.read_text(encoding="utf-8")
        path = re.search(r'<div id="nav-path" class="navpath">(.*?)</ul>', text, re.S)
        if path:
            names = re.findall(r'<li class="navelem"><a class="el" href="[^"]*">([^<]+)</a>', path.group(1))
            if names:
                pages["/".join(html.unescape(n) for n in names)] = page.name
    return pages


def snippet_sources(source: pathlib.Path, readme: pathlib.Path) -> dict:
    """code_key of each \\snippet region a page shows -> (its file, its first line)."""
    found = {}
    for rel, marker in re.findall(r"^\\snippet(?:\{[^}]*\})?\s+(\S+)\s+(\S+)", readme.read_text(), re.M):
        path = source / rel
        if not path.is_file():
            continue
        lines = path.read_text(errors="replace").splitlines()
        marks = [i for i, l in enumerate(lines) if f"[{marker}]" in l]
        if len(marks) >= 2:
            key = code_key(lines[marks[0] + 1:marks[1]])
            if key:
                found.setdefault(key, (rel, marks[0] + 2))
    return found


def link_snippets(text: str, snippets: dict, pages: dict) -> str:
    def fragment(m):
        lines = [html.unescape(re.sub(r"<[^>]+>", "", l))
                 for l in re.findall(r'<div class="line">(.*?)</div>', m.group(0), re.S)]
        hit = snippets.get(code_key(lines))
        if not hit or hit[0] not in pages:
            return m.group(0)
        rel, line = hit
        return (f'<div class="hb-source">From <a href="{pages[rel]}#l{line:05d}">'
                f'<code>{html.escape(rel)}</code></a></div>' + m.group(0))
    return re.sub(r'<div class="fragment">.*?</div><!-- fragment -->', fragment, text, flags=re.S)


def readable_comments(text: str) -> str:
    """The `///` comments of the code on a reading page, as a reader reads them."""
    def comment(m):
        body = m.group(2)
        for pattern, put in TAGS:
            body = pattern.sub(put, body)
        return m.group(1) + body + m.group(3)
    return COMMENT.sub(comment, text)

def insert_after(text: str, marker: str, block: str) -> str:
    at = text.find(marker)
    if at < 0:
        return text
    at += len(marker)
    return text[:at] + block + text[at:]


def page_title(text: str) -> str:
    m = re.search(r'<div class="title">(.*?)</div>', text, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", m.group(1))).strip() if m else ""


def chapter_nav(present, i) -> str:
    def link(j, arrow_left):
        if j < 0 or j >= len(present):
            return '<a href="index.html">Start here</a>' if arrow_left else \
                '<a href="chapter_map.html">Chapter map</a>'
        _, title, label, _ = present[j]
        text = html.escape(title)
        return (f'<a href="{label}.html">&larr; {text}</a>' if arrow_left
                else f'<a href="{label}.html">{text} &rarr;</a>')
    return ('<div class="hb-chapter-nav">'
            f'<span class="hb-prev">{link(i - 1, True)}</span>'
            '<span class="hb-up"><a href="chapter_map.html">Chapter map</a></span>'
            f'<span class="hb-next">{link(i + 1, False)}</span></div>')


def finish(source: pathlib.Path, folder: pathlib.Path, chapters: list[str]) -> int:
    present = chapter_pages(source, chapters)
    # 1. The data next to the pages.
    results = source / "docs" / "results"
    target = folder / "results"
    if target.exists():
        shutil.rmtree(target)
    for path in sorted(results.rglob("*")):
        if path.is_file() and path.suffix in (".csv", ".txt"):
            dest = target / path.relative_to(results)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)

    # 2. Previous / next on every chapter page.
    for i, (ch, title, label, _) in enumerate(present):
        page = folder / f"{label}.html"
        if not page.exists():
            raise SystemExit(f"finish: {page} was not generated")
        text = page.read_text(encoding="utf-8")
        nav = chapter_nav(present, i)
        text = insert_after(text, "<!--header-->", "\n" + nav + "\n")
        text = text.replace("</div><!-- contents -->", nav + "\n</div><!-- contents -->", 1)
        page.write_text(text, encoding="utf-8")

    # 3. File and folder pages of a chapter folder link back to the chapter page. Doxygen's
    # navigation path at the bottom of each such page names the folders, first to last.
    labels = {ch: (title, label) for ch, title, label, _ in present}
    for page in folder.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        path = re.search(r'<div id="nav-path" class="navpath">(.*?)</div>', text, re.S)
        if not path:
            continue
        first = re.search(r'<li class="navelem"><a class="el" href="[^"]*">([^<]+)</a>', path.group(1))
        if not first or first.group(1) not in labels:
            continue
        title, label = labels[first.group(1)]
        note = (f'<div class="hb-back">Part of <a href="{label}.html">{html.escape(title)}</a>: '
                f'the chapter page explains this code step by step.</div>\n')
        text = insert_after(text, "<!--header-->\n", note) if "<!--header-->\n" in text else \
            insert_after(text, "<!--header-->", note)
        page.write_text(text, encoding="utf-8")

    # 4. docs/results/... quoted in a reading page links to the copy.
    reading = ["index.html", "chapter_map.html", "platform.html", "your_gpu.html"] + \
        [f"{label}.html" for _, _, label, _ in present]
    quoted = re.compile(r"<code>docs/results/([\w./-]+)</code>")

    def link(m):
        rel = m.group(1)
        if (target / rel).is_file():
            return f'<a href="results/{rel}"><code>docs/results/{rel}</code></a>'
        if rel.endswith("/") and (target / rel).is_dir():
            return f'<code>docs/results/{rel}</code>'
        return m.group(0)
    sources = file_pages(folder)
    readmes = {f"{label}.html": source / ch / "README.md" for ch, _, label, _ in present}
    for name in reading:
        page = folder / name
        if page.exists():
            text = page.read_text(encoding="utf-8")
            if name in readmes:
                text = link_snippets(text, snippet_sources(source, readmes[name]), sources)
            # Only outside links already made (the provenance lines carry their own).
            parts = re.split(r"(<a [^>]*>.*?</a>)", text, flags=re.S)
            parts = [p if p.startswith("<a ") else quoted.sub(link, p) for p in parts]
            page.write_text(readable_comments("".join(parts)), encoding="utf-8")

    # 5. The main page's sections out of the navigation tree: the chapters come first.
    drop_main_sections(folder)
    return 0


def drop_main_sections(folder: pathlib.Path) -> None:
    tree_file = folder / "navtreedata.js"
    if not tree_file.exists():
        return
    text = tree_file.read_text(encoding="utf-8")
    entry = re.compile(r'^\s*\[ "[^"\n]*", "index\.html#[\w-]+", null \],?\n', re.M)
    dropped = len(entry.findall(text))
    if not dropped:
        return
    tree_file.write_text(entry.sub("", text), encoding="utf-8")
    # The index files give each page its path in the tree below the root, [k, ...]: the root's
    # children after the dropped ones move up; the dropped sections point at the main page itself.
    for index in folder.glob("navtreeindex*.js"):
        t = index.read_text(encoding="utf-8")

        def move(m):
            key, path = m.group(1), json.loads(m.group(2))
            if key.startswith("index.html#") and len(path) == 1:
                path = []
            elif path:
                path[0] -= dropped
            return f'"{key}":{json.dumps(path).replace(" ", "")}'
        index.write_text(re.sub(r'"([^"]+)":(\[[0-9,]*\])', move, t), encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", required=True, type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path)
    ap.add_argument("--gnuplot", default="gnuplot")
    ap.add_argument("--chapters", nargs="*", default=[])
    ap.add_argument("--folders", nargs="*", default=[], help="source folders to describe")
    ap.add_argument("--finish", type=pathlib.Path, metavar="HTML",
                    help="finish Doxygen's HTML folder instead (links, data, navigation)")
    a = ap.parse_args()
    if a.finish:
        return finish(a.source, a.finish, a.chapters)
    if not a.out:
        ap.error("--out is needed")
    (a.out / "pages").mkdir(parents=True, exist_ok=True)
    results = a.source / "docs" / "results"
    for path in sorted(results.glob("*.csv")):
        (a.out / (path.stem + ".md")).write_text(csv_to_page(path))
    # The same tables measured on a second GPU: docs/results/h200/x.csv -> x_h200.md.
    for path in sorted(results.glob("h200/*.csv")):
        (a.out / (path.stem + "_h200.md")).write_text(csv_to_page(path, "h200/" + path.name))
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
    (a.out / "pages" / "folders.dox").write_text(folders_dox(a.source, a.chapters, a.folders))
    return 0


if __name__ == "__main__":
    sys.exit(main())
