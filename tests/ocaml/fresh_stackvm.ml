(* expect: verified *)
(* A tiny stack language run by a while loop over an array of instructions. *)
(* run: x=2 depth=30 => value skip *)
(* run: x=0 depth=30 => value skip *)
type instr = Push of int | Add | Mul | Dup | Swap | Pop | Jz of int | Halt

exception Stack_underflow

let run (prog : instr array) =
  let stack = ref [] in
  let pc = ref 0 in
  let running = ref true in
  let pop () =
    match !stack with
    | x :: rest -> stack := rest; x
    | [] -> raise Stack_underflow
  in
  let push x = stack := x :: !stack in
  while !running && !pc < Array.length prog do
    let ins = prog.(!pc) in
    incr pc;
    begin match ins with
    | Push n -> push n
    | Add -> let b = pop () in let a = pop () in push (a + b)
    | Mul -> let b = pop () in let a = pop () in push (a * b)
    | Dup -> let a = pop () in push a; push a
    | Swap -> let b = pop () in let a = pop () in push b; push a
    | Pop -> ignore (pop ())
    | Jz t -> if pop () = 0 then pc := t
    | Halt -> running := false
    end
  done;
  !stack

let main x =
  let prog = [| Push x; Dup; Mul; Push 1; Add; Halt; Pop |] in
  (match run prog with
   | [r] -> assert (r > 0)
   | _ -> assert false);
  let r2 = try Some (run [| Push x; Jz 3; Push 5; Halt |]) with Stack_underflow -> None in
  match r2 with
  | Some s -> assert (List.length s <= 1)
  | None -> assert false
