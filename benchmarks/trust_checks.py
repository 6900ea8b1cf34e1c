#!/usr/bin/env python3
"""The trust checks of issue 34, as commands a user would type (its "Bars"): hostile inputs
and flags never crash the tool (no exit 139 or 101, no "panicked"), SIGTERM leaves no solver
behind, `--timeout 1` holds on a 6.8 MB program, every language is read where it is named,
output survives errors. Each check prints PASS or FAIL with what it saw; the exit status is
the number of failures.

Usage: python3 benchmarks/trust_checks.py [BINARY]   (default target/release/horef-si;
z3 on PATH)"""
import os, signal, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
B = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target/release/horef-si")
T = tempfile.mkdtemp(prefix="trust-")
failures = 0


def write(name, text):
    path = os.path.join(T, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def run(args, stdin=None, timeout=120, limit_kb=None):
    pre = None
    if limit_kb:
        import resource
        pre = lambda: resource.setrlimit(resource.RLIMIT_AS, (limit_kb * 1024, limit_kb * 1024))
    started = time.monotonic()
    p = subprocess.run([B] + args, input=stdin, capture_output=True, text=True,
                       timeout=timeout, preexec_fn=pre)
    return p, time.monotonic() - started


def check(name, ok, seen):
    global failures
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else f"\n     saw: {seen}"))
    failures += 0 if ok else 1


def no_crash(name, p):
    crashed = p.returncode in (139, 101, -11, -6) or "panicked" in p.stderr
    check(f"no crash: {name}", not crashed, f"exit {p.returncode}: {p.stderr[-300:]}")


# 1. Operator chains of 10 000 terms in every front end.
for op in ["+", "-", "*", "&&", "||"]:
    term = "b" if op in ("&&", "||") else "n"
    decl = "b: bool" if term == "b" else "n: int"
    cmp = "" if term == "b" else " != 3"
    bpl = write("chain.bpl", f"procedure main({decl})\n{{\n  assert {f' {op} '.join([term] * 10000)}{cmp};\n}}\n")
    for cmd in ["check", "verify"]:
        # A product of 10 000 factors is hard for any solver: the check is that the
        # tool does not crash, so the verification gets 10 s.
        extra = ["--max-depth", "1", "--timeout", "10"] if cmd == "verify" else []
        p, _ = run([cmd, bpl] + extra)
        no_crash(f"{cmd} of a 10 000-term `{op}` chain (Boogie)", p)
horef = write("chain.horef", "Methods:\nMain (n:Int) :Unit:\n  assert (" + " + ".join(["n"] * 10000) + " != 3)\n")
no_crash("check of a 10 000-term chain (HORef)", run(["check", horef])[0])
ml = write("chain.ml", "let main n = assert (" + " + ".join(["n"] * 10000) + " <> 3)\n")
no_crash("check of a 10 000-term chain (OCaml)", run(["check", ml])[0])

# 2. `run` on unbounded recursion under a memory cap.
loop = write("l.horef", "Methods:\nloop (x:Int) :Int = loop x;\nMain (n:Int) :Int: loop n\n")
p, _ = run(["run", loop, "--arg", "n=1", "--max-depth", "1000000"], limit_kb=4_000_000)
no_crash("run on unbounded recursion (ulimit -v 4000000)", p)
check("run on unbounded recursion ends as inconclusive (exit 5)", p.returncode == 5,
      f"exit {p.returncode}: {p.stderr[-200:]}")

# 3. SIGTERM during verify: no solver alive 1 s later.
# Sums of three cubes: nonlinear, hard for the solvers, so they are still at work.
slow = write("slow.horef", "Methods:\ncube (x:Int) :Int = x * x * x;\n"
             "Main (x:Int, y:Int, z:Int) :Unit:\n  assert (cube x + cube y + cube z != 33)\n")
proc = subprocess.Popen([B, "verify", slow, "--max-depth", "5"], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)
time.sleep(2.0)
children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
proc.send_signal(signal.SIGTERM)
proc.wait(timeout=30)
time.sleep(1.0)


