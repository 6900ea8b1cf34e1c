//! Infix and prefix operators below the prefix constructs: `:=` and `<-`, tuples `,`, the
//! binary operators by precedence climbing ([`binary_op`]'s table), and unary `-`.
//!
//! Guarantees: each operator has OCaml's precedence and associativity; `x |> f` and
//! `f @@ x` are the application `f x`, `a @ b` is `List.append a b`, `a.(i) <- v` is
//! `Array.set a i v`; an operator outside the subset (`^`, `**`, `%`, floats) is an error
//! naming it.

use super::*;

/// The marker [`binary_op`] gives a user-defined operator (`>>=`, `+!`): the application
/// of the function the program binds to it ([`operator_name`]).
pub(super) const USER_OPERATOR: &str = "a user-defined operator";

/// The variable a user-defined operator `sym` is bound to: `op#` and the names of its
/// characters (`( >>= )` is `op#gt_gt_eq`, `( let* )` is `op#let_star`), a name no OCaml
/// identifier has and every back end accepts.
pub fn operator_name(sym: &str) -> Rc<str> {
    if let Some(rest) = sym.strip_prefix("let") {
        return format!("op#let_{}", operator_name(rest).trim_start_matches("op#")).into();
    }
    let words: Vec<&str> = sym
        .chars()
        .map(|c| match c {
            '+' => "plus",
            '-' => "minus",
            '*' => "star",
            '/' => "slash",
            '%' => "percent",
            '<' => "lt",
            '>' => "gt",
            '=' => "eq",
            '@' => "at",
            '^' => "caret",
            '|' => "bar",
            '&' => "amp",
            '$' => "dollar",
            '!' => "bang",
            '~' => "tilde",
            '?' => "qmark",
            ':' => "colon",
            _ => "dot",
        })
        .collect();
    format!("op#{}", words.join("_")).into()
}

/// OCaml's precedence of an infix symbol by its first character (the manual's table).
fn user_op(sym: &str) -> (u8, bool, Result<BinOp, &'static str>) {
    if matches!(sym, "+." | "-." | "*." | "/." | "**.") {
        return (6, false, Err("floating-point operators"));
    }
    match sym.as_bytes()[0] {
        b'*' if sym.starts_with("**") => (8, true, Err(USER_OPERATOR)),
        b'*' | b'/' | b'%' => (7, false, Err(USER_OPERATOR)),
        b'+' | b'-' => (6, false, Err(USER_OPERATOR)),
        b'@' | b'^' => (4, true, Err(USER_OPERATOR)),
        _ => (3, false, Err(USER_OPERATOR)),
    }
}

/// A binary operator: its precedence level (higher binds tighter) and right-associativity.
pub(super) fn binary_op(tok: &Tok) -> Option<(u8, bool, Result<BinOp, &'static str>)> {
    let k = match tok {
        Tok::Punct(p) | Tok::Keyword(p) => *p,
        Tok::Op(sym) => return Some(user_op(sym)),
        _ => return None,
    };
    Some(match k {
        "||" | "or" => (1, true, Ok(BinOp::Or)),
        "&&" | "&" => (2, true, Ok(BinOp::And)),
        "=" => (3, false, Ok(BinOp::Eq)),
        "<>" => (3, false, Ok(BinOp::Ne)),
        "==" => (3, false, Ok(BinOp::PhysEq)),
        "!=" => (3, false, Ok(BinOp::PhysNe)),
        "<" => (3, false, Ok(BinOp::Lt)),
        "<=" => (3, false, Ok(BinOp::Le)),
        ">" => (3, false, Ok(BinOp::Gt)),
        ">=" => (3, false, Ok(BinOp::Ge)),
        "|>" => (3, false, Err("|>")),
        "@@" => (4, true, Err("@@")),
        "@" => (4, true, Err("@")),
        "^" => (4, true, Err("^")),
        "::" => (5, true, Err("::")),
        "+" => (6, false, Ok(BinOp::Add)),
        "-" => (6, false, Ok(BinOp::Sub)),
        "*" => (7, false, Ok(BinOp::Mul)),
        "/" => (7, false, Ok(BinOp::Div)),
        "mod" => (7, false, Ok(BinOp::Mod)),
        "%" => (7, false, Err("the operator `%`")),
        "**" => (8, true, Err("floating-point exponentiation `**`")),
        _ => return None,
    })
}

