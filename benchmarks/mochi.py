#!/usr/bin/env python3
"""Tabulates `horef-si verify` on a directory of MoCHi benchmark programs (.ml).

Usage: cargo build --release -p horef-si &&
       python3 benchmarks/mochi.py DIR [--max-depth 15] [--timeout 60] [--csv OUT]
                                       [--verify-args="--proof-wait budget"]

For every `*.ml` under DIR (sorted; a name ending in `-e.ml` is an unsafe program, as in
MoCHi's benchmark), runs `horef-si verify F --max-depth K --timeout T` (plus
`--verify-args`, split on spaces) once and prints one
row: whether the front end accepted it (exit code 2 means refused; the first line of the
message is shown), the verdict, the wall time, and a judgement against the bar of issue 15:
`ok` (unsafe: BUG; safe: anything but BUG), `MISSED` (unsafe, no BUG), `WRONG` (safe, BUG),
`REFUSED`. The programs are data outside the repository (they are never committed); the
totals at the end are the figures benchmarks/RESULTS.md records.
"""
import argparse
import csv
import pathlib
import subprocess
import sys
import time

BINARY = "./target/release/horef-si"


def verify(path, depth, timeout, extra):
    start = time.perf_counter()
    run = subprocess.run(
        [BINARY, "verify", str(path), "--max-depth", str(depth), "--timeout", str(timeout)] + extra,
        capture_output=True,
        text=True,
        timeout=timeout + 30,
    )
    elapsed = time.perf_counter() - start
    first = (run.stdout.strip().splitlines() or [""])[0]
    if run.returncode == 2:
        why = (run.stderr.strip().splitlines() or ["(no message)"])[0]
        return False, "REFUSED: " + why, elapsed
    return True, first, elapsed


def judge(unsafe, accepted, verdict):
    if not accepted:
        return "REFUSED"
    if unsafe:
        return "ok" if verdict == "BUG" else "MISSED"
    return "WRONG" if verdict == "BUG" else "ok"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--max-depth", type=int, default=15)
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--csv")
    parser.add_argument("--verify-args", default="", help="more flags for `verify`")
    args = parser.parse_args()
    files = sorted(pathlib.Path(args.dir).rglob("*.ml"))
    rows = []
    for f in files:
        unsafe = f.name.endswith("-e.ml")
        accepted, verdict, secs = verify(f, args.max_depth, args.timeout, args.verify_args.split())
        j = judge(unsafe, accepted, verdict)
        rows.append((f.relative_to(args.dir), "unsafe" if unsafe else "safe", accepted, verdict, secs, j))
        print(f"{str(rows[-1][0]):36} {rows[-1][1]:6} {verdict[:60]:60} {secs:6.2f} s  {j}", flush=True)
    counts = {}
    for r in rows:
        counts[(r[1], r[5])] = counts.get((r[1], r[5]), 0) + 1
    total = sum(1 for r in rows)
    accepted = sum(1 for r in rows if r[2])
    print(f"\n{total} programs, {accepted} accepted; " + ", ".join(
        f"{kind} {judgement}: {n}" for (kind, judgement), n in sorted(counts.items())))
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            w = csv.writer(out)
            w.writerow(["file", "kind", "accepted", "verdict", "seconds", "judgement"])
            for r in rows:
                w.writerow([r[0], r[1], r[2], r[3], f"{r[4]:.2f}", r[5]])
    bad = [r for r in rows if r[5] in ("WRONG",)]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
