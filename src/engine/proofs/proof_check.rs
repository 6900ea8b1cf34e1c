//! `--check-proof`: a VERIFIED of the search (stratified inlining or unrolling, with
//! Houdini's summaries) is re-checked in a fresh solver before it is printed.
//!
//! Such a proof rests on solver answers: Houdini's last round (each procedure's summary holds
//! of its body, its calls constrained by the summaries: `unsat`) and the driver's last query
//! (no failure with the open call sites constrained by the summaries: `unsat`). The run
//! records its dialogues (`--dump-smt`'s format: commands verbatim, replies as `;` lines);
//! here every dialogue is replayed as one script in a new z3 process, and every answer must
//! be the one the run got. A solver bug of the incremental session (a wrong `unsat` after
//! many pushes and pops, a learned clause that outlived its scope) then shows as a
//! disagreement, and the verdict becomes UNKNOWN instead of VERIFIED.
//!
//! Guarantee: [`recheck`] returns `Ok` only when a fresh z3 gave, for each recorded
//! `check-sat`, the same answer as the run, and at least one `unsat` was re-established.
//! Horn-clause (Spacer) proofs are re-checked clause by clause in [`crate::engine::proofs::chc`] whether or
//! not the flag is given.

use crate::solver::{ScriptOutcome, Sx, run_to_end};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How long the re-check may take, at most, beyond the run's own deadline.
pub const RECHECK_BUDGET: Duration = Duration::from_secs(60);

/// The dialogues of one run to re-check.
#[derive(Clone, Debug, Default)]
pub struct Dialogues {
    pub paths: Vec<PathBuf>,
}

/// What the re-check established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rechecked {
    /// Solver answers compared.
    pub answers: usize,
    /// Of those, `unsat` answers (what the proof rests on).
    pub unsat: usize,
    pub dialogues: usize,
}

impl Rechecked {
    pub fn describe(&self) -> String {
        format!(
            "re-checked: a fresh z3 gave the same {} answer(s) ({} unsat) over {} solver dialogue(s)",
            self.answers, self.unsat, self.dialogues
        )
    }
}

/// A dialogue read back: the script to replay and the answers the run got, in order
/// (`None` for a check the run got no answer to).
#[derive(Debug, PartialEq, Eq)]
struct Recorded {
    script: String,
    answers: Vec<Option<String>>,
}

/// Re-checks every dialogue in a fresh z3; `keep_options` keeps the run's `set-option`s
/// (they are z3's when the run used z3).
pub fn recheck(
    dialogues: &Dialogues,
    keep_options: bool,
    memory_mib: Option<u64>,
) -> Result<Rechecked, String> {
    let mut total = Rechecked {
        answers: 0,
        unsat: 0,
        dialogues: 0,
    };
    for path in &dialogues.paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the recorded dialogue {}: {e}", path.display()))?;
        let recorded =
            read_dialogue(&text, keep_options).map_err(|why| format!("{}: {why}", name(path)))?;
        let answers =
            replay(&recorded.script, memory_mib).map_err(|why| format!("{}: {why}", name(path)))?;
        let checked =
            compare(&recorded.answers, &answers).map_err(|why| format!("{}: {why}", name(path)))?;
        total.answers += checked.0;
        total.unsat += checked.1;
        total.dialogues += 1;
    }
    if total.unsat == 0 {
        return Err("no unsat answer was recorded: nothing the proof rests on was seen".into());
    }
    Ok(total)
}

