//! Proof certificates kept on disk (`verify --cache DIR`, `suite --cache DIR`; issue 30): a
//! proof does not depend on the depth bound, so it is found once and reused by every later
//! run of the same clauses, at any bound.
//!
//! What is kept, one JSON file each under `DIR/proofs/`:
//! - a **certificate**: the re-checked interpretation Spacer found for a Horn system, keyed
//!   by the SHA-256 of the system's SMT-LIB text (which is the program's meaning as the
//!   engine encodes it: the program's content and every option that changes it; the depth
//!   is not in it). Before a certificate is believed it is re-checked clause by clause in a
//!   fresh z3 exactly as a new model is (`chc::recheck`); one that fails the re-check is
//!   removed and the system is solved afresh;
//! - a **refutation**: the system's clauses are unsatisfiable (a hint, never a verdict:
//!   it only saves waiting for a proof that cannot exist);
//! - a **negative entry**: no proof within a budget of B seconds with the given Spacer
//!   configurations, keyed also by B, the configurations, the tool and the solver's
//!   versions, so a program no engine proves is not waited for again at the same budget.
//!
//! Guarantees: the cache never makes a verdict stronger than a fresh re-check supports (a
//! certificate is re-checked against the current clauses, never trusted); an unreadable,
//! malformed or stale entry is a miss, never an error; entries are written to a temporary
//! file and renamed into place, so concurrent runs never read half an entry.

use serde_json::{Value as Json, json};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// Bumped whenever the stored form or the keys change.
const FORMAT: &str = "horef-si proof cache v1";

/// The sub-directory of the cache directory that holds proof entries.
const PROOFS: &str = "proofs";

/// Paths the proof engine's limits carry (cache directories, `--dump-smt` files), each
/// leaked once so that those limits stay `Copy`.
static DIRS: Mutex<Vec<&'static Path>> = Mutex::new(Vec::new());

/// The cache directory `dir` as a `'static` path (one allocation per distinct directory
/// for the life of the process).
pub fn intern(dir: &Path) -> &'static Path {
    let Ok(mut dirs) = DIRS.lock() else {
        return Box::leak(dir.to_path_buf().into_boxed_path());
    };
    if let Some(known) = dirs.iter().find(|known| **known == dir) {
        return known;
    }
    let leaked: &'static Path = Box::leak(dir.to_path_buf().into_boxed_path());
    dirs.push(leaked);
    leaked
}

/// What the cache holds for a Horn system (given by its SMT-LIB text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// An interpretation that passed its re-check when it was stored: the relations'
    /// `define-fun`s, as the solver printed them (to be re-checked again before use).
    Certificate(Vec<String>),
    /// The clauses are unsatisfiable (a hint only).
    Refuted,
    /// No proof within the budget, with the reason.
    NoProof(String),
}

/// Where an entry is filed: the system's text, and for a negative entry the budget and
/// the Spacer configurations it was tried with.
#[derive(Clone, Copy, Debug)]
pub struct Subject<'a> {
    pub script: &'a str,
    pub configurations: &'a [&'a str],
    pub budget: Duration,
}

/// The certificate or refutation kept for `subject`, else its negative entry for this
/// budget and these configurations, if any.
pub fn lookup(dir: &Path, subject: Subject) -> Option<Entry> {
    if let Some(found) = read(&entry(dir, &found_key(subject.script))) {
        if found["refuted"] == json!(true) {
            return Some(Entry::Refuted);
        }
        if let Some(definitions) = found["definitions"].as_array() {
            let texts = definitions.iter().filter_map(Json::as_str);
            return Some(Entry::Certificate(texts.map(str::to_string).collect()));
        }
    }
    let negative = read(&entry(dir, &negative_key(subject)))?;
    let why = negative["no_proof"].as_str()?;
    Some(Entry::NoProof(format!(
        "{why} (remembered in the proof cache)"
    )))
}

/// Removes the certificate of `subject` (one that no longer passes its re-check).
pub fn forget_certificate(dir: &Path, subject: Subject) {
    let _ = std::fs::remove_file(entry(dir, &found_key(subject.script)));
}

/// Keeps `found` for `subject` in the cache in `dir`.
pub fn store(dir: &Path, subject: Subject, found: &Entry) {
    let (key, value) = match found {
        Entry::Certificate(definitions) => (
            found_key(subject.script),
            json!({ "definitions": definitions }),
        ),
        Entry::Refuted => (found_key(subject.script), json!({ "refuted": true })),
        Entry::NoProof(why) => (
            negative_key(subject),
            json!({
                "no_proof": format!(
                    "no proof within {} s: {why}",
                    subject.budget.as_secs_f64()
                ),
            }),
        ),
    };
    write_atomically(
        &dir.join(PROOFS),
        &format!("{key}.json"),
        &value.to_string(),
    );
}

