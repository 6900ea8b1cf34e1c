#!/usr/bin/env python3
"""Runs `horef-si verify` over the shared BMC-2 suite at K = 1..15 and compares with the
BMC-2 tool's answers and times in ../shared/bmc2-suite/expected.csv.

Usage: python3 benchmarks/bmc2_suite.py [--mode si|unroll] [--kmax 15] [--timeout 60]
                                         [--binary target/release/horef-si] [--csv OUT]
                                         [--no-summaries] [--repeat N] [--pairs]
                                         [--program NAME ...]

Every (program, K) is one `horef-si verify` process, timed from outside (start-up, parsing
and z3 included), as the BMC-2 tool's `bmc2_seconds` are. With `--repeat N` the whole suite
runs N times over (each round through every pair, so the repeats of one pair are spread
over the run) and a pair's time is the *minimum* of its N times (the least disturbed by
other load on the machine); the median is printed beside it.

Prints one line per slow or non-matching run; with `--pairs`, a table of every pair: our
time (min, median), `bmc2_seconds`, their ratio, and our solver share (`solver_ms /
time_ms` of the run with the minimum time). Then a summary: correct/wrong/unknown, the
total time against the BMC-2 tool's, the worst ratio and how many pairs are slower than
1.5x the BMC-2 tool, and the solver share of the verifier's time over the suite.
Exit status 1 if any verdict is wrong (UNKNOWN is not wrong, it is reported)."""
import argparse, csv, json, os, resource, statistics, subprocess, sys, time

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
ap.add_argument("--proofs", default=None, choices=["houdini", "chc", "both", "none"],
                help="pass --proofs to verify (`none`: the bounded question alone, as the BMC-2 tool answers it)")
ap.add_argument("--repeat", type=int, default=1, help="run the suite N times, keep each pair's minimum")
ap.add_argument("--pairs", action="store_true", help="print every pair against bmc2_seconds")
ap.add_argument("--program", action="append", default=[], help="only these programs")
args = ap.parse_args()

rows = [r for r in csv.DictReader(open(os.path.join(suite, "expected.csv")))
        if int(r["k"]) <= args.kmax and (not args.program or r["program"] in args.program)]


def run_once(r):
    """One verifier process on one pair: (seconds, CPU seconds of the verifier and its
    solvers, report or None, error text)."""
    program = os.path.join(suite, r["program"] + ".txt")
    command = [args.binary, "verify", program, "--max-depth", r["k"], "--mode", args.mode,
               "--timeout", args.timeout, "--format", "json"]
    command += ["--no-summaries"] if args.no_summaries else []
    command += ["--proofs", args.proofs] if args.proofs else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        return seconds, cpu, json.loads(p.stdout), ""
    except ValueError:
        return seconds, cpu, None, (p.stderr or p.stdout)[-300:]


def bmc2_seconds(r):
    """The BMC-2 tool's time; a timeout without a recorded time counts as its 60 s limit."""
    return float(r["bmc2_seconds"]) if r["bmc2_seconds"] else 60.0


runs = {i: [] for i in range(len(rows))}
for _ in range(args.repeat):
    for i, r in enumerate(rows):
        runs[i].append(run_once(r))

out = []
wrong, unknown = [], []
for i, r in enumerate(rows):
    seconds, cpu, report, error = min(runs[i], key=lambda run: run[0])
    min_cpu = min(run[1] for run in runs[i])
    median = statistics.median(run[0] for run in runs[i])
    k = int(r["k"])
    if report is None:
        verdict, reason, stats = "error", error, {}
    else:
        verdict, reason, stats = report["verdict"], report.get("reason"), report["stats"]
    got = {"bug": "bug", "verified": "no_bug", "safe_up_to_depth": "no_bug"}.get(verdict, "unknown")
    if got not in ("unknown", r["expect"]):
        wrong.append((r["program"], k, r["expect"], verdict))
    if got == "unknown":
        unknown.append((r["program"], k, reason))
    bmc2 = bmc2_seconds(r)
    out.append({"program": r["program"], "k": k, "mode": args.mode, "verdict": verdict,
                "mode_used": stats.get("mode", ""), "solver_calls": stats.get("solver_calls", ""),
                "inlined": stats.get("inlined", ""), "expect": r["expect"],
                "seconds": round(seconds, 4), "median_seconds": round(median, 4),
                "cpu_seconds": round(min_cpu, 4),
                "time_ms": stats.get("time_ms", ""), "solver_ms": stats.get("solver_ms", ""),
                "bmc2": r["bmc2"], "bmc2_seconds": r["bmc2_seconds"],
                "ratio": round(seconds / bmc2, 3) if bmc2 > 0 else ""})
    if seconds > 5 or got != r["expect"]:
        print(f"{r['program']} k={k}: {verdict} ({seconds:.1f} s)"
              f"{'' if got == r['expect'] else '  expected ' + r['expect']}", flush=True)

