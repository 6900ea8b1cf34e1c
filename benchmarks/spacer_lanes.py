#!/usr/bin/env python3
"""Which Spacer configuration to run first, and how long the next waits (issue 30).

Collects the Horn systems `verify` starts Spacer on, for every program of the shared
BMC-2 suite, benchmarks/programs and tests/proofs (`--dump-smt`, K = 2, `--proofs chc`),
runs z3 on each system in each of Spacer's configurations with a CPU-time limit (CPU time,
not wall time: the figures hold on a loaded machine), then prints per configuration how
many systems it solves, how many only it solves and its CPU times, and replays the
schedules on one free core: every lane at once (as before `engine/proofs/lanes.rs`) against
the lanes one after the other, best first, each next one started after STAGGER s at the
latest.

Usage: cargo build --release && python3 benchmarks/spacer_lanes.py [--cpu 2] [--out DIR]
(DIR defaults to /tmp/spacer-lanes; its systems are reused if present; z3 on PATH)."""
import argparse, collections, glob, hashlib, json, os, resource, subprocess

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
BINARY = os.path.join(root, "target", "release", "horef-si")
# Spacer's configurations, in the order of src/engine/proofs/chc.rs (CONFIGURATIONS).
CONFIGS = {
    "global": "(set-option :fp.spacer.global true)",
    "noinline": "(set-option :fp.xform.inline_eager false)(set-option :fp.xform.inline_linear false)",
    "default": "",
}


def programs():
    shared = os.path.join(root, "..", "shared", "bmc2-suite")
    yield from sorted(glob.glob(os.path.join(shared, "*.txt")))
    yield from sorted(glob.glob(os.path.join(root, "benchmarks", "programs", "*.horef")))
    for ext in ("horef", "ml"):
        yield from sorted(glob.glob(os.path.join(root, "tests", "proofs", "*." + ext)))


def collect(out):
    for path in programs():
        name = os.path.splitext(os.path.basename(path))[0]
        folder = os.path.join(out, name)
        if os.path.isdir(folder):
            continue
        os.makedirs(folder)
        subprocess.run(
            [BINARY, "verify", path, "--max-depth", "2", "--proofs", "chc", "--proof-wait", "8",
             "--timeout", "20", "-q", "--dump-smt", os.path.join(folder, "dialogue")],
            capture_output=True, timeout=60)


def solve(text, options, cpu):
    script = "/tmp/spacer-lanes-query.smt2"
    with open(script, "w") as f:
        f.write(options + "\n" + text)
    limit = lambda: resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    run = subprocess.run(["z3", script], capture_output=True, text=True, timeout=60 * cpu,
                         preexec_fn=limit)
    spent = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    answer = (run.stdout.split() or ["out-of-cpu"])[0]
    return answer, round(spent, 3)


def measure(out, cpu):
    rows, seen = [], set()
    table = os.path.join(out, "times.jsonl")
    known = {}
    if os.path.exists(table):
        for line in open(table):
            row = json.loads(line)
            known[row["file"]] = row
    with open(table, "a") as log:
        for path in sorted(glob.glob(os.path.join(out, "*", "*.horn-*.smt2"))):
            text = open(path).read()
            digest = hashlib.md5(text.encode()).hexdigest()
            if digest in seen:
                continue
            seen.add(digest)
            if path in known:
                rows.append(known[path])
                continue
            row = {
                "file": path,
                "program": os.path.basename(os.path.dirname(path)),
                # The IR's clauses name relations `P!rel`; the refinement clauses `P.pre`/`P.post`.
                "kind": "ir" if "!rel" in text else "refinement",
                "results": {name: solve(text, opts, cpu) for name, opts in CONFIGS.items()},
            }
            log.write(json.dumps(row) + "\n")
            log.flush()
            rows.append(row)
    return rows


def solved(result):
    return result[0] in ("sat", "unsat")


def summarize(rows):
    for kind in ("ir", "refinement"):
        systems = [r for r in rows if r["kind"] == kind]
        any_solved = [r for r in systems if any(solved(v) for v in r["results"].values())]
        print(f"{kind}: {len(systems)} systems, {len(any_solved)} solved by some configuration")
        for name in CONFIGS:
            times = sorted(r["results"][name][1] for r in any_solved if solved(r["results"][name]))
            alone = [r["program"] for r in any_solved if solved(r["results"][name])
                     and not any(solved(v) for n, v in r["results"].items() if n != name)]
            pick = lambda q: times[int(q * (len(times) - 1))] if times else None
            print(f"  {name:9} solves {len(times):3}, alone {len(alone)} {sorted(set(alone))}, "
                  f"CPU s p50 {pick(.5)} p90 {pick(.9)} max {times[-1] if times else None}")


def replay(lanes, stagger, slots=1, give_up=2.0):
    """Time to the first proof on `slots` free cores: lane r starts when a slot is free (in
    rank order) or at r * stagger; running lanes share the slots; a lane that solves nothing
    stops after `give_up` CPU s. `lanes`: (solves, cpu seconds) in rank order."""
    t, step, started, running = 0.0, 0.001, 0, {}
    left = [cpu if ok else give_up for ok, cpu in lanes]
    while t < 60:
        while started < len(lanes) and (len(running) < slots or t >= started * stagger):
            running[started] = True
            started += 1
        if not running:
            return None if started >= len(lanes) else t
        share = min(1.0, slots / len(running))
        for r in list(running):
            left[r] -= share * step
            if left[r] <= 0:
                del running[r]
                if lanes[r][0]:
                    return t
        t += step
    return None


def schedules(rows, stagger):
    by_program = collections.defaultdict(lambda: {"ir": [], "refinement": []})
    for r in rows:
        by_program[r["program"]][r["kind"]].append(r)

    def lanes(program, order):
        out = []
        for kind, config, nth in order:
            systems = by_program[program][kind]
            if len(systems) > nth:
                result = systems[nth]["results"][config]
                out.append((solved(result), result[1]))
        return out

    # engine/proofs/deferred.rs: every system's first configuration, then every second.
    ranked = [("ir", "global", 0), ("refinement", "global", 0), ("refinement", "global", 1),
              ("ir", "noinline", 0), ("ir", "default", 0)]
    for name, order, gap in (("all lanes at once", ranked, 0.0),
                             (f"one after the other, stagger {stagger} s", ranked, stagger)):
        times = sorted(t for t in (replay(lanes(p, order), gap) for p in by_program) if t is not None)
        if times:
            print(f"{name}: {len(times)} programs proved, time to first proof on one core: "
                  f"sum {sum(times):.2f} s, p50 {times[len(times) // 2]:.3f} s, "
                  f"p90 {times[int(.9 * len(times))]:.3f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu", type=int, default=2, help="CPU seconds per z3 run")
    ap.add_argument("--out", default="/tmp/spacer-lanes")
    ap.add_argument("--stagger", type=float, default=0.2)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    collect(args.out)
    rows = measure(args.out, args.cpu)
    summarize(rows)
    schedules(rows, args.stagger)


if __name__ == "__main__":
    main()
