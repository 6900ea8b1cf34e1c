(* expect: safe up to 8 *)
(* A lazy stream: a recursive, parameterised variant whose constructor holds the rest as
   a function `unit -> 'a stream`; `map` builds new suspensions over old ones, `take`
   forces at most three. *)
(* run: n=2 depth=12 => value 6 *)
(* run: n=1 depth=12 => value 2 *)
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
  assert (List.length l <= 3);
  if n >= 2 then assert (sum l = 6);
  sum l
