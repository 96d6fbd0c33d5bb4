#!/usr/bin/env python3
"""Every program of a build against every class of bad input.

    python3 scripts/bad_inputs.py [--build BUILD] [--jobs N] [--timeout S] [--list] [--tsv FILE]

Reads each program's flags from its --help, then runs it with bad values of every flag it has
(empty, another option, not a number, octal and hexadecimal look-alikes, out of range,
overflow, nan and inf), bad files (missing, a directory, a FIFO, /dev/zero, truncated,
malformed or lying PGM headers), bad output paths (a directory, a missing folder, a place
nobody may write), and combinations the programs refuse. Every such run must end with exit code
2 and one line on stderr of the form "<program>: error: ..." that names the flag or the file,
within the timeout (no hang). Writes that fail (standard output or a file on a full device)
must end with exit code 1. On a machine without a GPU, a GPU program given valid outputs must
exit 77 and leave no file behind.

Prints one line per class and the failures, and exits 0 only when every run behaved. The
runs need no GPU: bad inputs are refused before any GPU work, and the runs that would reach a
GPU are left out where one is present.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Programs that read no shared flags, with the arguments that are bad for them.
SPECIAL = {
    "scan_instruction_counts": [["--bogus"], ["positional"]],
}
# Flags whose TEXT value is a size with K/M/G suffixes.
SIZE_FLAGS = {"--n", "--bodies", "--cpu-bodies", "--chunk"}
INPUT_FLAGS = {"--input"}
OUTPUT_FLAGS = {"--output", "--write-input", "--image"}
FOLDER_FLAGS = {"--figures"}

# Bad values of a flag beyond those of its type: the physical and semantic ranges.
RANGE_CASES = {
    "--softening": ["0", "-1", "1e-30", "1e20"],
    "--dt": ["0", "-0.5", "1e30"],
    "--alpha": ["1e30", "-1e30"],
    "--budget-ms": ["0", "-1"],
    "--unroll": ["0", "-1", "3", "64"],
    "--bodies-per-thread": ["0", "-1", "3", "16"],
    "--threads": ["0", "-32", "100000"],
    "--gpus": ["0", "65"],
    "--max-streams": ["0", "65"],
    "--image-size": ["15", "8193"],
    "--steps": ["-1", "1000001"],
    "--max-log2": ["9", "31"],
    "--reps": ["0", "4097"],
    "--sizes": ["0", "1025", "8,0"],
    "--padWidth": ["0", "-5"],
    "--padHeight": ["0", "-5"],
    "--wTemplate": ["0", "-1", "1025"],
    "--hTemplate": ["0", "-1", "1025"],
    "--xTemplate": ["-1", "100000"],
    "--yTemplate": ["-1", "100000"],
    "--iters": ["0", "-5", "100001", "2147483648"],
    "--device": ["-1", "1024"],
}

# Combinations a program refuses: (program or '*', arguments). '*' means every program that
# has all the flags named.
COMBINATIONS = [
    ("*", ["--inclusive", "--exclusive"]),
    ("*", ["--padWidth", "1024"]),
    ("*", ["--padHeight", "1024"]),
    ("*", ["--padWidth", "131073", "--padHeight", "64", "--no-check"]),
    ("*", ["--padWidth", "512", "--padHeight", "65537", "--no-check"]),
    ("*", ["--padWidth", "100", "--padHeight", "100"]),  # smaller than the 300 x 246 scene
    ("*", ["--sweep", "--neighbourhood"]),
    ("*", ["--sweep", "--output", "x.pgm"]),
    ("*", ["--input", "@valid.pgm", "--n", "1K"]),
    ("*", ["--input", "@valid.pgm", "--distribution", "uniform"]),
    ("*", ["--input", "@valid.pgm", "--xTemplate", "40"]),
    ("*", ["--bodies", "1K", "--n", "2K"]),
    ("*", ["--variant", "gpu_aos", "--unroll-sweep", "gpu_shared"]),
    ("*", ["--unroll-sweep", "cpu_aos"]),
    ("*", ["--image", "x.pgm", "--steps", "0"]),
    ("*", ["--image", "x.pgm", "--unroll-sweep", "gpu_aos"]),
    ("*", ["--n", "1000", "--input", "@valid.pgm"]),
    ("scan_networks", ["--n", "24"]),
]


def pgm_files(folder):
    """The bad (and one valid) PGM files and special files the input cases use."""
    files = {}

    def put(name, data):
        path = os.path.join(folder, name)
        with open(path, "wb") as f:
            f.write(data)
        files[name] = path

    put("valid.pgm", b"P5\n64 64\n255\n" + bytes((i * 7) % 256 for i in range(64 * 64)))
    put("empty.pgm", b"")
    put("magic_only.pgm", b"P5\n")
    put("trunc_header.pgm", b"P5\n64")
    put("p6_colour.ppm", b"P6\n1 1\n255\n\x00\x00\x00")
    put("p4_bitmap.pbm", b"P4\n8 1\n\x00")
    put("magic_lower.pgm", b"p5\n1 1\n255\n\x00")
    put("magic_nospace.pgm", b"P564 64\n255\n")
    put("maxval0.pgm", b"P5\n1 1\n0\n\x00")
    put("maxval256.pgm", b"P5\n1 1\n256\n\x00\x00")
    put("zero_dims.pgm", b"P5\n0 4\n255\n")
    put("neg_dims.pgm", b"P5\n-4 4\n255\n")
    put("side_2000000x1.pgm", b"P5\n2000000 1\n255\n")
    put("overflow_100000x100000.pgm", b"P5\n100000 100000\n255\n")
    put("huge_digits.pgm", b"P5\n" + b"9" * 400 + b" 1\n255\n")
    put("short_data.pgm", b"P5\n64 64\n255\n" + b"\x01" * 100)
    put("no_data.pgm", b"P5\n64 64\n255")
    put("above_maxval.pgm", b"P5\n2 1\n100\n\xc8\x01")
    put("p2_short.pgm", b"P2\n2 2\n255\n1 2 3\n")
    put("p2_garbage.pgm", b"P2\n2 2\n255\n1 x 3 4\n")
    put("p2_negative.pgm", b"P2\n2 2\n255\n1 -2 3 4\n")
    put("p2_above_maxval.pgm", b"P2\n2 1\n10\n5 11\n")
    put("p2_bomb.pgm", b"P2\n16384 16384\n255\n")
    put("nul_in_header.pgm", b"P5\n6\x004 64\n255\n")
    put("utf8_bom.pgm", b"\xef\xbb\xbfP5\n1 1\n255\n\x00")
    fifo = os.path.join(folder, "fifo.pgm")
    os.mkfifo(fifo)
    files["fifo.pgm"] = fifo
    os.mkdir(os.path.join(folder, "dir.pgm"))
    files["dir.pgm"] = os.path.join(folder, "dir.pgm")
    files["missing.pgm"] = os.path.join(folder, "missing.pgm")
    files["/dev/zero"] = "/dev/zero"
    files["/dev/null"] = "/dev/null"
    return files


def sparse_file(folder):
    """A valid 64 x 64 image followed by 3 GB of zeros (sparse: no disk is used). A reader that
    reads the whole file before its header takes seconds and gigabytes; ours reads 4 KB."""
    path = os.path.join(folder, "valid_then_3G.pgm")
    with open(path, "wb") as f:
        f.write(b"P5\n64 64\n255\n" + bytes((i * 7) % 256 for i in range(64 * 64)))
        f.truncate(3 << 30)
    return path


def parse_help(text):
    """{flag: type} from CLI11's --help ('' for a flag without a value)."""
    flags = {}
    for line in text.splitlines():
        # "  --n,--N TEXT=...": the first long name, its aliases (the book's spellings), its type.
        m = re.match(r"^\s{2}(?:-\w,)?(--[A-Za-z][\w-]*)(?:,--?[A-Za-z][\w-]*)*(?:\s+([A-Z]+)\b)?", line)
        if m and m.group(1) != "--help":
            flags[m.group(1)] = m.group(2) or ""
    return flags


