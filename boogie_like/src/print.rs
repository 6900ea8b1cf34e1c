//! The printer: [`Program`] to its Boogie-like text.
//!
//! Guarantees: deterministic output (arena order, fixed layout); never panics, even on
//! ill-formed programs (a missing entity prints as `<missing …>`, which does not parse);
//! for every program `p` that passes [`crate::verify`], [`crate::parse`] reads `print(&p)`
//! back as `p` (same tree, same ids), so `print(parse(print(p))) == print(p)`.
//! Parentheses are minimal for the precedence rules of the parser, with two conservative
//! exceptions: an `if then else` that is an operand is always parenthesized, and `-n` for a
//! non-negative literal `n` prints as `-(n)` (the text `-5` is the literal minus five).
//! Keywords used as names print escaped (`\if`).

use std::borrow::Cow;
use std::fmt::Write;

use crate::ir::{BinOp, Datatype, Expr, Procedure, Program, SourcePos, Stmt, Type, UnOp, Var};
use crate::parse::is_keyword;

/// Datatypes whose one-line form is longer than this print one constructor per line.
const LINE_WIDTH: usize = 90;

/// Which language a program is printed in.
#[derive(Clone, Copy, Debug)]
pub enum Dialect {
    /// The IR's own text, which [`crate::parse`] reads back.
    Ir,
    /// Boogie 2 with Boogie 3's `datatype`s (`e is C`, `e->f`): `/` and `%` (truncating)
    /// are spelled with Boogie's Euclidean `div` and `mod`, a tester is parenthesized, the
    /// `{:reads}` attribute is left out, and `keywords` (Boogie's) are escaped too. The
    /// program's meaning is the IR's only where Boogie's agrees: globals and locals that
    /// start arbitrary in Boogie must be assigned before they are read, and constant maps
    /// `[K](v)` have no Boogie form (they print as in the IR).
    Boogie { keywords: &'static [&'static str] },
}

impl Dialect {
    fn keywords(self) -> &'static [&'static str] {
        match self {
            Dialect::Ir => &[],
            Dialect::Boogie { keywords } => keywords,
        }
    }
}

/// The text of a whole program.
pub fn print(program: &Program) -> String {
    print_in(Dialect::Ir, program)
}

/// The text of a whole program in `d`.
pub fn print_in(d: Dialect, program: &Program) -> String {
    let mut out = String::new();
    for (_, sort) in program.sorts.iter() {
        let _ = writeln!(out, "type {};", ident(d, &sort.name));
    }
    for (_, dt) in program.datatypes.iter() {
        out.push_str(&datatype(d, program, dt));
    }
    for (_, g) in program.globals.iter() {
        let _ = writeln!(
            out,
            "var {}: {};",
            ident(d, &g.name),
            type_name(d, program, g.ty)
        );
    }
    for (_, proc) in program.procs.iter() {
        if !out.is_empty() {
            out.push('\n');
        }
        procedure(d, &mut out, program, proc);
    }
    out
}

/// The text of one expression of procedure `proc`.
pub fn print_expr(program: &Program, proc: &Procedure, expr: &Expr) -> String {
    let mut out = String::new();
    ExprPrinter {
        program,
        proc,
        out: &mut out,
        dialect: Dialect::Ir,
    }
    .at(expr, 0);
    out
}

/// A one-line rendering of `stmt` (an `if` shows only its condition), for diagnostics.
pub fn print_stmt_header(program: &Program, proc: &Procedure, stmt: &Stmt) -> String {
    match stmt {
        Stmt::If { cond, .. } => format!("if ({}) {{ … }}", print_expr(program, proc, cond)),
        _ => {
            let mut out = String::new();
            StmtPrinter {
                program,
                proc,
                out: &mut out,
                indent: 0,
                dialect: Dialect::Ir,
            }
            .stmt(stmt);
            out.trim_end().to_string()
        }
    }
}

