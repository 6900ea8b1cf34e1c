// The same with distinct references: the write through q leaves p's cell alone.
type Ref;
type Heap = [Ref]int;
const unique null: Ref;
var heap: Heap;

procedure store(p: Ref, q: Ref)
  modifies heap;
  ensures heap[p] == 1 || p == q;
{
  heap[p] := 1;
  heap[q] := 2;
}

procedure {:entrypoint} main(p: Ref, q: Ref)
  modifies heap;
{
  assume p != null && q != null && p != q;
  call store(p, q);
  assert heap[p] == 1 && heap[q] == 2;
}
