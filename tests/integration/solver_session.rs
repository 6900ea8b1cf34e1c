//! The solver session against real solvers (z3 always; cvc5 when it is on PATH — each cvc5
//! test says SKIPPED on stderr when it is not, and fails instead when
//! `HOREF_SI_REQUIRE_CVC5` is set). The watchdog and odd-reply tests use small shell
//! scripts as stand-ins for a hung or garbled solver; everything else talks to the solver.

use horef_si::solver::{
    BatchCommand, CtorDecl, DatatypeDecl, ModelValue, SExpr, SatResult, Session, SolverConfig,
    SolverError, SolverKind, Sort,
};
use num_bigint::BigInt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A generous deadline, so that a solver that gets stuck fails the test instead of hanging it.
const TEST_DEADLINE: Duration = Duration::from_secs(60);

fn config(kind: SolverKind) -> SolverConfig {
    SolverConfig {
        kind,
        deadline: Some(Instant::now() + TEST_DEADLINE),
        ..SolverConfig::default()
    }
}

fn start(kind: SolverKind) -> Session {
    Session::start(&config(kind)).expect("the solver starts")
}

/// cvc5 is optional: `None` (with a clear SKIPPED line) when it is not installed.
fn cvc5() -> Option<Session> {
    match Session::start(&config(SolverKind::Cvc5)) {
        Ok(session) => Some(session),
        Err(e @ SolverError::NotFound { .. }) => {
            assert!(
                std::env::var_os("HOREF_SI_REQUIRE_CVC5").is_none(),
                "cvc5 is required (HOREF_SI_REQUIRE_CVC5) but missing: {e}"
            );
            eprintln!("SKIPPED: cvc5 is not on PATH, this test checked nothing ({e})");
            None
        }
        Err(e) => panic!("cvc5 is installed but does not start: {e}"),
    }
}

fn int(n: i64) -> ModelValue {
    ModelValue::Int(n.into())
}

fn data(ctor: &str, fields: Vec<ModelValue>) -> ModelValue {
    ModelValue::Data {
        ctor: ctor.to_string(),
        fields,
    }
}

fn kill_9(pid: u32) {
    let status = Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

// ---------------------------------------------------------------- bodies shared by solvers

fn sat_and_unsat_with_ints(s: &mut Session) {
    let x = s.declare_const("x", &Sort::Int).unwrap();
    let q = s.declare_const("q", &Sort::Bool).unwrap();
    let t = s.terms();
    let (gt, lt) = (t.gt(x, s.int(10)), t.lt(x, s.int(-7)));
    let two_e24: BigInt = "2000000000000000000000000".parse().unwrap();
    let big = t.eq(t.times(s.int(2), x), s.int(two_e24));
    let imp = t.imp(q, big);
    s.assert(gt).unwrap();
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Sat);
    let values = s.get_values(&[x]).unwrap();
    assert!(values[0].as_int().unwrap() > &BigInt::from(10));
    s.assert(imp).unwrap();
    assert_eq!(s.check_assuming(&[q]).unwrap(), SatResult::Sat);
    let expected = ModelValue::Int("1000000000000000000000000".parse().unwrap());
    assert_eq!(s.get_values(&[x]).unwrap(), [expected]);
    s.assert(lt).unwrap();
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Unsat);
}

/// `IntList` and closures over it, declared together (closures hold lists and closures).
fn declare_lists_and_closures(s: &mut Session) {
    let list = Sort::datatype("IntList");
    let clo = Sort::datatype("Clo");
    let decls = [
        DatatypeDecl::new(
            "IntList",
            vec![
                CtorDecl::new::<&str>("nil", []),
                CtorDecl::new("cons", [("head", Sort::Int), ("tail", list.clone())]),
            ],
        ),
        DatatypeDecl::new(
            "Clo",
            vec![
                CtorDecl::new::<&str>("K_id", []),
                CtorDecl::new(
                    "K_add",
                    [("K_add.n", Sort::Int), ("K_add.next", clo.clone())],
                ),
                CtorDecl::new("K_map", [("K_map.f", clo), ("K_map.l", list)]),
            ],
        ),
    ];
    s.declare_datatypes(&decls).unwrap();
}

