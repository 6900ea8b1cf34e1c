(* expect: bug *)
(* The failing twin of exn_list_threshold.ml, fresh set (30 Nov), exception search: scans a list with a running index and raises Hit i at the first element above a threshold; the caught index must lie in 0..length-1. *)
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
      scan t 1 xs;
      List.iter (fun x -> assert (x <= t)) xs
    with Hit i -> assert (0 <= i && i < len)
  end
