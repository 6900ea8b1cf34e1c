#!/usr/bin/env bash
# The bars of issue 12: each safe program verified at K = 15 (default proof engines), its
# verdict, wall time and which engine proved it. Usage (from the repository root, after
# `cargo build --release`):
#   benchmarks/proofs.sh [K] > table.md
# GENERATED=0 leaves out the generated programs (each may take the full 120 s); EXTRA adds
# flags to every `verify` (issue 30's bar: `EXTRA="--proof-wait 60" benchmarks/proofs.sh`).
# Safe programs: benchmarks/programs/*.horef without `-e`, the shared suite's programs whose
# manifest rows are all `no_bug` (when ../shared/bmc2-suite exists), benchmarks/generated
# safe programs of 400, 1000 and 4000 lines.
set -euo pipefail
cd "$(dirname "$0")/.."
k=${1:-15}
bin=target/release/horef-si
safe_shared() {
    local manifest=../shared/bmc2-suite/expected.csv
    [ -f "$manifest" ] || return 0
    awk -F, 'NR > 1 { if ($3 != "no_bug") bug[$1] = 1; seen[$1] = 1 }
             END { for (p in seen) if (!bug[p]) print p }' "$manifest" | sort |
        sed 's|^|../shared/bmc2-suite/|; s|$|.txt|'
}
programs() {
    ls benchmarks/programs/*.horef | grep -v -- '-e\.horef$'
    safe_shared
    if [ "${GENERATED:-1}" != 0 ]; then
        for n in 400 1000 4000; do echo "benchmarks/generated/gen-$n.horef"; done
    fi
}
echo "| program | verdict at K = $k | seconds | proof |"
echo "|---|---|---:|---|"
verified=0
total=0
for p in $(programs); do
    total=$((total + 1))
    start=$(date +%s.%N)
    json=$(timeout 130 "$bin" verify "$p" --max-depth "$k" --timeout 120 --format json ${EXTRA:-} 2>/dev/null || true)
    end=$(date +%s.%N)
    verdict=$(printf '%s' "$json" | python3 -c 'import json,sys
try: d=json.load(sys.stdin); print(d["verdict"], (d.get("proof") or {}).get("engine","-").replace(" ", "_"))
except Exception: print("no-answer -")')
    set -- $verdict
    [ "$1" = verified ] && verified=$((verified + 1))
    printf '| %s | %s | %.2f | %s |\n' "$(basename "$p")" "$1" "$(echo "$end - $start" | bc)" "$2"
done
echo
echo "$verified of $total VERIFIED at K = $k"
