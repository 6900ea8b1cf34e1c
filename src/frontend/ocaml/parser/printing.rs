//! Printing in the parser (docs/ocaml.md, "Printing"): output is no part of what the
//! verifier checks, so a printing call is the evaluation of the values it prints, in
//! OCaml's order, and then `()`.
//!
//! - `Printf.printf fmt a1 .. an` (and `Printf.eprintf`) with a literal format: each
//!   argument of an integer conversion (`%d`, `%i`, `%u`, `%x`, `%X`, `%o`, with flags,
//!   width and precision) is checked to be an `int`, of `%b` / `%B` a `bool`, of `%s` /
//!   `%S` a string (a literal, or anything `print_string` accepts); `%%`, `%!` and `%,`
//!   take none. Given fewer arguments than the format has conversions, it is the function
//!   of the others (`List.iter (Printf.printf "%d ") l`), its given arguments evaluated at
//!   once.
//! - `print_string e`, `print_endline e`, `prerr_string e`, `prerr_endline e` where `e`
//!   is built of string literals, `^`, `string_of_int`, `string_of_bool`,
//!   `Int.to_string`, `Bool.to_string` and `Printf.sprintf fmt a1 .. an` (all its
//!   arguments given): the integers and booleans in it.
//! - `failwith e` and `invalid_arg e` with such an `e` (`failwith ("bad key " ^
//!   string_of_int k)`): its values evaluated, then `failwith ""` (a message is not
//!   modelled).
//!
//! Guarantees: the arguments are evaluated right to left, as OCaml evaluates an
//! application's arguments (and both sides of `^`); a conversion outside these (`%c`,
//! `%f`, `%a`, ...) or a format that is not a literal is an error naming it.

use super::*;

/// What one conversion of a format takes.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Conv {
    Int,
    Bool,
    Str,
}

/// A value a printed string is made of, to be evaluated for its effects and type.
struct Part {
    conv: Conv,
    value: Expr,
}

/// The printing functions that take a format.
const PRINTF: &[&str] = &["Printf.printf", "Printf.eprintf"];

/// The printing functions that take a string.
const PRINT_STRING: &[&str] = &[
    "print_string",
    "print_endline",
    "prerr_string",
    "prerr_endline",
];

/// The functions that raise an exception with a message (not modelled: docs/ocaml.md,
/// "Exceptions").
const RAISE_MESSAGE: &[&str] = &["failwith", "invalid_arg"];

impl Parser {
    /// `head args` when it is a printing call this module rewrites.
    pub(super) fn printing(&mut self, head: &Expr, args: &[Expr]) -> PResult<Option<Expr>> {
        let ExprKind::Var(name) = &head.kind else {
            return Ok(None);
        };
        let span = head.span.to(args.last().map_or(head.span, |a| a.span));
        if PRINTF.contains(&&*name.text) {
            return self.printf(span, head, args).map(Some);
        }
        let printing = PRINT_STRING.contains(&&*name.text);
        let raising = RAISE_MESSAGE.contains(&&*name.text);
        if (printing || raising) && args.len() == 1 {
            if matches!(args[0].kind, ExprKind::Str(_)) {
                return Ok(None);
            }
            let mut parts = Vec::new();
            if string_parts(&args[0], &mut parts)? {
                let then = match raising {
                    // The message is not modelled: `failwith ""` after its values.
                    true => {
                        let empty = self.mk(args[0].span, ExprKind::Str("".into()))?;
                        self.mk(span, ExprKind::App(Box::new(head.clone()), vec![empty]))?
                    }
                    false => self.mk(span, ExprKind::Unit)?,
                };
                return self.evaluate_parts(parts, then, span).map(Some);
            }
        }
        Ok(None)
    }

    /// `Printf.printf fmt a1 .. an`: the arguments evaluated, or a function of the missing.
    fn printf(&mut self, span: Span, head: &Expr, args: &[Expr]) -> PResult<Expr> {
        let Some((fmt, given)) = args.split_first() else {
            return Err(unsupported(
                head.span,
                "`Printf.printf` as a value (apply it to a literal format)",
            ));
        };
        let convs = format_convs(fmt)?;
        if given.len() > convs.len() {
            return Err(Diagnostic::error(
                given[convs.len()].span,
                format!(
                    "this format takes {} argument(s), {} given",
                    convs.len(),
                    given.len()
                ),
                "one argument too many",
            ));
        }
        let missing = &convs[given.len()..];
        let mut params = Vec::new();
        let mut later = Vec::new();
        for (k, conv) in missing.iter().enumerate() {
            if *conv == Conv::Str {
                return Err(unsupported(
                    span,
                    "a `%s` argument of `Printf.printf` not given at once (strings are outside the subset)",
                ));
            }
            let text = format!("printf#{k}");
            params.push(self.typed_var_pattern(&text, *conv, span));
            let value = self.mk(
                span,
                ExprKind::Var(Name {
                    text: text.into(),
                    span,
                }),
            )?;
            later.push(Part { conv: *conv, value });
        }
        let unit = self.mk(span, ExprKind::Unit)?;
        let mut body = self.evaluate_parts(later, unit, span)?;
        if !params.is_empty() {
            body = self.mk(span, ExprKind::Fun(params, Box::new(body)))?;
        }
        let parts = given
            .iter()
            .zip(&convs)
            .map(|(value, conv)| Part {
                conv: *conv,
                value: value.clone(),
            })
            .collect();
        self.evaluate_parts(parts, body, span)
    }

