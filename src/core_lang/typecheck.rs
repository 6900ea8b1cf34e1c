//! Type checking and name resolution for HORef.
//!
//! Guarantees on success: every expression has a type in [`TypeInfo::expr_types`], every
//! variable occurrence is resolved to the binder or method it names (ordinary lexical
//! scoping: inner binders shadow outer ones and shadow method names; a method declared more
//! than once resolves as [`crate::core_lang::method_scope`] says), every `!r` / `r := e`
//! names a local variable of a `Ref` type in scope or else a declared `Store:` reference
//! ([`TypeInfo::cell`]), `!e`, `e1 := e2` and `ref e` are on values of `Ref` types,
//! applications pass exactly as many arguments as the function
//! takes, `Main` takes only `Int`/`Unit` inputs, and `Store` initial values are constants.
//! On failure it returns every error it found, not just the first: after an error the
//! offending expression gets an unknown type that agrees with everything, so one mistake
//! does not cascade.

use crate::core_lang::ast::*;
use crate::core_lang::method_scope::{MethodScope, Redeclaration, UseSite};
use crate::diagnostics::Diagnostic;
use crate::span::Span;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// What a variable occurrence refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    Local(BinderId),
    Method(MethodId),
}

/// The facts the checker establishes, in side tables indexed by the AST's ids.
#[derive(Debug, Default)]
pub struct TypeInfo {
    /// The type of every expression, by `ExprId`.
    pub expr_types: Vec<Type>,
    /// What each `Var` expression names, by `ExprId`.
    pub vars: HashMap<ExprId, Resolution>,
    /// Which reference each `!r` / `r := e` expression names, by `ExprId`.
    pub refs: HashMap<ExprId, RefId>,
    /// Methods declared again under a name already declared (accepted, as BMC-2 does).
    pub redeclarations: Vec<Redeclaration>,
    /// The expressions whose type nothing fixes: `fail` where no context gives it a type,
    /// and what must evaluate such an expression to produce its value (`(fail) 0`,
    /// `Pair(0, fail)`, `fst` of those, `if c then fail else fail`, ...). In a checked
    /// program each of them fails whenever it runs, so it never produces a value; its
    /// entry in `expr_types` is only the type its context expects (`Unit` if none).
    pub diverging: HashSet<ExprId>,
}

impl TypeInfo {
    pub fn type_of(&self, e: &Expr) -> &Type {
        &self.expr_types[e.id.index()]
    }

    pub fn resolution(&self, e: &Expr) -> Option<Resolution> {
        self.vars.get(&e.id).copied()
    }

    pub fn reference(&self, e: &Expr) -> Option<RefId> {
        self.refs.get(&e.id).copied()
    }

    /// The cell a `!r` / `r := e` on a name accesses.
    pub fn cell(&self, e: &Expr) -> Option<NamedCell> {
        match (self.reference(e), self.resolution(e)) {
            (Some(r), _) => Some(NamedCell::Store(r)),
            (None, Some(Resolution::Local(b))) => Some(NamedCell::Local(b)),
            _ => None,
        }
    }
}

/// What the name of `!r` / `r := e` means: a local variable of a `Ref` type in scope
/// shadows a `Store:` reference of the same name; a local of any other type does not (so
/// programs without `Ref` types read exactly as before).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedCell {
    Store(RefId),
    /// The cell is the value of this local (of a `Ref` type).
    Local(BinderId),
}

/// Checks a parsed program; returns its type information or every error found.
pub fn check_program(program: &Program) -> Result<TypeInfo, Vec<Diagnostic>> {
    let mut checker = Checker::new(program);
    checker.check_declarations();
    if checker.diagnostics.is_empty() {
        Ok(checker.finish())
    } else {
        Err(checker.diagnostics)
    }
}

/// A type, or `None` when unknown (after an error, or for `fail`): agrees with everything.
type Ty = Option<Type>;

struct Checker<'p> {
    program: &'p Program,
    methods: MethodScope<'p>,
    /// Where the expressions being checked are, for resolving method names.
    site: UseSite,
    refs: HashMap<&'p str, RefId>,
    /// Binders in scope, innermost last.
    scope: Vec<(Rc<str>, BinderId, Type)>,
    types: Vec<Option<Type>>,
    info: TypeInfo,
    diagnostics: Vec<Diagnostic>,
}