fn name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Splits a dump into commands and the answers of its checks. Commands that only read
/// (`get-value`, `get-model`, ...) are dropped: they change nothing a later check sees.
fn read_dialogue(text: &str, keep_options: bool) -> Result<Recorded, String> {
    let mut script = String::new();
    let mut answers: Vec<Option<String>> = Vec::new();
    let mut awaiting = false;
    let mut command = String::new();
    let mut depth: i64 = 0;
    for line in text.lines() {
        if command.is_empty() && line.starts_with(';') {
            let reply = line.trim_start_matches(';').trim();
            if awaiting && matches!(reply, "sat" | "unsat" | "unknown") {
                if let Some(last) = answers.last_mut() {
                    *last = Some(reply.to_string());
                }
                awaiting = false;
            }
            continue;
        }
        if command.is_empty() && line.trim().is_empty() {
            continue;
        }
        if !command.is_empty() {
            command.push('\n');
        }
        command.push_str(line);
        depth += paren_balance(line);
        if depth < 0 {
            return Err(format!("unbalanced command: {command}"));
        }
        if depth > 0 {
            continue;
        }
        let head = head_of(&command);
        if head.starts_with("check-sat") {
            answers.push(None);
            awaiting = true;
            script.push_str(&command);
            script.push('\n');
        } else if keeps(&head, &command, keep_options) {
            script.push_str(&command);
            script.push('\n');
        }
        command.clear();
    }
    if depth != 0 {
        return Err("the dialogue ends inside a command".into());
    }
    Ok(Recorded { script, answers })
}

/// Whether a command changes what later checks see (and the fresh solver accepts it).
fn keeps(head: &str, command: &str, keep_options: bool) -> bool {
    match head {
        "get-value" | "get-model" | "get-info" | "get-unsat-core" | "get-assignment" | "echo"
        | "exit" => false,
        "set-option" => keep_options && !command.contains(":print-success"),
        _ => true,
    }
}

/// The command's name: `(check-sat-assuming (a b))` → `check-sat-assuming`.
fn head_of(command: &str) -> String {
    command
        .trim_start()
        .trim_start_matches('(')
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .next()
        .unwrap_or("")
        .to_string()
}

/// Opening minus closing parentheses of a line, outside `|quoted|` symbols and strings.
fn paren_balance(line: &str) -> i64 {
    let (mut balance, mut in_bar, mut in_string) = (0, false, false);
    for c in line.chars() {
        match c {
            '|' if !in_string => in_bar = !in_bar,
            '"' if !in_bar => in_string = !in_string,
            '(' if !in_bar && !in_string => balance += 1,
            ')' if !in_bar && !in_string => balance -= 1,
            _ => {}
        }
    }
    balance
}

/// Runs the script in a fresh z3 and returns its check answers.
fn replay(script: &str, memory_mib: Option<u64>) -> Result<Vec<String>, String> {
    let deadline = Instant::now() + RECHECK_BUDGET;
    let never = AtomicBool::new(false);
    let outcome = run_to_end(script, (deadline, memory_mib), false, &never)
        .ok_or("the re-check was cancelled")?;
    let replies = match outcome {
        ScriptOutcome::Replies(replies) => replies,
        ScriptOutcome::TimedOut => return Err("the fresh solver ran out of time".into()),
        ScriptOutcome::Failed(why) => return Err(format!("the fresh solver failed: {why}")),
    };
    let mut answers = Vec::new();
    for reply in replies {
        match &reply {
            Sx::Atom(a) if matches!(a.as_str(), "sat" | "unsat" | "unknown") => {
                answers.push(a.clone())
            }
            Sx::Atom(a) if a == "success" => {}
            other => return Err(format!("the fresh solver refused a command: {other}")),
        }
    }
    Ok(answers)
}