fn datatype_model(s: &mut Session) {
    declare_lists_and_closures(s);
    let l = s.declare_const("l", &Sort::datatype("IntList")).unwrap();
    let c = s.declare_const("c", &Sort::datatype("Clo")).unwrap();
    let x = s.declare_const("x", &Sort::Int).unwrap();
    let b = s.declare_const("b", &Sort::Bool).unwrap();
    let big: BigInt = "1000000000000000000000000000000".parse().unwrap();
    // l = cons(-5, cons(10^30, nil)), built with constructors.
    let expected_list = s.ctor(
        "cons",
        &[
            s.int(-5),
            s.ctor("cons", &[s.int(big.clone()), s.ctor("nil", &[])]),
        ],
    );
    let t = s.terms();
    let f = s.field("K_map.f", c);
    let constraints = [
        t.eq(l, expected_list),
        s.is_ctor("K_map", c),
        s.is_ctor("K_add", f),
        t.gt(s.field("K_add.n", f), s.int(7)),
        s.is_ctor("K_id", s.field("K_add.next", f)),
        t.eq(s.field("K_map.l", c), l),
        t.lt(x, s.int(-3)),
    ];
    for constraint in constraints {
        s.assert(constraint).unwrap();
    }
    assert_eq!(s.check_assuming(&[b]).unwrap(), SatResult::Sat);
    let values = s
        .get_values(&[l, c, x, b, s.field("tail", s.field("tail", l))])
        .unwrap();
    let list = data(
        "cons",
        vec![
            int(-5),
            data("cons", vec![ModelValue::Int(big), data("nil", vec![])]),
        ],
    );
    assert_eq!(values[0], list);
    let ModelValue::Data { ctor, fields } = &values[1] else {
        panic!("a closure value: {}", values[1]);
    };
    assert_eq!(ctor, "K_map");
    assert_eq!(fields[1], list);
    let ModelValue::Data { ctor, fields: add } = &fields[0] else {
        panic!("a closure field: {}", fields[0]);
    };
    assert_eq!(ctor, "K_add");
    assert!(add[0].as_int().unwrap() > &BigInt::from(7));
    assert_eq!(add[1], data("K_id", vec![]));
    assert!(values[2].as_int().unwrap() < &BigInt::from(-3));
    assert_eq!(values[3], ModelValue::Bool(true));
    assert_eq!(values[4], data("nil", vec![]));
}

fn incremental_checks(s: &mut Session) {
    let a = s.declare_const("a", &Sort::Bool).unwrap();
    let b = s.declare_const("b", &Sort::Bool).unwrap();
    let x = s.declare_const("x", &Sort::Int).unwrap();
    let t = s.terms();
    let (not_a, not_b) = (t.not(a), t.not(b));
    let a_big = t.imp(a, t.gt(x, s.int(10)));
    let b_small = t.imp(b, t.lt(x, s.int(5)));
    s.assert(a_big).unwrap();
    s.assert(b_small).unwrap();
    s.assert(a_big).unwrap(); // asserted once only
    assert_eq!(s.check_assuming(&[a]).unwrap(), SatResult::Sat);
    assert_eq!(s.check_assuming(&[a, b]).unwrap(), SatResult::Unsat);
    assert_eq!(s.check_assuming(&[b, not_a]).unwrap(), SatResult::Sat);
    assert!(s.get_values(&[x]).unwrap()[0].as_int().unwrap() < &BigInt::from(5));
    assert_eq!(s.check_assuming(&[a, not_b]).unwrap(), SatResult::Sat);
    // A later instance, asserted under its own literal.
    let c = s.declare_const("c", &Sort::Bool).unwrap();
    let t = s.terms();
    let c_mid = t.imp(c, t.and(t.gt(x, s.int(3)), t.lt(x, s.int(12))));
    s.assert(c_mid).unwrap();
    assert_eq!(s.check_assuming(&[a, c]).unwrap(), SatResult::Sat);
    assert_eq!(s.get_values(&[x]).unwrap()[0], int(11));
    assert_eq!(s.check_assuming(&[a, b, c]).unwrap(), SatResult::Unsat);
    assert_eq!(s.stats().checks, 6);
    assert!(s.stats().commands > 6);
    assert!(s.stats().check_time <= s.stats().solver_time);
}

