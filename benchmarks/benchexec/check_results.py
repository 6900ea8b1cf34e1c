#!/usr/bin/env python3
# This file is part of horef-si (MIT license).
"""Checks a BenchExec result file of horef-si: every task must be correct.

    python3 benchmarks/benchexec/check_results.py RESULTS.xml.bz2

A task is correct when the tool's status agrees with the task's expected verdict
(`true`, or `false(unreach-call)` for an expected `false`); a timeout, unknown or
error is not. Prints one line per task that is not correct, then a summary; exits 0
only when there is at least one task and all are correct.
"""

import bz2
import sys
import xml.etree.ElementTree as ET


def is_correct(status, expected):
    if expected == "true":
        return status == "true"
    if expected == "false":
        return status == "false(unreach-call)"
    return False


def main(path):
    opener = bz2.open if path.endswith(".bz2") else open
    with opener(path, "rt", encoding="utf-8") as f:
        root = ET.parse(f).getroot()
    runs = root.findall("run")
    wrong = []
    for run in runs:
        status = next(
            (c.get("value") for c in run.findall("column") if c.get("title") == "status"),
            None,
        )
        expected = run.get("expectedVerdict")
        if not is_correct(status, expected):
            wrong.append(f"  {run.get('name')}: expected {expected}, got {status}")
    if wrong:
        print("benchexec: tasks that are not correct:\n" + "\n".join(wrong))
    print(f"benchexec: {len(runs) - len(wrong)} of {len(runs)} tasks correct")
    return 0 if runs and not wrong else 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
