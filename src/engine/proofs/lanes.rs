//! Which Spacer processes run now, beside a search (issue 30: proof work must never slow
//! the bounded search, never more busy solver processes than cores, the search first).
//!
//! A *lane* is one Spacer process (with its re-check) on one Horn system in one
//! configuration. Lanes of a run carry a rank (their place in the order that succeeds most
//! often, [`LanePlan`]) and the instant the run's proof work began. Guarantees:
//! - at most [`slots`] planned lanes run at once in this process (the cores but the one
//!   the search runs on, at least one), and a free slot goes to the waiting lane of least
//!   (start, rank): the earliest run first, within a run the better-ranked configuration
//!   (a lane queues for [`ENTRY_GRACE`] before it may take a slot, so that the lanes a run
//!   starts together are all in line first);
//! - no lane waits longer than `rank × STAGGER` after its run's proof work began: a first
//!   configuration that finds nothing delays the next by at most [`STAGGER`], after which
//!   they share the cores (niced) as they did before this schedule existed;
//! - a lane stops waiting as soon as its run cancels it ([`enter`] returns `None`);
//! - a slot is given back when the lane's [`Permit`] drops, whatever ended the lane.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long a lane of rank 1 waits for a free slot before it runs anyway (rank `r`
/// waits `r ×` this). Measured on the Horn systems of the shared suite and our programs
/// (`benchmarks/spacer_lanes.py`; RESULTS.md, "Spacer's lanes one after the other"): the
/// best-ranked configuration finds half its proofs within 0.03 s (IR clauses) to 0.09 s
/// (refinement clauses) of CPU and nine in ten within 0.12 s to 0.29 s; replayed on one
/// free core, the median time to a program's first proof falls from 0.12 s (all lanes
/// at once) to 0.035 s.
pub const STAGGER: Duration = Duration::from_millis(200);

/// Where a run's lanes stand in the schedule: the lane for configuration `i` of a system
/// has rank `first + i × step`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LanePlan {
    /// When the run's proof work began (the staggering counts from here).
    pub began: Instant,
    pub first: u32,
    pub step: u32,
}

impl LanePlan {
    /// The rank of the lane for configuration `index`.
    pub fn rank(&self, index: usize) -> u32 {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        self.first.saturating_add(self.step.saturating_mul(index))
    }
}

/// The lanes of one schedule: how many run, and which wait (by start, rank, ticket).
#[derive(Default)]
struct Board {
    running: usize,
    waiting: Vec<(Instant, u32, u64)>,
    next_ticket: u64,
}

/// A schedule of lanes; the process has one ([`PROCESS`]), tests their own.
#[derive(Default)]
struct Schedule {
    board: Mutex<Board>,
    changed: Condvar,
}

static PROCESS: Schedule = Schedule {
    board: Mutex::new(Board {
        running: 0,
        waiting: Vec::new(),
        next_ticket: 0,
    }),
    changed: Condvar::new(),
};

/// The planned lanes that may run at once: the cores this process may use but one (the
/// search's), at least one.
pub fn slots() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    cores.saturating_sub(1).max(1)
}

/// A running lane's slot, given back on drop.
pub struct Permit<'s>(&'s Schedule);

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut board = self.0.board.lock().unwrap_or_else(|e| e.into_inner());
        board.running = board.running.saturating_sub(1);
        drop(board);
        self.0.changed.notify_all();
    }
}

/// How long a lane that is not yet due waits before it takes a free slot: the lanes of a
/// run are started together, each on a thread of its own, and a worse-ranked one must not
/// take the slot in the instant before a better-ranked one has queued (seen: a refinement
/// system's lane ahead of the IR clauses' first configuration).
const ENTRY_GRACE: Duration = Duration::from_millis(5);

/// Waits until the lane for configuration `index` of `plan` may run (see the module's
/// guarantees); `None` once `cancel` is raised first.
pub fn enter(plan: &LanePlan, index: usize, cancel: &AtomicBool) -> Option<Permit<'static>> {
    PROCESS.enter(plan.began, plan.rank(index), (slots(), STAGGER), cancel)
}

