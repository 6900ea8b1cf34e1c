(* expect: safe up to 6 *)
(* Type abbreviations: of a tuple, of `int`, parameterised, used in annotations, in a
   variant's constructors and in a record's fields. *)
(* run: n=3 depth=30 => value skip *)
(* run: n=-1 depth=30 => value skip *)
type point = int * int

type id = int

type 'a pair = 'a * 'a

type segment = point pair

type shape = Dot of point | Seg of segment

type tagged = { tag : id; at : point }

let swap ((x, y) : point) : point = (y, x)

let first (p : 'a pair) : 'a = fst p

let length = function Dot _ -> 0 | Seg ((x1, _), (x2, _)) -> abs (x2 - x1)

let main (n : id) =
  let p : point = (n, n + 1) in
  let q = swap p in
  assert (first q = n + 1);
  let s : shape = Seg ((0, 0), (n, 1)) in
  assert (length s = abs n);
  let t = { tag = n; at = q } in
  assert (fst t.at = t.tag + 1)
