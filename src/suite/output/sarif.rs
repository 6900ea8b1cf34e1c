//! The SARIF log of a suite ([`suite_log`]): its bugs, one result per bug whatever the depths
//! it was found at, and the runs that failed their expectation; built from the shared SARIF
//! pieces of [`crate::exchange::sarif`] (whose module doc states the log's guarantees).

use crate::engine::verdict::Verdict;
use crate::exchange::sarif::{
    EXPECTATION_RULE, FINGERPRINT_KEY, bug_result, fingerprint, location, log, message, rule_index,
};
use crate::suite::{Got, Row};
use serde_json::json;
use serde_sarif::sarif;
use std::collections::BTreeMap;

/// The log of a suite: its bugs and the runs that failed their expectation.
pub fn suite_log(rows: &[Row]) -> sarif::Sarif {
    let mut bugs: BTreeMap<(String, String, String), Vec<&Row>> = BTreeMap::new();
    let mut order = Vec::new();
    let mut results = Vec::new();
    for row in rows {
        match &row.got {
            Got::Verdict(Verdict::Bug { failure, kind, .. }) => {
                let key = (path_of(row), failure.clone(), kind.clone());
                if !bugs.contains_key(&key) {
                    order.push(key.clone());
                }
                bugs.entry(key).or_default().push(row);
            }
            _ if !row.passed() => results.push(expectation_result(row)),
            _ => {}
        }
    }
    let mut bug_results: Vec<sarif::Result> = order
        .iter()
        .map(|key| suite_bug_result(&key.0, &bugs[key]))
        .collect();
    bug_results.append(&mut results);
    let broken = rows
        .iter()
        .find(|r| matches!(r.got, Got::Crashed(_)))
        .map(|r| format!("the verifier crashed on {}", path_of(r)));
    log(bug_results, broken)
}

fn path_of(row: &Row) -> String {
    row.run.path.display().to_string()
}

/// One result for the runs of one bug (sorted by depth: the first is the shallowest).
fn suite_bug_result(file: &str, runs: &[&Row]) -> sarif::Result {
    let depths: Vec<u32> = runs.iter().map(|r| r.run.depth).collect();
    let level = if runs.iter().all(|r| r.passed()) {
        sarif::ResultLevel::Note
    } else {
        sarif::ResultLevel::Error
    };
    let Got::Verdict(verdict) = &runs[0].got else {
        unreachable!("internal error: a bug row without a verdict")
    };
    let mut result = bug_result(file, verdict, &depths, level);
    let expected: Vec<Option<String>> = runs
        .iter()
        .map(|r| r.run.expected.map(|e| e.to_string()))
        .collect();
    if let Some(bag) = result.properties.as_mut() {
        bag.additional_properties
            .insert("expected".to_string(), json!(expected));
    }
    result
}

fn expectation_result(row: &Row) -> sarif::Result {
    let file = path_of(row);
    let text = format!("{file} at depth {}: {}", row.run.depth, super::detail(row));
    sarif::Result::builder()
        .rule_id(EXPECTATION_RULE)
        .rule_index(rule_index(EXPECTATION_RULE))
        .level(sarif::ResultLevel::Error)
        .message(message(text))
        .locations(vec![location(&file, None, None)])
        .partial_fingerprints(BTreeMap::from([(
            FINGERPRINT_KEY.to_string(),
            fingerprint(&[&file, EXPECTATION_RULE, &row.run.depth.to_string()]),
        )]))
        .build()
}
