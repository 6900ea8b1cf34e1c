(* expect: safe up to 8 *)
(* Options: a phone book as an association list looked up with `List.assoc_opt`, a
   hand-written `find_first` returning an option, `List.find_opt`, `List.nth_opt`,
   `Option.value ~default`, `Option.map`, `Option.is_some`, `Option.get` on an option known
   to be `Some`, and an `int option ref` updated by a loop. *)
(* run: k=2 depth=12 => value 20 *)
(* run: k=7 depth=12 => value 0 *)
let book = [(1, 10); (2, 20); (3, 30)]

let rec find_first p l = match l with
  | [] -> None
  | x :: r -> if p x then Some x else find_first p r

let lookup k = List.assoc_opt k book

let main k =
  let v = lookup k in
  (match v with
   | Some n -> assert (n = 10 * k)
   | None -> assert (k < 1 || k > 3));
  let doubled = Option.map (fun n -> 2 * n) v in
  assert (Option.is_some doubled = Option.is_some v);
  let big = find_first (fun (_, n) -> n > 15) book in
  (match big with Some (key, _) -> assert (key = 2) | None -> assert false);
  let found = List.find_opt (fun n -> n = k) [1; 2; 3] in
  assert (found = (if k >= 1 && k <= 3 then Some k else None));
  let third = List.nth_opt [5; 6; 7] 2 in
  assert (Option.get third = 7);
  let last = ref None in
  for i = 1 to 3 do
    if i <= k then last := Some i
  done;
  (match !last with
   | None -> assert (k < 1)
   | Some i -> assert (i = min k 3));
  Option.value v ~default:0
