(* expect: bug within 3 *)
(* The handler that re-raises forgets to close the file: the count of open files
   stays up once the callee raises. *)
(* run: n=150 depth=30 => failure at 34:3 (assert) *)
(* run: n=2000 depth=30 => failure at 34:3 (assert) *)
(* run: n=5 depth=30 => value skip *)
exception Timeout of int
exception Cancelled

let open_files = ref 0
let last_error = ref Not_found

let with_file f x =
  incr open_files;
  let r =
    try f x
    with e ->
      last_error := e;
      raise e
  in
  decr open_files;
  r

let slow k = if k > 100 then raise (Timeout k) else if k < 0 then raise Cancelled else k * 2

let retry k =
  try with_file slow k with
  | Timeout t when t > 1000 -> -1
  | _ when k < -50 -> -2
  | Cancelled -> 0

let main n =
  let r = try retry n with Timeout t -> t in
  assert (!open_files = 0);
  assert (r = 2 * n || r = -1 || r = -2 || r = 0 || r = n);
  match !last_error with
  | Timeout t -> assert (t = n && n > 100)
  | Cancelled -> assert (n < 0)
  | _ -> assert (n >= 0 && n <= 100)
