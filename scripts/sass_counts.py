#!/usr/bin/env python3
"""Counts the instructions of each kernel in a SASS listing (cuobjdump -sass), by opcode.

    cuobjdump -sass PROGRAM > x.sass; python3 scripts/sass_counts.py x.sass [NAME_SUBSTRING ...]

Prints one line per function whose mangled name contains one of the substrings (all functions
without any): the total, then the opcodes that do the arithmetic and the memory traffic (FFMA,
FADD, FMUL, MUFU, LDS, SHFL, ...), and every other opcode summed as "other". Opcode modifiers
(.FTZ, .RSQ, .128) are dropped.
"""
import collections
import re
import sys

SHOWN = ["FFMA", "FADD", "FMUL", "MUFU", "LDS", "STS", "SHFL", "LDG", "STG", "RED", "ATOMS"]


def functions(text):
    name, out = None, {}
    for line in text.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            name = m.group(1)
            out[name] = collections.Counter()
            continue
        op = re.search(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", line)
        if name and op:
            out[name][op.group(1)] += 1
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    wanted = sys.argv[2:]
    print("function,total," + ",".join(SHOWN) + ",other")
    for name, ops in functions(open(sys.argv[1]).read()).items():
        if wanted and not any(w in name for w in wanted):
            continue
        total = sum(ops.values())
        shown = [ops.get(o, 0) for o in SHOWN]
        print(f"{name},{total}," + ",".join(map(str, shown)) + f",{total - sum(shown)}")


if __name__ == "__main__":
    main()
