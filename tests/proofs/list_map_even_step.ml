(* expect: verified *)
(* Fresh set (29 Nov), List.map doubles each element and adds an even step; List.for_all
   checks every result is even. *)
let main n k =
  let l = List.init (max n 0) (fun i -> i) in
  let doubled = List.map (fun x -> (2 * x) + (2 * k)) l in
  assert (List.for_all (fun x -> x mod 2 = 0) doubled)