def range_of(help_text, flag):
    m = re.search(re.escape(flag) + r" INT:INT in \[(-?\d+) - (-?\d+)\]", help_text)
    return (int(m.group(1)), int(m.group(2))) if m else None


def n_limit(help_text):
    m = re.search(r"between (\d+) and (\d+)", help_text)
    return (int(m.group(1)), int(m.group(2))) if m else None


class Case:
    def __init__(self, group, program, args, expect, needs=None, stdout_to=None, absent=()):
        self.group = group      # the class of input, for the summary
        self.program = program  # path
        self.args = args
        self.expect = expect    # 2 (usage), 1 (failed write), 77 (valid, no GPU)
        self.needs = needs      # text the single stderr line must contain (flag or file)
        self.stdout_to = stdout_to
        self.absent = absent    # files that must not exist after the run


# Valid runs of the programs that need no GPU, whose output goes to a full device.
CPU_RUNS = {"corr_cpu": [], "scan_networks": ["--n", "16"], "nbody_cpu_aos": ["--n", "64", "--iters", "1"],
            "reduction_figures": ["--n", "64"], "nbody_figures": ["--n", "64"],
            "correlation_figures": [], "histogram_figures": ["--n", "64K"]}


def cases_for(program, help_text, files, scratch, has_gpu):
    name = os.path.basename(program)
    flags = parse_help(help_text)
    out = []

    def bad(group, args, needs):
        out.append(Case(group, program, args, 2, needs))

    bad("unknown flag or argument", ["--bogus"], "--bogus")
    bad("unknown flag or argument", ["positional"], "positional")
    for flag, kind in flags.items():
        if kind == "":
            bad("value given to a switch", [flag + "=maybe"], flag)
            continue
        bad("missing value", [flag], flag)
        bad("empty value", [flag, ""], flag)
        bad("option given as a value", [flag, "--csv"], flag)
        if flag in SIZE_FLAGS:
            lo_hi = n_limit(help_text) if flag == "--n" else None
            values = ["0", "-1", "1T", "99999999999999999999", "1.5M", "abc", " 1K", "+5",
                      "0x10", "1e6", "1KK", "1" * 5000]
            if flag == "--chunk":
                values = [v for v in values if v not in ("1" * 5000,)]
            if lo_hi:
                values.append(str(lo_hi[1] + 1))
                if lo_hi[0] > 1:
                    values.append(str(lo_hi[0] - 1))
            for v in values:
                bad("size", [flag, v], flag)
        elif flag in INPUT_FLAGS:
            for label, path in files.items():
                if label in ("valid.pgm", "@sparse"):
                    continue
                bad("input file", [flag, path], os.path.basename(path))
        elif flag in OUTPUT_FLAGS:
            extra = {"--image": ["--steps", "1", "--bodies", "64", "--variant", "cpu_aos"]}.get(flag, [])
            bad("output path", [flag, scratch] + extra, flag)
            bad("output path", [flag, os.path.join(scratch, "no", "such", "x.pgm")] + extra, flag)
            bad("output path", [flag, "/proc/hb_cannot_create.pgm"] + extra, flag)
        elif flag in FOLDER_FLAGS:
            bad("output path", [flag, os.path.join(scratch, "no_such_folder")], flag)
            bad("output path", [flag, files["valid.pgm"]], flag)
        elif flag == "--page":
            bad("output path", [flag, os.path.join(scratch, "none.md.in"), os.path.join(scratch, "o.md")],
                "none.md.in")
        elif kind == "TEXT":
            bad("unknown name", [flag, "no_such_name"], flag)
        elif kind in ("INT", "UINT"):
            values = ["abc", "0x10", "+1", "1e3", "1.5", "99999999999999999999", "1 2"]
            if kind == "UINT":
                values += ["-1", "18446744073709551616"]
            r = range_of(help_text, flag)
            if r:
                values += [str(r[0] - 1), str(r[1] + 1)]
            for v in values:
                bad("whole number", [flag, v], flag)
        elif kind == "FLOAT":
            for v in ["abc", "nan", "inf", "-inf", "1e400", "0x1p3", "1,5", "."]:
                bad("real number", [flag, v], flag)
        for v in RANGE_CASES.get(flag, []):
            args = [flag, v]
            if flag == "--dt":
                args += ["--variant", "cpu_aos", "--bodies", "64", "--steps", "2", "--iters", "1"]
            bad("range", args, flag)
    if "--variant" in flags:
        bad("range", ["--variant", "99"], "--variant")
    for who, args in COMBINATIONS:
        if who != "*" and who != name:
            continue
        named = [a for a in args if a.startswith("--")]
        if who == "*" and not all(a in flags for a in named):
            continue
        if name == "corr_cpu" and "--padHeight" in args and "--padWidth" in args:
            continue  # the CPU takes images beyond any GPU texture: valid work there
        args = [files["valid.pgm"] if a == "@valid.pgm" else a for a in args]
        args = [os.path.join(scratch, a) if a == "x.pgm" else a for a in args]
        bad("combination", args, None)

    # Failed writes: exit 1, never 0.
    out.append(Case("failed write", program, ["--help"], 1, "standard output", stdout_to="/dev/full"))
    if name in CPU_RUNS:
        out.append(Case("failed write", program, CPU_RUNS[name], 1, "standard output",
                        stdout_to="/dev/full"))
        if name == "corr_cpu":
            for flag in ("--output", "--write-input"):
                out.append(Case("failed write", program, [flag, "/dev/full"], 1, "/dev/full"))
    if name == "nbody" and not has_gpu:
        out.append(Case("failed write", program,
                        ["--variant", "cpu_aos", "--bodies", "64", "--steps", "1", "--iters", "1",
                         "--image-size", "16", "--image", "/dev/full"], 1, "/dev/full"))
    if not has_gpu and name != "corr_cpu":
        # A GPU program that finds no GPU writes nothing.
        for flag in ("--output", "--write-input"):
            if flag in flags:
                target = os.path.join(scratch, name + flag.replace("-", "_") + ".pgm")
                out.append(Case("no file left behind", program, [flag, target], 77, None,
                                absent=(target,)))
        # A small image in a huge file is read as fast as a small file.
        if "--input" in flags:
            out.append(Case("small image, 3 GB file", program, ["--input", files["@sparse"]], 77,
                            None))
    return out


