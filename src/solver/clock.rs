//! The wall time spent on solver processes, summed over every session of one run.
//!
//! A [`SolverClock`] is shared (cheaply cloned) by every [`super::Session`] started from one
//! [`super::SolverConfig`] — the call tree's session and Houdini's alike. Each session adds
//! the time it spends starting its process, talking to it (writing commands, waiting for
//! replies) and stopping it; what is left of a run's wall time is ours: lowering, encoding,
//! reading models, replaying witnesses.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Accumulated solver time; clones share the total.
#[derive(Clone, Debug, Default)]
pub struct SolverClock {
    nanos: Arc<AtomicU64>,
}

impl SolverClock {
    /// Adds `spent` to the total.
    pub fn add(&self, spent: Duration) {
        let nanos = u64::try_from(spent.as_nanos()).unwrap_or(u64::MAX);
        self.nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// The total so far.
    pub fn total(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_total() {
        let clock = SolverClock::default();
        let other = clock.clone();
        clock.add(Duration::from_millis(3));
        other.add(Duration::from_millis(4));
        assert_eq!(clock.total(), Duration::from_millis(7));
        assert_eq!(SolverClock::default().total(), Duration::ZERO);
    }
}
