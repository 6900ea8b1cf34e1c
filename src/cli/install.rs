//! The command line as users install it: shell completions and the man page generated from
//! the clap definitions, and the `--version` text that names the solver found.
//!
//! Guarantees: completions and the man page describe exactly the commands and options
//! [`Cli`] parses (they are generated from it); `--version` never fails — a solver that is
//! not found is said so, with how to install it.

use super::Cli;
use crate::solver::{SolverKind, installed};
use clap::CommandFactory;

/// The completion script for `shell`.
pub fn completions(shell: clap_complete::Shell) -> Vec<u8> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "horef-si", &mut out);
    out
}

/// The man page (roff), `horef-si.1`.
pub fn manpage() -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    Ok(out)
}

/// The version line and one line per solver: `horef-si 0.1.0` then
/// `solver: z3 (Z3 version 4.13.0 - 64 bit) at /usr/bin/z3`.
pub fn version_text() -> String {
    let mut text = env!("CARGO_PKG_VERSION").to_string();
    for kind in [SolverKind::Z3, SolverKind::Cvc5] {
        let name = kind.program();
        let line = match installed(name) {
            Some(found) => format!(
                "solver: {name} ({}) at {}",
                found.version,
                found.path.display()
            ),
            None if kind == SolverKind::Z3 => {
                format!("solver: {name} not found on PATH: {}", kind.install_hint())
            }
            None => format!("solver: {name} not found on PATH (optional: for --solver {name})"),
        };
        text.push('\n');
        text.push_str(&line);
    }
    text
}
