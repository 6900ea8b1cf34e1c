(* expect: verified *)
(* Issue 33, a parity a caller passes down: odd numbers shifted by an even step `2 * k`
   through a hand-written map stay odd. The step's parity is assumed at the map's start
   (boogie_like::ir::congruences): every call passes an even step. *)
let odds n = List.init (max n 0) (fun i -> (2 * i) + 1)

let rec shift step l = match l with [] -> [] | x :: r -> (x + step) :: shift step r

let main n k =
  let step = 2 * k in
  let kept = shift step (odds n) in
  let ok = ref true in
  List.iter (fun x -> if x mod 2 = 0 then ok := false) kept;
  assert !ok
