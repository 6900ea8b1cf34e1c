(* expect: verified *)
(* Printing as programs do it: `Printf.printf` (also partially applied), `print_endline`
   of `^`, `string_of_int` and `Printf.sprintf`; the printed values are evaluated, right
   to left as OCaml does, and the output is not checked. Also `List.sort_uniq` and
   `Array.sort`, and `failwith` of a built message. *)
(* run: n=2 depth=12 => value skip *)
(* run: n=-3 depth=12 => value skip *)
let checked x =
  assert (x >= -10);
  x

let report label_ok total =
  Printf.printf "report: total=%d ok=%b%!\n" (checked total) label_ok;
  print_endline ("report: " ^ string_of_int total ^ Printf.sprintf " (%d)" (checked (total + 1)))

let lookup k l =
  match List.assoc_opt k l with
  | Some v -> v
  | None -> failwith ("no key " ^ string_of_int k)

let main n =
  let a = [| 3; abs n; 1; abs n |] in
  Array.sort compare a;
  assert (a.(0) <= a.(1) && a.(1) <= a.(2) && a.(2) <= a.(3));
  let distinct = List.sort_uniq compare (Array.to_list a) in
  assert (List.length distinct <= 4 && List.length distinct >= 2);
  List.iter (Printf.printf "item: %d\n") distinct;
  prerr_endline "sorted";
  assert (lookup 1 [ (1, n) ] = n);
  report (n > 0) (List.fold_left ( + ) 0 distinct)