/// A name as an identifier token: keywords are escaped with `\`.
fn ident(d: Dialect, name: &str) -> Cow<'_, str> {
    if is_keyword(name) || d.keywords().contains(&name) {
        Cow::Owned(format!("\\{name}"))
    } else {
        Cow::Borrowed(name)
    }
}

fn type_name(d: Dialect, program: &Program, ty: Type) -> String {
    match ty {
        Type::Data(id) => match program.datatypes.get(id) {
            Some(dt) => ident(d, &dt.name).into_owned(),
            None => format!("<missing {id}>"),
        },
        Type::Sort(id) => match program.sorts.get(id) {
            Some(sort) => ident(d, &sort.name).into_owned(),
            None => format!("<missing {id}>"),
        },
        Type::Map(m) => format!(
            "[{}]{}",
            type_name(d, program, m.key()),
            type_name(d, program, m.value())
        ),
        _ => program.type_name(ty),
    }
}

fn datatype(d: Dialect, program: &Program, dt: &Datatype) -> String {
    let ctors: Vec<String> = dt
        .ctors
        .iter()
        .map(|c| {
            let fields: Vec<String> = c
                .fields
                .iter()
                .map(|f| format!("{}: {}", ident(d, &f.name), type_name(d, program, f.ty)))
                .collect();
            format!("{}({})", ident(d, &c.name), fields.join(", "))
        })
        .collect();
    let name = ident(d, &dt.name);
    if ctors.is_empty() {
        return format!("datatype {name} {{ }}\n");
    }
    let one_line = format!("datatype {name} {{ {} }}\n", ctors.join(", "));
    if one_line.len() <= LINE_WIDTH {
        return one_line;
    }
    format!("datatype {name} {{\n  {}\n}}\n", ctors.join(",\n  "))
}

fn procedure(d: Dialect, out: &mut String, program: &Program, proc: &Procedure) {
    out.push_str("procedure ");
    if proc.entrypoint {
        out.push_str("{:entrypoint} ");
    }
    if !proc.reads.is_empty() && matches!(d, Dialect::Ir) {
        let _ = write!(out, "{{:reads {}}} ", global_list(d, program, &proc.reads));
    }
    let _ = write!(
        out,
        "{}({})",
        ident(d, &proc.name),
        bindings(d, program, proc, &proc.params)
    );
    if !proc.returns.is_empty() {
        let _ = write!(
            out,
            " returns ({})",
            bindings(d, program, proc, &proc.returns)
        );
    }
    if !proc.modifies.is_empty() {
        let _ = write!(
            out,
            "\n  modifies {};",
            global_list(d, program, &proc.modifies)
        );
    }
    out.push_str("\n{\n");
    for local in proc.body_locals() {
        let _ = writeln!(out, "  var {};", bindings(d, program, proc, &[local]));
    }
    let mut printer = StmtPrinter {
        program,
        proc,
        out,
        indent: 1,
        dialect: d,
    };
    printer.block(&proc.body);
    out.push_str("}\n");
}

fn global_list(d: Dialect, program: &Program, globals: &[crate::ir::GlobalId]) -> String {
    let names: Vec<String> = globals
        .iter()
        .map(|g| var_name(d, program, None, Var::Global(*g)))
        .collect();
    names.join(", ")
}

fn bindings(
    d: Dialect,
    program: &Program,
    proc: &Procedure,
    locals: &[crate::ir::LocalId],
) -> String {
    let items: Vec<String> = locals
        .iter()
        .map(|l| match proc.locals.get(*l) {
            Some(local) => format!(
                "{}: {}",
                ident(d, &local.name),
                type_name(d, program, local.ty)
            ),
            None => format!("<missing {l}>: int"),
        })
        .collect();
    items.join(", ")
}

