(* expect: bug within 3 *)
(* random_sum.ml accepting 10 too: the kept sum can exceed 9 per number. *)
let rec collect k kept sum =
  if k <= 0 then (kept, sum)
  else begin
    let x = read_int () in
    let d = Random.int 6 in
    if 0 <= x && x <= 10 && d < 5 then collect (k - 1) (kept + 1) (sum + x)
    else collect (k - 1) kept sum
  end

let main k =
  let (kept, sum) = collect k 0 0 in
  assert (0 <= sum && sum <= 9 * kept)
