#!/usr/bin/env python3
"""Checks the HTML book the way a reader meets it.

    python3 scripts/check_docs.py HTML_FOLDER [--source REPO] [--browser chromium] [--jobs N]

1. Every page (all of them, the file pages too) is checked without a browser:
   * every link, image, plot and script resolves inside the folder (the file exists, and so
     does the anchor a link names), and nothing points outside it: no absolute path, no
     symbolic link, so that the folder works when copied or zipped (MathJax included);
   * its text outside code holds none of the words a reader should never see (issue numbers,
     machines we were lent, paths into our notes).
2. The reading pages (the main page, every chapter, the map, the platform and "Your GPU") are
   loaded in a headless browser (Debian's chromium), which runs MathJax; the rendered page may
   hold no MathJax error ("Undefined control sequence" and the like), must show its formulas
   rendered (MathJax loaded from the folder's own copy), and may hold no raw markup in its
   text: **bold**, a stray backtick, a Doxygen formula marker \\f$, or TeX outside a formula
   (log_{2B}, \\frac).
3. With --source, the numbers quoted in the pages' prose are compared with the measured data:
   in every sentence that names a file of docs/results/ (`docs/results/x.csv`), each number
   with a unit (%, x, ms, us, GB/s, Mpix/s, ...) must be one of that file's values, as written
   or rounded to the digits written. Sentences that do not name their file are not checked:
   their numbers are often derived (a ratio, a difference, a share of a bound), and a ratio of
   two of a table's hundreds of values matches almost any number, so no check could tell a
   wrong number from a derived one. For the same reason a share or ratio that compares
   ("1.9% more", "6.3% below", "within 0.2%") is not checked, nor a sentence that sets the
   book's own numbers (its GPUs, "the text") beside ours.

Prints every finding and exits 1 when there is one; 0 when the book is clean. --plant-selftest
copies the folder (and the pages' sources), plants one defect of each kind, and checks that
each is found where it was planted.
"""
import argparse
import bisect
import concurrent.futures
import html
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

READING_PAGES = ["index.html", "chapter_map.html", "platform.html", "your_gpu.html"]
# Text the pages may never show a reader.
INTERNAL = re.compile(r"\bthe issue\b(?! (?:bound|order|rate|slots?)\b)|\bissues? #?\d|\bissue's\b|"
                      r"another project|shared/seeds|\bthe audit\b|\bthe review\b|\breviewers?\b|"
                      r"\blent\b|\bborrowed\b|asked for (?:in|by)\b|\bwere asked\b|DESIGN\.md",
                      re.IGNORECASE)
MATHJAX_ERRORS = re.compile(r"Undefined control sequence|Math Processing Error|Missing open brace|"
                            r"Missing close brace|Extra close brace|Misplaced &|"
                            r"TeX parse error|Unknown environment")