fn var_name(d: Dialect, program: &Program, proc: Option<&Procedure>, var: Var) -> String {
    let name = match (var, proc) {
        (Var::Local(l), Some(p)) => p.locals.get(l).map(|l| l.name.as_str()),
        (Var::Local(_), None) => None,
        (Var::Global(g), _) => program.globals.get(g).map(|g| g.name.as_str()),
    };
    match (name, var) {
        (Some(name), _) => ident(d, name).into_owned(),
        (None, Var::Local(l)) => format!("<missing {l}>"),
        (None, Var::Global(g)) => format!("<missing {g}>"),
    }
}

struct StmtPrinter<'a> {
    program: &'a Program,
    proc: &'a Procedure,
    out: &'a mut String,
    indent: usize,
    dialect: Dialect,
}

impl StmtPrinter<'_> {
    fn line_start(&mut self) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    fn expr(&mut self, e: &Expr) {
        ExprPrinter {
            program: self.program,
            proc: self.proc,
            out: self.out,
            dialect: self.dialect,
        }
        .at(e, 0);
    }

    fn var(&self, v: Var) -> String {
        var_name(self.dialect, self.program, Some(self.proc), v)
    }

    fn block(&mut self, block: &[Stmt]) {
        for stmt in block {
            self.line_start();
            self.stmt(stmt);
        }
    }

    fn stmt(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::Assign(v, e) => {
                let _ = write!(self.out, "{} := ", self.var(*v));
                self.expr(e);
                self.out.push_str(";\n");
            }
            Stmt::Havoc(vars) => {
                let names: Vec<String> = vars.iter().map(|v| self.var(*v)).collect();
                let _ = writeln!(self.out, "havoc {};", names.join(", "));
            }
            Stmt::Assume(e) => self.keyword_expr("assume", None, e),
            Stmt::Assert { cond, source } => self.keyword_expr("assert", *source, cond),
            Stmt::Call(site) => self.call(*site),
            Stmt::If { cond, then, else_ } => {
                stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.if_stmt(cond, then, else_));
            }
            Stmt::Return => self.out.push_str("return;\n"),
        }
    }

    fn keyword_expr(&mut self, keyword: &str, source: Option<SourcePos>, e: &Expr) {
        self.out.push_str(keyword);
        self.source(source);
        self.out.push(' ');
        self.expr(e);
        self.out.push_str(";\n");
    }

    fn source(&mut self, source: Option<SourcePos>) {
        if let Some(SourcePos { line, col }) = source {
            let _ = write!(self.out, " {{:source {line}, {col}}}");
        }
    }

    fn call(&mut self, site: crate::ir::CallSiteId) {
        let Some(cs) = self.proc.call_sites.get(site) else {
            let _ = writeln!(self.out, "call <missing {site}>;");
            return;
        };
        self.out.push_str("call");
        self.source(cs.source);
        self.out.push(' ');
        if !cs.rets.is_empty() {
            let rets: Vec<String> = cs.rets.iter().map(|v| self.var(*v)).collect();
            let _ = write!(self.out, "{} := ", rets.join(", "));
        }
        match self.program.procs.get(cs.callee) {
            Some(callee) => self.out.push_str(&ident(self.dialect, &callee.name)),
            None => {
                let _ = write!(self.out, "<missing {}>", cs.callee);
            }
        }
        self.out.push('(');
        for (i, arg) in cs.args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(arg);
        }
        self.out.push_str(");\n");
    }

    fn if_stmt(&mut self, cond: &Expr, then: &[Stmt], else_: &[Stmt]) {
        self.out.push_str("if (");
        self.expr(cond);
        self.out.push_str(") {\n");
        self.nested_block(then);
        self.line_start();
        self.out.push('}');
        match else_ {
            [] => self.out.push('\n'),
            [Stmt::If { cond, then, else_ }] => {
                self.out.push_str(" else ");
                self.if_stmt(cond, then, else_);
            }
            _ => {
                self.out.push_str(" else {\n");
                self.nested_block(else_);
                self.line_start();
                self.out.push_str("}\n");
            }
        }
    }

    fn nested_block(&mut self, block: &[Stmt]) {
        self.indent += 1;
        self.block(block);
        self.indent -= 1;
    }
}

