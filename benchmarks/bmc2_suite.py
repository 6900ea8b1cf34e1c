#!/usr/bin/env python3
"""Runs `horef-si verify` over the shared BMC-2 suite at K = 1..15 and compares with the
BMC-2 tool's answers in ../shared/bmc2-suite/expected.csv.

Usage: python3 benchmarks/bmc2_suite.py [--mode si|unroll] [--kmax 15] [--timeout 60]
                                         [--binary target/release/horef-si] [--csv OUT]
                                         [--no-summaries]

Prints one line per slow or non-matching run and a summary: how many of the (program, K)
pairs the BMC-2 tool answered we answer correctly and in how much total time, how many of
the pairs it timed out on we answer, and any wrong verdict (there must be none).
Exit status 1 if any verdict is wrong (UNKNOWN is not wrong, it is reported)."""
import argparse, csv, json, os, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
suite = os.path.join(root, "..", "shared", "bmc2-suite")

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="si", choices=["si", "unroll"])
ap.add_argument("--kmax", type=int, default=15)
ap.add_argument("--timeout", default="60")
ap.add_argument("--binary", default=os.path.join(root, "target", "release", "horef-si"))
ap.add_argument("--csv", default=None)
ap.add_argument("--no-summaries", action="store_true", help="pass --no-summaries to verify")
args = ap.parse_args()

rows = list(csv.DictReader(open(os.path.join(suite, "expected.csv"))))
out = []
wrong, unknown = [], []
answered_time = 0.0
answered_pairs = answered_ok = timeout_pairs = timeout_answered = 0
for r in rows:
    k = int(r["k"])
    if k > args.kmax:
        continue
    program = os.path.join(suite, r["program"] + ".txt")
    start = time.time()
    p = subprocess.run([args.binary, "verify", program, "--max-depth", str(k), "--mode", args.mode,
                        "--timeout", args.timeout, "--format", "json"]
                       + (["--no-summaries"] if args.no_summaries else []), capture_output=True, text=True)
    seconds = time.time() - start
    try:
        report = json.loads(p.stdout)
        verdict, reason = report["verdict"], report.get("reason")
        mode_used, calls, inlined = report["stats"]["mode"], report["stats"]["solver_calls"], report["stats"]["inlined"]
    except (ValueError, KeyError):
        verdict, reason = "error", (p.stderr or p.stdout)[-300:]
        mode_used, calls, inlined = "", "", ""
    got = {"bug": "bug", "verified": "no_bug", "safe_up_to_depth": "no_bug"}.get(verdict, "unknown")
    if got not in ("unknown", r["expect"]):
        wrong.append((r["program"], k, r["expect"], verdict))
    if got == "unknown":
        unknown.append((r["program"], k, reason))
    if r["bmc2"] == "timeout":
        timeout_pairs += 1
        timeout_answered += got == r["expect"]
    else:
        answered_pairs += 1
        answered_ok += got == r["expect"]
        answered_time += seconds
    out.append({"program": r["program"], "k": k, "mode": args.mode, "verdict": verdict,
                "mode_used": mode_used, "solver_calls": calls, "inlined": inlined,
                "expect": r["expect"], "seconds": round(seconds, 3), "bmc2": r["bmc2"],
                "bmc2_seconds": r["bmc2_seconds"]})
    if seconds > 5 or got != r["expect"]:
        print(f"{r['program']} k={k}: {verdict} ({seconds:.1f} s){'' if got == r['expect'] else '  expected ' + r['expect']}",
              flush=True)

if args.csv:
    with open(args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(out[0].keys()))
        w.writeheader()
        w.writerows(out)

total = sum(o["seconds"] for o in out)
print(f"mode {args.mode}, K = 1..{args.kmax}, timeout {args.timeout} s")
print(f"pairs the BMC-2 tool answered: {answered_ok}/{answered_pairs} correct, {answered_time:.1f} s in total")
print(f"pairs the BMC-2 tool timed out on: {timeout_answered}/{timeout_pairs} answered")
print(f"all pairs: {len(out)} runs, {total:.1f} s; unknown: {len(unknown)}; wrong: {len(wrong)}")
verdicts = {}
for o in out:
    verdicts[o["verdict"]] = verdicts.get(o["verdict"], 0) + 1
print("verdicts:", ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())))
print("runs that fell back to unrolling:", sum(1 for o in out if o["mode_used"] != o["mode"]))
for w_ in wrong:
    print("WRONG", w_)
sys.exit(1 if wrong else 0)
