(* expect: safe up to 6 *)
(* Operators defined by the program: a saturating `+!`, `>>=` on options, the binding
   operator `let*` defined with it, and an operator used as a value. *)
(* run: n=5 depth=30 => value skip *)
(* run: n=0 depth=30 => value skip *)
(* run: n=-4 depth=30 => value skip *)
let ( +! ) a b = if a + b > 100 then 100 else a + b

let ( >>= ) o f = match o with None -> None | Some x -> f x

let ( let* ) o f = o >>= f

let ( |>> ) x f = f (f x)

let safe_div a b = if b = 0 then None else Some (a / b)

let main n =
  assert (n < 0 || n +! 200 = 100);
  let r =
    let* q = safe_div 100 n in
    let* s = safe_div q 2 in
    Some (q + s)
  in
  (match r with None -> assert (n = 0) | Some v -> assert (v >= 0 || n < 0));
  assert ((n |>> fun x -> x + 1) = n + 2);
  assert (List.fold_left ( +! ) 0 [ 60; 50; n ] = 100 +! n)
