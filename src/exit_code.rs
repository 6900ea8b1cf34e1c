//! The process exit codes (CBMC's convention), documented in `--help` and the README.

/// How `horef-si` ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ExitCode {
    /// The input is fine, the run returned, or the program is verified / safe up to the bound.
    Ok = 0,
    /// The command line was wrong.
    Usage = 1,
    /// The input file or an argument is invalid (syntax, type, bad `--arg` or `--input`).
    Input = 2,
    /// No conclusion: a resource limit was reached.
    Inconclusive = 5,
    /// An internal error or a solver error.
    Internal = 6,
    /// A failure was found (an assertion, `fail`, `hd []` or `tl []`).
    Failure = 10,
}

impl ExitCode {
    pub fn code(self) -> u8 {
        self as u8
    }
}

/// The text shown under `--help`.
pub const EXIT_CODES_HELP: &str = "\
Exit codes:
   0  ok: the input is valid / the run returned or was cut off / verified or safe
   1  usage error (bad command line)
   2  input error (unreadable file, syntax or type error, bad --arg or --input)
   5  inconclusive (step limit, timeout, unknown)
   6  internal or solver error
  10  a failure was found (assert, fail, hd [], tl [])";
