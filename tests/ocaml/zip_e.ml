(* expect: bug within 2 *)
(* run: a=1 b=-1 depth=2 => failure at 11:12 (assert) *)
(* run: a=1 b=-1 depth=1 => cut off at depth 1, call at 8:34 *)
(* run: a=1 b=1 depth=2 => value skip *)
let rec zip l1 l2 = match l1, l2 with
  | [], _ -> []
  | _, [] -> []
  | x :: r, y :: s -> (x + y) :: zip r s
let main a b =
  match zip [a; b] [b] with
  | [s] -> assert (s <> 0)
  | _ -> ()
