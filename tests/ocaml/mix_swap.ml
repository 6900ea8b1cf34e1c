(* expect: verified *)
(* References in pairs: `swap` exchanges the contents of a pair's two cells, which are one
   cell when `n <= 0`. *)
(* run: n=1 depth=1 => value 2 *)
(* run: n=0 depth=1 => value 1 *)
let swap (a, b) = let t = !a in a := !b; b := t

let main n =
  let x = ref 1 in
  let y = ref 2 in
  let p = if n > 0 then (x, y) else (x, x) in
  swap p;
  assert (if n > 0 then !x = 2 && !y = 1 else !x = 1 && !y = 2);
  !x
