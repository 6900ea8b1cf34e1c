#!/usr/bin/env python3
"""Answer time of two builds, side by side and interleaved (issue 30's bars for a change to
the proof engines): every (program, K) of ../shared/bmc2-suite/expected.csv with K <= KMAX is
verified with default flags by build A and build B, one right after the other, the order
alternating from pair to pair, so that a loaded machine disturbs both alike. Prints per build
the wrong verdicts, the VERIFIED count, the total time and the pairs slower than
max(1.5x, +0.25 s) of the BMC-2 tool's time; the per-pair times go to /tmp/answer_time_ab.csv.

Usage: python3 benchmarks/answer_time_ab.py A_BINARY B_BINARY [KMAX]   (default KMAX 12;
z3 on PATH)"""
import csv, os, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
suite = os.path.join(root, "..", "shared", "bmc2-suite")
if len(sys.argv) < 3:
    sys.exit(__doc__)
builds = {"A": sys.argv[1], "B": sys.argv[2]}
kmax = int(sys.argv[3]) if len(sys.argv) > 3 else 12
rows = [r for r in csv.DictReader(open(os.path.join(suite, "expected.csv"))) if int(r["k"]) <= kmax]
total = {b: 0.0 for b in builds}
verified = {b: 0 for b in builds}
wrong = {b: 0 for b in builds}
slow = {b: [] for b in builds}
out = open("/tmp/answer_time_ab.csv", "w")
out.write("program,k,bmc2,A,B,verdict_A,verdict_B\n")
for i, r in enumerate(rows):
    f = os.path.join(suite, r["program"] + ".txt")
    if not os.path.exists(f):
        continue
    order = ["A", "B"] if i % 2 == 0 else ["B", "A"]
    t, v = {}, {}
    for b in order:
        start = time.monotonic()
        p = subprocess.run([builds[b], "verify", f, "--max-depth", r["k"], "--timeout", "60"],
                           capture_output=True, text=True)
        t[b] = time.monotonic() - start
        v[b] = (p.stdout.splitlines() or ["?"])[0]
    try:
        bmc2 = float(r["bmc2_seconds"])
    except ValueError:
        bmc2 = None
    for b in builds:
        total[b] += t[b]
        verified[b] += v[b].startswith("VERIFIED")
        wrong[b] += (r["expect"] == "bug") != v[b].startswith("BUG")
        if bmc2 is not None and t[b] > max(1.5 * bmc2, bmc2 + 0.25):
            slow[b].append(f'{r["program"]} K={r["k"]} {t[b]:.2f}s vs {bmc2:.2f}s')
    out.write(f'{r["program"]},{r["k"]},{bmc2},{t["A"]:.3f},{t["B"]:.3f},{v["A"]},{v["B"]}\n')
for b, path in builds.items():
    print(f"{b} ({path}): wrong {wrong[b]}, VERIFIED {verified[b]}, total {total[b]:.1f} s, "
          f"pairs over max(1.5x, +0.25 s) of bmc2: {len(slow[b])}: " + "; ".join(slow[b][:8]))