/// x^3 + y^3 = z^3 with positive x, y, z < 10^9: no solution (Fermat), hard for both.
fn assert_fermat_cubes(s: &mut Session) -> SExpr {
    let hard = s.declare_const("hard", &Sort::Bool).unwrap();
    let [x, y, z] = ["x", "y", "z"].map(|n| s.declare_const(n, &Sort::Int).unwrap());
    let t = s.terms();
    let cube = |v| t.times_many([v, v, v]);
    let body = s.and_all([
        t.gt(x, s.int(0)),
        t.gt(y, s.int(0)),
        t.gt(z, s.int(0)),
        t.lt(z, s.int(1_000_000_000)),
        t.eq(t.plus(cube(x), cube(y)), cube(z)),
    ]);
    let imp = t.imp(hard, body);
    s.assert(imp).unwrap();
    hard
}

fn hard_query_times_out(kind: SolverKind) {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("hard.smt2");
    let started = Instant::now();
    let config = SolverConfig {
        kind,
        deadline: Some(started + Duration::from_secs(1)),
        dump: Some(dump.clone()),
        ..SolverConfig::default()
    };
    let mut s = Session::start(&config).unwrap();
    let hard = assert_fermat_cubes(&mut s);
    let result = s.check_assuming(&[hard]);
    let took = started.elapsed();
    assert!(matches!(result, Err(SolverError::Timeout)), "{result:?}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
    // The deadline has passed: every later check is refused at once.
    let again = Instant::now();
    assert!(matches!(s.check_assuming(&[]), Err(SolverError::Timeout)));
    assert!(again.elapsed() < Duration::from_millis(100));
    // It was the solver's own time limit that stopped it, not the watchdog's kill.
    drop(s);
    let text = std::fs::read_to_string(&dump).unwrap();
    assert!(text.contains("(get-info :reason-unknown)"), "{text}");
    assert!(!text.contains("; session ended"), "{text}");
}

// ---------------------------------------------------------------- z3

#[test]
fn z3_sat_and_unsat_with_ints() {
    sat_and_unsat_with_ints(&mut start(SolverKind::Z3));
}

#[test]
fn z3_mutually_recursive_datatypes_and_their_model() {
    datatype_model(&mut start(SolverKind::Z3));
}

#[test]
fn z3_incremental_checks_over_assumptions() {
    incremental_checks(&mut start(SolverKind::Z3));
}

#[test]
fn z3_hard_query_with_a_one_second_deadline_times_out() {
    hard_query_times_out(SolverKind::Z3);
}

#[test]
fn z3_rejects_unknown_names_and_model_queries_without_a_model() {
    let mut s = start(SolverKind::Z3);
    let x = s.declare_const("x", &Sort::Int).unwrap();
    let t = s.terms();
    let undeclared = t.eq(t.plus(x, t.atom("y")), s.int(1));
    let err = s.assert(undeclared).unwrap_err();
    assert!(matches!(err, SolverError::Rejected { .. }), "{err}");
    s.assert(s.bool(false)).unwrap();
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Unsat);
    // easy-smt's own get_value panics on this `(error ...)` reply; we do not.
    let err = s.get_values(&[x]).unwrap_err();
    assert!(matches!(err, SolverError::Rejected { .. }), "{err}");
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Unsat);
}

