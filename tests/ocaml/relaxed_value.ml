(* expect: verified *)
(* OCaml's relaxed value restriction: `let ... in v`, `(e; v)` and `if c then v else w`
   (with values `v`, `w`) are nonexpansive, so `g`, `twice` and `sel` are generalised and
   used at two types; `k`'s effect runs once, at start-up. *)
(* run: n=3 depth=2 => value 5 *)
(* run: n=0 depth=2 => value 2 *)
let c = ref 0
let g = let id x = x in id
let k = (incr c; fun x -> x)

let main n =
  let twice = let app f x = f (f x) in app in
  let a = twice (fun x -> x + 1) n in
  let b = twice not true in
  let sel = if n > 0 then (fun x y -> x) else (fun x y -> y) in
  let s1 = sel 1 2 in
  let s2 = sel true false in
  assert (g a = n + 2 && g b);
  assert (k n = n && !c = 1);
  assert (if n > 0 then s1 = 1 && s2 else s1 = 2 && not s2);
  a