def run(case, timeout):
    stdout = open(case.stdout_to, "wb") if case.stdout_to else subprocess.DEVNULL
    try:
        p = subprocess.run([case.program] + case.args, stdout=stdout, stderr=subprocess.PIPE,
                           timeout=timeout, start_new_session=True)
        code, err = p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        code, err = "hang", (e.stderr or b"").decode("utf-8", "replace")
    finally:
        if case.stdout_to:
            stdout.close()
    name = os.path.basename(case.program)
    problem = None
    lines = [l for l in err.splitlines() if l.strip()]
    if code == "hang":
        problem = "no exit within %d s" % timeout
    elif code != case.expect:
        problem = "exit %s, expected %s" % (code, case.expect)
    elif case.expect in (1, 2):
        if len(lines) != 1:
            problem = "%d lines on stderr, expected one" % len(lines)
        elif not lines[0].startswith(name + ": error: "):
            problem = "the line does not start with '%s: error: '" % name
        elif len(lines[0]) > 400:
            problem = "a %d-character line" % len(lines[0])
        elif case.needs and case.needs not in lines[0]:
            problem = "the line does not name %s" % case.needs
    for path in case.absent:
        if os.path.exists(path):
            problem = (problem + "; " if problem else "") + path + " was left behind"
            os.remove(path)
    return case, code, (lines[0] if lines else ""), problem


