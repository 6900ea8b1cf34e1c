//! The generated large programs: for each target size, a safe composition of the safe
//! benchmark programs and a buggy one in which one sub-main is a shallow buggy program.
//!
//! Guarantees: deterministic (blocks are read in file-name order and cycled in that order);
//! each safe composition is the smallest prefix of the cycle reaching the target number of
//! lines, and its buggy twin replaces the sub-main two thirds of the way down with the bug
//! block, so both have about the same size.

use crate::compose::{Block, Plan, compose, line_count};
use horef_si::suite::expect::Expectation;
use std::path::Path;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Target sizes in lines.
    pub sizes: Vec<usize>,
    /// The name of the buggy block (a program of the directory, e.g. `compose-e`).
    pub bug: String,
    /// The claim of a safe composition when some block is only `safe up to M`.
    pub safe_claim: Expectation,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            sizes: vec![100, 200, 400, 1000, 4000],
            bug: "compose-e".to_string(),
            safe_claim: Expectation::SafeUpTo { depth: 5 },
        }
    }
}

/// One generated file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    pub file_name: String,
    pub text: String,
}

/// Reads every `*.horef` of `dir` as a block, in file-name order.
pub fn load_blocks(dir: &Path) -> Result<Vec<Block>, String> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "horef"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let name = path.file_stem().unwrap_or_default().to_string_lossy();
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Block::parse(&name, &text)
        })
        .collect()
}

/// The generated programs, two per size: `gen-SIZE.horef` and `gen-SIZE-e.horef`.
pub fn generate(blocks: &[Block], options: &Options) -> Result<Vec<Generated>, String> {
    let pool: Vec<&Block> = blocks
        .iter()
        .filter(|b| !matches!(b.expect, Expectation::BugWithin { .. }))
        .collect();
    if pool.is_empty() {
        return Err("no safe building blocks".to_string());
    }
    let bug = blocks
        .iter()
        .find(|b| b.name == options.bug)
        .ok_or_else(|| format!("no building block called `{}`", options.bug))?;
    if !matches!(bug.expect, Expectation::BugWithin { .. }) {
        return Err(format!("`{}` is not a buggy program", bug.name));
    }
    let mut out = Vec::new();
    for &size in &options.sizes {
        let safe = smallest_plan(&pool, size, options.safe_claim);
        let mut buggy = safe.clone();
        let slot = buggy.slots.len() * 2 / 3;
        buggy.slots[slot] = bug;
        out.push(Generated {
            file_name: format!("gen-{size}.horef"),
            text: compose(&safe),
        });
        out.push(Generated {
            file_name: format!("gen-{size}-e.horef"),
            text: compose(&buggy),
        });
    }
    Ok(out)
}

/// The shortest cycle prefix of `pool` whose composition has at least `size` lines.
fn smallest_plan<'a>(pool: &[&'a Block], size: usize, safe_claim: Expectation) -> Plan<'a> {
    let mut plan = Plan {
        slots: Vec::new(),
        safe_claim,
    };
    loop {
        plan.slots.push(pool[plan.slots.len() % pool.len()]);
        if line_count(&compose(&plan)) >= size {
            return plan;
        }
    }
}
