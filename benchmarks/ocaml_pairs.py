#!/usr/bin/env python3
"""Times `horef-si verify --max-depth 10` on each BMC-2-syntax/OCaml twin of tests/pairs
(median of 9 runs each) and prints the ratio OCaml / BMC-2 syntax.
Usage: cargo build --release -p horef-si && python3 benchmarks/ocaml_pairs.py"""
import subprocess, time, statistics, sys, pathlib
B = "./target/release/horef-si"
rows = []
for p in sorted(f.stem for f in pathlib.Path("tests/pairs").glob("*.horef")):
    res = {}
    for ext in ["horef", "ml"]:
        ts = []
        for _ in range(9):
            s = time.perf_counter()
            out = subprocess.run([B, "verify", f"tests/pairs/{p}.{ext}", "--max-depth", "10"], capture_output=True, text=True).stdout
            ts.append(time.perf_counter() - s)
        res[ext] = (statistics.median(ts), out.split("\n")[0])
    rows.append((p, res))
    print(f"{p:12} horef {res['horef'][0]*1000:6.1f} ms {res['horef'][1]:8}  ml {res['ml'][0]*1000:6.1f} ms {res['ml'][1]:8}  ratio {res['ml'][0]/res['horef'][0]:.2f}")
