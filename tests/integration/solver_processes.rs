//! No zombie or orphan solver processes: after sessions end — normally, after an error,
//! after the solver was killed mid-run, after a timeout, and during a panic's unwinding —
//! each solver pid is gone (reaped), neither running nor a zombie. (The other tests of
//! this binary run at the same time and start children of their own, so the test follows
//! its own sessions' pids rather than counting all children.)

use horef_si::solver::{SatResult, Session, SolverConfig, SolverError, SolverKind, Sort};
use std::process::Command;
use std::time::{Duration, Instant};

/// Our children, from /proc: the pids whose parent is this process.
fn children() -> Vec<u32> {
    let me = std::process::id();
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if parent_and_state(pid).is_some_and(|(ppid, _)| ppid == me) {
            pids.push(pid);
        }
    }
    pids
}

/// `(ppid, state)` from /proc/PID/stat (the fields after the parenthesised name).
fn parent_and_state(pid: u32) -> Option<(u32, char)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    Some((ppid, state))
}

/// The pid is neither running as our child nor a zombie of ours.
fn assert_gone(pid: u32) {
    let me = std::process::id();
    if let Some((ppid, state)) = parent_and_state(pid) {
        assert!(
            ppid != me,
            "solver {pid} is still our child (state {state})"
        );
    }
}

fn z3() -> SolverConfig {
    SolverConfig::default()
}

#[test]
fn sessions_leave_no_zombies_or_orphans() {
    let mut pids = Vec::new();

    // Normal end.
    let mut s = Session::start(&z3()).unwrap();
    pids.push(s.pid());
    let x = s.declare_const("x", &Sort::Int).unwrap();
    s.assert(s.terms().gt(x, s.int(3))).unwrap();
    assert_eq!(s.check_assuming(&[]).unwrap(), SatResult::Sat);
    drop(s);

    // Killed mid-run, then dropped.
    let mut s = Session::start(&z3()).unwrap();
    pids.push(s.pid());
    let status = Command::new("kill")
        .args(["-9", &s.pid().to_string()])
        .status();
    assert!(status.unwrap().success());
    assert!(matches!(
        s.check_assuming(&[]),
        Err(SolverError::Crashed { .. })
    ));
    drop(s);

    // Dropped after a timeout.
    let config = SolverConfig {
        deadline: Some(Instant::now() + Duration::from_millis(500)),
        ..z3()
    };
    let mut s = Session::start(&config).unwrap();
    pids.push(s.pid());
    std::thread::sleep(Duration::from_millis(600));
    assert!(matches!(s.check_assuming(&[]), Err(SolverError::Timeout)));
    drop(s);

    // Unwinding through a live session.
    let mut pid_in_panic = 0;
    let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let s = Session::start(&z3()).unwrap();
        pid_in_panic = s.pid();
        panic!("a bug elsewhere while the session is live");
    }));
    assert!(unwound.is_err());
    pids.push(pid_in_panic);

    // Many sessions in a row.
    for _ in 0..5 {
        let s = Session::start(&z3()).unwrap();
        pids.push(s.pid());
    }

    // Every session of this test is gone. (Comparing all our children before and after
    // would count the solvers and `horef-si` runs of the other tests of this binary,
    // which run at the same time.)
    for pid in pids {
        assert_gone(pid);
    }

    // Sanity: the count really sees a live solver.
    let s = Session::start(&SolverConfig {
        kind: SolverKind::Z3,
        ..z3()
    })
    .unwrap();
    assert!(children().contains(&s.pid()));
}
