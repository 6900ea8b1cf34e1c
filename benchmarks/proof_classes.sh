#!/usr/bin/env bash
# Issue 33's proof-power table: the programs of tests/proofs written for it (Boogie at
# recursion bound 5; OCaml and HORef at K = 8; one class per file-name prefix) with the
# proof engines given 60 s; each program's expectation (its first line, `// expect:` or
# `(* expect: *)`), verdict, wall time and proof engine, then the VERIFIED count of the
# safe ones per class, and of each fresh set (the programs whose header says "Fresh set
# (28 Nov)" or "Fresh set (29 Nov)", written after the others to measure generalisation;
# their unproved ones expect `safe`, so they count by the marker, not the expectation). Usage (from the repository root, after
# `cargo build --release`, z3 on PATH):
#   benchmarks/proof_classes.sh > table.md
#   benchmarks/proof_classes.sh tests/proofs/list_*.ml > table.md   (only these programs)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/horef-si
class() {
    case "$(basename "$1")" in
        array_*) echo "loops over maps" ;;
        goto_*) echo "goto loops" ;;
        search*) echo "search returning an index" ;;
        exn_*) echo "exceptions carrying values" ;;
        list_*) echo "list facts (sum, every element)" ;;
        random_*) echo "random inputs in recursion" ;;
        closure_object_* | closure_stack*) echo "closures stored in tuples and cells" ;;
        closure_*) echo "closures composed or iterated" ;;
        *) echo "invariant checks" ;;
    esac
}
declare -A safe verified
declare -A fresh_safe fresh_verified
echo "| program | class | expected | verdict | seconds | proof |"
echo "|---|---|---|---|---:|---|"
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    files=(tests/proofs/*.bpl tests/proofs/exn_*.ml tests/proofs/list_*.ml
        tests/proofs/list_*.horef tests/proofs/random_*.ml tests/proofs/closure_*.horef
        tests/proofs/closure_*.ml)
fi
for p in "${files[@]}"; do
    c=$(class "$p")
    expect=$(head -1 "$p" | sed 's|^// expect: ||; s|^(\* expect: ||; s| .*||')
    case "$p" in
        *.bpl) bound=(--recursion-bound 5) ;;
        *) bound=(--max-depth 8) ;;
    esac
    start=$(date +%s.%N)
    json=$(timeout 130 "$bin" verify "$p" "${bound[@]}" --proof-budget 60 \
        --proof-wait 60 --timeout 120 --format json 2>/dev/null || true)
    end=$(date +%s.%N)
    answer=$(printf '%s' "$json" | python3 -c 'import json,sys
try: d=json.load(sys.stdin); print(d["verdict"], (d.get("proof") or {}).get("engine","-").replace(" ", "_"))
except Exception: print("no-answer -")')
    set -- $answer
    if [ "$expect" = verified ]; then
        safe[$c]=$((${safe[$c]:-0} + 1))
        [ "$1" = verified ] && verified[$c]=$((${verified[$c]:-0} + 1))
    fi
    fresh=$(grep -o -m1 "Fresh set ([0-9]* [A-Z][a-z]*)" "$p" | sed 's/Fresh set (//; s/)//' || true)
    if [ -n "$fresh" ] && [ "$expect" != bug ]; then
        fresh_safe[$fresh]=$((${fresh_safe[$fresh]:-0} + 1))
        [ "$1" = verified ] && fresh_verified[$fresh]=$((${fresh_verified[$fresh]:-0} + 1))
    fi
    printf '| %s | %s | %s | %s | %.2f | %s |\n' "$(basename "$p")" "$c" "$expect" "$1" \
        "$(echo "$end - $start" | bc)" "$2"
done
echo
echo "| class | safe programs | VERIFIED |"
echo "|---|---:|---:|"
for c in "${!safe[@]}"; do
    echo "| $c | ${safe[$c]} | ${verified[$c]:-0} |"
done | sort
for d in "${!fresh_safe[@]}"; do
    echo "| fresh set ($d), all classes | ${fresh_safe[$d]} | ${fresh_verified[$d]:-0} |"
done | sort
