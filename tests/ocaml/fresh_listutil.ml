(* expect: safe up to 8 *)
(* Grades of students: sorting, partitioning, zipping and unzipping lists. *)
(* run: a=39 b=51 c=50 depth=30 => value skip *)
(* run: a=60 b=0 c=60 depth=30 => value skip *)
let threshold = 50;;

let classify ?(bonus = 0) scores =
  let adjusted = List.map (fun s -> s + bonus) scores in
  List.partition (fun s -> s >= threshold) adjusted

let rank scores =
  let ids = List.init (List.length scores) succ in
  let pairs = List.combine ids scores in
  let sorted = List.sort (fun (_, a) (_, b) -> compare b a) pairs in
  List.split sorted

let best scores =
  match List.nth_opt (snd (rank scores)) 0 with
  | Some s -> s
  | None -> raise_notrace Not_found

let main a b c =
  let scores = [a; b; c] in
  let pass, fail = classify scores in
  assert (List.length pass + List.length fail = 3);
  List.iter (fun s -> assert (s < threshold)) fail;
  let pass2, _ = classify ~bonus:10 scores in
  assert (List.length pass2 >= List.length pass);
  let ids, sorted = rank scores in
  List.iter2 (fun i s -> assert (List.nth scores (i - 1) = s)) ids sorted;
  let top = best scores in
  assert (top = Stdlib.max a (max b c));
  let neg = List.rev_map (fun s -> - s) sorted in
  assert (Option.fold ~none:0 ~some:Fun.id (List.nth_opt neg 0) = - (List.nth sorted 2))