impl Schedule {
    fn enter(
        &self,
        began: Instant,
        rank: u32,
        (slots, stagger): (usize, Duration),
        cancel: &AtomicBool,
    ) -> Option<Permit<'_>> {
        let latest = began + stagger.saturating_mul(rank);
        let entered = Instant::now();
        let mut board = self.board.lock().unwrap_or_else(|e| e.into_inner());
        let ticket = board.next_ticket;
        board.next_ticket += 1;
        let me = (began, rank, ticket);
        board.waiting.push(me);
        loop {
            let cancelled = cancel.load(Ordering::SeqCst);
            let first_in_line = board.waiting.iter().min() == Some(&me);
            let now = Instant::now();
            let queued = now >= entered + ENTRY_GRACE;
            if cancelled || (board.running < slots && first_in_line && queued) || now >= latest {
                board.waiting.retain(|w| w.2 != ticket);
                if !cancelled {
                    board.running += 1;
                }
                drop(board);
                self.changed.notify_all();
                return (!cancelled).then_some(Permit(self));
            }
            // Woken when a slot frees or the line changes; at the latest at `latest`, and
            // often enough to notice a cancellation.
            let nap = latest
                .saturating_duration_since(now)
                .min(Duration::from_millis(5));
            let until_queued = (entered + ENTRY_GRACE).saturating_duration_since(now);
            let nap = match until_queued.is_zero() {
                true => nap,
                false => nap.min(until_queued),
            };
            board = match self.changed.wait_timeout(board, nap) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }

    #[cfg(test)]
    fn waiting(&self) -> usize {
        self.board.lock().map_or(0, |b| b.waiting.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    const FOREVER: Duration = Duration::from_secs(3600);

    #[test]
    fn ranks_grow_by_the_step() {
        let plan = LanePlan {
            began: Instant::now(),
            first: 1,
            step: 3,
        };
        assert_eq!(plan.rank(0), 1);
        assert_eq!(plan.rank(2), 7);
    }

    #[test]
    fn a_lane_past_its_stagger_runs_even_without_a_free_slot() {
        let schedule = Schedule::default();
        let began = Instant::now() - Duration::from_secs(10);
        let never = AtomicBool::new(false);
        let permit = schedule.enter(began, 2, (0, Duration::from_millis(1)), &never);
        assert!(permit.is_some());
        assert_eq!(schedule.waiting(), 0);
    }

    #[test]
    fn a_cancelled_lane_stops_waiting_and_takes_no_slot() {
        let schedule = Schedule::default();
        let cancel = AtomicBool::new(true);
        assert!(
            schedule
                .enter(Instant::now(), 5, (0, FOREVER), &cancel)
                .is_none()
        );
        let never = AtomicBool::new(false);
        // The one slot is still free.
        assert!(
            schedule
                .enter(Instant::now(), 0, (1, FOREVER), &never)
                .is_some()
        );
    }

    #[test]
    fn with_one_slot_the_lanes_take_turns_in_rank_order() {
        let schedule = Arc::new(Schedule::default());
        let began = Instant::now();
        let never = Arc::new(AtomicBool::new(false));
        let first = schedule.enter(began, 0, (1, FOREVER), &never);
        assert!(first.is_some());
        let order = Arc::new(Mutex::new(Vec::new()));
        let lanes: Vec<_> = [2u32, 1]
            .into_iter()
            .map(|rank| {
                let (schedule, order, never) = (schedule.clone(), order.clone(), never.clone());
                std::thread::spawn(move || {
                    let permit = schedule.enter(began, rank, (1, FOREVER), &never);
                    order.lock().unwrap().push(rank);
                    drop(permit);
                })
            })
            .collect();
        // Both wait behind the running lane before it ends.
        while schedule.waiting() < 2 {
            std::thread::yield_now();
        }
        assert!(order.lock().unwrap().is_empty());
        drop(first);
        for lane in lanes {
            lane.join().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), vec![1, 2]);
    }
}
