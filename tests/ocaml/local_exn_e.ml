(* expect: bug within 5 *)
(* The caller expects the innermost call to catch the escape passed down to it; but each
   call declares a new `Escape`, so the innermost handler lets it through. *)
(* run: n=2 depth=30 => failure at 26:17 (assert) *)
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
  (* call 0 catches the escape *)
  if n > 0 then assert (depth_of 1 (fun () -> ()) = 0);
  (* call 1 returns normally, having caught its own escape, so call 2 returns 0 *)
  assert (depth_of (if n > 0 then 2 else 3) (fun () -> ()) = 0)
