#!/usr/bin/env python3
"""Checks the HTML book the way a reader meets it.

    python3 scripts/check_docs.py HTML_FOLDER [--browser chromium] [--jobs N]

1. Every link and image of every page (all of them, the file pages too) resolves inside the
   folder: the file exists, and so does the anchor a link names.
2. The reading pages (the main page, every chapter, the map, the platform and "Your GPU") are
   loaded in a headless browser (Debian's chromium), which runs MathJax; the rendered page may
   hold no MathJax error ("Undefined control sequence" and the like), no raw markup in its
   text (**bold**, a stray backtick, a Doxygen formula marker \\f$) and none of the words a
   reader should never see (issue numbers, machines we were lent, paths into our notes).

Prints every finding and exits 1 when there is one; 0 when the book is clean. --plant-selftest
copies the folder, plants one defect of each kind, and checks that each is found.
"""
import argparse
import concurrent.futures
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

READING_PAGES = ["index.html", "chapter_map.html", "platform.html", "your_gpu.html"]
# Text the pages may never show a reader.
INTERNAL = re.compile(r"\bthe issue\b(?! (?:bound|order|rate|slots?)\b)|\bissues? \d|\bissue's\b|"
                      r"another project|shared/seeds|"
                      r"\blent\b|\bborrowed\b|asked for in|DESIGN\.md", re.IGNORECASE)
MATHJAX_ERRORS = re.compile(r"Undefined control sequence|Math Processing Error|Missing open brace|"
                            r"Missing close brace|Extra close brace|Misplaced &|"
                            r"TeX parse error|Unknown environment")


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
        for key in ("href", "src"):
            if a.get(key):
                self.links.append(a[key])
        for key in ("id", "name"):
            if a.get(key) and (key == "id" or tag == "a"):
                self.ids.add(a[key])
        cls = (a.get("class") or "").split()
        if "MathJax_Error" in cls or "merror" in cls:
            self.errors += 1
        if tag in VOID:
            return
        code = self.in_code() or tag in ("code", "pre", "script", "style", "tt") or \
            "fragment" in cls or "line" in cls
        self.stack.append((tag, code))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if not self.in_code():
            self.text.append(data)


def parse(path):
    p = Page()
    with open(path, encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    return p


def check_links(folder):
    pages = {f: parse(os.path.join(folder, f)) for f in os.listdir(folder) if f.endswith(".html")}
    findings = []
    for name, page in sorted(pages.items()):
        for link in page.links:
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", link) or link.startswith("#!"):
                continue  # mailto:, https:, javascript: ...: not ours to check offline
            path, _, anchor = link.partition("#")
            path = html.unescape(path).split("?")[0]
            target = name if path == "" else os.path.normpath(path)
            if path and not os.path.exists(os.path.join(folder, target)):
                findings.append(f"{name}: broken link {link}")
            elif anchor and target in pages and anchor not in pages[target].ids:
                findings.append(f"{name}: link to a missing anchor {link}")
    return findings, len(pages)


def render(browser, path):
    """The DOM of \\p path after its scripts (MathJax) ran."""
    cmd = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--allow-file-access-from-files", "--virtual-time-budget=20000", "--dump-dom",
           "file://" + os.path.abspath(path)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=180)
    return p.stdout.decode("utf-8", "replace")


def check_reading_page(browser, folder, name):
    dom = render(browser, os.path.join(folder, name))
    findings = []
    if len(dom) < 500:
        return [f"{name}: the browser rendered nothing"]
    p = Page()
    p.feed(dom)
    text = " ".join(p.text)
    for m in MATHJAX_ERRORS.finditer(dom):
        findings.append(f"{name}: MathJax error: {m.group(0)}")
    if p.errors and not findings:
        findings.append(f"{name}: {p.errors} MathJax error box(es)")
    if "\\f$" in text or "\\f[" in text:
        findings.append(f"{name}: a raw Doxygen formula marker (\\f$) in the text")
    for m in re.finditer(r".{0,30}\*\*.{0,30}", text):
        findings.append(f"{name}: raw markdown bold: ...{m.group(0).strip()}...")
    for m in re.finditer(r".{0,30}`.{0,30}", text):
        findings.append(f"{name}: a stray backtick: ...{m.group(0).strip()}...")
    for m in INTERNAL.finditer(text):
        around = text[max(0, m.start() - 30):m.end() + 30].replace("\n", " ")
        findings.append(f"{name}: internal wording: ...{around}...")
    return findings


def check(folder, browser, jobs):
    findings, count = check_links(folder)
    reading = READING_PAGES + sorted(f for f in os.listdir(folder)
                                     if re.match(r"^(ch1[1-5]_[a-z]+|extras_[a-z]+)\.html$", f))
    reading = [r for r in reading if os.path.exists(os.path.join(folder, r))]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(lambda n: check_reading_page(browser, folder, n), reading):
            findings += result
    return findings, count, reading


def plant_selftest(folder, browser, jobs):
    """Each kind of defect, planted in a copy of the book, must be found."""
    plants = {
        "broken link": ("chapter_map.html", "</body>", '<a href="no_such_page.html">x</a></body>'),
        "MathJax error": ("platform.html", "</body>", '<p>\\(\\nosuchcommand x\\)</p></body>'),
        "raw bold": ("platform.html", "</body>", "<p>some **bold** text</p></body>"),
        "stray backtick": ("platform.html", "</body>", "<p>a `broken span</p></body>"),
        "formula marker": ("platform.html", "</body>", "<p>the sum \\f$x\\f$ here</p></body>"),
        "internal wording": ("platform.html", "</body>", "<p>as issue 7 asks</p></body>"),
    }
    missed = []
    for kind, (page, anchor, planted) in plants.items():
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "html")
            shutil.copytree(folder, copy, symlinks=False)
            path = os.path.join(copy, page)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace(anchor, planted, 1))
            findings = check_links(copy)[0] if kind == "broken link" else \
                check_reading_page(browser, copy, page)
            print(f"planted {kind} in {page}: {'found' if findings else 'MISSED'}")
            if not findings:
                missed.append(kind)
    return missed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("html")
    ap.add_argument("--browser", default=shutil.which("chromium") or "chromium")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--no-browser", action="store_true", help="check links only")
    ap.add_argument("--plant-selftest", action="store_true")
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.html, "index.html")):
        print(f"check_docs: {a.html} holds no index.html", file=sys.stderr)
        return 2
    if a.no_browser:
        findings, count = check_links(a.html)
        for f in findings:
            print(f)
        print(f"check_docs: {count} pages' links (no browser: rendering not checked): "
              f"{len(findings)} finding(s)")
        return 1 if findings else 0
    if not shutil.which(a.browser):
        print(f"check_docs: no browser '{a.browser}' (Debian: chromium; scripts/deps.sh --docs)",
              file=sys.stderr)
        return 2
    if a.plant_selftest:
        missed = plant_selftest(a.html, a.browser, a.jobs)
        return 1 if missed else 0
    findings, count, reading = check(a.html, a.browser, a.jobs)
    for f in findings:
        print(f)
    print(f"check_docs: {count} pages' links, {len(reading)} pages rendered: "
          f"{len(findings)} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
