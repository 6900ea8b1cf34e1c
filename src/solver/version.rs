//! The solver's version, for reports: `z3 --version` prints `Z3 version 5.4.1 - 64 bit`,
//! `cvc5 --version` `This is cvc5 version 1.1.2 [...]`; the version is the first word that
//! starts with a digit. The program is found as a session finds it ([`super::locate`]).
//!
//! Guarantees: never fails and never hangs on a missing or odd solver: `None` then.

use super::SolverKind;
use std::process::{Command, Stdio};

/// The version of the solver a session of `kind` would run, if it can be told.
pub fn version(kind: SolverKind) -> Option<String> {
    let output = Command::new(super::locate::program(kind.program()))
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    parse(&String::from_utf8_lossy(&output.stdout))
}

/// The first word of `text` that starts with a digit.
fn parse(text: &str) -> Option<String> {
    text.split_whitespace()
        .find(|word| word.starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn the_version_is_the_first_number() {
        assert_eq!(
            parse("Z3 version 5.4.1 - 64 bit\n").as_deref(),
            Some("5.4.1")
        );
        assert_eq!(
            parse("This is cvc5 version 1.1.2 [git tag 1.1.2 branch HEAD]").as_deref(),
            Some("1.1.2")
        );
        assert_eq!(parse("no version here"), None);
    }
}
