//! `--partition hash:M/N`: a deterministic share of a suite, so that N machines (a CI
//! matrix) can split it.
//!
//! Guarantees: a program belongs to partition `M` of `N` exactly when the 64-bit FNV-1a
//! hash of its partition key (its path relative to the command-line path, `/`-separated)
//! is `M - 1` modulo `N`. The hash is fixed by its definition (no per-process seed), so
//! the split is the same on every machine and every run; the `N` partitions are disjoint
//! and together cover the suite; every run of one program lands in the same partition.

use std::fmt;
use std::str::FromStr;

/// Partition `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    pub index: u64,
    pub count: u64,
}

impl Partition {
    /// Whether the program with partition key `key` belongs to this partition.
    pub fn contains(&self, key: &str) -> bool {
        fnv1a(key.as_bytes()) % self.count == self.index - 1
    }
}

/// Why a `--partition` value is not `hash:M/N` with `1 <= M <= N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PartitionError {
    #[error("expected `hash:M/N` (for example `hash:1/2`)")]
    Syntax,
    #[error("M must be between 1 and N (got {index}/{count})")]
    OutOfRange { index: u64, count: u64 },
}

impl FromStr for Partition {
    type Err = PartitionError;

    fn from_str(text: &str) -> Result<Partition, PartitionError> {
        let (m, n) = text
            .strip_prefix("hash:")
            .and_then(|rest| rest.split_once('/'))
            .ok_or(PartitionError::Syntax)?;
        let number = |s: &str| s.parse::<u64>().map_err(|_| PartitionError::Syntax);
        let (index, count) = (number(m)?, number(n)?);
        if index == 0 || index > count {
            return Err(PartitionError::OutOfRange { index, count });
        }
        Ok(Partition { index, count })
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "hash:{}/{}", self.index, self.count)
    }
}

/// 64-bit FNV-1a.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, b| (h ^ u64::from(*b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn partitions_parse_and_split_exactly_once() {
        let parts: Vec<Partition> = (1..=3)
            .map(|m| format!("hash:{m}/3").parse().expect("valid"))
            .collect();
        for key in ["a.horef", "sub/b.horef", "mc91-e.txt", ""] {
            assert_eq!(parts.iter().filter(|p| p.contains(key)).count(), 1);
        }
        assert_eq!(parts[1].to_string(), "hash:2/3");
    }

    #[test]
    fn bad_partitions_are_rejected() {
        let bad = |s: &str| s.parse::<Partition>().expect_err(s);
        assert_eq!(
            bad("hash:0/2"),
            PartitionError::OutOfRange { index: 0, count: 2 }
        );
        assert_eq!(
            bad("hash:3/2"),
            PartitionError::OutOfRange { index: 3, count: 2 }
        );
        assert_eq!(
            bad("hash:1/0"),
            PartitionError::OutOfRange { index: 1, count: 0 }
        );
        for s in ["1/2", "hash:1", "hash:a/2", "hash:1/2/3", "hash:-1/2"] {
            assert_eq!(bad(s), PartitionError::Syntax);
        }
    }
}