impl<'p> Checker<'p> {
    fn new(program: &'p Program) -> Checker<'p> {
        Checker {
            program,
            methods: MethodScope::new(program),
            site: UseSite::Outside,
            refs: HashMap::new(),
            scope: Vec::new(),
            types: vec![None; program.expr_count as usize],
            info: TypeInfo::default(),
            diagnostics: Vec::new(),
        }
    }

    fn finish(mut self) -> TypeInfo {
        self.info.expr_types = self
            .types
            .into_iter()
            .map(|t| t.unwrap_or(Type::Unit))
            .collect();
        self.info
    }

    fn error(&mut self, span: Span, message: impl Into<String>, label: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::error(span, message, label));
    }

    // ----- declarations -----

    fn check_declarations(&mut self) {
        self.declare_refs();
        self.info.redeclarations = self.methods.redeclarations();
        for decl in &self.program.store {
            self.check_store_init(decl);
        }
        for method in &self.program.methods {
            self.site = UseSite::Method(method.id);
            self.check_function_body(&method.params, &method.ret, &method.body);
        }
        self.site = UseSite::Outside;
        self.check_main();
    }

    fn declare_refs(&mut self) {
        for decl in &self.program.store {
            if self.refs.insert(&decl.name.name, decl.id).is_some() {
                self.duplicate(&decl.name, "reference");
            }
        }
    }

    fn duplicate(&mut self, name: &Ident, what: &str) {
        self.error(
            name.span,
            format!("the {what} `{}` is declared twice", name.name),
            format!("second declaration of `{}`", name.name),
        );
    }

    fn check_main(&mut self) {
        let main = &self.program.main;
        for param in &main.params {
            if !param.ty.is_ground() {
                self.error(
                    param.name.span,
                    format!(
                        "the inputs of `Main` must have type `Int` or `Unit`, but `{}` has type `{}`",
                        param.name.name, param.ty
                    ),
                    "not a ground type",
                );
            }
        }
        self.check_function_body(&main.params, &main.ret, &main.body);
    }

    fn check_function_body(&mut self, params: &[Binder], ret: &Type, body: &Expr) {
        self.check_distinct_params(params);
        let depth = self.scope.len();
        for param in params {
            self.bind(param);
        }
        self.check(body, ret);
        self.scope.truncate(depth);
    }

    fn check_distinct_params(&mut self, params: &[Binder]) {
        for (i, param) in params.iter().enumerate() {
            if params[..i].iter().any(|p| p.name.name == param.name.name) {
                self.error(
                    param.name.span,
                    format!(
                        "the parameter `{}` appears twice in one parameter list",
                        param.name.name
                    ),
                    "repeated parameter",
                );
            }
        }
    }

    fn check_store_init(&mut self, decl: &RefDecl) {
        if !is_constant(&decl.init) {
            self.error(
                decl.init.span,
                format!(
                    "the initial value of the reference `{}` is not a constant",
                    decl.name.name
                ),
                "expected an integer, `skip`, `[]`, a method name, or `Pair`/`::`/`ref` of those",
            );
            return;
        }
        self.check(&decl.init, &decl.ty);
    }

    fn bind(&mut self, binder: &Binder) {
        self.scope
            .push((binder.name.name.clone(), binder.id, binder.ty.clone()));
    }

    // ----- expressions -----

    /// Checks `e` against `expected`, reporting a mismatch at `e`.
    fn check(&mut self, e: &Expr, expected: &Type) {
        let found = self.infer(e, Some(expected));
        self.expect_type(e.span, &found, expected);
    }

    fn expect_type(&mut self, span: Span, found: &Ty, expected: &Type) {
        if let Some(found) = found
            && found != expected
        {
            self.error(
                span,
                format!("type mismatch: expected `{expected}`, found `{found}`"),
                format!("this has type `{found}`"),
            );
        }
    }

