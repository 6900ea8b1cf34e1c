(* expect: bug within 5 *)
(* As array_ring.ml, but `push` forgets to wrap the index around (no `mod cap`): once
   a pop has moved the head, a push writes past the end of the array and raises
   `Invalid_argument` (n >= 4). *)
(* run: n=3 depth=14 => value 6 *)
(* run: n=5 depth=14 => failure at 16:3 (Invalid_argument) *)
type ring = { data : int array; mutable head : int; mutable size : int }

exception Full

let create n = { data = Array.make n 0; head = 0; size = 0 }

let push r x =
  let cap = Array.length r.data in
  if r.size = cap then raise Full;
  r.data.(r.head + r.size) <- x;
  r.size <- r.size + 1

let pop r =
  if r.size = 0 then None
  else begin
    let x = r.data.(r.head) in
    r.head <- (r.head + 1) mod Array.length r.data;
    r.size <- r.size - 1;
    Some x
  end

let main n =
  let r = create 3 in
  let pushed = ref 0 in
  let popped = ref 0 in
  for i = 1 to n do
    if i mod 3 = 0 then (match pop r with Some x -> popped := !popped + x | None -> ());
    (try push r i; pushed := !pushed + i with Full -> ())
  done;
  let go = ref true in
  while !go do
    match pop r with
    | Some x -> popped := !popped + x
    | None -> go := false
  done;
  assert (r.size = 0);
  assert (!popped = !pushed);
  !popped
