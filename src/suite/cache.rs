//! The suite's result cache (`suite --cache DIR`, or `HOREF_SI_CACHE=DIR` for every suite):
//! a verdict is stored under a key that hashes everything it depends on, so an unchanged
//! program is not verified again.
//!
//! The key is the SHA-256 of: the program's text, the run's options (depth, mode, solver,
//! time limit, summaries, inlining policy), the tool (its version and the size and
//! modification time of the running executable, so a rebuilt verifier starts afresh) and
//! the solver (the version it reports). One entry is one JSON file `DIR/<key>.json`.
//!
//! Guarantees: a cached verdict is used only when every part of its key is the same; only
//! `VERIFIED`, `BUG` and `SAFE UP TO DEPTH K` are stored (never `UNKNOWN`, a load error or a
//! crash, which a rerun may change); an unreadable or malformed entry is a miss, never an
//! error or a wrong verdict; an entry is written to a temporary file and renamed into place,
//! so parallel jobs and concurrent suites never read half an entry.

use super::plan::Run;
use crate::engine::{self, verdict::Verdict};
use std::path::{Path, PathBuf};

/// The environment variable that turns the cache on for every suite.
pub const CACHE_ENV: &str = "HOREF_SI_CACHE";
/// Bumped whenever the stored form or the key changes.
const FORMAT: &str = "horef-si suite cache v2";

/// An open cache directory.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
    /// The tool and solver part of every key.
    identity: String,
}

impl Cache {
    /// Opens (creating it if needed) the cache in `dir` for runs with `options`' solver.
    pub fn open(dir: &Path, options: &engine::Options) -> std::io::Result<Cache> {
        std::fs::create_dir_all(dir)?;
        Ok(Cache {
            dir: dir.to_path_buf(),
            identity: identity(options),
        })
    }

    /// The key of `run` of the program whose text is `text`.
    pub fn key(&self, text: &[u8], run: &Run, options: &engine::Options) -> String {
        let settings = format!(
            "depth {}\nbounds {:?}\nmode {:?}\nsolver {:?}\ntimeout {:?}\nsummaries {}\npolicy {:?}\nproof wait {:?}\nproof budget {:?}\n",
            run.depth,
            options.bounds,
            options.mode,
            options.solver,
            options.timeout,
            options.summaries,
            options.policy,
            options.proof_wait,
            options.chc_budget
        );
        let mut material = format!("{FORMAT}\n{}\n{settings}", self.identity).into_bytes();
        material.extend_from_slice(text);
        crate::exchange::witness::sha256_hex(&material)
    }

    /// The verdict stored under `key`, if any.
    pub fn get(&self, key: &str) -> Option<Verdict> {
        let text = std::fs::read_to_string(self.entry(key)).ok()?;
        let verdict: Verdict = serde_json::from_str(&text).ok()?;
        (!matches!(verdict, Verdict::Unknown { .. })).then_some(verdict)
    }

    /// Stores `verdict` under `key` (an `UNKNOWN` is not stored). A write that fails
    /// leaves the cache as it was: the next run verifies again.
    pub fn put(&self, key: &str, verdict: &Verdict) {
        if matches!(verdict, Verdict::Unknown { .. }) {
            return;
        }
        let Ok(text) = serde_json::to_string(verdict) else {
            return;
        };
        engine::write_atomically(&self.dir, &format!("{key}.json"), &text);
    }

    fn entry(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }
}

/// The tool and the solver (see [`engine::tool_identity`]).
fn identity(options: &engine::Options) -> String {
    engine::tool_identity(options.solver)
}
