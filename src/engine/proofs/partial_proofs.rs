//! Partial proofs (issue 12): while the search runs and the whole program has no proof
//! yet, each procedure the entry calls that may fail is given to Spacer on its own — its
//! clauses and its callees', with the goal "some call of it fails"
//! ([`HornSystem::of_failure`]). A re-checked model proves that no call of the procedure
//! fails, and interprets its relation and its callees'; those interpretations are
//! published on the run's [`FactBoard`] and the search assumes them at every open call
//! site of those procedures ([`crate::engine::proofs::site_facts`]). So a program whose whole proof Spacer
//! cannot find (an assertion it cannot reason about) still gets its provable parts cut
//! out of the search: their call trees need not be inlined to show they do not fail.
//!
//! Guarantees: nothing here is a verdict. A fact is published only from a model that a
//! fresh z3 re-checked clause by clause ([`crate::engine::proofs::chc`]), of a system that holds every
//! clause of the procedures it interprets; the search's verdicts keep their own
//! soundness arguments with these facts among its assumptions (each holds of every call
//! that returns). Dropping a task kills its z3 processes and joins its thread.

use crate::engine::proofs::chc::{self, ChcLimits, Solved};
use crate::engine::proofs::proof::{Proof, Summary};
use crate::engine::proofs::site_facts::{FactBoard, SiteFacts};
use crate::vc::horn::{HornSystem, callees_of};
use crate::vc::measure::Measures;
use boogie_like::ir::{ProcId, Program as IrProgram};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The most procedures proved on their own in one run.
pub const MAX_ROOTS: usize = 4;

/// Spacer's configurations for a procedure's clauses: global guidance and no predicate
/// inlining (the first two of [`chc::CONFIGURATIONS`]; the third, Spacer's default, is
/// left out, as it is for the whole program's clauses, `chc::configurations_for`: the
/// cores are shared with the search).
const CONFIGURATIONS: &[&str] = &[chc::CONFIGURATIONS[0], chc::CONFIGURATIONS[1]];

/// The procedures worth proving on their own: the entry's callees that may fail, in
/// call-site order, at most [`MAX_ROOTS`], none that calls the entry back.
pub fn roots(ir: &IrProgram) -> Vec<ProcId> {
    let Some(entry) = ir.entrypoint().filter(|_| !ir.has_quantifiers()) else {
        return Vec::new();
    };
    let mut roots: Vec<ProcId> = Vec::new();
    for site in ir.procs[entry].call_sites.values() {
        let callee = site.callee;
        if callee == entry || roots.contains(&callee) || callees_of(ir, callee)[entry.0 as usize] {
            continue;
        }
        roots.push(callee);
    }
    let encoder = crate::vc::encode::Encoder::new(ir);
    roots.retain(|root| encoder.may_fail(*root));
    roots.truncate(MAX_ROOTS);
    roots
}

/// One procedure's attempt, running on a thread of its own.
pub struct PartialTask {
    cancel: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Drop for PartialTask {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::SeqCst);
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// Starts an attempt for each of [`roots`]: each publishes its facts on `board` once
/// proved. A procedure this process already proved (a suite's earlier bound) publishes
/// at once; one it already failed to prove is not tried again.
pub fn start(ir: &IrProgram, limits: ChcLimits, board: &FactBoard) -> Vec<PartialTask> {
    let measures = Arc::new(Measures::of(ir));
    let mut tasks = Vec::new();
    for root in roots(ir) {
        let Some(system) = HornSystem::of_failure(ir, root) else {
            continue;
        };
        let key = memo_key(&system, limits);
        match remembered(key) {
            Some(Some(facts)) => board.publish(facts),
            Some(None) => {}
            None => {
                let covered = callees_of(ir, root);
                let name = ir.procs[root].name.clone();
                let attempt = Attempt {
                    system,
                    root: name,
                    covered,
                    measures: measures.clone(),
                };
                tasks.push(attempt.spawn(key, limits, board.clone()));
            }
        }
    }
    tasks
}

/// What one attempt needs on its thread.
struct Attempt {
    system: HornSystem,
    /// The name of the procedure proved never to fail.
    root: String,
    covered: Vec<bool>,
    measures: Arc<Measures>,
}

impl Attempt {
    fn spawn(self, key: u64, limits: ChcLimits, board: FactBoard) -> PartialTask {
        let cancel = Arc::new(AtomicBool::new(false));
        let cancelled = cancel.clone();
        let handle = std::thread::spawn(move || {
            let solved = chc::solve_checked(&self.system, CONFIGURATIONS, limits, &cancelled);
            match solved {
                Some(Solved::Model(model)) => {
                    let facts = Arc::new(self.facts(&model));
                    remember(key, Some(facts.clone()));
                    board.publish(facts);
                }
                Some(Solved::Refuted | Solved::NoModel(_)) => remember(key, None),
                None => {}
            }
        });
        PartialTask {
            cancel,
            handle: Some(handle),
        }
    }

    fn facts(&self, model: &chc::Interpretation) -> SiteFacts {
        let name = &self.root;
        let mut shown = chc::proof(&self.system, model);
        // Only the relations the system has clauses for are proved anything of.
        let covered: Vec<String> = self
            .system
            .relations
            .iter()
            .filter(|r| r.proc.is_some_and(|p| self.covered[p.0 as usize]))
            .map(|r| {
                r.name
                    .trim_matches('|')
                    .trim_end_matches("!rel")
                    .to_string()
            })
            .collect();
        shown.summaries.retain(|s| covered.contains(&s.procedure));
        shown.summaries.insert(
            0,
            Summary {
                procedure: name.clone(),
                inputs: Vec::new(),
                outputs: Vec::new(),
                formula: "never fails".into(),
                smt: self.system.entry_interpretation.clone().unwrap_or_default(),
            },
        );
        let shown = Proof {
            engine: format!("chc, partial: {name}"),
            summaries: shown.summaries,
        };
        SiteFacts::from_model(&self.system, (&self.covered, &self.measures), model, shown)
    }
}

/// What this process found for a procedure's clauses (`None`: no proof), by clauses and
/// budget.
static MEMO: Mutex<Option<HashMap<u64, Option<Arc<SiteFacts>>>>> = Mutex::new(None);

fn memo_key(system: &HornSystem, limits: ChcLimits) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    "partial".hash(&mut hasher);
    chc::memo_key(system, limits).hash(&mut hasher);
    hasher.finish()
}

fn remembered(key: u64) -> Option<Option<Arc<SiteFacts>>> {
    MEMO.lock().ok()?.as_ref()?.get(&key).cloned()
}

fn remember(key: u64, facts: Option<Arc<SiteFacts>>) {
    if let Ok(mut memo) = MEMO.lock() {
        memo.get_or_insert_with(HashMap::new).insert(key, facts);
    }
}