/// A batch is not awaited: its commands are acknowledged before the next command with a
/// reply of its own, and a rejected one is reported then, naming it.
#[test]
fn z3_batches_are_acknowledged_before_the_next_reply() {
    let mut s = start(SolverKind::Z3);
    let declare = |name: &str| BatchCommand::Declare {
        name: name.to_string(),
        sort: Sort::Int,
    };
    s.batch(&[declare("a"), declare("b")]).unwrap();
    let (a, b) = (s.constant("a"), s.constant("b"));
    let facts = {
        let t = s.terms();
        [t.gt(a, s.int(3)), t.eq(b, t.plus(a, s.int(1)))]
    };
    s.batch(&facts.map(BatchCommand::Assert)).unwrap();
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Sat);
    let values = s.get_values(&[b]).unwrap();
    assert!(values[0].as_int().unwrap() > &BigInt::from(4));

    let batch = {
        let t = s.terms();
        let undeclared = t.eq(t.atom("nowhere"), s.int(1));
        let contradiction = t.lt(b, s.int(0));
        [undeclared, contradiction].map(BatchCommand::Assert)
    };
    s.batch(&batch).unwrap();
    match s.check_assuming(&[]).unwrap_err() {
        SolverError::Rejected { command, .. } => assert!(command.contains("nowhere"), "{command}"),
        other => panic!("expected Rejected, got {other}"),
    }
    // The rest of the batch was taken: the session goes on, with the contradiction.
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Unsat);
}

#[test]
fn z3_odd_names_are_quoted() {
    let mut s = start(SolverKind::Z3);
    let decls = [DatatypeDecl::new(
        "odd sort",
        vec![
            CtorDecl::new::<&str>("let", []),
            CtorDecl::new("1 ctor", [("sel|ector".replace('|', "!"), Sort::Int)]),
        ],
    )];
    s.declare_datatypes(&decls).unwrap();
    let v = s
        .declare_const("v with space", &Sort::datatype("odd sort"))
        .unwrap();
    s.assert(s.is_ctor("1 ctor", v)).unwrap();
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Sat);
    let value = s.get_values(&[v]).unwrap().remove(0);
    // Names may also be given already quoted.
    let pre = s.declare_const("|pre quoted|", &Sort::Int).unwrap();
    assert_eq!(pre, s.constant("pre quoted"));
    assert!(
        matches!(&value, ModelValue::Data { ctor, fields } if ctor == "1 ctor" && fields.len() == 1)
    );
}

#[test]
fn a_missing_solver_binary_is_not_found_with_install_advice() {
    let missing = "/nonexistent/horef-si-no-such-solver";
    let err = Session::start_program(&config(SolverKind::Z3), missing).unwrap_err();
    assert!(matches!(err, SolverError::NotFound { .. }), "{err}");
    let message = err.to_string();
    assert!(message.contains(missing), "{message}");
    assert!(message.contains("pip install z3-solver"), "{message}");
    let err = Session::start_program(&config(SolverKind::Cvc5), missing).unwrap_err();
    assert!(err.to_string().contains("apt-get install cvc5"), "{err}");
}

#[test]
fn a_solver_killed_between_checks_is_a_crash_not_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("killed.smt2");
    let config = SolverConfig {
        dump: Some(dump.clone()),
        ..config(SolverKind::Z3)
    };
    let mut s = Session::start(&config).unwrap();
    let x = s.declare_const("x", &Sort::Int).unwrap();
    s.assert(s.terms().gt(x, s.int(0))).unwrap();
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Sat);
    kill_9(s.pid());
    let err = s.check_assuming(&[]).unwrap_err();
    let SolverError::Crashed { detail } = &err else {
        panic!("expected Crashed, got {err:?}");
    };
    assert!(
        detail.contains("signal: 9") || detail.contains("SIGKILL"),
        "{detail}"
    );
    // Dead is dead: later calls fail at once.
    assert!(matches!(
        s.get_values(&[x]),
        Err(SolverError::Crashed { .. })
    ));
    assert!(matches!(
        s.assert(s.bool(true)),
        Err(SolverError::Crashed { .. })
    ));
    drop(s);
    let text = std::fs::read_to_string(&dump).unwrap();
    assert!(text.contains("(assert (> x 0))"), "{text}");
    assert!(text.contains("; session ended"), "{text}");
}

