(* expect: bug within 3 *)
(* The digit check is off by one: 10 passes as a digit, so a parsed pair can reach 103
   and no message is raised for it. *)
(* run: n=10 depth=30 => failure at 26:3 (assert) *)
(* run: n=3 depth=30 => value skip *)
exception Parse_error of string

let digit c = if c < 0 || c > 10 then invalid_arg "digit" else c

let parse_pair a b = if a = b then failwith "duplicate" else (digit a * 10) + digit b

let safe_parse a b =
  try parse_pair a b with
  | Failure msg ->
      print_endline msg;
      -1
  | Invalid_argument what -> raise (Parse_error what)

let main n =
  let v =
    try safe_parse n 3
    with Parse_error m ->
      print_string m;
      -2
  in
  assert (v = -1 || v = -2 || (v >= 0 && v < 100));
  let w = try (try digit n with Invalid_argument s -> failwith s) with Failure _ -> 0 in
  assert (w >= 0 && w <= 9);
  let u = try safe_parse 1 1 with Failure _ -> 5 in
  assert (u = -1)
