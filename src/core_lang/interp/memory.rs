//! How much memory a run may take: the interpreter asks [`MemoryGuard::exceeded`] every
//! [`CHECK_EVERY`] steps and ends the run as [`super::Outcome::OutOfMemory`] when it says so.
//!
//! Guarantees: a run stops once this process's resident memory passes the limit given
//! (`run --memory-limit`), and always before its address space reaches the process's
//! `RLIMIT_AS` (`ulimit -v`; [`ADDRESS_SPACE_MARGIN_MIB`] short of it), so neither the
//! growing native stack nor the heap fails to allocate (which would abort or panic). Between
//! two checks a run grows by a few MiB at most (a step nests at most one evaluation, a few
//! hundred bytes of stack, and allocates a bounded amount), far below the margin.

/// Steps between two looks at the memory (a look reads `/proc/self/statm`, a few µs).
pub const CHECK_EVERY: u64 = 4096;

/// How far below `RLIMIT_AS` a run stops.
pub const ADDRESS_SPACE_MARGIN_MIB: u64 = 256;

/// The limits of one run, in KiB.
#[derive(Clone, Copy, Debug)]
pub struct MemoryGuard {
    resident_kib: Option<u64>,
    address_space_kib: Option<u64>,
}

impl MemoryGuard {
    /// At most `limit_mib` resident (`None`: no limit of its own) and within `RLIMIT_AS`.
    pub fn new(limit_mib: Option<u64>) -> MemoryGuard {
        MemoryGuard {
            resident_kib: limit_mib.map(|mib| mib.saturating_mul(1024)),
            address_space_kib: address_space_limit_kib()
                .map(|kib| kib.saturating_sub(ADDRESS_SPACE_MARGIN_MIB * 1024)),
        }
    }

    /// Whether the process has passed a limit (`false` when its use cannot be read).
    pub fn exceeded(&self) -> bool {
        if self.resident_kib.is_none() && self.address_space_kib.is_none() {
            return false;
        }
        let Some((size, resident)) = usage_kib() else {
            return false;
        };
        self.resident_kib.is_some_and(|limit| resident > limit)
            || self.address_space_kib.is_some_and(|limit| size > limit)
    }
}

/// `RLIMIT_AS` (soft) in KiB, `None` when unlimited.
#[cfg(unix)]
fn address_space_limit_kib() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is a valid, writable rlimit.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0 {
        return None;
    }
    (limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur / 1024)
}

#[cfg(not(unix))]
fn address_space_limit_kib() -> Option<u64> {
    None
}

/// This process's address space and resident memory, in KiB (`/proc/self/statm`).
fn usage_kib() -> Option<(u64, u64)> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let mut pages = statm.split_whitespace().map(|n| n.parse::<u64>().ok());
    let (size, resident) = (pages.next()??, pages.next()??);
    // SAFETY: sysconf has no preconditions.
    let page_kib = (unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).max(4096) as u64 / 1024;
    Some((size * page_kib, resident * page_kib))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_below_the_current_use_is_exceeded_and_none_is_not() {
        assert!(MemoryGuard::new(Some(0)).exceeded());
        let guard = MemoryGuard {
            resident_kib: None,
            address_space_kib: None,
        };
        assert!(!guard.exceeded());
    }
}
