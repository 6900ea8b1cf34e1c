//! How many of the machine's cores nobody else is using right now, so that work beside the
//! search (a solver started ahead for Houdini) goes only to a core that is free: proof work
//! must never slow the bounded search. Guarantees: reads `/proc/stat` once, never fails
//! (a machine without it, or a text it cannot read, counts as having no idle core), and
//! never counts more idle cores than the process may run on.

/// The cores this process may run on, minus the tasks the kernel counts as running now
/// (`procs_running` of `/proc/stat`, which includes the caller itself).
pub fn idle_cores() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    match std::fs::read_to_string("/proc/stat") {
        Ok(text) => idle_of(cores, &text),
        Err(_) => 0,
    }
}

/// [`idle_cores`] for a given `/proc/stat` text.
fn idle_of(cores: usize, proc_stat: &str) -> usize {
    let running = proc_stat.lines().find_map(|line| {
        let count = line.strip_prefix("procs_running")?;
        count.trim().parse::<usize>().ok()
    });
    match running {
        Some(running) => cores.saturating_sub(running),
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::idle_of;

    const STAT: &str = "cpu  1 2 3 4\nctxt 99\nprocs_running 1\nprocs_blocked 0\n";

    #[test]
    fn the_caller_alone_leaves_the_other_cores_idle() {
        assert_eq!(idle_of(2, STAT), 1);
        assert_eq!(idle_of(8, STAT), 7);
    }

    #[test]
    fn a_busy_machine_has_none() {
        let busy = STAT.replace("procs_running 1", "procs_running 5");
        assert_eq!(idle_of(2, &busy), 0);
    }

    #[test]
    fn an_unreadable_text_counts_as_none() {
        assert_eq!(idle_of(2, "cpu 1 2\n"), 0);
        assert_eq!(idle_of(2, "procs_running many\n"), 0);
    }

    #[test]
    fn this_machine_answers_within_its_cores() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert!(super::idle_cores() < cores.max(1));
    }
}
