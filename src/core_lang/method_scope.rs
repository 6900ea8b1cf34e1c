//! Which declaration a method name refers to, with BMC-2's re-declarations.
//!
//! The BMC-2 tool's benchmark programs concatenate smaller programs and so declare some
//! methods more than once. We accept that with the meaning the BMC-2 tool gives it
//! (`docs/bmc2-differences.md`): a use of a method name inside the body of method `i` refers
//! to the latest declaration of that name at or before `i` (a method sees itself, and the
//! methods declared before it keep calling the declaration they were written against);
//! a use with no declaration of the name before it — in `Main`, in the `Store`, or a forward
//! call — refers to the last declaration. Without re-declarations this is plain lookup.
//!
//! Guarantees: [`MethodScope::resolve`] returns a declaration of the name whenever the name
//! is declared at all; [`MethodScope::redeclarations`] lists every declaration after the
//! first of a name, each with the one it replaces, in source order.

use crate::core_lang::ast::{MethodId, Program};
use std::collections::HashMap;

/// Where a name is used: inside the body of a method, or outside every method body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UseSite {
    /// In the body of this method (lambdas inside it included).
    Method(MethodId),
    /// In `Main` or in a `Store` initial value.
    Outside,
}

/// A declaration of a method whose name an earlier declaration already has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Redeclaration {
    /// The declaration it replaces (the previous one of the same name).
    pub previous: MethodId,
    /// The new declaration.
    pub again: MethodId,
}

/// Every method declaration by name, in declaration order.
#[derive(Debug)]
pub struct MethodScope<'p> {
    by_name: HashMap<&'p str, Vec<MethodId>>,
}

impl<'p> MethodScope<'p> {
    pub fn new(program: &'p Program) -> MethodScope<'p> {
        let mut by_name: HashMap<&'p str, Vec<MethodId>> = HashMap::new();
        for method in &program.methods {
            by_name
                .entry(&method.name.name)
                .or_default()
                .push(method.id);
        }
        MethodScope { by_name }
    }

    /// The declaration `name` refers to at `site`, if `name` is a method at all.
    pub fn resolve(&self, name: &str, site: UseSite) -> Option<MethodId> {
        let decls = self.by_name.get(name)?;
        let before = match site {
            UseSite::Method(at) => decls.iter().rev().find(|d| **d <= at),
            UseSite::Outside => None,
        };
        before.or(decls.last()).copied()
    }

    /// Every re-declaration, in source order of the new declaration.
    pub fn redeclarations(&self) -> Vec<Redeclaration> {
        let mut out: Vec<Redeclaration> = self
            .by_name
            .values()
            .flat_map(|decls| {
                decls.windows(2).map(|w| Redeclaration {
                    previous: w[0],
                    again: w[1],
                })
            })
            .collect();
        out.sort_by_key(|r| r.again);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::horef::parse_program;

    const PROGRAM: &str = "Methods:\n\
        f (x:Int) :Int = 1;\n\
        g (x:Int) :Int = f x;\n\
        f (x:Int) :Int = 2;\n\
        h (x:Int) :Int = f x;\n\
        Main (n:Int) :Int : f n\n";

    #[test]
    fn each_declaration_is_seen_until_the_next_one_and_main_sees_the_last() {
        let program = parse_program(PROGRAM).unwrap();
        let scope = MethodScope::new(&program);
        let (first, g, second, h) = (MethodId(0), MethodId(1), MethodId(2), MethodId(3));
        assert_eq!(scope.resolve("f", UseSite::Method(g)), Some(first));
        assert_eq!(scope.resolve("f", UseSite::Method(first)), Some(first));
        assert_eq!(scope.resolve("f", UseSite::Method(second)), Some(second));
        assert_eq!(scope.resolve("f", UseSite::Method(h)), Some(second));
        assert_eq!(scope.resolve("f", UseSite::Outside), Some(second));
        assert_eq!(scope.resolve("h", UseSite::Method(first)), Some(h));
        assert_eq!(scope.resolve("nope", UseSite::Outside), None);
        let again = Redeclaration {
            previous: first,
            again: second,
        };
        assert_eq!(scope.redeclarations(), vec![again]);
    }
}
