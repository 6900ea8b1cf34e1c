#!/usr/bin/env python3
"""Which kinds of Horn systems prove our proof programs (issue 33: which Spacer lanes earn
their share of the cores).

A program's proof work runs one Spacer lane per Horn system and configuration (the exact
clauses, measures only, least and greatest elements, ranges, totals, calling contexts,
cells of maps, known closures specialised, the entry split case by case), 8 to 15 of them
sharing two cores. This script tells, per kind of system, how often it is built and how
often it gives the proof:

- *in the run*: `verify FILE --max-depth 8 --proof-budget B --proof-wait B` with
  `HOREF_TRACE=1` on every safe program of tests/proofs (the first line does not expect
  `bug`, the name has no `-e`), one at a time; the trace names each system's kind
  (`Spacer plan: system KEY is …`) and the lane whose model answered. That lane won a
  race against the others on shared cores, so a kind that is never first may still prove
  a program, only later.
- *alone* (`--alone CPU`): each system written by `--dump-smt` for the programs the run
  did not prove, or proved after `--slow` seconds, given to z3 alone, Spacer with global
  guidance (the configuration of every system but the exact one), with a CPU-time limit
  (`ulimit -t`: the figure holds on a loaded machine).

Usage (from the repository root, after `cargo build --release`, z3 on PATH):
  python3 benchmarks/system_kinds.py [--budget 60] [--alone 30] [--slow 5] [--out DIR] [FILE…]
DIR (default /tmp/system-kinds) keeps the dumps and traces. Prints a Markdown report."""
import argparse, collections, glob, os, re, subprocess, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
BINARY = os.path.join(root, "target", "release", "horef-si")
GLOBAL = "(set-option :fp.spacer.global true)\n"
PLAN = re.compile(r"Spacer plan: system ([0-9a-f]{16}) is (.+)$")
MODEL = re.compile(r"Spacer lane: system ([0-9a-f]{16}), configuration \d+: a model, re-checked")
CASE = re.compile(r"case .*: proved by")


def safe_programs():
    for path in sorted(glob.glob(os.path.join(root, "tests", "proofs", "*"))):
        name = os.path.basename(path)
        if "-e." in name or not name.endswith((".ml", ".bpl", ".horef")):
            continue
        with open(path) as f:
            first = f.readline()
        if "expect: bug" in first:
            continue
        yield path


def in_the_run(path, folder, budget):
    """Verdict, seconds, {key: kind}, the kinds whose model answered, proved case by case."""
    os.makedirs(folder, exist_ok=True)
    depth = "5" if path.endswith(".bpl") else "8"
    args = [BINARY, "verify", path, "--max-depth", depth, "--proof-budget", str(budget),
            "--proof-wait", str(budget), "--dump-smt", os.path.join(folder, "d")]
    start = time.monotonic()
    run = subprocess.run(args, capture_output=True, text=True,
                         env=dict(os.environ, HOREF_TRACE="1"))
    seconds = time.monotonic() - start
    with open(os.path.join(folder, "trace.txt"), "w") as f:
        f.write(run.stderr)
    verdict = run.stdout.split("\n", 1)[0].strip()
    kinds, winners, cases = {}, [], False
    for line in run.stderr.splitlines():
        if m := PLAN.search(line):
            kinds[m.group(1)] = m.group(2)
        elif m := MODEL.search(line):
            winners.append(m.group(1))
        elif CASE.search(line):
            cases = True
    won = [kinds.get(k, "a case's system") for k in winners]
    return verdict, seconds, kinds, won, cases


def alone(path, cpu):
    """z3 on one system, Spacer with global guidance, at most `cpu` s of CPU: sat, unsat or
    nothing, and the seconds it took."""
    with open(path) as f:
        text = f.read()
    script = path + ".global.smt2"
    with open(script, "w") as f:
        f.write(GLOBAL + text)
    start = time.monotonic()
    run = subprocess.run(["bash", "-c", f"ulimit -t {cpu}; exec z3 {script}"],
                         capture_output=True, text=True)
    first = run.stdout.split("\n", 1)[0].strip()
    return (first if first in ("sat", "unsat") else "-"), time.monotonic() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=int, default=60)
    parser.add_argument("--alone", type=int, default=0, help="CPU seconds per system alone")
    parser.add_argument("--slow", type=float, default=5.0)
    parser.add_argument("--out", default="/tmp/system-kinds")
    parser.add_argument("programs", nargs="*", help="these instead of every safe one")
    options = parser.parse_args()
    built = collections.Counter()
    first = collections.Counter()
    rows, followups = [], []
    for path in options.programs or list(safe_programs()):
        name = os.path.basename(path)
        folder = os.path.join(options.out, name)
        verdict, seconds, kinds, won, cases = in_the_run(path, folder, options.budget)
        built.update(set(kinds.values()))
        answer = ("case by case" if cases and not won else ", ".join(sorted(set(won)))) or "-"
        if verdict == "VERIFIED" and answer != "-":
            first[answer] += 1
        rows.append((name, verdict, seconds, len(kinds), answer))
        if verdict != "VERIFIED" or seconds > options.slow:
            followups.append((name, folder, kinds))
    print("## In the run\n")
    print(f"`verify --proof-budget {options.budget} --proof-wait {options.budget}`, "
          "K = 8 (Boogie 5), one program at a time.\n")
    print("| program | verdict | seconds | systems | first model from |")
    print("|---|---|---:|---:|---|")
    for name, verdict, seconds, count, answer in rows:
        print(f"| {name} | {verdict} | {seconds:.2f} | {count} | {answer} |")
    print("\n| kind of system | programs it is built for | programs it proved first |")
    print("|---|---:|---:|")
    for kind, count in built.most_common():
        print(f"| {kind} | {count} | {first.get(kind, 0)} |")
    others = {k: v for k, v in first.items() if k not in built}
    for kind, count in sorted(others.items()):
        print(f"| {kind} | - | {count} |")
    if not options.alone:
        return
    print(f"\n## Alone, at most {options.alone} s of CPU each (z3, Spacer with global guidance)\n")
    print(f"The programs not VERIFIED in the run, or VERIFIED after {options.slow} s.\n")
    print("| program | kind of system | z3 alone | seconds |")
    print("|---|---|---|---:|")
    solved = collections.Counter()
    for name, folder, kinds in followups:
        for key, kind in sorted(kinds.items(), key=lambda kv: kv[1]):
            dumped = os.path.join(folder, f"d.horn-{key}.smt2")
            if not os.path.exists(dumped):
                continue
            answer, seconds = alone(dumped, options.alone)
            solved[kind] += answer == "sat"
            print(f"| {name} | {kind} | {answer} | {seconds:.2f} |")
    print("\n| kind of system | systems solved alone (sat) |")
    print("|---|---:|")
    for kind, count in solved.most_common():
        print(f"| {kind} | {count} |")


if __name__ == "__main__":
    main()
