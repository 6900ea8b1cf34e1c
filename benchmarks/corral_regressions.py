#!/usr/bin/env python3
"""Runs `horef-si verify` on CORRAL's own regression tests and compares with CORRAL's answers.

Usage: cargo build --release -p horef-si &&
       python3 benchmarks/corral_regressions.py DIR [--binary PATH] [--timeout 60] [--csv OUT]

DIR holds CORRAL's test folders as they are in CORRAL's repository (`test/regression`,
`test/fwdbck`, ...; data outside this repository, never committed). A folder with a `Files`
list (CORRAL's `check.pl` format: `dir\\file.bpl b` for "a true bug", `c` for "no bugs") gives
the known answers; every `.bpl` under DIR is run, the ones without an answer too (the bar:
an answer or a clean "unsupported" error, never a panic or a hang).

Each test runs with the bounds of its folder's `config` / `config.txt` (CORRAL's flags, mapped
as docs/boogie.md says): `/recursionBound:N` -> `--recursion-bound N` (CORRAL's default 1
when absent), `/bopt:stackDepthBound:D` and `/maxStaticDepth:D` -> `--stack-depth-bound D`,
`/main:NAME` -> `--entry NAME`; `--max-depth 1000` so that only CORRAL's bounds cut the
search. Flags with no meaning for a sequential answer (`/k:`, `/trackAllVars`, `/noTrace`,
`/cex:`, ...) are ignored and listed; `/concat:F` prepends F as CORRAL does.

One row per file: the outcome (`agree`, `DISAGREE`, `answer` (no known answer),
`unsupported: <construct>`, `error: <first line>` (exit 2 for another reason),
`CRASH` (a panic or an exit code we never give), `TIMEOUT`), CORRAL's answer, ours, the
time; then the totals benchmarks/RESULTS.md records.
"""
import argparse
import csv
import pathlib
import re
import subprocess
import sys
import tempfile
import time

KNOWN_EXITS = {0, 1, 2, 5, 6, 10}


def read_answers(root):
    """Maps each .bpl path to 'b' or 'c' from the Files lists under root."""
    answers = {}
    for files in root.rglob("Files"):
        for line in files.read_text().splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[1] in ("b", "c"):
                rel = parts[0].replace("\\", "/")
                answers[(files.parent / rel).resolve()] = parts[1]
    return answers


def read_flags(folder):
    for name in ("config", "config.txt"):
        f = folder / name
        if f.exists():
            return f.read_text().split()
    return []


def map_flags(flags, folder):
    """CORRAL's flags -> (our arguments, files to prepend, ignored flags)."""
    args, concat, ignored = [], [], []
    recursion = "1"
    for flag in flags:
        m = re.fullmatch(r"/recursionBound:(\d+)", flag)
        if m:
            recursion = m.group(1)
            continue
        m = re.fullmatch(r"/(?:bopt:stackDepthBound|maxStaticDepth):(\d+)", flag)
        if m:
            args += ["--stack-depth-bound", m.group(1)]
            continue
        m = re.fullmatch(r"/main:(\S+)", flag)
        if m:
            args += ["--entry", m.group(1)]
            continue
        m = re.fullmatch(r"/concat:(\S+)", flag)
        if m:
            concat.append(folder / m.group(1))
            continue
        ignored.append(flag)
    return ["--recursion-bound", recursion] + args, concat, ignored


def run_one(binary, path, args, concat, timeout):
    target = path
    tmp = None
    if concat:
        tmp = tempfile.NamedTemporaryFile("w", suffix=".bpl", delete=False)
        for f in concat:
            tmp.write(f.read_text() + "\n")
        tmp.write(path.read_text())
        tmp.close()
        target = pathlib.Path(tmp.name)
    cmd = [binary, "verify", str(target), "--max-depth", "1000", "--timeout", str(timeout)]
    start = time.perf_counter()
    try:
        run = subprocess.run(cmd + args, capture_output=True, text=True, timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return "TIMEOUT", "", time.perf_counter() - start
    finally:
        if tmp is not None:
            pathlib.Path(tmp.name).unlink()
    elapsed = time.perf_counter() - start
    first = (run.stdout.strip().splitlines() or [""])[0]
    err = (run.stderr.strip().splitlines() or ["(no message)"])
    if "panicked" in run.stderr or run.returncode not in KNOWN_EXITS:
        return "CRASH", f"exit {run.returncode}: {err[0]}", elapsed
    if run.returncode == 2:
        text = next((l for l in err if "unsupported" in l), err[0])
        m = re.search(r"unsupported[^:]*: (.*)", text)
        if m:
            return "unsupported", m.group(1).strip(), elapsed
        return "error", err[0], elapsed
    if run.returncode == 5:
        return "TIMEOUT", first, elapsed
    return "answer", first, elapsed


def verdict_letter(first):
    if first.startswith("BUG"):
        return "b"
    if first.startswith("VERIFIED") or first.startswith("SAFE"):
        return "c"
    return "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--binary", default="./target/release/horef-si")
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--csv")
    a = parser.parse_args()
    root = pathlib.Path(a.dir).resolve()
    answers = read_answers(root)
    rows = []
    for path in sorted(root.rglob("*.bpl")):
        args, concat, ignored = map_flags(read_flags(path.parent), path.parent)
        kind, text, secs = run_one(a.binary, path, args, concat, a.timeout)
        expected = answers.get(path.resolve(), "-")
        outcome = kind
        if kind == "answer":
            ours = verdict_letter(text)
            if expected == "-":
                outcome = "answer"
            elif ours == expected:
                outcome = "agree"
            else:
                outcome = "DISAGREE"
        elif kind in ("unsupported", "error"):
            outcome = f"{kind}: {text}"
        rel = path.relative_to(root)
        rows.append((str(rel), expected, outcome, text, f"{secs:.2f}", " ".join(args), " ".join(ignored)))
        print(f"{str(rel):40} {expected:2} {outcome[:70]:70} {text[:50]:50} {secs:6.2f}s", flush=True)
    print()
    with_answer = [r for r in rows if r[1] != "-"]
    def count(rs, pred):
        return sum(1 for r in rs if pred(r))
    print(f"files: {len(rows)}; with CORRAL's answer: {len(with_answer)}")
    for label, rs in (("with an answer", with_answer), ("all files", rows)):
        print(
            f"{label}: agree {count(rs, lambda r: r[2] == 'agree')}, "
            f"DISAGREE {count(rs, lambda r: r[2] == 'DISAGREE')}, "
            f"answered (no known answer) {count(rs, lambda r: r[2] == 'answer')}, "
            f"unsupported {count(rs, lambda r: r[2].startswith('unsupported'))}, "
            f"other error {count(rs, lambda r: r[2].startswith('error'))}, "
            f"CRASH {count(rs, lambda r: r[2] == 'CRASH')}, "
            f"TIMEOUT {count(rs, lambda r: r[2] == 'TIMEOUT')}"
        )
    if a.csv:
        with open(a.csv, "w", newline="") as out:
            w = csv.writer(out)
            w.writerow(["file", "corral", "outcome", "first_line", "seconds", "our_flags", "ignored_corral_flags"])
            w.writerows(rows)
    return 1 if count(rows, lambda r: r[2] in ("CRASH", "TIMEOUT", "DISAGREE")) else 0


if __name__ == "__main__":
    sys.exit(main())
