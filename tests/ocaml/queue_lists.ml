(* expect: safe up to 10 *)
(* A FIFO queue as two lists (front, reversed back) in a reference: `push` conses onto
   the back, `pop` takes from the front and reverses the back when the front is empty,
   raising `Empty` on an empty queue. A `while` loop drains the queue; `match ... with
   exception` reads a pop that may fail. *)
(* run: a=3 b=4 depth=10 => value 7 *)
(* run: a=0 b=0 depth=10 => value 0 *)
exception Empty

let rec rev_onto l acc = match l with [] -> acc | x :: r -> rev_onto r (x :: acc)

let queue = ref ([], [])

let push x =
  let (front, back) = !queue in
  queue := (front, x :: back)

let pop () =
  match !queue with
  | ([], []) -> raise Empty
  | (x :: front, back) -> queue := (front, back); x
  | ([], back) ->
    (match rev_onto back [] with
     | x :: front -> queue := (front, []); x
     | [] -> raise Empty)

let main a b =
  push a;
  push b;
  let first = pop () in
  assert (first = a);
  push (a + b);
  let total = ref first in
  let steps = ref 0 in
  while (match pop () with x -> total := !total + x; true | exception Empty -> false) do
    incr steps
  done;
  assert (!steps = 2);
  assert (!total = 2 * (a + b));
  !total - a - b
