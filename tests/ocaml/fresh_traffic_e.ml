(* expect: bug within 9 *)
(* A traffic light controller whose Yellow phase lasts longer than its declared duration. *)
(* run: ticks=7 press_at=0 depth=30 => failure at 34:5 (assert) *)
(* run: ticks=3 press_at=0 depth=30 => value skip *)
type light = Red | Yellow | Green

type state = { light : light; timer : int; waiting : bool; cars_passed : int }

let duration = function Red -> 4 | Yellow -> 1 | Green -> 3

let stretch l = if l = Yellow then 2 else duration l

let next_light = function Red -> Green | Green -> Yellow | Yellow -> Red

let step st button =
  let st = if button then { st with waiting = true } else st in
  if st.timer > 1 then
    { st with timer = st.timer - 1;
              cars_passed = (if st.light = Green then st.cars_passed + 1 else st.cars_passed) }
  else begin
    let l = next_light st.light in
    let waiting = if l = Red then false else st.waiting in
    { st with light = l; timer = stretch l; waiting }
  end

let safe_to_cross st = st.light = Red

let main ticks press_at =
  let st = ref { light = Red; timer = duration Red; waiting = false; cars_passed = 0 } in
  let i = ref 0 in
  while !i < ticks do
    st := step !st (!i = press_at);
    let s = !st in
    assert (s.timer >= 1 && s.timer <= duration s.light);
    (match s.light with
     | Green | Yellow -> assert (not (safe_to_cross s))
     | Red -> assert (not s.waiting || s.timer < duration Red));
    incr i
  done;
  assert (!st.cars_passed <= !i)
