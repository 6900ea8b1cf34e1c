(* expect: verified *)
(* A priority queue as a leftist heap; popping everything gives a sorted list. *)
(* run: a=3 b=1 c=2 depth=30 => value skip *)
(* run: a=0 b=0 c=-5 depth=30 => value skip *)
type heap = E | T of int * int * heap * heap

let rank = function E -> 0 | T (r, _, _, _) -> r

let make x a b =
  if rank a >= rank b then T (rank b + 1, x, a, b) else T (rank a + 1, x, b, a)

let rec merge h1 h2 =
  match h1, h2 with
  | E, h | h, E -> h
  | T (_, x, a1, b1), T (_, y, _, _) when x <= y -> make x a1 (merge b1 h2)
  | _, T (_, y, a2, b2) -> make y a2 (merge h1 b2)

let insert x h = merge (T (1, x, E, E)) h

let pop = function
  | E -> None
  | T (_, x, a, b) -> Some (x, merge a b)

let rec drain h acc =
  match pop h with
  | None -> List.rev acc
  | Some (x, h') -> drain h' (x :: acc)

let rec sorted = function
  | [] | [_] -> true
  | x :: (y :: _ as rest) -> x <= y && sorted rest

let main a b c =
  let h = E |> insert a |> insert b |> insert c in
  let l = drain h [] in
  assert (List.length l = 3);
  assert (sorted l);
  match l with
  | m :: _ -> assert (m <= a && m <= b && m <= c)
  | [] -> assert false