/// `(answers compared, unsat among them)`, or where the fresh solver disagreed.
fn compare(recorded: &[Option<String>], fresh: &[String]) -> Result<(usize, usize), String> {
    if recorded.len() != fresh.len() {
        return Err(format!(
            "the fresh solver answered {} checks of {}",
            fresh.len(),
            recorded.len()
        ));
    }
    let (mut compared, mut unsat) = (0, 0);
    for (i, (was, now)) in recorded.iter().zip(fresh).enumerate() {
        let Some(was) = was else { continue };
        if was != now {
            return Err(format!(
                "check {} of {}: the run got `{was}`, the fresh solver `{now}`",
                i + 1,
                recorded.len()
            ));
        }
        compared += 1;
        if was == "unsat" {
            unsat += 1;
        }
    }
    Ok((compared, unsat))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = "; horef-si solver dialogue with `z3 -smt2 -in`; replies are the `;` lines
(set-option :print-success true)
; success
(set-option :produce-models true)
; success
(declare-const x Int)
; success
(assert (> x 2))
; success
(check-sat)
; sat
(get-value (x))
; ((x 3))
(push 1)
; success
(assert
  (< x 0))
; success
(check-sat)
; unsat
(pop 1)
; success
";

    #[test]
    fn a_dump_reads_back_as_commands_and_answers() {
        let recorded = read_dialogue(DUMP, true).unwrap();
        assert_eq!(
            recorded.answers,
            vec![Some("sat".to_string()), Some("unsat".to_string())]
        );
        assert!(!recorded.script.contains("print-success"));
        assert!(!recorded.script.contains("get-value"));
        assert!(recorded.script.contains("(assert\n  (< x 0))"));
        assert!(recorded.script.contains(":produce-models"));
        let without = read_dialogue(DUMP, false).unwrap();
        assert!(!without.script.contains("set-option"));
    }

    #[test]
    fn a_check_without_a_recorded_answer_is_not_compared() {
        let text = "(declare-const b Bool)\n(check-sat)\n; session ended: timeout\n";
        let recorded = read_dialogue(text, true).unwrap();
        assert_eq!(recorded.answers, vec![None]);
        assert_eq!(compare(&recorded.answers, &["sat".into()]), Ok((0, 0)));
    }

    #[test]
    fn any_different_answer_is_a_disagreement() {
        let recorded = vec![Some("sat".to_string()), Some("unsat".to_string())];
        assert_eq!(
            compare(&recorded, &["sat".into(), "unsat".into()]),
            Ok((2, 1))
        );
        let err = compare(&recorded, &["sat".into(), "sat".into()]).unwrap_err();
        assert!(err.contains("check 2 of 2"), "{err}");
        assert!(compare(&recorded, &["unsat".into()]).is_err());
    }

    fn recheck_text(text: &str) -> Result<Rechecked, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dialogue.smt2");
        std::fs::write(&path, text).unwrap();
        recheck(&Dialogues { paths: vec![path] }, true, None)
    }

    #[test]
    fn a_true_dialogue_is_confirmed_by_a_fresh_z3() {
        let checked = recheck_text(DUMP).unwrap();
        assert_eq!(
            (checked.answers, checked.unsat, checked.dialogues),
            (2, 1, 1)
        );
    }

    #[test]
    fn a_wrong_unsat_is_caught_by_a_fresh_z3() {
        // A solver that had answered `unsat` for a satisfiable query (x > 2 ∧ x < 10).
        let lying = DUMP.replace("(< x 0))", "(< x 10))");
        let err = recheck_text(&lying).unwrap_err();
        assert!(
            err.contains("the run got `unsat`, the fresh solver `sat`"),
            "{err}"
        );
    }

    #[test]
    fn a_dialogue_without_an_unsat_proves_nothing() {
        let text = "(declare-const x Int)\n(check-sat)\n; sat\n";
        assert!(recheck_text(text).unwrap_err().contains("no unsat answer"));
    }

    #[test]
    fn parentheses_inside_quoted_symbols_do_not_count() {
        assert_eq!(paren_balance("(declare-const |a(b| Int)"), 0);
        assert_eq!(paren_balance("(assert (= s \"(\"))"), 0);
        assert_eq!(paren_balance("(assert"), 1);
        assert!(read_dialogue("(assert x))\n", true).is_err());
        assert!(read_dialogue("(assert (x\n", true).is_err());
    }
}
