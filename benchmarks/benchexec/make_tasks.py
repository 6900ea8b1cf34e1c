#!/usr/bin/env python3
# This file is part of horef-si (MIT license).
"""Writes one BenchExec task-definition file (format 2.0) per program of
benchmarks/programs into benchmarks/benchexec/tasks/, from the program's header
expectation, at the bound the suite uses for header programs (K = 10):

    (* expect: bug within N *)   N <= K: false at K; N > K: true at K
    (* expect: verified *)       true at K
    (* expect: safe up to M *)   true at min(K, M)

`tests/integration/benchexec_tasks.rs` checks that the files agree with the headers (rerun this
script after adding or changing a program).
"""

import pathlib
import re
import sys

K = 10
HERE = pathlib.Path(__file__).resolve().parent
PROGRAMS = HERE.parent / "programs"
EXPECT = re.compile(r"\(\*\s*expect:\s*(.*?)\s*\*\)")


def expectation(text):
    """(depth, expected verdict) at bound K, or None without an expectation."""
    match = EXPECT.search(text)
    if not match:
        return None
    words = match.group(1).split()
    if words[:2] == ["bug", "within"]:
        return (K, int(words[2]) > K)
    if words == ["verified"]:
        return (K, True)
    if words[:3] == ["safe", "up", "to"]:
        return (min(K, int(words[3])), True)
    sys.exit(f"unknown expectation {match.group(0)}")


def task(program, depth, verdict):
    return (
        "format_version: '2.0'\n"
        f"input_files: '../../programs/{program.name}'\n"
        "properties:\n"
        "  - property_file: ../properties/unreach-call.prp\n"
        f"    expected_verdict: {'true' if verdict else 'false'}\n"
        "options:\n"
        f"  max_depth: {depth}\n"
    )


def main():
    out = HERE / "tasks"
    out.mkdir(exist_ok=True)
    for old in out.glob("*.yml"):
        old.unlink()
    for program in sorted(PROGRAMS.glob("*.horef")):
        found = expectation(program.read_text())
        if found is None:
            sys.exit(f"{program}: no expectation")
        (out / f"{program.stem}.yml").write_text(task(program, *found))
    print(f"wrote {len(list(out.glob('*.yml')))} task files to {out}")


if __name__ == "__main__":
    main()
