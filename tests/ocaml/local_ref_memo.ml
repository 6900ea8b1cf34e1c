(* expect: safe up to 8 *)
(* A memo table per wrapped function: a closure in a fresh cell, extended on every miss. *)
(* run: n=4 depth=2 => value skip *)
(* run: n=-2 depth=3 => value skip *)
let memo f =
  let table = ref (fun (y : int) -> (false, 0)) in
  fun x ->
    let (hit, v) = !table x in
    if hit then v
    else begin
      let v = f x in
      let old = !table in
      table := (fun y -> if y = x then (true, v) else old y);
      v
    end

let main n =
  let m = memo (fun x -> x * x) in
  let g = memo (fun x -> x + 1) in
  let a = m n in
  let b = g n in
  let c = m n in
  assert (a = n * n && c = a && b = n + 1)
