(* expect: bug within 11 *)
(* Run-length encoding whose decoder drops the last element of each run of three or more. *)
(* run: a=1 b=2 c=3 depth=30 => failure at 28:3 (assert) *)
(* run: a=1 b=1 c=1 depth=30 => failure at 28:3 (assert) *)
type run = { value : int; count : int }

let encode l =
  let rec go acc = function
    | [] -> List.rev acc
    | x :: rest ->
      (match acc with
       | { value; count } :: acc' when value = x -> go ({ value; count = count + 1 } :: acc') rest
       | _ -> go ({ value = x; count = 1 } :: acc) rest)
  in
  go [] l

let rec repeat x n = if n <= 0 then [] else x :: repeat x (if n >= 3 then n - 2 else n - 1)

let decode runs = List.concat (List.map (fun r -> repeat r.value r.count) runs)

let rec no_adjacent_equal = function
  | a :: (b :: _ as rest) -> a.value <> b.value && no_adjacent_equal rest
  | _ -> true

let main a b c =
  let input = [a; a; b; c; c; c] in
  let runs = encode input in
  assert (decode runs = input);
  assert (no_adjacent_equal runs);
  assert (List.for_all (fun r -> r.count > 0) runs);
  let total = List.fold_left (fun s r -> s + r.count) 0 runs in
  assert (total = List.length input)