/// Binding strength of an expression's outermost construct (higher binds tighter).
fn precedence(e: &Expr) -> u8 {
    match e {
        Expr::Ite { .. } => 0,
        Expr::Binary { op, .. } => binop_precedence(*op),
        Expr::Is { .. } => 3,
        Expr::Unary { .. } => 6,
        Expr::Int(n) if n.sign() == num_bigint::Sign::Minus => 6,
        Expr::Select { .. } | Expr::MapGet { .. } | Expr::MapSet { .. } => 7,
        Expr::Int(_)
        | Expr::Bool(_)
        | Expr::Var(_)
        | Expr::Ctor { .. }
        | Expr::MapConst { .. }
        | Expr::Quant { .. } => 8,
    }
}

fn binop_precedence(op: BinOp) -> u8 {
    match op {
        BinOp::Implies => 1,
        BinOp::And | BinOp::Or => 2,
        BinOp::Add | BinOp::Sub => 4,
        BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::EuclidDiv | BinOp::EuclidMod => 5,
        _ => 3,
    }
}

/// Minimal precedences of the left and right operands of `op`.
fn operand_precedences(op: BinOp, lhs: &Expr) -> (u8, u8) {
    match op {
        BinOp::Implies => (2, 1),
        BinOp::And | BinOp::Or => {
            let same = matches!(lhs, Expr::Binary { op: l, .. } if *l == op);
            (if same { 2 } else { 3 }, 3)
        }
        BinOp::Add | BinOp::Sub => (4, 5),
        BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::EuclidDiv | BinOp::EuclidMod => (5, 6),
        _ => (4, 4),
    }
}

struct ExprPrinter<'a> {
    program: &'a Program,
    proc: &'a Procedure,
    out: &'a mut String,
    dialect: Dialect,
}

