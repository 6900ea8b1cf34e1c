(* expect: bug within 2 *)
(* As mix_found, but the caught cell is assumed never to be `a`: it is when `n > 3`. *)
(* run: n=4 depth=2 => failure at 14:3 (assert) *)
(* run: n=0 depth=3 => value 1 *)
exception Found of int ref

let rec find p l = match l with [] -> () | c :: rest -> if p !c then raise (Found c) else find p rest

let main n =
  let a = ref n in
  let b = ref (n + 1) in
  let hit = try find (fun v -> v > 3) [a; b]; ref 0 with Found c -> c in
  hit := !hit + 10;
  assert (!a < 14);
  !a + !b
