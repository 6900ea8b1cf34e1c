// An uninterpreted type Ref (its values only compared), a heap `[Ref]int` and a distinct
// null. `store` writes through two references; they alias when the inputs are equal.
type Ref;
const unique null: Ref;
var heap: [Ref]int;

procedure store(p: Ref, q: Ref)
  modifies heap;
{
  heap[p] := 1;
  heap[q] := 2;
}

procedure {:entrypoint} main(p: Ref, q: Ref)
  modifies heap;
{
  assume p != null && q != null;
  call store(p, q);
  assert heap[p] == 1;
}
