#!/usr/bin/env python3
"""Times `horef-si verify --max-depth K` on each BMC-2-syntax/OCaml twin (NAME.horef and
NAME.ml side by side) of the given directories (default: tests/pairs and
benchmarks/twins), the median of N runs each (the two syntaxes in alternation), and prints
the ratio OCaml / BMC-2 syntax of the medians and the median of the rounds' ratios.
`--verify-args` passes more options to `verify` (e.g. `--verify-args="--proofs none"`).
Usage: cargo build --release -p horef-si &&
       python3 benchmarks/ocaml_pairs.py [DIR ...] [--runs 9] [--max-depth 10] [--verify-args A]"""
import argparse
import pathlib
import statistics
import subprocess
import time

B = "./target/release/horef-si"


def timed(path, depth, extra):
    start = time.perf_counter()
    run = subprocess.run([B, "verify", str(path), "--max-depth", str(depth), *extra],
                         capture_output=True, text=True)
    if run.returncode not in (0, 10):
        raise SystemExit(f"verify {path} failed (exit {run.returncode}): {run.stderr}")
    return time.perf_counter() - start, (run.stdout.split("\n") or [""])[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dirs", nargs="*", default=["tests/pairs", "benchmarks/twins"])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--max-depth", type=int, default=10)
    parser.add_argument("--verify-args", default="")
    args = parser.parse_args()
    extra = args.verify_args.split()
    for d in args.dirs:
        for twin in sorted(pathlib.Path(d).glob("*.horef")):
            # The two syntaxes run in alternation (round i: one, then the other, the order
            # flipped every round), so a change of the machine's load hits both alike; the
            # paired ratio is the median of the rounds' ratios.
            runs = {"horef": [], "ml": []}
            for i in range(args.runs):
                for ext in (["horef", "ml"] if i % 2 == 0 else ["ml", "horef"]):
                    runs[ext].append(timed(twin.with_suffix("." + ext), args.max_depth, extra))
            res = {ext: (statistics.median(t for t, _ in r), r[0][1]) for ext, r in runs.items()}
            ratio = res["ml"][0] / res["horef"][0]
            paired = statistics.median(m[0] / h[0] for h, m in zip(runs["horef"], runs["ml"]))
            print(f"{str(twin.with_suffix('')):28} horef {res['horef'][0] * 1000:8.1f} ms {res['horef'][1]:20}"
                  f"  ml {res['ml'][0] * 1000:8.1f} ms {res['ml'][1]:20}  ratio {ratio:.2f}"
                  f"  paired {paired:.2f}", flush=True)


if __name__ == "__main__":
    main()