impl ExprPrinter<'_> {
    /// Prints `e`, parenthesized if it binds weaker than `min`.
    fn at(&mut self, e: &Expr, min: u8) {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            let spelled_out = matches!(
                (self.dialect, e),
                (
                    Dialect::Boogie { .. },
                    Expr::Binary {
                        op: BinOp::Div | BinOp::Mod,
                        ..
                    }
                )
            );
            let precedence = if spelled_out { 0 } else { precedence(e) };
            if precedence < min {
                self.out.push('(');
                self.bare(e);
                self.out.push(')');
            } else {
                self.bare(e);
            }
        })
    }

    fn bare(&mut self, e: &Expr) {
        match e {
            Expr::Int(n) => {
                let _ = write!(self.out, "{n}");
            }
            Expr::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Expr::Var(v) => {
                self.out
                    .push_str(&var_name(self.dialect, self.program, Some(self.proc), *v))
            }
            Expr::Unary { op, arg } => self.unary(*op, arg),
            Expr::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs),
            Expr::Ite { cond, then, else_ } => self.ite(cond, then, else_),
            Expr::Ctor { ctor, args } => self.ctor(*ctor, args),
            Expr::Is { arg, ctor } => {
                let boogie = matches!(self.dialect, Dialect::Boogie { .. });
                self.out.push_str(if boogie { "(" } else { "" });
                self.at(arg, 4);
                self.out.push_str(" is ");
                self.ctor_name(*ctor);
                self.out.push_str(if boogie { ")" } else { "" });
            }
            Expr::Select { arg, field } => {
                self.at(arg, 7);
                self.out.push_str("->");
                match self.program.field(*field) {
                    Some(f) => self.out.push_str(&ident(self.dialect, &f.name)),
                    None => self.out.push_str("<missing field>"),
                }
            }
            Expr::MapConst { key, value } => {
                let _ = write!(
                    self.out,
                    "[{}](",
                    type_name(self.dialect, self.program, *key)
                );
                self.at(value, 0);
                self.out.push(')');
            }
            Expr::MapGet { map, index } => {
                self.at(map, 7);
                self.out.push('[');
                self.at(index, 0);
                self.out.push(']');
            }
            Expr::MapSet { map, index, value } => {
                self.at(map, 7);
                self.out.push('[');
                self.at(index, 0);
                self.out.push_str(" := ");
                self.at(value, 0);
                self.out.push(']');
            }
            Expr::Quant { forall, vars, body } => self.quantifier(*forall, vars, body),
        }
    }

    /// `(forall x: int, y: bool :: body)`, always parenthesised.
    fn quantifier(&mut self, forall: bool, vars: &[crate::ir::LocalId], body: &Expr) {
        self.out
            .push_str(if forall { "(forall " } else { "(exists " });
        for (k, v) in vars.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            let var = Var::Local(*v);
            let name = var_name(self.dialect, self.program, Some(self.proc), var);
            let ty = self.proc.locals.get(*v).map_or_else(
                || "<missing>".to_string(),
                |l| type_name(self.dialect, self.program, l.ty).to_string(),
            );
            let _ = write!(self.out, "{name}: {ty}");
        }
        self.out.push_str(" :: ");
        self.at(body, 0);
        self.out.push(')');
    }

    fn unary(&mut self, op: UnOp, arg: &Expr) {
        self.out.push(if op == UnOp::Neg { '-' } else { '!' });
        match arg {
            Expr::Int(n) if op == UnOp::Neg && n.sign() != num_bigint::Sign::Minus => {
                let _ = write!(self.out, "({n})");
            }
            _ => self.at(arg, 6),
        }
    }

    fn binary(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr) {
        if let (Dialect::Boogie { .. }, BinOp::Div | BinOp::Mod) = (self.dialect, op) {
            return self.euclidean(op, lhs, rhs);
        }
        let (left_min, right_min) = operand_precedences(op, lhs);
        self.at(lhs, left_min);
        let _ = write!(self.out, " {} ", op.symbol());
        self.at(rhs, right_min);
    }

    /// Truncating `a / b` and `a % b` with Boogie's Euclidean `div` and `mod`, which agree
    /// with them for `a >= 0`: `if a >= 0 then a div b else -((-a) div b)` (and `mod`).
    /// Printed as an `if then else`, which [`precedence`] makes an operand parenthesize.
    fn euclidean(&mut self, op: BinOp, a: &Expr, b: &Expr) {
        let word = if op == BinOp::Div { "div" } else { "mod" };
        self.out.push_str("if ");
        self.at(a, 4);
        self.out.push_str(" >= 0 then ");
        self.at(a, 5);
        let _ = write!(self.out, " {word} ");
        self.at(b, 6);
        self.out.push_str(" else -(-(");
        self.at(a, 0);
        let _ = write!(self.out, ") {word} ");
        self.at(b, 6);
        self.out.push(')');
    }

    fn ite(&mut self, cond: &Expr, then: &Expr, else_: &Expr) {
        self.out.push_str("if ");
        self.at(cond, 0);
        self.out.push_str(" then ");
        self.at(then, 0);
        self.out.push_str(" else ");
        self.at(else_, 0);
    }

    fn ctor(&mut self, ctor: crate::ir::CtorId, args: &[Expr]) {
        self.ctor_name(ctor);
        self.out.push('(');
        for (i, arg) in args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.at(arg, 0);
        }
        self.out.push(')');
    }

    fn ctor_name(&mut self, ctor: crate::ir::CtorId) {
        match self.program.ctor(ctor) {
            Some(c) => self.out.push_str(&ident(self.dialect, &c.name)),
            None => self.out.push_str("<missing constructor>"),
        }
    }
}

#[cfg(test)]
mod tests;