#[test]
fn a_solver_killed_during_a_check_is_a_crash_not_a_verdict() {
    let mut s = start(SolverKind::Z3);
    let hard = assert_fermat_cubes(&mut s);
    let pid = s.pid();
    let killer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        kill_9(pid);
    });
    let started = Instant::now();
    let result = s.check_assuming(&[hard]);
    killer.join().unwrap();
    assert!(
        matches!(result, Err(SolverError::Crashed { .. })),
        "{result:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// Runs `z3 FILE` and returns its check answers.
fn replay_answers(file: &Path) -> Vec<String> {
    let out = Command::new("z3").arg(file).output().expect("z3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let answers = ["sat", "unsat", "unknown"];
    stdout
        .lines()
        .filter(|l| answers.contains(&l.trim()))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn the_dump_replays_with_z3_to_the_same_answers() {
    let dir = tempfile::tempdir().unwrap();
    let dump: PathBuf = dir.path().join("run.smt2");
    std::fs::write(&dump, "old contents are overwritten").unwrap();
    let config = SolverConfig {
        dump: Some(dump.clone()),
        deadline: Some(Instant::now() + Duration::from_secs(60)),
        ..config(SolverKind::Z3)
    };
    let mut s = Session::start(&config).unwrap();
    declare_lists_and_closures(&mut s);
    let l = s.declare_const("l", &Sort::datatype("IntList")).unwrap();
    let a = s.declare_const("a", &Sort::Bool).unwrap();
    let t = s.terms();
    let a_long = t.imp(a, s.is_ctor("cons", l));
    let l_nil = t.eq(l, s.ctor("nil", &[]));
    let not_a = t.not(a);
    s.assert(a_long).unwrap();
    let mut answers = Vec::new();
    for assumptions in [vec![a], vec![not_a], vec![]] {
        answers.push(s.check_assuming(&assumptions).unwrap());
    }
    s.get_values(&[l]).unwrap();
    s.assert(l_nil).unwrap();
    answers.push(s.check_assuming(&[a]).unwrap());
    answers.push(s.check_assuming(&[not_a]).unwrap());
    drop(s);
    let ours: Vec<String> = answers
        .iter()
        .map(|r| match r {
            SatResult::Sat => "sat".to_string(),
            SatResult::Unsat => "unsat".to_string(),
            SatResult::Unknown { .. } => "unknown".to_string(),
        })
        .collect();
    assert_eq!(ours, ["sat", "sat", "sat", "unsat", "sat"]);
    assert_eq!(replay_answers(&dump), ours);
    let text = std::fs::read_to_string(&dump).unwrap();
    assert!(!text.contains("old contents"));
    assert!(text.contains("(set-option :timeout "), "{text}");
    assert!(text.contains("\n; unsat\n"), "{text}");
}

// ---------------------------------------------------------------- stand-ins for broken solvers

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Other tests of this binary spawn solvers from other threads: a child forked while the
    // file was open for writing holds that descriptor until it execs, and executing the
    // script meanwhile fails with ETXTBSY ("text file busy"). Let such children exec first.
    std::thread::sleep(std::time::Duration::from_millis(200));
    path
}

#[test]
fn a_hung_solver_is_killed_by_the_watchdog() {
    let dir = tempfile::tempdir().unwrap();
    let hung = script(dir.path(), "hung-solver", "exec sleep 600");
    let started = Instant::now();
    let config = SolverConfig {
        deadline: Some(started + Duration::from_secs(1)),
        ..config(SolverKind::Z3)
    };
    let result = Session::start_program(&config, &hung);
    assert!(matches!(result, Err(SolverError::Timeout)), "{result:?}");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
}

/// A check the solver does not answer in its usual tuning (a stand-in that hangs on any
/// check once told `smt.case_split`) is raced, after a few seconds, against a second
/// solver in the other tuning, started with the session's commands: its answer is taken,
/// the first solver is killed and reaped, the second's pid is registered, and the session
/// goes on with it.
#[test]
fn a_check_with_no_answer_is_raced_against_the_other_tuning() {
    let dir = tempfile::tempdir().unwrap();
    let tuned = script(
        dir.path(),
        "tuned-solver",
        r#"hang=0
while read -r line; do
  case "$line" in
    *case_split*) hang=1; echo success ;;
    *check-sat*) if [ $hang = 1 ]; then exec sleep 600; else echo sat; fi ;;
    *) echo success ;;
  esac
done"#,
    );
    let registered = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut s = Session::start_program(&config(SolverKind::Z3), &tuned).unwrap();
    let first = s.pid();
    let seen = registered.clone();
    let register = move |pid| seen.lock().unwrap().push(pid);
    s.enable_rescue(&config(SolverKind::Z3), std::sync::Arc::new(register));
    let x = s.declare_const("x", &Sort::Int).unwrap();
    let positive = s.terms().gt(x, s.int(0));
    s.assert(positive).unwrap();
    let started = Instant::now();
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Sat);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    let rescues = registered.lock().unwrap().clone();
    assert_eq!(rescues, [s.pid()]);
    assert_ne!(s.pid(), first);
    assert!(
        !Path::new(&format!("/proc/{first}")).exists(),
        "the first still runs"
    );
    // The session goes on with the rescue, which answers at once.
    let started = Instant::now();
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Sat);
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn odd_replies_are_bad_replies_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let garbled = script(
        dir.path(),
        "garbled-solver",
        r#"while read -r line; do
  case "$line" in
    *check-sat*) echo sat ;;
    *get-value*) echo '((x (/ 1 2)))' ;;
    *assert*) echo ')' ;;
    *) echo success ;;
  esac
