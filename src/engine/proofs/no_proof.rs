//! Why no proof came, said once and in the program's terms (issue 33): the proof engines'
//! answers (each Horn system's, merged over its Spacer configurations) become one sentence
//! naming the recursive procedures whose facts a proof needs, with the engines' own reasons
//! after it, each distinct one once.
//!
//! Guarantee: the sentence claims only what the answers say. Spacer does not tell which
//! relation it was stuck on when its time ran out, so the sentence names the recursive
//! procedures (the only ones a proof needs facts about: the others are inlined) and says
//! that it does not know which fact was missing; a counterexample of some encoding is
//! reported as such (an over-approximation too coarse, or a failure deeper than the
//! bound), never as a bug.

use super::chc::ChcAnswer;
use super::houdini::recursive_sccs;
use boogie_like::ir::Program as IrProgram;

/// One sentence for the engines' `answers` (none of them a proof), or `None` when no
/// engine answered.
pub fn why_no_proof(ir: &IrProgram, answers: &[&ChcAnswer]) -> Option<String> {
    let mut reasons: Vec<String> = Vec::new();
    let mut refuted = false;
    for answer in answers {
        let why = match answer {
            ChcAnswer::NoProof(why) => why.clone(),
            ChcAnswer::Refuted => {
                refuted = true;
                "an encoding's clauses have a counterexample".to_string()
            }
            ChcAnswer::Proved(_) => continue,
        };
        for part in why.split("; ").map(without_configurations) {
            if !reasons.contains(&part) {
                reasons.push(part);
            }
        }
    }
    if reasons.is_empty() {
        return None;
    }
    let subject = match recursive_names(ir).as_slice() {
        [] => "the program's procedures".to_string(),
        [one] => format!("the calls of `{one}`"),
        names => {
            let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("the calls of {}", quoted.join(", "))
        }
    };
    let claim = match refuted {
        true => format!(
            "the facts the proof engines can state about {subject} do not exclude a failure \
             (too coarse, or the program fails deeper than the bound)"
        ),
        false => format!(
            "the facts needed about {subject} were not found (the engines do not say which \
             one was missing)"
        ),
    };
    Some(format!("{claim}: {}", reasons.join("; ")))
}

/// `configurations 1, 3: out of time` → `out of time`: which Spacer configuration gave a
/// reason is an engine detail.
fn without_configurations(part: &str) -> String {
    match part.split_once(": ") {
        Some((head, rest)) if head.starts_with("configuration") => rest.to_string(),
        _ => part.to_string(),
    }
}

/// The source-level names of the recursive procedures (not the entry, not the front end's
/// own helpers and anonymous functions, whose names hold `.`, `#` or `$`), in program order.
fn recursive_names(ir: &IrProgram) -> Vec<String> {
    let mut ids: Vec<_> = recursive_sccs(ir).into_iter().flatten().collect();
    ids.sort();
    ids.into_iter()
        .filter_map(|id| ir.procs.get(id))
        .filter(|p| !p.entrypoint && !p.name.contains(['.', '#', '$']))
        .map(|p| p.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ir(text: &str) -> IrProgram {
        boogie_like::parse::parse(text).expect("an IR program")
    }

    #[test]
    fn one_sentence_names_the_recursive_procedures_and_each_reason_once() {
        let program = ir(
            "procedure down(n: int) { if (n > 0) { call down(n - 1); } }\n\
             procedure {:entrypoint} Main(n: int) { call down(n); assert n > -5; }",
        );
        let timeouts = ChcAnswer::NoProof(
            "configurations 1, 3: out of time; configuration 2: the re-check rejected the model"
                .to_string(),
        );
        let also = ChcAnswer::NoProof("out of time".to_string());
        let why = why_no_proof(&program, &[&timeouts, &also]).expect("a reason");
        assert_eq!(
            why,
            "the facts needed about the calls of `down` were not found (the engines do not \
             say which one was missing): out of time; the re-check rejected the model"
        );
        let refuted = why_no_proof(&program, &[&also, &ChcAnswer::Refuted]).expect("a reason");
        assert!(refuted.starts_with("the facts the proof engines can state about the calls of `down` do not exclude a failure"), "{refuted}");
        assert_eq!(why_no_proof(&program, &[]), None);
    }
}
