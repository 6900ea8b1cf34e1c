//! How the library's choice enums are spelled on the command line: `clap::ValueEnum` for
//! the inlining mode, the proof engines, the solver and the suite's output format. The
//! library defines the enums and knows nothing of clap; this is the one place that names
//! their flag values and their help.

use crate::engine::Mode;
use crate::engine::Proofs;
use crate::engine::{AbstractionStart, Refinement};
use crate::solver::SolverKind;
use crate::suite::SuiteFormat;
use clap::ValueEnum;
use clap::builder::PossibleValue;

/// A `ValueEnum` from a table of (variant, flag value, help).
macro_rules! value_enum {
    ($ty:ty, [$(($variant:expr, $name:literal, $help:literal)),+ $(,)?]) => {
        impl ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &[$($variant),+]
            }

            fn to_possible_value(&self) -> Option<PossibleValue> {
                $(if *self == $variant {
                    return Some(PossibleValue::new($name).help($help));
                })+
                None
            }
        }
    };
}

value_enum!(
    Mode,
    [
        (
            Mode::Si,
            "si",
            "Stratified inlining on demand, falling back to unrolling"
        ),
        (Mode::Unroll, "unroll", "Full bound-K unrolling, one query"),
    ]
);

value_enum!(
    Proofs,
    [
        (
            Proofs::Houdini,
            "houdini",
            "Houdini's template summaries only"
        ),
        (
            Proofs::Chc,
            "chc",
            "Horn clauses solved by z3's Spacer only"
        ),
        (Proofs::Both, "both", "Both (the default)"),
        (
            Proofs::None,
            "none",
            "Neither: VERIFIED only where the call tree is finite"
        ),
    ]
);

value_enum!(
    SolverKind,
    [
        (
            SolverKind::Z3,
            "z3",
            "Z3 (`pip install z3-solver` puts `z3` on PATH; Debian's `z3` package works too)"
        ),
        (
            SolverKind::Cvc5,
            "cvc5",
            "cvc5 (Debian's `cvc5` package, or a release binary on PATH)"
        ),
    ]
);

value_enum!(
    SuiteFormat,
    [
        (
            SuiteFormat::Human,
            "human",
            "A table, failure details, then `N passed, M failed`"
        ),
        (
            SuiteFormat::Json,
            "json",
            "One JSON object: `rows` and the totals"
        ),
        (
            SuiteFormat::Junit,
            "junit",
            "JUnit XML: one testsuite, one testcase per run"
        ),
        (
            SuiteFormat::Sarif,
            "sarif",
            "SARIF 2.1.0: one result per bug, and per run that failed its expectation"
        ),
    ]
);

value_enum!(
    AbstractionStart,
    [
        (
            AbstractionStart::Cone,
            "cone",
            "The assertions' cone of influence, where it pays (the default)"
        ),
        (
            AbstractionStart::Assertions,
            "assertions",
            "The globals the assertions read, refined on spurious counterexamples"
        ),
        (
            AbstractionStart::Empty,
            "empty",
            "No global (CORRAL's start)"
        ),
    ]
);

value_enum!(
    Refinement,
    [
        (
            Refinement::InSolver,
            "alg2",
            "CORRAL's Alg. 2: assumptions over Boolean constants on one VC (the default)"
        ),
        (
            Refinement::DivideAndConquer,
            "alg1",
            "CORRAL's Alg. 1: each check rebuilds the tree for one abstraction"
        ),
    ]
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variant has a flag value, and the value parses back to the variant.
    fn round_trips<T: ValueEnum + PartialEq + std::fmt::Debug>() {
        for v in T::value_variants() {
            let name = v
                .to_possible_value()
                .expect("a flag value")
                .get_name()
                .to_string();
            assert_eq!(&T::from_str(&name, false).expect("parses back"), v);
        }
    }

    #[test]
    fn every_variant_round_trips() {
        round_trips::<Mode>();
        round_trips::<Proofs>();
        round_trips::<SolverKind>();
        round_trips::<SuiteFormat>();
        round_trips::<AbstractionStart>();
        round_trips::<Refinement>();
    }
}

value_enum!(
    crate::frontend::Lang,
    [
        (crate::frontend::Lang::Horef, "horef", "HORef"),
        (crate::frontend::Lang::Ocaml, "ocaml", "The OCaml subset"),
        (crate::frontend::Lang::Boogie, "boogie", "Boogie 2"),
        (crate::frontend::Lang::Ir, "ir", "The Boogie-like IR text"),
    ]
);