done"#,
    );
    let mut s = Session::start_program(&config(SolverKind::Z3), &garbled).unwrap();
    let x = s.declare_const("x", &Sort::Int).unwrap();
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Sat);
    // An unreadable value: the dialogue is still in step, so the session goes on.
    for _ in 0..2 {
        let err = s.get_values(&[x]).unwrap_err();
        assert!(
            matches!(&err, SolverError::BadReply { reply } if reply.contains("(/ 1 2)")),
            "{err}"
        );
    }
    // An unparseable reply: the session ends.
    let err = s.assert(s.bool(true)).unwrap_err();
    assert!(matches!(err, SolverError::BadReply { .. }), "{err}");
    let err = s.check_assuming(&[]).unwrap_err();
    assert!(matches!(err, SolverError::Crashed { .. }), "{err}");
}

/// No deadline, and a short reply wait: the watchdog alone must end each hang.
fn no_deadline(reply_wait: Duration) -> SolverConfig {
    SolverConfig {
        deadline: None,
        reply_wait,
        ..SolverConfig::default()
    }
}

/// The call took at least the wait and at most the wait plus the read guard and slack.
fn assert_took_about(started: Instant, wait: Duration) {
    let took = started.elapsed();
    assert!(
        took >= wait && took < wait + Duration::from_secs(4),
        "{took:?}"
    );
}

#[test]
fn a_solver_that_never_answers_is_stopped_after_the_reply_wait_without_a_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let hung = script(dir.path(), "silent-solver", "exec sleep 600");
    let wait = Duration::from_millis(800);
    let started = Instant::now();
    let err = Session::start_program(&no_deadline(wait), &hung).unwrap_err();
    assert_took_about(started, wait);
    let SolverError::NoReply {
        waited,
        command,
        partial,
    } = &err
    else {
        panic!("expected NoReply, got {err:?}");
    };
    assert_eq!((*waited, partial.as_str()), (wait, ""));
    assert!(command.contains(":print-success"), "{command}");
    let message = err.to_string();
    assert!(
        message.contains("0.8 s") && message.contains("--solver-wait"),
        "{message}"
    );
}

