//! What checking one program found ([`Report`]), what can be wrong with one verdict
//! ([`Defect`]), how one `verify` call is made ([`Setting`]) and an input that fails
//! ([`Failing`]): the vocabulary the oracles ([`super::oracle`], [`super::ir_oracle`]) and
//! the concrete runs ([`super::runs`]) share.

use horef_si::engine::Mode;
use horef_si::engine::Proofs;
use std::fmt;

/// What is wrong with one verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Defect {
    Unsound {
        k: u32,
        setting: Setting,
        verdict: String,
        inputs: String,
        fails_at: String,
    },
    ReplayDefect {
        k: u32,
        setting: Setting,
        inputs: String,
        what: String,
    },
    Unconfirmed {
        k: u32,
        setting: Setting,
        reason: String,
    },
    ModeDisagreement {
        k: u32,
        verdicts: String,
    },
    WrongBound {
        k: u32,
        setting: Setting,
        verdict: String,
    },
    Panic {
        k: u32,
        setting: Setting,
        message: String,
    },
}

impl Defect {
    /// The class of the defect, with its bound and mode: what shrinking must preserve.
    pub fn class(&self) -> (&'static str, u32, Option<Setting>) {
        match self {
            Defect::Unsound { k, setting, .. } => ("unsound", *k, Some(*setting)),
            Defect::ReplayDefect { k, setting, .. } => ("replay", *k, Some(*setting)),
            Defect::Unconfirmed { k, setting, .. } => ("unconfirmed", *k, Some(*setting)),
            Defect::ModeDisagreement { k, .. } => ("modes", *k, None),
            Defect::WrongBound { k, setting, .. } => ("bound", *k, Some(*setting)),
            Defect::Panic { k, setting, .. } => ("panic", *k, Some(*setting)),
        }
    }
}

impl fmt::Display for Defect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Defect::Unsound {
                k,
                setting,
                verdict,
                inputs,
                fails_at,
            } => write!(
                f,
                "UNSOUND: {setting} --max-depth {k} says {verdict}, but {inputs} fails at {fails_at}"
            ),
            Defect::ReplayDefect {
                k,
                setting,
                inputs,
                what,
            } => write!(
                f,
                "REPLAY DEFECT: {setting} --max-depth {k} reports a bug for {inputs}: {what}"
            ),
            Defect::Unconfirmed { k, setting, reason } => write!(
                f,
                "UNCONFIRMED WITNESS: {setting} --max-depth {k}: {reason}"
            ),
            Defect::ModeDisagreement { k, verdicts } => {
                write!(f, "MODES DISAGREE at --max-depth {k}: {verdicts}")
            }
            Defect::WrongBound {
                k,
                setting,
                verdict,
            } => {
                write!(f, "WRONG BOUND: {setting} --max-depth {k} says {verdict}")
            }
            Defect::Panic {
                k,
                setting,
                message,
            } => {
                write!(f, "PANIC: {setting} --max-depth {k}: {message}")
            }
        }
    }
}

pub fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Si => "si",
        Mode::Unroll => "unroll",
    }
}

/// How one `verify` call is made: its mode and the proof engines it may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    pub mode: Mode,
    pub proofs: Proofs,
}

impl Setting {
    /// `mode` with every proof engine, as the CLI runs by default.
    pub fn of(mode: Mode) -> Setting {
        Setting {
            mode,
            proofs: Proofs::Both,
        }
    }
}

impl fmt::Display for Setting {
    /// The `verify` flags that reproduce it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--mode {}", mode_name(self.mode))?;
        match self.proofs {
            Proofs::Both => Ok(()),
            Proofs::Houdini => write!(f, " --proofs houdini"),
            Proofs::Chc => write!(f, " --proofs chc"),
            Proofs::None => write!(f, " --proofs none"),
        }
    }
}

/// What checking one program found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// `verify` calls made.
    pub checks: usize,
    /// Concrete runs made.
    pub runs: usize,
    /// Verdicts by kind: verified, bug, safe, unknown.
    pub verified: usize,
    pub bugs: usize,
    pub safe: usize,
    pub unknown: usize,
    /// The smallest K at which a concrete run fails (`None`: no input of ours fails).
    pub concrete_bug_depth: Option<u32>,
    pub defects: Vec<Defect>,
}

/// An input that fails: from which bound on, where, and how it is shown.
#[derive(Clone, Debug)]
pub struct Failing {
    pub depth: u32,
    pub at: String,
    pub inputs: String,
}
