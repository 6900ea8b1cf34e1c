(* expect: verified *)
(* Fresh set (30 Nov), parity map/filter: keeps only the odd elements of a list while shifting each by an even step, and checks every survivor is still odd. *)
let rec keep_shift step l =
  match l with
  | [] -> []
  | x :: rest when x mod 2 <> 0 -> (x + 2 * step) :: keep_shift step rest
  | _ :: rest -> keep_shift step rest

let main n s =
  if n >= 0 && n < 20 then begin
    let xs = List.init n (fun i -> i * 3 + s) in
    let ys = keep_shift s xs in
    List.iter (fun y -> assert (y mod 2 <> 0)) ys;
    assert (List.length ys <= n)
  end
