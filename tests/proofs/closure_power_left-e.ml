(* expect: bug *)
(* A closure built by recursion: `power f n` is f composed with itself n times, built
   from the identity; a second one is built by iterating on the left. Applied to the
   same start, both agree with the arithmetic they stand for. *)
let id x = x

let compose f g = fun x -> f (g x)

let rec power f n = if n <= 0 then id else compose f (power f (n - 1))

let rec power_left f n = if n <= 0 then id else compose (power_left f (n - 1)) f

let main n x =
  if n >= 0 then begin
    assert (power (fun y -> y + 2) n x = x + 2 * n);
    assert (power_left (fun y -> y - 1) n x >= x - 3)
  end
