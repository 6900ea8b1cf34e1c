(* expect: safe *)
(* Fresh set (30 Nov), exception search: finds the first array slot holding a multiple of k by raising Found with its index, then checks the index is in range and really matches. Not proved yet: the predicate `x mod k = 0` with `k` an input is not linear (Spacer: unknown). *)
exception Found of int

let find_first p a =
  try
    for i = 0 to Array.length a - 1 do
      if p a.(i) then raise (Found i)
    done;
    -1
  with Found i -> i

let main n k =
  if n > 0 && n < 20 && k > 0 then begin
    let a = Array.make n 0 in
    for i = 0 to n - 1 do a.(i) <- i * 7 + 1 done;
    let idx = find_first (fun x -> x mod k = 0) a in
    if idx >= 0 then begin
      assert (idx < n);
      assert (a.(idx) mod k = 0)
    end
  end
