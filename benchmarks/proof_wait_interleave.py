#!/usr/bin/env python3
"""Proofs as a bonus (issue 30), measured interleaved: every (program, K) of
../shared/bmc2-suite/expected.csv with K <= KMAX is verified once per configuration (default
flags; `--proofs none`; `--proofs houdini --proof-wait 0`), the configurations one after the
other before the next pair, so that a loaded machine disturbs them alike. Prints the totals,
the wrong verdicts and the pairs slower than max(1.5x, +0.25 s) of the BMC-2 tool's time; the
per-pair times go to /tmp/proof_wait_interleave.csv.

Usage: python3 benchmarks/proof_wait_interleave.py [KMAX]   (default 12; release binary, or
$HOREF_BIN)"""
import csv, os, subprocess, sys, time
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
suite = os.path.join(root, "..", "shared", "bmc2-suite")
B = os.environ.get("HOREF_BIN", os.path.join(root, "target/release/horef-si"))
kmax = int(sys.argv[1]) if len(sys.argv) > 1 else 12
configs = {"default": [], "none": ["--proofs", "none"], "houdini0": ["--proofs", "houdini", "--proof-wait", "0"]}
rows = [r for r in csv.DictReader(open(os.path.join(suite, "expected.csv"))) if int(r["k"]) <= kmax]
tot = {c: 0.0 for c in configs}; bm = 0.0; worst = []; verified = 0; wrong = 0; slow = 0
out = open("/tmp/proof_wait_interleave.csv", "w"); out.write("program,k,bmc2,default,none,houdini0,verdict\n")
for r in rows:
    f = os.path.join(suite, r["program"] + ".txt")
    if not os.path.exists(f): continue
    t = {}; v = {}
    for c, extra in configs.items():
        s = time.monotonic()
        p = subprocess.run([B, "verify", f, "--max-depth", r["k"], "--timeout", "60"] + extra, capture_output=True, text=True)
        t[c] = time.monotonic() - s; tot[c] += t[c]; v[c] = (p.stdout.splitlines() or ["?"])[0]
    try: b = float(r["bmc2_seconds"])
    except ValueError: b = None
    if b is not None: bm += b
    bug = v["default"].startswith("BUG")
    if (r["expect"] == "bug") != bug: wrong += 1
    if v["default"].startswith("VERIFIED"): verified += 1
    if b is not None and t["default"] > max(1.5 * b, b + 0.25): slow += 1; worst.append((t["default"] / max(b, 1e-3), r["program"], r["k"], t["default"], b))
    out.write(f'{r["program"]},{r["k"]},{b},{t["default"]:.3f},{t["none"]:.3f},{t["houdini0"]:.3f},{v["default"]}\n')
print(f"pairs {len(rows)}  wrong {wrong}  VERIFIED by default {verified}")
print("totals: " + ", ".join(f"{c} {x:.1f} s" for c, x in tot.items()) + f", bmc2 {bm:.1f} s")
print(f"default/none {tot['default']/tot['none']:.2f}x, default/houdini0 {tot['default']/tot['houdini0']:.2f}x, bmc2/default {bm/tot['default']:.1f}x")
print(f"pairs slower than max(1.5x, +0.25 s) of bmc2: {slow}; worst: " + "; ".join(f"{p} K={k} {a:.2f}s vs {b:.2f}s" for _, p, k, a, b in sorted(worst, reverse=True)[:5]))