/// Writes `text` to `dir/name` through a temporary file renamed into place (creating `dir`
/// if needed). A write that fails leaves the directory as it was.
pub fn write_atomically(dir: &Path, name: &str, text: &str) {
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let Ok(mut file) = tempfile::NamedTempFile::new_in(dir) else {
        return;
    };
    use std::io::Write as _;
    if file.write_all(text.as_bytes()).is_ok() {
        let _ = file.persist(dir.join(name));
    }
}

/// The tool and the solver: the version, the running executable's size and modification
/// time, and the solver's own version line.
pub fn identity(solver: crate::solver::SolverKind) -> String {
    let exe = std::env::current_exe()
        .and_then(|p| p.metadata().map(|m| (p, m)))
        .map(|(p, m)| format!("{} {} {:?}", p.display(), m.len(), m.modified().ok()))
        .unwrap_or_else(|_| "unknown executable".to_string());
    let solver = crate::solver::installed(solver.program())
        .map_or_else(|| "no solver".to_string(), |s| s.version);
    format!("horef-si {}\n{exe}\n{solver}", env!("CARGO_PKG_VERSION"))
}

/// The key of a certificate or refutation: the clauses alone (either is re-checked or
/// only a hint, so neither depends on the tool that found it).
fn found_key(script: &str) -> String {
    hashed(format!("{FORMAT}\nfound\n{script}").as_bytes())
}

/// The key of a negative entry: the clauses, the budget, the configurations, the tool and
/// the solver (a newer z3 or tool may find the proof).
fn negative_key(subject: Subject) -> String {
    // Asking the solver its version starts a process: once per process is enough.
    static Z3_IDENTITY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let identity = Z3_IDENTITY.get_or_init(|| identity(crate::solver::SolverKind::Z3));
    let material = format!(
        "{FORMAT}\nnone\n{identity}\nbudget {:?}\n{}\n{}",
        subject.budget,
        subject.configurations.join("\n"),
        subject.script
    );
    hashed(material.as_bytes())
}

/// The SHA-256 of `material`, in hex: an entry's file name.
fn hashed(material: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    use std::fmt::Write as _;
    Sha256::digest(material)
        .iter()
        .fold(String::new(), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

fn entry(dir: &Path, key: &str) -> PathBuf {
    dir.join(PROOFS).join(format!("{key}.json"))
}

fn read(path: &Path) -> Option<Json> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_is_interned_once() {
        let dir = Path::new("/tmp/horef-si-proof-cache-intern-test");
        let first = intern(dir);
        assert_eq!(first, dir);
        assert!(std::ptr::eq(first, intern(dir)));
        assert_ne!(intern(&dir.join("other")), first);
    }

    #[test]
    fn a_broken_entry_is_a_miss() {
        let dir = tempfile::tempdir().expect("temp dir");
        write_atomically(dir.path(), "x.json", "{ not json");
        assert!(read(&dir.path().join("x.json")).is_none());
        assert!(read(&dir.path().join("missing.json")).is_none());
    }

    #[test]
    fn entries_are_kept_by_clauses_and_negative_ones_by_budget_too() {
        let dir = tempfile::tempdir().expect("temp dir");
        let subject = Subject {
            script: "(declare-fun p (Int) Bool)",
            configurations: &[""],
            budget: Duration::from_secs(20),
        };
        assert_eq!(lookup(dir.path(), subject), None);
        let none = Entry::NoProof("out of time".into());
        store(dir.path(), subject, &none);
        let found = lookup(dir.path(), subject);
        assert!(
            matches!(&found, Some(Entry::NoProof(why)) if why.contains("no proof within 20 s")),
            "{found:?}"
        );
        let longer = Subject {
            budget: Duration::from_secs(60),
            ..subject
        };
        assert_eq!(lookup(dir.path(), longer), None);
        let certificate = Entry::Certificate(vec!["(define-fun p ((x Int)) Bool true)".into()]);
        store(dir.path(), longer, &certificate);
        assert_eq!(lookup(dir.path(), subject), Some(certificate));
        forget_certificate(dir.path(), subject);
        assert!(matches!(
            lookup(dir.path(), subject),
            Some(Entry::NoProof(_))
        ));
        let other = Subject {
            script: "(declare-fun q (Int) Bool)",
            ..subject
        };
        assert_eq!(lookup(dir.path(), other), None);
    }
}
