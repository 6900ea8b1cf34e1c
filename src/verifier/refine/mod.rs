//! Refinement-type inference as Horn clauses (issue 12): a second Horn encoding of a
//! program, built from the typed HORef AST instead of the defunctionalized IR, in the style
//! of MoCHi and HoIce (liquid types, call-by-value, left to right).
//!
//! Closures are not data here: every *occurrence* of a function type (a method's
//! signature, a `fun`, a `let rec`, a function-typed parameter or result, nested) gets a
//! template of two fresh relations,
//! `pre(scope, args, globals)` and `post(scope, args, globals, results, globals')`, where
//! `scope` are the `Int` variables in scope where the function value is made
//! ([`template`]). A fact about a chain of closures ("every closure of this chain answers
//! `j` with `j`") is then a fact about one relation over integers, which Spacer can find.
//! A method that takes functions gets a ghost integer parameter, which every direct call
//! passes ([`Ghost`] says which value); a ghost is a parameter the body never reads, so
//! any value passed for it is sound, and it lets the method's templates depend on where
//! the closures it was given come from (without it, `cps.horef` and `power.horef` have
//! no solution: every call would share one `post`).
//!
//! The clauses ([`generate`], [`subtype`]): a function body is checked under its `pre`
//! (each path of it: the path condition, the `post` of every call made on it); a call
//! requires the callee's `pre` and assumes its `post`; a function value passed where
//! another template is expected is a subtype of it (its `pre` is weaker, its `post`
//! stronger, contravariantly for its own function parameters); `assert e` on a path where
//! `e` is `0`, and `fail`, imply `false`. `Int` references are state threaded through
//! every `pre`/`post`; they start at their `Store:` values in `Main`, whose inputs are
//! unconstrained.
//!
//! Guarantee: a solution of the clauses is a refinement typing of the program under which
//! no `assert`/`fail` is reachable in any unbounded execution from any input. A run at
//! depth `K` (docs/semantics.md) is a prefix of the unbounded run on the same inputs, cut off
//! at a call that is not made; its failure would be the same failure of the unbounded
//! run, so "no failure in any unbounded execution" implies "no failure at any `K`".
//! A list is abstracted to its length and its first element (`hd []`/`tl []` fail where
//! the length is `0`; the rest of a `tl` is unconstrained): every run is one of the
//! abstraction's, so a solution still rules out every failure. What the encoding cannot
//! model soundly — references holding anything but `Int`/`Unit`, division (the OCaml
//! front end's `/` and `mod`), too many paths through one body — is refused with
//! [`Unsupported`], never guessed. The clauses are plain [`HornSystem`]s, so the
//! engine re-checks any model clause by clause in a fresh solver, as for the IR encoding.

mod generate;
mod subtype;
mod template;
mod value;

use crate::core_lang::Checked;
use crate::core_lang::ast::Program;
use crate::core_lang::names::FunctionNames;
use crate::core_lang::typecheck::TypeInfo;
use crate::engine;
use crate::vc::horn::HornSystem;
use std::sync::Arc;

/// A construct the refinement encoding does not handle; the program gets no such
/// clauses (the other engines still run).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the refinement-type encoding does not handle {0}")]
pub struct Unsupported(pub String);

/// What a direct call passes as the ghost of a method that takes functions. Measured
/// (z3 4.x Spacer, global guidance): `cps.horef` needs [`Ghost::Context`],
/// `power.horef` needs [`Ghost::Innermost`]; one ghost of each kind at once is correct
/// too but Spacer did not solve `power.horef` within 20 s, so each kind is its own system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ghost {
    /// The caller's own ghost, passed on unchanged through recursion; from a caller
    /// without one, its innermost `Int` variable (`Main`'s last input).
    Context,
    /// The caller's innermost `Int` variable (the last one bound), `0` if it has none.
    Innermost,
    /// Two ghosts: the calling method (a number: its index, `Main` the number of methods)
    /// and [`Ghost::Innermost`]'s. Closures a method such as `compose` is given by
    /// different callers then get apart in its templates (`site = 3 ⇒ ret = x1 + 2`), which
    /// a single integer ghost merges (issue 33: `power` and `power_left` both composing).
    SitedInnermost,
}

/// The refinement-type Horn clauses of a checked program with the given ghost scheme.
/// The system is satisfiable only if no execution of `Main` fails (see the module doc);
/// every `assert`/`fail` on some path has a goal clause (a clause with head `false`).
pub fn horn_of(
    program: &Program,
    info: &TypeInfo,
    names: &FunctionNames,
    ghost: Ghost,
) -> Result<HornSystem, Unsupported> {
    Ok(generate::Generator::new(program, info, names, ghost)?
        .run()?
        .0)
}

