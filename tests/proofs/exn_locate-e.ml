(* expect: bug within 3 *)
(* exn_locate.ml counting positions from 1: the position carried is one too many. *)
exception Found of int

let rec walk key pos l =
  match l with
  | [] -> ()
  | x :: rest -> if x = key then raise (Found pos) else walk key (pos + 1) rest

let scan key l = walk key 1 l

let rec upto a b = if a > b then [] else a :: upto (a + 1) b

let main lo hi key =
  let l = upto lo hi in
  try
    scan key l;
    assert (key < lo || key > hi)
  with Found pos ->
    assert (pos >= 0);
    assert (lo + pos = key)
