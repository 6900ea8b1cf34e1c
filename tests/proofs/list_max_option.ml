(* expect: verified *)
(* Fresh set (29 Nov), the maximum of a list as an option; the maximum of base, base + 1,
   ... is at least base. *)
let rec max_opt l = match l with
  | [] -> None
  | x :: r -> (match max_opt r with None -> Some x | Some m -> Some (if x > m then x else m))
let main n base =
  let l = List.init (max n 0) (fun i -> base + i) in
  match max_opt l with
  | None -> assert (n <= 0)
  | Some m -> assert (m >= base)
