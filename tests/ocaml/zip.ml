(* expect: verified *)
(* Matching on a pair of lists. *)
(* run: a=1 b=2 depth=2 => value skip *)
let rec zip l1 l2 = match l1, l2 with
  | [], _ -> []
  | _, [] -> []
  | x :: r, y :: s -> (x + y) :: zip r s
let main a b =
  match zip [a; b] [b] with
  | [s] -> assert (s = a + b)
  | _ -> assert false