    /// Infers the type of `e`; `hint` is the type the context wants, used for `fail` and
    /// passed into branches. Records the type of every node.
    fn infer(&mut self, e: &Expr, hint: Option<&Type>) -> Ty {
        let ty = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.infer_kind(e, hint));
        if ty.is_none() {
            self.info.diverging.insert(e.id);
        }
        self.types[e.id.index()] = ty.clone().or_else(|| hint.cloned());
        ty
    }

    fn infer_kind(&mut self, e: &Expr, hint: Option<&Type>) -> Ty {
        match &e.kind {
            ExprKind::Int(_) => Some(Type::Int),
            ExprKind::Skip => Some(Type::Unit),
            ExprKind::Fail => None,
            // `[]` has the list type its context wants (HORef's `List` if none).
            ExprKind::Nil => Some(match hint {
                Some(list @ Type::List(_)) => list.clone(),
                _ => Type::int_list(),
            }),
            ExprKind::Var(name) => self.variable(e, name),
            ExprKind::Fun(lambda) => Some(self.lambda(lambda)),
            ExprKind::App { func, args } => self.application(func, args),
            ExprKind::Let {
                binder,
                value,
                body,
            } => self.let_in(binder, value, body, hint),
            ExprKind::LetRec {
                binder,
                lambda,
                body,
            } => self.let_rec(binder, lambda, body, hint),
            ExprKind::If {
                cond,
                then_branch,
                else_branch,
            } => self.conditional(cond, then_branch, else_branch, hint),
            ExprKind::Assert(cond) => {
                self.check(cond, &Type::Int);
                Some(Type::Unit)
            }
            ExprKind::Assign { reference, value } => self.assign(e, reference, value),
            ExprKind::Deref(reference) => self.lookup_ref(e, reference),
            ExprKind::Alloc(content) => {
                let hint = match hint {
                    Some(Type::Ref(content)) => Some(&**content),
                    _ => None,
                };
                let ty = self.infer(content, hint);
                Some(Type::reference(ty.or_else(|| hint.cloned())?))
            }
            ExprKind::Load(target) => self.load(target),
            ExprKind::Store { target, value } => {
                match self.load(target) {
                    Some(ty) => self.check(value, &ty),
                    None => drop(self.infer(value, None)),
                }
                Some(Type::Unit)
            }
            ExprKind::Offset { base, index } => {
                let cell = self.load(base).map(Type::reference);
                self.check(index, &Type::Int);
                cell
            }
            ExprKind::Pair(first, second) => self.pair(first, second, hint),
            ExprKind::Proj { which, annot, pair } => self.projection(*which, annot, pair),
            ExprKind::Cons(head, tail) => self.cons(head, tail, hint),
            ExprKind::List(op, list) => self.list_op(*op, list),
            ExprKind::Binary { op, lhs, rhs } => {
                let found = self.infer(lhs, Some(&Type::Int));
                if let (BinOp::Eq | BinOp::Ne, Some(cell @ Type::Ref(_))) = (op, &found) {
                    // Physical equality of references (our extension): the same cell.
                    self.check(rhs, cell);
                    return Some(Type::Int);
                }
                self.expect_type(lhs.span, &found, &Type::Int);
                self.check(rhs, &Type::Int);
                Some(Type::Int)
            }
            ExprKind::Neg(operand) => {
                self.check(operand, &Type::Int);
                Some(Type::Int)
            }
            ExprKind::Construct { data, ctor, args } => self.construct(e.span, data, *ctor, args),
            ExprKind::IsCtor { ctor, value } => {
                self.datatype_ctor(value, *ctor)?;
                Some(Type::Int)
            }
            ExprKind::Field { ctor, field, value } => {
                let fields = self.datatype_ctor(value, *ctor)?;
                match fields.get(*field as usize) {
                    Some(t) => Some(t.clone()),
                    None => {
                        self.error(
                            e.span,
                            format!("constructor {ctor} has no field {field}"),
                            "no such field",
                        );
                        None
                    }
                }
            }
            ExprKind::Raise { exn, arg } => {
                self.raise(e, *exn, arg.as_deref());
                None
            }
            ExprKind::Try { body, handlers } => self.try_with(body, handlers, hint),
            ExprKind::Input { below } => {
                if let Some(below) = below {
                    self.check(below, &Type::Int);
                }
                Some(Type::Int)
            }
        }
    }

    /// `raise E` has no type of its own (it never returns); its argument has the declared
    /// type, present exactly when the exception carries one.
    fn raise(&mut self, e: &Expr, exn: ExnId, arg: Option<&Expr>) {
        let declared = self.program.exceptions.get(exn.index()).cloned();
        match (declared, arg) {
            (Some(d), Some(arg)) if d.arg.is_some() => {
                let ty = d.arg.clone().unwrap_or(Type::Int);
                self.check(arg, &ty);
            }
            (Some(d), None) if d.arg.is_none() => {}
            _ => self.error(
                e.span,
                "`raise` of an undeclared exception, or with the wrong argument",
                "exception and argument differ from its declaration",
            ),
        }
    }

    /// `try body with handlers`: every handler has the body's type; a handler may bind the
    /// argument of an exception that has one.
    fn try_with(&mut self, body: &Expr, handlers: &[Handler], hint: Option<&Type>) -> Ty {
        let mut ty = self.infer(body, hint);
        for handler in handlers {
            let expects_arg = handler
                .exn
                .and_then(|x| self.program.exceptions.get(x.index()))
                .and_then(|d| d.arg.clone());
            if let Some(binder) = &handler.arg
                && expects_arg.as_ref() != Some(&binder.ty)
            {
                self.error(
                    handler.span,
                    "a handler binds an argument its exception does not carry",
                    "only an exception with an argument has one, of its declared type",
                );
            }
            if let Some(binder) = &handler.arg {
                self.bind(binder);
            }
            let expected = ty.clone().or_else(|| hint.cloned());
            let found = self.infer(&handler.body, expected.as_ref());
            if handler.arg.is_some() {
                self.scope.pop();
            }
            match (&ty, found) {
                (Some(t), Some(f)) if *t != f => {
                    let message = format!(
                        "the handlers of `try` differ: the body has type `{t}`, a handler `{f}`"
                    );
                    self.error(handler.body.span, message, format!("this has type `{f}`"));
                }
                (None, found) => ty = found,
                _ => {}
            }
        }
        ty
    }

    fn variable(&mut self, e: &Expr, name: &Ident) -> Ty {
        if let Some((_, binder, ty)) = self.scope.iter().rev().find(|(n, ..)| *n == name.name) {
            self.info.vars.insert(e.id, Resolution::Local(*binder));
            return Some(ty.clone());
        }
        if let Some(method) = self.methods.resolve(&name.name, self.site) {
            self.info.vars.insert(e.id, Resolution::Method(method));
            return Some(self.program.method(method).ty());
        }
        let mut diagnostic = Diagnostic::error(
            name.span,
            format!("unknown name `{}`", name.name),
            "not a variable or method in scope",
        );
        if self.refs.contains_key(&*name.name) {
            diagnostic = diagnostic.with_note(format!(
                "`{0}` is a reference: read it with `!{0}`",
                name.name
            ));
        }
        self.diagnostics.push(diagnostic);
        None
    }

    fn lambda(&mut self, lambda: &Lambda) -> Type {
        self.check_function_body(&lambda.params, &lambda.ret, &lambda.body);
        lambda.ty()
    }

    fn application(&mut self, func: &Expr, args: &[Expr]) -> Ty {
        let func_ty = self.infer(func, None);
        let Some(func_ty) = func_ty else {
            for arg in args {
                self.infer(arg, None);
            }
            return None;
        };
        let Type::Arrow(params, ret) = &func_ty else {
            self.error(
                func.span,
                format!(
                    "this is applied to arguments but has type `{func_ty}`, not a function type"
                ),
                "not a function",
            );
            return None;
        };
        if params.len() != args.len() {
            self.arity_error(func, params, args);
            return Some((**ret).clone());
        }
        for (arg, param) in args.iter().zip(params) {
            self.check(arg, param);
        }
        Some((**ret).clone())
    }

    fn arity_error(&mut self, func: &Expr, params: &[Type], args: &[Expr]) {
        let span = args.iter().fold(func.span, |s, a| s.to(a.span));
        let plural = if params.len() == 1 { "" } else { "s" };
        let mut diagnostic = Diagnostic::error(
            span,
            format!(
                "wrong number of arguments: the function takes {} argument{plural}, but {} {} given",
                params.len(),
                args.len(),
                if args.len() == 1 { "is" } else { "are" }
            ),
            format!("expected {} argument{plural}", params.len()),
        );
        if params.len() == 1 && matches!(params[0], Type::Pair(..)) {
            diagnostic = diagnostic.with_note("the function takes one pair: pass `Pair(a, b)`");
        }
        self.diagnostics.push(diagnostic);
        for arg in args {
            self.infer(arg, None);
        }
    }

    /// `let (x:Unit) = e in b` is sequencing: `e` may have any type and `x` is `skip`
    /// (the BMC-2 tool did not type-check, and its programs use this idiom).
    /// `head :: tail`: the element type is the context's (if it wants a list) or the
    /// head's; the tail is a list of the same elements.
    fn cons(&mut self, head: &Expr, tail: &Expr, hint: Option<&Type>) -> Ty {
        let element = match hint.and_then(Type::element) {
            Some(element) => {
                self.check(head, element);
                element.clone()
            }
            None => self.infer(head, None).unwrap_or_else(|| {
                // A head that never produces a value: the list is HORef's `List`.
                self.types[head.id.index()] = Some(Type::Int);
                Type::Int
            }),
        };
        let list = Type::list(element);
        self.check(tail, &list);
        Some(list)
    }

    /// `C(args)` of the datatype `data`: one argument of each field's type.
    fn construct(&mut self, span: Span, data: &Rc<str>, ctor: u32, args: &[Expr]) -> Ty {
        let fields = self
            .program
            .datatype(data)
            .and_then(|d| d.ctors.get(ctor as usize))
            .map(|c| c.fields.clone());
        let Some(fields) = fields else {
            self.error(
                span,
                format!("datatype `{data}` has no constructor {ctor}"),
                "unknown constructor",
            );
            return None;
        };
        if fields.len() != args.len() {
            self.error(
                span,
                format!(
                    "constructor {ctor} of `{data}` takes {} argument(s)",
                    fields.len()
                ),
                "wrong number of arguments",
            );
            return None;
        }
        for (arg, field) in args.iter().zip(&fields) {
            self.check(arg, field);
        }
        Some(Type::Data(data.clone()))
    }

    /// The field types of constructor `ctor` of the datatype `value` has.
    fn datatype_ctor(&mut self, value: &Expr, ctor: u32) -> Option<Vec<Type>> {
        let found = self.infer(value, None)?;
        let fields = match &found {
            Type::Data(name) => self
                .program
                .datatype(name)
                .and_then(|d| d.ctors.get(ctor as usize))
                .map(|c| c.fields.clone()),
            _ => None,
        };
        if fields.is_none() {
            self.error(
                value.span,
                format!("expected a datatype with constructor {ctor}, found `{found}`"),
                "not such a datatype",
            );
        }
        fields
    }

    /// `hd`, `tl`, `is_empty` on a list of any element type.
    fn list_op(&mut self, op: ListOp, list: &Expr) -> Ty {
        let found = self.infer(list, None);
        let element = match &found {
            None => {
                // A list that never produces a value: HORef's `List`, as its context has.
                self.types[list.id.index()] = Some(Type::int_list());
                Type::Int
            }
            Some(Type::List(element)) => (**element).clone(),
            Some(other) => {
                self.expect_type(list.span, &Some(other.clone()), &Type::int_list());
                Type::Int
            }
        };
        Some(match op {
            ListOp::IsEmpty => Type::Int,
            ListOp::Hd => element,
            ListOp::Tl => Type::list(element),
        })
    }

    fn let_in(&mut self, binder: &Binder, value: &Expr, body: &Expr, hint: Option<&Type>) -> Ty {
        if binder.ty == Type::Unit {
            self.infer(value, None);
        } else {
            self.check(value, &binder.ty);
        }
        self.bind(binder);
        let ty = self.infer(body, hint);
        self.scope.pop();
        ty
    }

    fn let_rec(
        &mut self,
        binder: &Binder,
        lambda: &Lambda,
        body: &Expr,
        hint: Option<&Type>,
    ) -> Ty {
        let lambda_ty = lambda.ty();
        if binder.ty != lambda_ty {
            self.error(
                binder.name.span,
                format!(
                    "`{}` is declared with type `{}` but its function has type `{lambda_ty}`",
                    binder.name.name, binder.ty
                ),
                "declared type differs from the function's",
            );
        }
        self.bind(binder);
        self.lambda(lambda);
        let ty = self.infer(body, hint);
        self.scope.pop();
        ty
    }

    fn conditional(
        &mut self,
        cond: &Expr,
        then_e: &Expr,
        else_e: &Expr,
        hint: Option<&Type>,
    ) -> Ty {
        self.check(cond, &Type::Int);
        let then_ty = self.infer(then_e, hint);
        let else_hint = then_ty.as_ref().or(hint);
        let else_ty = self.infer(else_e, else_hint);
        match (then_ty, else_ty) {
            (Some(t), Some(e)) if t != e => {
                self.branches_differ(then_e, &t, else_e, &e, hint);
                None
            }
            (t, e) => t.or(e),
        }
    }

    /// Blames the `else` branch, unless only the `then` branch disagrees with the type the
    /// context expects.
    fn branches_differ(
        &mut self,
        then_e: &Expr,
        t: &Type,
        else_e: &Expr,
        e: &Type,
        hint: Option<&Type>,
    ) {
        let message =
            format!("the branches of `if` differ: `then` has type `{t}`, `else` has type `{e}`");
        if hint == Some(e) {
            let label = format!("this has type `{t}`, but `{e}` is expected here");
            self.error(then_e.span, message, label);
        } else {
            self.error(else_e.span, message, format!("this has type `{e}`"));
        }
    }

    /// The content type of the reference `target` evaluates to.
    fn load(&mut self, target: &Expr) -> Ty {
        match self.infer(target, None)? {
            Type::Ref(content) => Some(*content),
            other => {
                self.error(
                    target.span,
                    format!("`!` and `:=` need a reference, but this has type `{other}`"),
                    "not a reference",
                );
                None
            }
        }
    }

    fn lookup_ref(&mut self, e: &Expr, reference: &Ident) -> Ty {
        let local = self.scope.iter().rev().find(|(n, ..)| *n == reference.name);
        if let Some((_, binder, Type::Ref(content))) = local {
            self.info.vars.insert(e.id, Resolution::Local(*binder));
            return Some((**content).clone());
        }
        match self.refs.get(&*reference.name) {
            Some(&id) => {
                self.info.refs.insert(e.id, id);
                Some(self.program.reference(id).ty.clone())
            }
            None => {
                let mut diagnostic = Diagnostic::error(
                    reference.span,
                    format!("unknown reference `{}`", reference.name),
                    "not declared in `Store:`",
                );
                if let Some((_, _, ty)) = local {
                    diagnostic = diagnostic.with_note(format!(
                        "the local `{}` has type `{ty}`, not a `Ref` type",
                        reference.name
                    ));
                }
                self.diagnostics.push(diagnostic);
                None
            }
        }
    }

    fn assign(&mut self, e: &Expr, reference: &Ident, value: &Expr) -> Ty {
        match self.lookup_ref(e, reference) {
            Some(ty) => self.check(value, &ty),
            None => {
                self.infer(value, None);
            }
        }
        Some(Type::Unit)
    }

    fn pair(&mut self, first: &Expr, second: &Expr, hint: Option<&Type>) -> Ty {
        let (hint_a, hint_b) = match hint {
            Some(Type::Pair(a, b)) => (Some(&**a), Some(&**b)),
            _ => (None, None),
        };
        let a = self.infer(first, hint_a);
        let b = self.infer(second, hint_b);
        Some(Type::pair(a.or(hint_a.cloned())?, b.or(hint_b.cloned())?))
    }

    fn projection(&mut self, which: Proj, annot: &Option<Type>, pair: &Expr) -> Ty {
        let pair_ty = match annot {
            Some(annot) => {
                self.check(pair, annot);
                Some(annot.clone())
            }
            None => self.infer(pair, None),
        };
        match pair_ty? {
            Type::Pair(a, b) => Some(if which == Proj::Fst { *a } else { *b }),
            other => {
                self.error(
                    pair.span,
                    format!("`fst`/`snd` needs a pair, but this has type `{other}`"),
                    "not a pair",
                );
                None
            }
        }
    }
}

/// Constants allowed as `Store` initial values.
fn is_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Skip | ExprKind::Nil | ExprKind::Var(_) => true,
        ExprKind::Pair(a, b) | ExprKind::Cons(a, b) => is_constant(a) && is_constant(b),
        // A cell allocated before `Main` runs, in declaration order (a `Ref T` reference).
        ExprKind::Alloc(a) => is_constant(a),
        // A datatype's value built of constants (the OCaml front end's `ref Leaf`).
        ExprKind::Construct { args, .. } => args.iter().all(is_constant),
        _ => false,
    }
}
