#!/usr/bin/env python3
"""Times `horef-si verify --max-depth K` on each BMC-2-syntax/OCaml twin (NAME.horef and
NAME.ml side by side) of the given directories (default: tests/pairs and
benchmarks/twins), the median of N runs each, and prints the ratio OCaml / BMC-2 syntax.
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
            res = {}
            for ext in ["horef", "ml"]:
                runs = [timed(twin.with_suffix("." + ext), args.max_depth, extra)
                        for _ in range(args.runs)]
                res[ext] = (statistics.median(t for t, _ in runs), runs[0][1])
            ratio = res["ml"][0] / res["horef"][0]
            print(f"{str(twin.with_suffix('')):28} horef {res['horef'][0] * 1000:8.1f} ms {res['horef'][1]:20}"
                  f"  ml {res['ml'][0] * 1000:8.1f} ms {res['ml'][1]:20}  ratio {ratio:.2f}", flush=True)


if __name__ == "__main__":
    main()
