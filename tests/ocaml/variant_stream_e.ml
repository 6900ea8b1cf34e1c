(* expect: bug within 1 *)
(* As variant_stream.ml, but three elements are expected whatever the stream's length:
   for n < 2 the stream `upto 0 n` ends first and `take 3` returns fewer. *)
(* run: n=2 depth=12 => value 6 *)
(* run: n=1 depth=12 => failure at 26:3 (assert) *)
type 'a stream = Nil | Cons of 'a * (unit -> 'a stream)

let rec upto k hi = if k > hi then Nil else Cons (k, fun () -> upto (k + 1) hi)

let rec map f s =
  match s with
  | Nil -> Nil
  | Cons (x, next) -> Cons (f x, fun () -> map f (next ()))

let rec take n s =
  if n <= 0 then []
  else match s with
    | Nil -> []
    | Cons (x, next) -> x :: take (n - 1) (next ())

let rec sum l = match l with [] -> 0 | x :: t -> x + sum t

let main n =
  let s = map (fun x -> 2 * x) (upto 0 n) in
  let l = take 3 s in
  assert (List.length l = 3);
  if n >= 2 then assert (sum l = 6);
  sum l
