(* expect: bug within 1 *)
(* Like exn_same_name (exceptions that share a name), but `main` expects the top-level
   `Step` handler to catch the local `Step` that escapes its scope: that is another
   exception, so `d` is 2 and the assertion fails whenever n > 0. *)
(* run: n=3 depth=10 => failure at 35:17 (assert) *)
(* run: n=-2 depth=10 => value -3 *)
exception Step of int
exception E of int

let first x = try raise (E x) with E y -> y + 1
let catch_top f = try f () with E y -> -y
let second x = try raise (E x) with E y -> y + 2

let twice x =
  let exception Step of int in
  try raise (Step (2 * x)) with Step y -> y

let thrice x =
  let exception Step of int in
  try raise (Step (3 * x)) with Step y -> y

let main n =
  let a = first n in
  let b = second n in
  assert (a = n + 1 && b = n + 2);
  (* the local `E` is not the top-level one: `catch_top` lets it through *)
  let c =
    let exception E of int in
    try catch_top (fun () -> raise (E n)) with E y -> y
  in
  assert (c = n);
  assert (twice n + thrice n = 5 * n);
  (* the local `Step` escapes its scope: the top-level `Step` is another exception *)
  let d = try (let exception Step of int in raise (Step n)) with Step _ -> 1 | _ -> 2 in
  if n > 0 then assert (d = 1);
  a + b + c