if args.csv:
    with open(args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(out[0].keys()))
        w.writeheader()
        w.writerows(out)


def share(o):
    return o["solver_ms"] / o["time_ms"] if o["time_ms"] else 1.0


if args.pairs:
    print(f"{'program':<12} {'K':>2} {'verdict':<17} {'ours min s':>10} {'median s':>9} "
          f"{'cpu s':>6} {'bmc2 s':>7} {'ratio':>6} {'solver':>7}")
    for o in out:
        print(f"{o['program']:<12} {o['k']:>2} {o['verdict']:<17} {o['seconds']:>10.3f} "
              f"{o['median_seconds']:>9.3f} {o['cpu_seconds']:>6.3f} {bmc2_seconds(o):>7.3f} "
              f"{o['ratio']:>6.2f} {share(o) if o['time_ms'] != '' else 0:>7.0%}")

answered = [o for o in out if o["bmc2"] != "timeout"]
timed_out = [o for o in out if o["bmc2"] == "timeout"]
correct = lambda os_: sum(o["verdict"] in {"bug": ["bug"], "no_bug": ["verified", "safe_up_to_depth"]}[o["expect"]] for o in os_)
ours = sum(o["seconds"] for o in out)
ours_median = sum(o["median_seconds"] for o in out)
ours_cpu = sum(o["cpu_seconds"] for o in out)
cpu_slow = [o for o in out if o["cpu_seconds"] > 1.5 * bmc2_seconds(o)]
theirs = sum(bmc2_seconds(o) for o in out)
worst = max(out, key=lambda o: o["ratio"])
slow = [o for o in out if o["ratio"] > 1.5]
measured = [o for o in out if o["time_ms"] != ""]
time_ms = sum(o["time_ms"] for o in measured)
solver_ms = sum(o["solver_ms"] for o in measured)
lowest = min(measured, key=share)
by_program = {}
for o in measured:
    t, s = by_program.get(o["program"], (0, 0))
    by_program[o["program"]] = (t + o["time_ms"], s + o["solver_ms"])
lowest_program = min(by_program, key=lambda p: by_program[p][1] / max(by_program[p][0], 1))
lp_time, lp_solver = by_program[lowest_program]
print(f"mode {args.mode}, K = 1..{args.kmax}, timeout {args.timeout} s, "
      f"{args.repeat} run(s) per pair (time = minimum)")
print(f"pairs the BMC-2 tool answered: {correct(answered)}/{len(answered)} correct")
print(f"pairs the BMC-2 tool timed out on: {correct(timed_out)}/{len(timed_out)} answered")
print(f"all pairs: {len(out)} runs, {ours:.2f} s (sum of medians {ours_median:.2f} s) against "
      f"the BMC-2 tool's {theirs:.2f} s: {theirs / ours:.1f}x faster; "
      f"unknown: {len(unknown)}; wrong: {len(wrong)}")
print(f"worst ratio: {worst['ratio']:.2f} ({worst['program']} K={worst['k']}: "
      f"{worst['seconds']:.3f} s against {bmc2_seconds(worst):.3f} s); "
      f"pairs slower than 1.5x the BMC-2 tool: {len(slow)}")
print(f"CPU time (verifier + solvers, minimum per pair): {ours_cpu:.2f} s; "
      f"pairs whose CPU time alone exceeds 1.5x the BMC-2 tool's wall time: {len(cpu_slow)}")
print(f"solver share of the verifier's time (solver_ms / time_ms): {solver_ms / max(time_ms, 1):.1%} "
      f"over the suite; lowest program {lowest_program} {lp_solver / max(lp_time, 1):.1%}; "
      f"lowest pair {lowest['program']} K={lowest['k']} {share(lowest):.1%}")
for w in wrong:
    print("WRONG:", w)
sys.exit(1 if wrong else 0)
