//! Refinement templates: for one occurrence of a function type, a fresh `pre` and `post`
//! relation over the integers in scope where the function value is made, its arguments,
//! the `Int` globals, and (for `post`) its results and the globals after the call.
//!
//! Guarantee: every relation a template names is registered once, with one role per
//! parameter (`active`, then the scope, arguments and globals — the inputs — then results
//! and globals after), so the engine can show a solution in source terms. Function-typed
//! parameters and results get nested templates whose scope is the outer scope followed by
//! the integer arguments (dependent function types).

use super::Unsupported;
use crate::core_lang::ast::Type;
use crate::solver::Sort;
use crate::vc::horn::{Relation, RelationParam};
use crate::vc::smt::symbol;
use std::collections::HashSet;
use std::rc::Rc;

/// How a value of a type is represented: integers are SMT variables, functions are
/// templates (instantiated at scope terms), pairs are their components, and a list is
/// its length and its first element (the other elements are not tracked).
#[derive(Debug)]
pub enum Shape {
    Int,
    Unit,
    List,
    Pair(Box<Shape>, Box<Shape>),
    Fun(Rc<FunTemplate>),
}

/// The template of one function-type occurrence.
#[derive(Debug)]
pub struct FunTemplate {
    /// The SMT symbol of its precondition relation.
    pub pre: String,
    /// The SMT symbol of its postcondition relation.
    pub post: String,
    pub params: Vec<Shape>,
    pub ret: Shape,
}

impl Shape {
    /// How many integers a value of this shape carries.
    pub fn ints(&self) -> usize {
        match self {
            Shape::Int => 1,
            Shape::List => 2,
            Shape::Unit | Shape::Fun(_) => 0,
            Shape::Pair(a, b) => a.ints() + b.ints(),
        }
    }
}

impl FunTemplate {
    /// How many integers the arguments carry.
    pub fn param_ints(&self) -> usize {
        self.params.iter().map(Shape::ints).sum()
    }
}

/// The relations made so far, and the roles of the `Int` globals every template carries.
pub struct Relations {
    pub list: Vec<Relation>,
    /// The `pre` relation of every template, in the order made.
    pub pres: Vec<String>,
    globals: Vec<String>,
    taken: HashSet<String>,
}

impl Relations {
    pub fn new(globals: Vec<String>) -> Relations {
        Relations {
            list: Vec::new(),
            pres: Vec::new(),
            globals,
            taken: HashSet::new(),
        }
    }

    /// A template for `(params) -> ret` named `name`, over `scope` (roles of the integers
    /// in scope). Lists have no shape: [`Unsupported`].
    pub fn template(
        &mut self,
        name: &str,
        scope: &[String],
        params: &[(String, Type)],
        ret: &Type,
    ) -> Result<Rc<FunTemplate>, Unsupported> {
        let mut arg_roles = Vec::new();
        for (role, ty) in params {
            int_roles(role, ty, &mut arg_roles);
        }
        let inner: Vec<String> = scope.iter().chain(&arg_roles).cloned().collect();
        let params_shapes = params
            .iter()
            .map(|(role, ty)| self.shape(&format!("{name}.{role}"), &inner, ty))
            .collect::<Result<Vec<_>, _>>()?;
        let ret_shape = self.shape(&format!("{name}.ret"), &inner, ret)?;
        let mut ret_roles = Vec::new();
        int_roles("ret", ret, &mut ret_roles);
        let primed: Vec<String> = self.globals.iter().map(|g| format!("{g}'")).collect();
        let inputs: Vec<String> = inner.iter().chain(&self.globals).cloned().collect();
        let outputs: Vec<String> = ret_roles.into_iter().chain(primed).collect();
        let pre = self.relation(&format!("{name}.pre"), &inputs, &[]);
        self.pres.push(pre.clone());
        let post = self.relation(&format!("{name}.post"), &inputs, &outputs);
        Ok(Rc::new(FunTemplate {
            pre,
            post,
            params: params_shapes,
            ret: ret_shape,
        }))
    }

    /// The shape of `ty`, with fresh templates for the function types in it.
    fn shape(&mut self, name: &str, scope: &[String], ty: &Type) -> Result<Shape, Unsupported> {
        Ok(match ty {
            Type::Int => Shape::Int,
            Type::Unit => Shape::Unit,
            Type::List(element) if **element == Type::Int => Shape::List,
            Type::List(_) => return Err(Unsupported("lists of non-integer elements".into())),
            Type::Ref(_) => return Err(Unsupported("allocated references (`Ref` types)".into())),
            Type::Data(_) => return Err(Unsupported("datatypes (recursive variants)".into())),
            Type::Pair(a, b) => Shape::Pair(
                Box::new(self.shape(&format!("{name}.1"), scope, a)?),
                Box::new(self.shape(&format!("{name}.2"), scope, b)?),
            ),
            Type::Arrow(params, ret) => {
                let named: Vec<(String, Type)> = params
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (format!("x{}", i + 1), t.clone()))
                    .collect();
                Shape::Fun(self.template(name, scope, &named, ret)?)
            }
        })
    }

    /// Registers `name(active, inputs, outputs)`; returns its SMT symbol.
    fn relation(&mut self, name: &str, inputs: &[String], outputs: &[String]) -> String {
        let name = simple(name);
        let mut unique = name.clone();
        let mut n = 1;
        while !self.taken.insert(unique.clone()) {
            n += 1;
            unique = format!("{name}~{n}");
        }
        let symbol = symbol(&unique);
        let param = |role: &String, sort: Sort| RelationParam {
            role: role.clone(),
            sort,
        };
        let mut params = vec![param(&"active".to_string(), Sort::Bool)];
        params.extend(inputs.iter().map(|r| param(r, Sort::Int)));
        params.extend(outputs.iter().map(|r| param(r, Sort::Int)));
        self.list.push(Relation {
            proc: None,
            name: symbol.clone(),
            params,
            inputs: inputs.len(),
            defined_true: false,
        });
        symbol
    }
}

/// The roles of the integers a value of `ty` named `role` carries (`p.1` for a pair's).
pub fn int_roles(role: &str, ty: &Type, out: &mut Vec<String>) {
    match ty {
        Type::Int => out.push(role.to_string()),
        Type::List(_) => {
            out.push(format!("{role}.len"));
            out.push(format!("{role}.hd"));
        }
        Type::Pair(a, b) => {
            int_roles(&format!("{role}.1"), a, out);
            int_roles(&format!("{role}.2"), b, out);
        }
        _ => {}
    }
}

/// `name` as a simple SMT-LIB symbol: every character a simple symbol may not hold
/// becomes `.` (`fun@7:3` is `fun@7.3`), so every tool spells it alike, unquoted.
fn simple(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c) {
                c
            } else {
                '.'
            }
        })
        .collect()
}

/// `(rel true args…)`.
pub fn apply(relation: &str, args: &[&[String]]) -> String {
    let mut text = format!("({relation} true");
    for arg in args.iter().flat_map(|a| a.iter()) {
        text.push(' ');
        text.push_str(arg);
    }
    text.push(')');
    text
}
