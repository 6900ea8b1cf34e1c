#!/usr/bin/env python3
# This file is part of horef-si (MIT license).
"""Prints a benchmark definition for share M of N of the tasks of horef-si.xml, for a
cluster job array or a CI matrix (benchmarks/benchexec/README.md):

    python3 benchmarks/benchexec/partition.py M N > benchmarks/benchexec/part-M.xml

The share is the one `horef-si suite benchmarks/programs --partition hash:M/N` runs: the
programs whose file name's 64-bit FNV-1a hash is M-1 modulo N. Shares 1..N together
hold every task exactly once; the result files merge with `table-generator`.
"""

import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent


def fnv1a(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def main(m, n):
    if not 1 <= m <= n:
        sys.exit(f"expected 1 <= M <= N, got {m}/{n}")
    chosen = [
        task.name
        for task in sorted((HERE / "tasks").glob("*.yml"))
        if fnv1a(f"{task.stem}.horef".encode()) % n == m - 1
    ]
    text = (HERE / "horef-si.xml").read_text()
    start = text.index('  <!-- Every program. -->')
    end = text.index("</benchmark>")
    includes = "".join(f"    <include>tasks/{name}</include>\n" for name in chosen)
    part = (
        f'  <tasks name="part-{m}-of-{n}">\n{includes}'
        "    <propertyfile>properties/unreach-call.prp</propertyfile>\n  </tasks>\n"
    )
    print(text[:start] + part + text[end:], end="")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(int(sys.argv[1]), int(sys.argv[2]))