/// The systems of a program for the engine to try side by side; `Err` if the program
/// has a construct the encoding does not handle. One per [`Ghost`] scheme, and for a
/// program with closures (function values other than its methods) the
/// [`Ghost::Innermost`] system once more with every closure's `pre` defined `true`
/// ([`HornSystem::with_defined_true`]): a closure is then summarized by its `post` alone,
/// for every argument — a relation between its argument and its result, such as
/// `ret = x + 3 · n` for `power (f, n)`. A stronger question, so its models are models
/// of the full clauses, and the re-check checks exactly that; it fails only where a
/// closure is safe or precise only for the arguments it is given (an `assert` on its
/// argument inside it), which the full systems still cover. Measured (issue 33,
/// `benchmarks/programs/power.horef`, Spacer with global guidance): 0.7 s instead of
/// 7–30 s. Systems of the same text are given once.
pub fn horn_systems(
    program: &Program,
    info: &TypeInfo,
    names: &FunctionNames,
) -> Result<Vec<HornSystem>, Unsupported> {
    let mut systems = vec![
        horn_of(program, info, names, Ghost::Context)?,
        horn_of(program, info, names, Ghost::Innermost)?,
    ];
    systems.extend(horn_of_closure_posts(program, info, names)?);
    // Where the ghost schemes coincide (a program whose procedures take no function
    // values), two systems have one text: Spacer would solve it twice, side by side.
    let mut seen = std::collections::HashSet::new();
    systems.retain(|system| seen.insert(system.script()));
    Ok(systems)
}

/// The [`Ghost::Innermost`] system with every closure's `pre` defined `true` (see
/// [`horn_systems`]); `None` when the program makes no closure (it would be the same
/// system).
pub fn horn_of_closure_posts(
    program: &Program,
    info: &TypeInfo,
    names: &FunctionNames,
) -> Result<Option<HornSystem>, Unsupported> {
    let generator = generate::Generator::new(program, info, names, Ghost::SitedInnermost)?;
    let (system, closure_pres) = generator.run()?;
    Ok((!closure_pres.is_empty()).then(|| system.with_defined_true(&closure_pres)))
}

/// `options` with the refinement systems of `checked` as further Horn systems for the
/// engine to try ([`engine::Options::extra_chc`]), when the Horn-clause engine is on and
/// the encoding handles the program; otherwise `options` as they are.
pub fn with_refinement_systems(checked: &Checked, options: &engine::Options) -> engine::Options {
    let mut options = options.clone();
    if options.chc
        && let Ok(systems) = horn_systems(&checked.program, &checked.info, &checked.names)
    {
        options.extra_chc = systems.into_iter().map(Arc::new).collect();
    }
    options
}

#[cfg(test)]
mod tests {
    use super::*;

    fn systems(text: &str) -> Vec<HornSystem> {
        let checked = crate::frontend::load_bytes("t.horef", text.as_bytes()).expect("checks");
        horn_systems(&checked.program, &checked.info, &checked.names).expect("encodes")
    }

    const POWER: &str = "Methods:\nid (x:Int) :Int = x;\ncompose (f:Int -> Int, g:Int -> Int) :(Int -> Int) = fun (x:Int) :(Int) -> f (g x);\npower (f:Int -> Int, n:Int) :(Int -> Int) =\n  if n <= 0 then id else compose (f, power (f, n - 1));\n\nMain (n:Int) :Unit:\n  if n >= 0 then assert (power (fun (x:Int) :(Int) -> x + 3, n) 0 == 3 * n) else skip\n";

    #[test]
    fn closures_get_a_third_system_with_their_preconditions_defined_true() {
        let all = systems(POWER);
        assert_eq!(all.len(), 3);
        assert!(
            all[..2]
                .iter()
                .all(|s| s.relations.iter().all(|r| !r.defined_true))
        );
        let defined: Vec<&str> = (all[2].relations.iter())
            .filter(|r| r.defined_true)
            .map(|r| r.name.as_str())
            .collect();
        // Every closure's `pre` (of a `fun`, of a function-typed parameter or result),
        // never a method's own `pre` nor any `post`.
        assert!(defined.contains(&"fun@3.54.pre"), "{defined:?}");
        assert!(defined.contains(&"power.f.pre"), "{defined:?}");
        assert!(defined.contains(&"compose.ret.pre"), "{defined:?}");
        assert!(defined.iter().all(|n| n.ends_with(".pre")), "{defined:?}");
        for method in ["id.pre", "compose.pre", "power.pre"] {
            assert!(!defined.contains(&method), "{defined:?}");
        }
        let script = all[2].script();
        assert!(script.contains("(define-fun fun@3.54.pre ("), "{script}");
        assert!(script.contains("(declare-fun power.pre ("), "{script}");
        // The clauses are the same: only the relations' interpretation differs.
        assert_eq!(all[2].clauses.len(), all[1].clauses.len());
        // A method that takes functions gets the calling method as a further ghost.
        let compose = |s: &HornSystem| {
            let r = s.relations.iter().find(|r| r.name == "compose.pre");
            r.expect("compose.pre").params.len()
        };
        assert_eq!(compose(&all[2]), compose(&all[1]) + 1);
    }

    #[test]
    fn a_program_without_function_values_gets_one_system() {
        // Its two ghost schemes give the same clauses: one text, solved once.
        let all = systems(
            "Methods:\nf (x:Int) :Int = x + 1;\n\nMain (n:Int) :Unit:\n  assert (f n > n)\n",
        );
        assert_eq!(all.len(), 1);
    }

    #[test]
    fn the_systems_given_are_distinct_texts() {
        let all = systems(POWER);
        let texts: std::collections::HashSet<String> = all.iter().map(HornSystem::script).collect();
        assert_eq!(texts.len(), all.len());
    }
}