# TeX that reached the text instead of a formula.
STRAY_TEX = re.compile(r"[_^]\{|\\(?:frac|tfrac|sum|prod|mathrm|mathbf|text|log|cdot|times|"
                       r"sqrt|left|right|lVert|rVert|le|ge|approx|alpha|beta|epsilon)\b")

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Page(HTMLParser):
    """Links, ids, and the visible text outside code of one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.ids, self.text = [], set(), []
        self.stack = []  # (tag, whether it or an ancestor is code)
        self.errors = 0

    def in_code(self):
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("href", "src", "data"):
            if a.get(key) and not (key == "data" and tag != "object"):
                self.links.append((tag, a[key]))
        for key in ("id", "name"):
            if a.get(key) and (key == "id" or tag == "a"):
                self.ids.add(a[key])
        cls = (a.get("class") or "").split()
        if "MathJax_Error" in cls or "merror" in cls:
            self.errors += 1
        if tag in VOID:
            return
        # MathJax's own rendering (its spans hold single glyphs) and its sources are not prose.
        code = self.in_code() or tag in ("code", "pre", "script", "style", "tt", "math") or \
            "fragment" in cls or "line" in cls or any(c.startswith("MathJax") or c.startswith("MJX")
                                                      for c in cls)
        self.stack.append((tag, code))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if not self.in_code():
            self.text.append(data)


def parse_text(text):
    p = Page()
    p.feed(text)
    return p


def parse(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return parse_text(f.read())


def check_static(folder):
    """[(kind, page, message)] for every page of the folder, without a browser."""
    findings = []
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            if os.path.islink(path):
                findings.append(("outside link", os.path.relpath(path, folder),
                                 f"is a symbolic link (to {os.readlink(path)}): the folder would "
                                 f"break when copied"))
    pages = {f: parse(os.path.join(folder, f)) for f in os.listdir(folder) if f.endswith(".html")}
    for name, page in sorted(pages.items()):
        for tag, link in page.links:
            image = tag in ("img", "object")
            if link.startswith("/") or link.lower().startswith("file:"):
                findings.append(("outside link", name, f"points outside the folder: {link}"))
                continue
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", link) or link.startswith("#!"):
                continue  # https:, mailto:, javascript: ...: not ours to check offline
            path, _, anchor = link.partition("#")
            path = html.unescape(path).split("?")[0]
            target = name if path == "" else os.path.normpath(path)
            if path and not os.path.exists(os.path.join(folder, target)):
                findings.append(("broken image" if image else "broken link", name,
                                 f"{'image or plot' if image else 'link'} to a missing file {link}"))
            elif anchor and target in pages and anchor not in pages[target].ids:
                findings.append(("missing anchor", name, f"link to a missing anchor {link}"))
        text = " ".join(page.text)
        for m in INTERNAL.finditer(text):
            around = text[max(0, m.start() - 30):m.end() + 30].replace("\n", " ")
            findings.append(("internal wording", name, f"internal wording: ...{around}..."))
    return findings, len(pages)


def render(browser, path):
    """The DOM of \\p path after its scripts (MathJax) ran."""
    cmd = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--allow-file-access-from-files", "--virtual-time-budget=20000", "--dump-dom",
           "file://" + os.path.abspath(path)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=180)
    return p.stdout.decode("utf-8", "replace")


def check_rendered(browser, folder, name):
    dom = render(browser, os.path.join(folder, name))
    if len(dom) < 500:
        return [("empty render", name, "the browser rendered nothing")]
    findings = []
    with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
        formulas = re.search(r"\\\(|\\\[|\\begin\{", f.read())
    if formulas and 'class="MathJax' not in dom:
        findings.append(("formulas not rendered", name,
                         "the page has formulas, but MathJax rendered none (is mathjax/ there?)"))
    p = parse_text(dom)
    text = " ".join(p.text)
    for m in MATHJAX_ERRORS.finditer(dom):
        findings.append(("MathJax error", name, f"MathJax error: {m.group(0)}"))
    if p.errors and not findings:
        findings.append(("MathJax error", name, f"{p.errors} MathJax error box(es)"))
    if "\\f$" in text or "\\f[" in text:
        findings.append(("formula marker", name, "a raw Doxygen formula marker (\\f$) in the text"))
    for m in re.finditer(r".{0,30}\*\*.{0,30}", text):
        findings.append(("raw bold", name, f"raw markdown bold: ...{m.group(0).strip()}..."))
    for m in re.finditer(r".{0,30}`.{0,30}", text):
        findings.append(("stray backtick", name, f"a stray backtick: ...{m.group(0).strip()}..."))
    for m in STRAY_TEX.finditer(text):
        around = text[max(0, m.start() - 30):m.end() + 30].replace("\n", " ")
        findings.append(("stray TeX", name, f"TeX outside a formula: ...{around}..."))
    return findings


# ---------------------------------------------------------------------------------------------
# Numbers in the prose against the measured data.

UNIT = r"(?:%|x\b|×|\s?(?:ms|µs|us|s|ns|GB/s|MB/s|TB/s|Mpix/s|G ?pix/s|G ?tpx/s|G scans/s|G ?el(?:ements)?/s)\b)"
QUOTED = re.compile(r"(?<![\w.^/+-])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?=" + UNIT + ")")
NAMED = re.compile(r"\b(?:docs/results/)?([\w-]+(?:/[\w-]+)*\.csv)\b")
# A sentence that quotes the book (its GPUs, its printed numbers) beside our file.
BOOK = re.compile(r"\b(?:the (?:text|book)|book's|text's|GK104|GK110|GT200|GTX \d+)\b")
# A share or a ratio that compares two numbers ("1.9% more", "6.3% below", "a gap of 6.5%",
# "within 0.2%") is derived, not a value of the file.
AFTER = re.compile(r"^(?:%|x|×)?\s*(?:\S+\s+)?(?:more|less|fewer|below|above|faster|slower|behind|"
                   r"ahead|higher|lower|better|worse|over|under|apart|gap)\b")
BEFORE = re.compile(r"\b(?:within|gap(?: is| of)?|by|differ(?:s|ence)?(?: of)?)\s*$")


def derived(prose, m):
    """Whether the share or ratio at match m compares two numbers instead of quoting one."""
    rest = prose[m.end():m.end() + 30]
    if not re.match(r"^(?:%|x\b|×)", rest):
        return False
    return bool(AFTER.match(rest) or BEFORE.search(prose[max(0, m.start() - 20):m.start()]))


def page_sources(source):
    root = pathlib.Path(source)
    pages = [root / "README.md"] + sorted(root.glob("*/README.md")) + sorted((root / "docs").glob("*.md"))
    return [p for p in pages if p.is_file()]


def csv_values(path):
    values = []
    for token in re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", path.read_text()):
        try:
            values.append(abs(float(token)))
        except ValueError:
            pass
    return sorted(set(values))


def sentences(text):
    """The prose of a Markdown page as (line number, sentence): paragraphs and list items split
    into sentences; code blocks, headings and table rows left out."""
    out, block, start = [], [], 0
    fenced = in_code = False
    blank = True

    def flush():
        if block:
            for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(*\\])", " ".join(block)):
                out.append((start + 1, s))
        block.clear()
    for i, line in enumerate(text.splitlines()):
        s = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        if s.startswith(("```", "~~~")):
            fenced = not fenced
            flush()
            continue
        if fenced:
            continue
        if in_code and s and indent < 4:
            in_code = False
        if not in_code and blank and s and indent >= 4:
            in_code = True
        was_blank, blank = blank, not s
        if in_code or not s or s.startswith(("#", "|")):
            flush()
            continue
        if re.match(r"([-*+]|\d+\.)\s", s) or was_blank:
            flush()
        if not block:
            start = i
        block.append(s)
    flush()
    return out


def check_prose_numbers(source):
    root = pathlib.Path(source)
    results = root / "docs" / "results"
    findings, checked = [], 0
    cache = {}
    for page in page_sources(root):
        name = str(page.relative_to(root))
        for line, sentence in sentences(page.read_text()):
            files = []
            for rel in NAMED.findall(sentence):
                path = results / rel
                if path.is_file():
                    files.append(path)
            if not files:
                continue
            values = sorted(set(v for f in files for v in cache.setdefault(f, csv_values(f))))
            prose = re.sub(r"`[^`]*`", " ", sentence)
            if BOOK.search(prose):
                continue  # the book's own numbers stand beside ours in such a sentence
            for m in QUOTED.finditer(prose):
                token = m.group(1)
                if derived(prose, m):
                    continue
                digits = len(token.split(".")[1]) if "." in token else 0
                x = float(token.replace(",", ""))
                half = 0.5 * 10 ** -digits * (1 + 1e-9)
                i = bisect.bisect_left(values, x - half)
                checked += 1
                if not (i < len(values) and values[i] <= x + half):
                    findings.append(("prose number", f"{name}:{line}",
                                     f"{token} is not a value of {', '.join(f.name for f in files)}: "
                                     f"...{prose[max(0, m.start() - 60):m.end() + 20]}..."))
    return findings, checked


# ---------------------------------------------------------------------------------------------

def check(folder, browser, jobs, source=None, pages=None):
    findings, count = check_static(folder)
    reading = READING_PAGES + sorted(f for f in os.listdir(folder)
                                     if re.match(r"^(ch1[1-5]_[a-z]+|extras_[a-z]+)\.html$", f))
    reading = [r for r in reading if os.path.exists(os.path.join(folder, r)) and
               (pages is None or r in pages)]
    if browser:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            for result in pool.map(lambda n: check_rendered(browser, folder, n), reading):
                findings += result
    numbers = 0
    if source:
        found, numbers = check_prose_numbers(source)
        findings += found
    return findings, count, reading if browser else [], numbers


# Each planted defect: (kind, page or source file, text to find, text to put in its place).
PLANTS = [
    ("broken link", "chapter_map.html", "</body>", '<a href="no_such_page.html">x</a></body>'),
    ("missing anchor", "your_gpu.html", "</body>", '<a href="platform.html#no_such_anchor">x</a></body>'),
    ("broken image", "ch12_reduction.html", "</body>", '<img src="no_such_picture.png" alt=""/></body>'),
    ("broken image", "ch13_scan.html", "</body>",
     '<object type="image/svg+xml" data="no_such_plot.svg"></object></body>'),
    ("outside link", "ch11_streaming.html", "</body>",
     '<script src="/usr/share/javascript/mathjax/MathJax.js"></script></body>'),
    ("outside link", "mathjax", None, "/usr/share/javascript/mathjax"),
    ("MathJax error", "platform.html", "</body>", "<p>\\(\\nosuchcommand x\\)</p></body>"),
    ("formulas not rendered", "ch15_correlation.html", 'src="mathjax/MathJax.js"',
     'src="mathjax/NoSuchMathJax.js"'),
    ("raw bold", "platform.html", "</body>", "<p>some **bold** text</p></body>"),
    ("stray backtick", "index.html", "</body>", "<p>a `broken span</p></body>"),
    ("formula marker", "chapter_map.html", "</body>", "<p>the sum \\f$x\\f$ here</p></body>"),
    ("stray TeX", "your_gpu.html", "</body>", "<p>about log_{2B}(n) steps</p></body>"),
    ("internal wording", "ch14_nbody.html", "</body>", "<p>as issue 7 asks</p></body>"),
    # The main page quoting another run than its file, the way 88.8% once became 91.8%: its
    # share of the transfer bound, whatever the current run says, made 3 points larger.
    ("prose number", "README.md", re.compile(r"[0-9]+\.[0-9](?=% of the transfer bound)"),
     lambda m: f"{float(m.group(0)) + 3:.1f}"),
]


def plant_selftest(folder, source, browser, jobs):
    """Each kind of defect, planted in a copy of the book, must be found where it was planted."""
    missed = []
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "html")
        shutil.copytree(folder, copy, symlinks=True)
        src = os.path.join(tmp, "source") if source else None
        if source:
            for page in page_sources(source):
                dest = os.path.join(src, os.path.relpath(page, source))
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                shutil.copyfile(page, dest)
            shutil.copytree(os.path.join(source, "docs", "results"), os.path.join(src, "docs", "results"))
        planted = []
        for kind, page, find, put in PLANTS:
            if kind == "prose number":
                if not source:
                    continue
                path = os.path.join(src, page)
            elif find is None:
                path = os.path.join(copy, page)
                shutil.rmtree(path)
                os.symlink(put, path)
                planted.append((kind, page))
                continue
            else:
                path = os.path.join(copy, page)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            pattern = find if isinstance(find, re.Pattern) else re.compile(re.escape(find))
            if not pattern.search(text):
                print(f"plant: '{pattern.pattern}' not found in {page}: cannot plant {kind}")
                missed.append(kind)
                continue
            with open(path, "w", encoding="utf-8") as f:
                f.write(pattern.sub(put if callable(put) else lambda m: put, text, count=1))
            planted.append((kind, page))
        pages = {p for k, p in planted if p.endswith(".html")}
        findings = check(copy, browser, jobs, src, pages)[0]
        for kind, page in planted:
            hits = [f for f in findings if f[0] == kind and
                    (f[1] == page or f[1].startswith(page + ":") or f[1].startswith(page + os.sep))]
            print(f"planted {kind} in {page}: {'found: ' + hits[0][2] if hits else 'MISSED'}")
            if not hits:
                missed.append(f"{kind} in {page}")
    return missed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("html")
    ap.add_argument("--source", help="the repository, to compare the pages' numbers with docs/results")
    ap.add_argument("--browser", default=shutil.which("chromium") or "chromium")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--no-browser", action="store_true", help="check without rendering")
    ap.add_argument("--plant-selftest", action="store_true")
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.html, "index.html")):
        print(f"check_docs: {a.html} holds no index.html", file=sys.stderr)
        return 2
    browser = None if a.no_browser else a.browser
    if browser and not shutil.which(browser):
        print(f"check_docs: no browser '{browser}' (Debian: chromium; scripts/deps.sh --docs)",
              file=sys.stderr)
        return 2
    if a.plant_selftest:
        if not browser:
            print("check_docs: --plant-selftest needs the browser", file=sys.stderr)
            return 2
        missed = plant_selftest(a.html, a.source, browser, a.jobs)
        if missed:
            print(f"check_docs: the checker missed {len(missed)} planted defect(s): {', '.join(missed)}")
        return 1 if missed else 0
    findings, count, reading, numbers = check(a.html, browser, a.jobs, a.source)
    for kind, page, message in findings:
        print(f"{page}: {message}")
    rendered = f"{len(reading)} pages rendered" if browser else "no browser: rendering not checked"
    quoted = f", {numbers} quoted numbers compared with docs/results" if a.source else ""
    print(f"check_docs: {count} pages' links and text, {rendered}{quoted}: {len(findings)} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
