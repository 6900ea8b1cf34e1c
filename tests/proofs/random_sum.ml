(* expect: verified *)
(* Issue 33, inputs inside recursion: a loop reading numbers until it has k of them,
   keeping those within 0..9 (read_int) and counting the draws of a die (Random.int 6);
   the kept sum stays within 9 per number kept. *)
let rec collect k kept sum =
  if k <= 0 then (kept, sum)
  else begin
    let x = read_int () in
    let d = Random.int 6 in
    if 0 <= x && x <= 9 && d < 5 then collect (k - 1) (kept + 1) (sum + x)
    else collect (k - 1) kept sum
  end

let main k =
  let (kept, sum) = collect k 0 0 in
  assert (0 <= kept && (kept <= k || k < 0));
  assert (0 <= sum && sum <= 9 * kept)