    /// `parts` (in argument order) evaluated right to left, then `then`.
    fn evaluate_parts(&mut self, parts: Vec<Part>, then: Expr, span: Span) -> PResult<Expr> {
        let mut result = then;
        for part in parts {
            result = match (part.conv, &part.value.kind) {
                (Conv::Str, ExprKind::Str(_)) => result,
                (Conv::Str, _) if string_parts(&part.value, &mut Vec::new())? => {
                    let mut inner = Vec::new();
                    string_parts(&part.value, &mut inner)?;
                    self.evaluate_parts(inner, result, span)?
                }
                (Conv::Str, _) => {
                    let print = Name {
                        text: "print_string".into(),
                        span: part.value.span,
                    };
                    let print = self.mk(part.value.span, ExprKind::Var(print))?;
                    let value = self.mk(
                        part.value.span,
                        ExprKind::App(Box::new(print), vec![part.value]),
                    )?;
                    self.mk(span, ExprKind::Seq(Box::new(value), Box::new(result)))?
                }
                (conv, _) => {
                    let pattern = self.typed_wild(conv, part.value.span);
                    let group = LetGroup {
                        recursive: false,
                        bindings: vec![Binding {
                            pattern,
                            value: part.value,
                        }],
                        span,
                    };
                    self.mk(span, ExprKind::Let(group, Box::new(result)))?
                }
            };
        }
        Ok(result)
    }

    /// `(_ : t)` for the type a conversion takes.
    fn typed_wild(&mut self, conv: Conv, span: Span) -> Pattern {
        let wild = Pattern {
            span,
            kind: PatternKind::Wild,
        };
        annotated(wild, conv, span)
    }

    /// `(name : t)` for the type a conversion takes.
    fn typed_var_pattern(&mut self, name: &str, conv: Conv, span: Span) -> Pattern {
        let var = Pattern {
            span,
            kind: PatternKind::Var(
                self.var(),
                Name {
                    text: name.into(),
                    span,
                },
            ),
        };
        annotated(var, conv, span)
    }
}

fn annotated(p: Pattern, conv: Conv, span: Span) -> Pattern {
    let ty = match conv {
        Conv::Int => "int",
        Conv::Bool => "bool",
        Conv::Str => "string",
    };
    let te = TypeExpr::Named(ty.into(), Vec::new(), span);
    Pattern {
        span,
        kind: PatternKind::Annot(Box::new(p), te),
    }
}

/// The values the string expression `e` is made of, in argument order, appended to
/// `out`; `false` when `e` is not built of the pieces this module knows.
fn string_parts(e: &Expr, out: &mut Vec<Part>) -> PResult<bool> {
    let ExprKind::App(func, args) = &e.kind else {
        return Ok(matches!(e.kind, ExprKind::Str(_)));
    };
    let ExprKind::Var(name) = &func.kind else {
        return Ok(false);
    };
    let conv = match (&*name.text, args.len()) {
        ("string_of_int" | "Int.to_string", 1) => Conv::Int,
        ("string_of_bool" | "Bool.to_string", 1) => Conv::Bool,
        ("op#caret", 2) => {
            // In argument order: the left side's parts, then the right side's.
            let mut right = Vec::new();
            if !string_parts(&args[1], &mut right)? {
                return Ok(false);
            }
            let mut left = Vec::new();
            if !string_parts(&args[0], &mut left)? {
                return Ok(false);
            }
            out.extend(left);
            out.extend(right);
            return Ok(true);
        }
        ("Printf.sprintf", n) if n >= 1 => {
            let convs = format_convs(&args[0])?;
            if convs.len() != n - 1 {
                return Ok(false);
            }
            for (value, conv) in args[1..].iter().zip(convs) {
                if conv == Conv::Str && !string_parts(value, out)? {
                    return Ok(false);
                }
                if conv != Conv::Str {
                    out.push(Part {
                        conv,
                        value: value.clone(),
                    });
                }
            }
            return Ok(true);
        }
        _ => return Ok(false),
    };
    out.push(Part {
        conv,
        value: args[0].clone(),
    });
    Ok(true)
}

/// The conversions of the literal format `fmt`, in order.
fn format_convs(fmt: &Expr) -> PResult<Vec<Conv>> {
    let ExprKind::Str(text) = &fmt.kind else {
        return Err(unsupported(
            fmt.span,
            "a format that is not a string literal",
        ));
    };
    let mut convs = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        // Flags, width, precision: `%-5d`, `%05.2d`, `%*d` (a width argument).
        while let Some(&f) = chars.peek() {
            match f {
                '-' | '0' | '+' | ' ' | '#' | '.' | '1'..='9' => {}
                '*' => convs.push(Conv::Int),
                _ => break,
            }
            chars.next();
        }
        match chars.next() {
            Some('%' | '!' | ',') => {}
            Some('d' | 'i' | 'u' | 'x' | 'X' | 'o') => convs.push(Conv::Int),
            Some('b' | 'B') => convs.push(Conv::Bool),
            Some('s' | 'S') => convs.push(Conv::Str),
            other => {
                let what = other.map_or(String::new(), |c| c.to_string());
                return Err(unsupported(
                    fmt.span,
                    &format!(
                        "the conversion `%{what}` in a format (of the conversions only `%d`, `%i`, `%u`, `%x`, `%X`, `%o`, `%b`, `%s`, `%%` and `%!`)"
                    ),
                ));
            }
        }
    }
    Ok(convs)
}