#[test]
fn a_reply_that_stops_midway_is_stopped_after_the_reply_wait_and_the_session_ends() {
    let dir = tempfile::tempdir().unwrap();
    let stalling = script(
        dir.path(),
        "stalling-solver",
        r#"while read -r line; do
  case "$line" in
    *check-sat*) echo sat ;;
    *get-value*) printf '((x 1)
(y
'; exec sleep 600 ;;
    *) echo success ;;
  esac
done"#,
    );
    let wait = Duration::from_millis(800);
    let mut s = Session::start_program(&no_deadline(wait), &stalling).unwrap();
    let x = s.declare_const("x", &Sort::Int).unwrap();
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Sat);
    let started = Instant::now();
    let err = s.get_values(&[x]).unwrap_err();
    assert_took_about(started, wait);
    let SolverError::NoReply {
        command, partial, ..
    } = &err
    else {
        panic!("expected NoReply, got {err:?}");
    };
    assert!(command.starts_with("(get-value"), "{command}");
    assert_eq!(
        partial,
        "((x 1)
(y"
    );
    // The solver was killed: later calls fail at once, quoting why.
    let again = Instant::now();
    let later = s.check_assuming(&[]).unwrap_err();
    assert!(again.elapsed() < Duration::from_millis(200));
    assert!(
        matches!(&later, SolverError::Crashed { detail } if detail.contains("no complete reply")),
        "{later}"
    );
}

#[test]
fn a_solver_printing_endless_garbage_is_stopped_without_a_deadline() {
    let dir = tempfile::tempdir().unwrap();
    // Never closes its parentheses, never stops printing.
    let babbling = script(
        dir.path(),
        "babbling-solver",
        r#"while true; do echo '(((garbage \ "'; sleep 0.01; done"#,
    );
    let wait = Duration::from_millis(800);
    let started = Instant::now();
    let err = Session::start_program(&no_deadline(wait), &babbling).unwrap_err();
    assert_took_about(started, wait);
    assert!(
        matches!(&err, SolverError::NoReply { partial, .. } if partial.starts_with("(((garbage")),
        "{err:?}"
    );
}

#[test]
fn binary_garbage_is_a_bad_reply_not_a_panic_or_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let binary = script(
        dir.path(),
        "binary-solver",
        r#"while read -r line; do printf '\377\376 )( \000\n'; done"#,
    );
    let started = Instant::now();
    let err = Session::start_program(&no_deadline(Duration::from_secs(60)), &binary).unwrap_err();
    assert!(matches!(err, SolverError::BadReply { .. }), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_solver_that_exits_at_once_is_a_crash_with_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let quitter = script(
        dir.path(),
        "quitting-solver",
        "echo 'no licence' >&2; exit 3",
    );
    let err = Session::start_program(&config(SolverKind::Z3), &quitter).unwrap_err();
    let SolverError::Crashed { detail } = &err else {
        panic!("expected Crashed, got {err:?}");
    };
    assert!(detail.contains("exit status: 3"), "{detail}");
    assert!(detail.contains("no licence"), "{detail}");
}

// ---------------------------------------------------------------- cvc5

#[test]
fn cvc5_sat_and_unsat_with_ints() {
    if let Some(mut s) = cvc5() {
        sat_and_unsat_with_ints(&mut s);
    }
}

#[test]
fn cvc5_mutually_recursive_datatypes_and_their_model() {
    if let Some(mut s) = cvc5() {
        datatype_model(&mut s);
    }
}

#[test]
fn cvc5_incremental_checks_over_assumptions() {
    if let Some(mut s) = cvc5() {
        incremental_checks(&mut s);
    }
}

#[test]
fn cvc5_hard_query_with_a_one_second_deadline_times_out() {
    if cvc5().is_some() {
        hard_query_times_out(SolverKind::Cvc5);
    }
}
