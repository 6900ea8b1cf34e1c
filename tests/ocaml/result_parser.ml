(* expect: safe up to 8 *)
(* Results: a parser step over a list of tokens (a variant with an `int` payload) that
   returns `Ok (value, rest)` or `Error code`, chained by a `bind` on `result`, with
   `Error` propagated unchanged; a parameterised variant `'a checked`; `match` on
   nested constructors (`Ok (n, [])`, `Error 1`). *)
(* run: a=3 b=4 depth=12 => value 7 *)
(* run: a=-1 b=4 depth=12 => value -2 *)
type token = Num of int | Plus | End

type 'a checked = Valid of 'a | Invalid

let number toks = match toks with
  | Num n :: rest -> if n >= 0 then Ok (n, rest) else Error 2
  | _ -> Error 1

let expect_plus toks = match toks with
  | Plus :: rest -> Ok ((), rest)
  | _ -> Error 3

let bind r f = match r with Ok v -> f v | Error e -> Error e

let sum toks =
  bind (number toks) (fun (a, rest) ->
    bind (expect_plus rest) (fun ((), rest) ->
      bind (number rest) (fun (b, rest) ->
        match rest with
        | [End] -> Ok (a + b, [])
        | _ -> Error 4)))

let check r = match r with Ok (n, []) -> Valid n | Ok _ | Error _ -> Invalid

let main a b =
  let r = sum [Num a; Plus; Num b; End] in
  (match r with
   | Ok (s, rest) -> assert (s = a + b && a >= 0 && b >= 0 && rest = [])
   | Error 2 -> assert (a < 0 || b < 0)
   | Error e -> assert false);
  assert (match sum [Num a; Num b] with Ok _ -> false | Error e -> e = 3 || a < 0);
  (match check r with Valid s -> assert (s >= a) | Invalid -> ());
  match r with Ok (s, _) -> s | Error e -> -e
