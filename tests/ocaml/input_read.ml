(* expect: verified *)
(* read_int in a loop-like recursion: the count of the positive numbers read is at most k. *)
(* run: k=3 input=5 input=-2 input=7 depth=5 => value skip *)
let rec count k =
  if k <= 0 then 0
  else
    let x = read_int () in
    let c = if x > 0 then 1 else 0 in
    c + count (k - 1)

let main k =
  let c = count k in
  assert (c <= k || k < 0)