def shown(args):
    text = " ".join(repr(a) if (a == "" or " " in a) else a for a in args)
    return text if len(text) < 120 else text[:100] + "...(%d chars)" % len(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--jobs", type=int, default=2 * (os.cpu_count() or 1))
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--program", help="only this program (e.g. corr_cpu)")
    ap.add_argument("--list", action="store_true", help="list the runs, do not run them")
    ap.add_argument("--tsv", help="write every run (program, arguments, exit, verdict) here")
    a = ap.parse_args()

    programs = []
    for folder in sorted(os.listdir(a.build)):
        d = os.path.join(a.build, folder)
        if not os.path.isdir(d) or folder in ("CMakeFiles", "Testing"):
            continue
        for f in sorted(os.listdir(d)):
            p = os.path.join(d, f)
            # Links are the book's names of programs already in the list.
            if (os.path.isfile(p) and not os.path.islink(p) and os.access(p, os.X_OK)
                    and not f.startswith(("test_", "fuzz_"))
                    and not f.endswith((".a", ".so", ".sh", ".cubin"))):
                programs.append(p)
    if a.program:
        programs = [p for p in programs if os.path.basename(p) == a.program]
    if not programs:
        print("bad_inputs: no programs%s in %s (build first)"
              % (" named " + a.program if a.program else "", a.build), file=sys.stderr)
        return 2
    has_device = os.path.join(a.build, "common", "test_common")
    has_gpu = subprocess.run([has_device, "--hb-has-device"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL).returncode == 0
    scratch = tempfile.mkdtemp(prefix="hb_bad_inputs_")
    try:
        files = pgm_files(scratch)
        cases = []
        files["@sparse"] = sparse_file(scratch)
        for p in programs:
            name = os.path.basename(p)
            if name in SPECIAL:
                cases += [Case("unknown flag or argument", p, args, 2, None) for args in SPECIAL[name]]
                continue
            h = subprocess.run([p, "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
            if h.returncode != 0:
                print("bad_inputs: %s --help exits %d" % (name, h.returncode), file=sys.stderr)
                return 1
            cases += cases_for(p, h.stdout.decode(), files, scratch, has_gpu)
        if a.list:
            for c in cases:
                print("%s\t%s %s\texpect %s" % (c.group, os.path.basename(c.program), shown(c.args), c.expect))
            return 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
            results = list(pool.map(lambda c: run(c, a.timeout), cases))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    groups = {}
    for case, code, line, problem in results:
        g = groups.setdefault(case.group, [0, 0])
        g[0] += 1
        g[1] += problem is None
    print("%-28s %7s %7s" % ("class of input", "runs", "as due"))
    for g, (n, ok) in sorted(groups.items()):
        print("%-28s %7d %7d" % (g, n, ok))
    bad_inputs = [r for r in results if r[0].expect == 2]
    refused = sum(1 for r in bad_inputs if r[3] is None)
    hangs = sum(1 for r in results if r[1] == "hang")
    zero_after_failure = sum(1 for r in results if r[0].expect == 1 and r[1] == 0)
    failures = [r for r in results if r[3] is not None]
    print("\n%d programs, %d runs: %d bad inputs, %d refused with exit 2 and one clear line "
          "(%.1f%%); %d hangs; %d exits 0 after a failed write; %d runs not as due"
          % (len(programs), len(results), len(bad_inputs), refused,
             100.0 * refused / max(1, len(bad_inputs)), hangs, zero_after_failure, len(failures)))
    for case, code, line, problem in failures[:60]:
        print("  %s %s: %s  [%s]" % (os.path.basename(case.program), shown(case.args), problem, line[:160]))
    if len(failures) > 60:
        print("  ... and %d more" % (len(failures) - 60))
    if a.tsv:
        with open(a.tsv, "w") as f:
            for case, code, line, problem in results:
                f.write("\t".join([case.group, os.path.basename(case.program), shown(case.args),
                                   str(code), problem or "ok", line.replace("\t", " ")]) + "\n")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
