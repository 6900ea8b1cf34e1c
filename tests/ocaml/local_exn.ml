(* expect: verified *)
(* Local exceptions (`let exception`): an early exit from `List.iter`, and a recursive
   function whose every call declares its own `Escape` - OCaml makes a new exception at
   each evaluation, so a call's handler never catches an outer call's `Escape`. *)
(* run: n=2 depth=30 => value skip *)
(* run: n=-1 depth=30 => value skip *)
let find_first p l =
  let exception Found of int in
  try
    List.iter (fun x -> if p x then raise (Found x)) l;
    None
  with Found x -> Some x

let rec depth_of k escape =
  let exception Escape of int in
  try
    if k = 0 then escape ()
    else ignore (depth_of (k - 1) (fun () -> raise (Escape k)));
    0
  with Escape j -> j

let main n =
  (match find_first (fun x -> x > n) [ 1; 2; 3 ] with
  | Some x -> assert (x > n && x = max 1 (n + 1))
  | None -> assert (n >= 3));
  (* call 0's handler lets call 1's escape through, to call 1 *)
  assert (depth_of 1 (fun () -> ()) = 1);
  (* call 1 returns normally, having caught its own escape, so call 2 returns 0 *)
  assert (depth_of (if n > 0 then 2 else 3) (fun () -> ()) = 0)