impl Parser {
    pub(super) fn assign(&mut self) -> PResult<Expr> {
        let lhs = self.tuple()?;
        if self.eat(":=") {
            let rhs = self.expr_nonseq()?;
            let span = lhs.span.to(rhs.span);
            return self.mk(span, ExprKind::Assign(Box::new(lhs), Box::new(rhs)));
        }
        if self.is("<-")
            && let ExprKind::Field(..) = lhs.kind
        {
            self.bump();
            let rhs = self.expr_nonseq()?;
            let span = lhs.span.to(rhs.span);
            let ExprKind::Field(record, field) = lhs.kind else {
                unreachable!("matched above")
            };
            return self.mk(span, ExprKind::SetField(record, field, Box::new(rhs)));
        }
        if self.is("<-")
            && let ExprKind::App(get, _) = &lhs.kind
            && let ExprKind::Var(name) = &get.kind
            && &*name.text == "Array.get"
            && get.span == lhs.span
        {
            // `a.(i) <- v` is `Array.set a i v`.
            self.bump();
            let rhs = self.expr_nonseq()?;
            let span = lhs.span.to(rhs.span);
            let ExprKind::App(get, mut args) = lhs.kind else {
                unreachable!("matched above")
            };
            args.push(rhs);
            let set = self.mk(
                get.span,
                ExprKind::Var(Name {
                    text: "Array.set".into(),
                    span: get.span,
                }),
            )?;
            return self.mk(span, ExprKind::App(Box::new(set), args));
        }
        if let Some(d) = self.unsupported_here() {
            return Err(d);
        }
        Ok(lhs)
    }

    pub(super) fn tuple(&mut self) -> PResult<Expr> {
        let first = self.binary(1)?;
        if !self.is(",") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat(",") {
            // `(0, fun i -> e)`: a prefix construct may follow a comma, as an operator.
            items.push(self.nested(|p| p.binary_operand(1))?);
        }
        let span = items[0].span.to(items[items.len() - 1].span);
        self.mk(span, ExprKind::Tuple(items))
    }

    /// Operators of precedence `min` and tighter (precedence climbing).
    pub(super) fn binary(&mut self, min: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        while let Some((prec, right, op)) = binary_op(self.peek()) {
            if prec < min {
                break;
            }
            let op_tok = self.bump();
            let op_span = op_tok.span;
            let next = if right { prec } else { prec + 1 };
            let rhs = self.nested(|p| p.binary_operand(next))?;
            let span = lhs.span.to(rhs.span);
            let kind = match op {
                Ok(op) => ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                Err("::") => ExprKind::Cons(Box::new(lhs), Box::new(rhs)),
                // `x |> f` and `f @@ x` are the application `f x` (Stdlib's `%revapply`
                // and `%apply`).
                Err("|>") => ExprKind::App(Box::new(rhs), vec![lhs]),
                Err("@@") => ExprKind::App(Box::new(lhs), vec![rhs]),
                // A string, read only as printed (parser/printing.rs).
                Err("^") => {
                    let name = Name {
                        text: operator_name("^"),
                        span: op_span,
                    };
                    let func = self.mk(op_span, ExprKind::Var(name))?;
                    ExprKind::App(Box::new(func), vec![lhs, rhs])
                }
                Err("@") => {
                    let text: Rc<str> = "List.append".into();
                    let append = self.mk(
                        op_span,
                        ExprKind::Var(Name {
                            text,
                            span: op_span,
                        }),
                    )?;
                    ExprKind::App(Box::new(append), vec![lhs, rhs])
                }
                Err(USER_OPERATOR) => {
                    let Tok::Op(sym) = op_tok.tok else {
                        unreachable!("binary_op gives USER_OPERATOR for Tok::Op only")
                    };
                    let name = Name {
                        text: operator_name(&sym),
                        span: op_span,
                    };
                    let func = self.mk(op_span, ExprKind::Var(name))?;
                    ExprKind::App(Box::new(func), vec![lhs, rhs])
                }
                Err(what) => return Err(unsupported(op_span, what)),
            };
            lhs = self.mk(span, kind)?;
        }
        Ok(lhs)
    }

    /// The right operand of an operator: a prefix construct (`a + let x = 1 in x`) or more
    /// operators.
    pub(super) fn binary_operand(&mut self, min: u8) -> PResult<Expr> {
        match self.peek() {
            Tok::Keyword("let" | "fun" | "function" | "match" | "try" | "if") => self.expr_nonseq(),
            _ => self.binary(min),
        }
    }

    pub(super) fn unary(&mut self) -> PResult<Expr> {
        if !self.is("-") {
            return self.application();
        }
        let start = self.bump().span;
        if let Tok::Int(i) = self.peek().clone() {
            let end = self.bump().span;
            let lit = self.mk(start.to(end), ExprKind::Int(-i))?;
            return self.application_from(lit);
        }
        if self.is("-") || self.is(".") {
            return Err(unsupported(self.span(), "floating-point operators"));
        }
        let operand = self.nested(|p| p.unary())?;
        let span = start.to(operand.span);
        self.mk(span, ExprKind::Neg(Box::new(operand)))
    }
}
