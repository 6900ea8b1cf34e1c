(* expect: verified *)
(* Fresh set (28 Nov), an index search by an exception carrying the index: a recursive
   walk down a list counts positions and raises `Found pos` at the first element equal
   to the key, two frames below the handler (the walk is called through a helper); the
   handler checks the position is within the list and holds the key.
   Proved since 29 Nov (second session): `upto lo hi` is a range, stated by its first
   element and its count of steps that are not `+1` (`vc::measure`, the ranges
   system), so the position found is `key - lo`. *)
exception Found of int

let rec walk key pos l =
  match l with
  | [] -> ()
  | x :: rest -> if x = key then raise (Found pos) else walk key (pos + 1) rest

let scan key l = walk key 0 l

let rec upto a b = if a > b then [] else a :: upto (a + 1) b

let main lo hi key =
  let l = upto lo hi in
  try
    scan key l;
    assert (key < lo || key > hi)
  with Found pos ->
    assert (pos >= 0);
    assert (lo + pos = key)
