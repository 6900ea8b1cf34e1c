(* expect: safe up to 8 *)
(* A queue as two lists whose `pop` returns an option, kept in a record with `mutable`
   fields; a variant of commands carrying records and ints, applied in turn; structural
   `=` on options and on records. *)
(* run: a=3 b=4 depth=12 => value 7 *)
(* run: a=0 b=0 depth=12 => value 0 *)
type queue = { mutable front : int list; mutable back : int list }
type stats = { pushed : int; popped : int }
type command = Push of int | Pop | Report of stats

let create () = { front = []; back = [] }

let push q x = q.back <- x :: q.back

let pop q =
  match q.front with
  | x :: rest -> q.front <- rest; Some x
  | [] ->
    (match List.rev q.back with
     | [] -> None
     | x :: rest -> q.front <- rest; q.back <- []; Some x)

let main a b =
  let q = create () in
  let total = ref 0 in
  let pops = ref 0 in
  let apply c =
    match c with
    | Push x -> push q x
    | Pop ->
      (match pop q with
       | Some x -> total := !total + x; incr pops
       | None -> assert (!pops = 2))
    | Report s -> assert (s = { pushed = 2; popped = !pops }) in
  apply (Push a); apply (Push b); apply Pop;
  apply (Report { pushed = 2; popped = 1 });
  apply Pop; apply Pop;
  assert (pop q = None);
  assert (q.front = [] && q.back = []);
  !total