def running(pid):
    """Alive and not a zombie (a dead child that PID 1 has not reaped yet, as in containers)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


alive = [c for c in children if running(c)]
check(f"no solver alive 1 s after SIGTERM ({len(children)} were running)", children and not alive,
      f"before: {children}, alive after: {alive}")

# 4. `--timeout 1` on a 6.8 MB program (200 000 methods).
big = write("big.horef", "Methods:\n" + "".join(f"m{i} (x:Int) :Int = x + {i};\n" for i in range(200000))
            + "Main (n:Int) :Unit:\n  assert (m0 n == n)\n")
p, took = run(["verify", big, "--timeout", "1"])
check(f"--timeout 1 on a {os.path.getsize(big) / 1e6:.1f} MB program ends within 3 s ({took:.2f} s)",
      took < 3.0, p.stdout + p.stderr[-200:])
no_crash("check /dev/zero", run(["check", "/dev/zero"])[0])

# 5. Languages: `lower --emit chc` on a .bpl, stdin with --lang.
bpl = write("ok.bpl", "// a comment\nprocedure {:entrypoint} main(n: int)\n{\n  assert n div 2 <= n || n < 0;\n}\n")
p, _ = run(["lower", "--emit", "chc", bpl])
check("lower --emit chc on a .bpl exits 0", p.returncode == 0, f"exit {p.returncode}: {p.stderr[-200:]}")
p, _ = run(["verify", "-", "--lang", "ocaml", "--max-depth", "3"], stdin="let main n = assert (n + 0 = n)\n")
check("verify - --lang ocaml works", p.returncode == 0 and p.stdout.startswith(("VERIFIED", "SAFE")),
      f"exit {p.returncode}: {p.stdout[:100]} {p.stderr[-200:]}")

# 6. Output on errors: JSON on a syntax error; the BUG with an unwritable witness path.
bad = write("bad.horef", "Methods:\nMain (n:Int) :Unit:\n  assert (n ==\n")
p, _ = run(["verify", bad, "--format", "json"])
import json
try:
    doc = json.loads(p.stdout)
    ok = p.returncode == 2 and "error" in json.dumps(doc).lower()
except ValueError:
    ok = False
check("--format json on a syntax error writes a JSON document (exit 2)", ok, f"exit {p.returncode}: {p.stdout[:200]}")
bug = write("bug.horef", "Methods:\nMain (n:Int) :Unit:\n  assert (n != 3)\n")
p, _ = run(["verify", bug, "--witness", "/nonexistent-dir/w.yml"])
check("the BUG verdict is printed with an unwritable witness path", p.stdout.startswith("BUG"),
      f"exit {p.returncode}: {p.stdout[:100]} {p.stderr[-200:]}")

# 7. The BUG location names the file; -q prints the verdict line alone.
p, _ = run(["verify", bug])
check("the BUG location names the file", f"{bug}:3:" in p.stdout, p.stdout[:300])
p, _ = run(["verify", bug, "-q"])
check("-q prints the verdict line alone", p.stdout.strip() == "BUG", repr(p.stdout[:200]))

# 8. Flag checks: consistent exit codes and messages.
p, _ = run(["run", bug, "--arg", "n=1", "--input", "xyz"])
check("a bad --input exits 2 like a bad --arg", p.returncode == 2, f"exit {p.returncode}")
f = write("plain-file", "")
p, _ = run(["verify", bug, "--cache", f])
check("--cache FILE is refused with a message (exit 1)", p.returncode == 1 and "not a directory" in p.stderr,
      f"exit {p.returncode}: {p.stderr[-200:]}")
longname = write("long.horef", "Methods:\nMain (n:Int) :Unit:\n  assert (" + "x" * 1_000_000 + " == 1)\n")
p, _ = run(["check", longname])
check("a 1 MB unknown name is not echoed in full", len(p.stderr) < 10_000 and p.returncode == 2,
      f"exit {p.returncode}, {len(p.stderr)} bytes")

print(f"{failures} failure(s)")
sys.exit(failures)
