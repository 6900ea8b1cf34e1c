#!/bin/sh
# Seeds the fuzzing corpora from our own programs (run from fuzz/): every HORef program we
# wrote (valid ones and the golden error cases) for the front end, every IR example for the
# IR parser, our .ml programs for the OCaml front end, our .bpl programs for the Boogie one.
# A file's corpus name is its path with `/` as `_`, so none overwrites another.
set -e
mkdir -p corpus/horef_front_end corpus/ir_parser corpus/ocaml_front_end corpus/boogie_front_end
for f in $(find ../tests/programs ../tests/errors ../examples ../benchmarks/programs -name '*.horef'); do
  cp "$f" "corpus/horef_front_end/$(echo "${f#../}" | tr / _)"
done
for f in $(find ../boogie_like/examples -name '*.ir'); do
  cp "$f" "corpus/ir_parser/$(echo "${f#../}" | tr / _)"
done
for f in $(find ../tests/ocaml ../tests/pairs ../benchmarks -name '*.ml' -size -64k); do
  cp "$f" "corpus/ocaml_front_end/$(echo "${f#../}" | tr / _)"
done
for f in $(find ../tests/boogie -name '*.bpl'); do
  cp "$f" "corpus/boogie_front_end/$(echo "${f#../}" | tr / _)"
done
echo "ocaml_front_end: $(ls corpus/ocaml_front_end | wc -l) files, boogie_front_end: $(ls corpus/boogie_front_end | wc -l) files"
echo "horef_front_end: $(ls corpus/horef_front_end | wc -l) files, ir_parser: $(ls corpus/ir_parser | wc -l) files"
