//! The recursive-descent parser: tokens to the unresolved syntax tree.
//!
//! Guarantees: never panics and never overflows the stack: recursion (parentheses, unary
//! operators, blocks, `else if` chains) deeper than [`MAX_NESTING`] and expression trees
//! taller than [`MAX_NESTING`] (long operator chains included) are [`ParseError`]s, and
//! recursion runs under `stacker::maybe_grow`. Errors read
//! "expected X, found Y" at the offending token.
//!
//! Precedence, lowest first (as in Boogie): `==>` (right-assoc); `&&` / `||` (each
//! left-assoc, not mixable without parentheses); `== != < <= > >=` and `e is C`
//! (non-associative); `+ -` (left); `*` (left); unary `- !`; postfix `->field`.
//! `if c then a else b` is an atom whose `else` branch extends as far right as possible.
//! A `-` directly before an integer literal (not followed by `->`) is a negative literal.

use super::lexer::{Tok, Token};
use super::syntax::{
    Binding, Name, Pos, RCall, RCtor, RDatatype, RExpr, RExprKind, RProc, RProgram, RStmt, RType,
};
use super::{MAX_NESTING, ParseError};
use crate::ir::{BinOp, SourcePos, UnOp};

type PResult<T> = Result<T, ParseError>;

pub(crate) struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
}

impl Parser {
    /// A parser over `tokens`, which must end with [`Tok::Eof`].
    pub(crate) fn new(tokens: Vec<Token>) -> Parser {
        Parser {
            tokens,
            pos: 0,
            depth: 0,
        }
    }

    // ---- token helpers -------------------------------------------------------------

    fn peek(&self) -> &Tok {
        self.peek_at(0)
    }

    fn peek_at(&self, ahead: usize) -> &Tok {
        let last = self.tokens.len().saturating_sub(1);
        match self.tokens.get((self.pos + ahead).min(last)) {
            Some(t) => &t.tok,
            None => &Tok::Eof,
        }
    }

    fn here(&self) -> Pos {
        match self.tokens.get(self.pos).or(self.tokens.last()) {
            Some(t) => Pos {
                line: t.line,
                col: t.col,
            },
            None => Pos { line: 1, col: 1 },
        }
    }

    fn advance(&mut self) -> Tok {
        let tok = self.peek().clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        tok
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Kw(q) if *q == k)
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        let hit = self.is_punct(p);
        if hit {
            self.advance();
        }
        hit
    }

    fn eat_kw(&mut self, k: &str) -> bool {
        let hit = self.is_kw(k);
        if hit {
            self.advance();
        }
        hit
    }

    fn expected(&self, what: &str) -> ParseError {
        let Pos { line, col } = self.here();
        ParseError {
            line,
            col,
            message: format!("expected {what}, found {}", self.peek().describe()),
        }
    }

    fn expect_punct(&mut self, p: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{p}`")))
        }
    }

    fn expect_kw(&mut self, k: &str) -> PResult<()> {
        if self.eat_kw(k) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{k}`")))
        }
    }

    fn ident(&mut self, what: &str) -> PResult<Name> {
        let pos = self.here();
        match self.peek() {
            Tok::Ident(text) => {
                let text = text.clone();
                self.advance();
                Ok(Name { text, pos })
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Runs `f` one nesting level deeper, with stack growth and the nesting limit.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Parser) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let result = stacker::maybe_grow(64 * 1024, 1024 * 1024, || f(self));
        self.depth -= 1;
        result
    }

    fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_NESTING {
            let Pos { line, col } = self.here();
            let message = format!("nesting deeper than {MAX_NESTING} levels");
            return Err(ParseError { line, col, message });
        }
        self.depth += 1;
        Ok(())
    }

    // ---- declarations --------------------------------------------------------------

    /// `decl* EOF`
    pub(crate) fn program(&mut self) -> PResult<RProgram> {
        let mut program = RProgram::default();
        loop {
            match self.peek() {
                Tok::Kw("datatype") => program.datatypes.push(self.datatype()?),
                // `type` is not reserved: only a declaration starts with it.
                Tok::Ident(word) if word == "type" => {
                    self.advance();
                    program.sorts.push(self.ident("a sort name")?);
                    self.expect_punct(";")?;
                }
                Tok::Kw("var") => program.globals.extend(self.var_decl()?),
                Tok::Kw("procedure") => program.procs.push(self.procedure()?),
                Tok::Eof => return Ok(program),
                _ => return Err(self.expected("`type`, `datatype`, `var` or `procedure`")),
            }
        }
    }

    /// `expr (, expr)* EOF`, or nothing.
    pub(crate) fn expr_list_to_end(&mut self) -> PResult<Vec<RExpr>> {
        let mut exprs = Vec::new();
        if *self.peek() == Tok::Eof {
            return Ok(exprs);
        }
        loop {
            exprs.push(self.expr()?);
            if !self.eat_punct(",") {
                break;
            }
        }
        match self.peek() {
            Tok::Eof => Ok(exprs),
            _ => Err(self.expected("`,` or end of input")),
        }
    }

    fn datatype(&mut self) -> PResult<RDatatype> {
        self.expect_kw("datatype")?;
        let name = self.ident("a datatype name")?;
        self.expect_punct("{")?;
        let mut ctors = Vec::new();
        if !self.eat_punct("}") {
            loop {
                ctors.push(self.ctor_decl()?);
                if self.eat_punct("}") {
                    break;
                }
                if !self.eat_punct(",") {
                    return Err(self.expected("`,` or `}`"));
                }
            }
        }
        Ok(RDatatype { name, ctors })
    }

    fn ctor_decl(&mut self) -> PResult<RCtor> {
        let name = self.ident("a constructor name")?;
        self.expect_punct("(")?;
        let fields = self.bindings_until(")")?;
        Ok(RCtor { name, fields })
    }

    /// `var bindings ;`
    fn var_decl(&mut self) -> PResult<Vec<Binding>> {
        self.expect_kw("var")?;
        if self.is_punct(";") {
            return Err(self.expected("a variable name"));
        }
        let bindings = self.bindings()?;
        self.expect_punct(";")?;
        Ok(bindings)
    }

    /// `[bindings] close`
    fn bindings_until(&mut self, close: &str) -> PResult<Vec<Binding>> {
        if self.eat_punct(close) {
            return Ok(Vec::new());
        }
        let bindings = self.bindings()?;
        self.expect_punct(close)?;
        Ok(bindings)
    }

    /// `x, y: T, z: U` — groups of names sharing a type, separated by commas.
    fn bindings(&mut self) -> PResult<Vec<Binding>> {
        let mut bindings = Vec::new();
        loop {
            let mut names = vec![self.ident("a name")?];
            while self.eat_punct(",") {
                names.push(self.ident("a name")?);
            }
            self.expect_punct(":")?;
            let ty = self.ty()?;
            bindings.extend(names.into_iter().map(|name| Binding {
                name,
                ty: ty.clone(),
            }));
            if !self.eat_punct(",") {
                return Ok(bindings);
            }
        }
    }

    fn ty(&mut self) -> PResult<RType> {
        if self.eat_kw("int") {
            return Ok(RType::Int);
        }
        if self.eat_kw("bool") {
            return Ok(RType::Bool);
        }
        if self.eat_punct("[") {
            let key = self.nested(|p| p.ty())?;
            self.expect_punct("]")?;
            let value = self.nested(|p| p.ty())?;
            return Ok(RType::Map(Box::new(key), Box::new(value)));
        }
        match self.peek() {
            Tok::Ident(_) => Ok(RType::Named(self.ident("a type")?)),
            _ => Err(self.expected("a type (`int`, `bool`, `[K]V` or a datatype name)")),
        }
    }

    fn procedure(&mut self) -> PResult<RProc> {
        self.expect_kw("procedure")?;
        let (entrypoint, reads) = self.proc_attributes()?;
        let name = self.ident("a procedure name")?;
        self.expect_punct("(")?;
        let params = self.bindings_until(")")?;
        let mut returns = Vec::new();
        if self.eat_kw("returns") {
            self.expect_punct("(")?;
            returns = self.bindings_until(")")?;
        }
        let mut modifies = Vec::new();
        while self.eat_kw("modifies") {
            modifies.extend(self.name_list("a global variable name")?);
            self.expect_punct(";")?;
        }
        let (locals, body) = self.proc_body()?;
        Ok(RProc {
            name,
            entrypoint,
            reads,
            params,
            returns,
            modifies,
            locals,
            body,
        })
    }

    fn proc_attributes(&mut self) -> PResult<(bool, Vec<Name>)> {
        let (mut entrypoint, mut reads) = (None, None);
        while self.is_punct("{:") {
            let attr_pos = self.here();
            self.advance();
            let attr = self.attr_name()?;
            let seen = match attr.as_str() {
                "entrypoint" => entrypoint.replace(true).is_some(),
                "reads" => reads.replace(self.reads_list()?).is_some(),
                _ => {
                    return Err(self.unknown_attribute(attr_pos, &attr, "`entrypoint` or `reads`"));
                }
            };
            if seen {
                let message = format!("duplicate attribute `{attr}`");
                return Err(ParseError {
                    line: attr_pos.line,
                    col: attr_pos.col,
                    message,
                });
            }
            self.expect_punct("}")?;
        }
        Ok((entrypoint.unwrap_or(false), reads.unwrap_or_default()))
    }

    fn attr_name(&mut self) -> PResult<String> {
        match self.peek().clone() {
            Tok::Ident(name) => {
                self.advance();
                Ok(name)
            }
            _ => Err(self.expected("an attribute name")),
        }
    }

    fn unknown_attribute(&self, pos: Pos, attr: &str, allowed: &str) -> ParseError {
        let message = format!("expected attribute {allowed}, found `{attr}`");
        ParseError {
            line: pos.line,
            col: pos.col,
            message,
        }
    }

    fn reads_list(&mut self) -> PResult<Vec<Name>> {
        if self.is_punct("}") {
            Ok(Vec::new())
        } else {
            self.name_list("a global variable name")
        }
    }

    fn name_list(&mut self, what: &str) -> PResult<Vec<Name>> {
        let mut names = vec![self.ident(what)?];
        while self.eat_punct(",") {
            names.push(self.ident(what)?);
        }
        Ok(names)
    }

    fn proc_body(&mut self) -> PResult<(Vec<Binding>, Vec<RStmt>)> {
        if !self.eat_punct("{") {
            return Err(self.expected("`modifies` or `{`"));
        }
        let mut locals = Vec::new();
        while self.is_kw("var") {
            locals.extend(self.var_decl()?);
        }
        let body = self.stmts_until_close()?;
        Ok((locals, body))
    }

    // ---- statements ----------------------------------------------------------------

    /// `stmt* }` (the opening `{` is already consumed)
    fn stmts_until_close(&mut self) -> PResult<Vec<RStmt>> {
        let mut stmts = Vec::new();
        while !self.eat_punct("}") {
            stmts.push(self.stmt()?);
        }
        Ok(stmts)
    }

    fn block(&mut self) -> PResult<Vec<RStmt>> {
        self.expect_punct("{")?;
        self.nested(|p| p.stmts_until_close())
    }

    fn stmt(&mut self) -> PResult<RStmt> {
        match self.peek() {
            Tok::Kw("havoc") => self.havoc(),
            Tok::Kw("assume") => {
                self.advance();
                Ok(RStmt::Assume(self.expr_semi()?))
            }
            Tok::Kw("assert") => self.assert(),
            Tok::Kw("call") => self.call(),
            Tok::Kw("if") => self.if_stmt(),
            Tok::Kw("return") => {
                self.advance();
                self.expect_punct(";")?;
                Ok(RStmt::Return)
            }
            Tok::Ident(_) => self.assign(),
            _ => Err(self.expected("a statement")),
        }
    }

    fn expr_semi(&mut self) -> PResult<RExpr> {
        let e = self.expr()?;
        self.expect_punct(";")?;
        Ok(e)
    }

    /// `x := e;`, or `x[i]…[j] := e;`, sugar for `x := x[i := …x[i]…[j := e]…];`.
    fn assign(&mut self) -> PResult<RStmt> {
        let lhs = self.ident("a variable name")?;
        let mut indices = Vec::new();
        while self.eat_punct("[") {
            indices.push(self.expr()?);
            self.expect_punct("]")?;
        }
        self.expect_punct(":=")?;
        let rhs = self.expr_semi()?;
        let base = RExpr::new(RExprKind::Var(lhs.clone()), lhs.pos)?;
        Ok(RStmt::Assign(lhs, updated(base, &indices, rhs)?))
    }

    fn havoc(&mut self) -> PResult<RStmt> {
        self.expect_kw("havoc")?;
        let vars = self.name_list("a variable name")?;
        self.expect_punct(";")?;
        Ok(RStmt::Havoc(vars))
    }

    fn assert(&mut self) -> PResult<RStmt> {
        self.expect_kw("assert")?;
        let source = self.source_attribute()?;
        Ok(RStmt::Assert(self.expr_semi()?, source))
    }

    fn call(&mut self) -> PResult<RStmt> {
        self.expect_kw("call")?;
        let source = self.source_attribute()?;
        let first = self.ident("a procedure or variable name")?;
        let (rets, callee) = if self.is_punct("(") {
            (Vec::new(), first)
        } else {
            let mut rets = vec![first];
            while self.eat_punct(",") {
                rets.push(self.ident("a variable name")?);
            }
            if !self.eat_punct(":=") {
                return Err(self.expected("`,`, `:=` or `(`"));
            }
            (rets, self.ident("a procedure name")?)
        };
        self.expect_punct("(")?;
        let args = self.args_until_close()?;
        self.expect_punct(";")?;
        Ok(RStmt::Call(RCall {
            rets,
            callee,
            args,
            source,
        }))
    }

    /// `[{:source line, col}]`
    fn source_attribute(&mut self) -> PResult<Option<SourcePos>> {
        if !self.is_punct("{:") {
            return Ok(None);
        }
        let attr_pos = self.here();
        self.advance();
        let attr = self.attr_name()?;
        if attr != "source" {
            return Err(self.unknown_attribute(attr_pos, &attr, "`source`"));
        }
        let line = self.u32_literal()?;
        self.expect_punct(",")?;
        let col = self.u32_literal()?;
        self.expect_punct("}")?;
        Ok(Some(SourcePos { line, col }))
    }

    fn u32_literal(&mut self) -> PResult<u32> {
        let value = match self.peek() {
            Tok::Int(n) => u32::try_from(n).ok(),
            _ => return Err(self.expected("a line or column number")),
        };
        match value {
            Some(v) => {
                self.advance();
                Ok(v)
            }
            None => Err(self.expected("a number below 2^32")),
        }
    }

    fn if_stmt(&mut self) -> PResult<RStmt> {
        self.expect_kw("if")?;
        self.expect_punct("(")?;
        let cond = self.expr()?;
        self.expect_punct(")")?;
        let then = self.block()?;
        let else_ = if !self.eat_kw("else") {
            Vec::new()
        } else if self.is_kw("if") {
            vec![self.nested(|p| p.if_stmt())?]
        } else if self.is_punct("{") {
            self.block()?
        } else {
            return Err(self.expected("`{` or `if`"));
        };
        Ok(RStmt::If(cond, then, else_))
    }

    // ---- expressions ---------------------------------------------------------------

    /// A full expression.
    pub(crate) fn expr(&mut self) -> PResult<RExpr> {
        self.nested(|p| p.implies())
    }

    fn implies(&mut self) -> PResult<RExpr> {
        let lhs = self.and_or()?;
        if !self.is_punct("==>") {
            return Ok(lhs);
        }
        self.advance();
        let rhs = self.nested(|p| p.implies())?;
        binary(BinOp::Implies, lhs, rhs)
    }

    fn and_or(&mut self) -> PResult<RExpr> {
        let first = self.relational()?;
        let op = match self.peek() {
            Tok::Punct("&&") => BinOp::And,
            Tok::Punct("||") => BinOp::Or,
            _ => return Ok(first),
        };
        self.left_chain(
            first,
            |tok| match tok {
                Tok::Punct("&&") => Some(BinOp::And),
                Tok::Punct("||") => Some(BinOp::Or),
                _ => None,
            },
            Some(op),
            Parser::relational,
        )
    }

    /// Parses `first (op operand)*` left-associatively. With `only`, any other operator of
    /// the class is an error (`&&` and `||` do not mix).
    fn left_chain(
        &mut self,
        first: RExpr,
        classify: impl Fn(&Tok) -> Option<BinOp>,
        only: Option<BinOp>,
        operand: fn(&mut Parser) -> PResult<RExpr>,
    ) -> PResult<RExpr> {
        let mut lhs = first;
        while let Some(op) = classify(self.peek()) {
            if only.is_some_and(|o| o != op) {
                return Err(self.expected("a parenthesis (`&&` and `||` do not mix)"));
            }
            self.advance();
            let rhs = operand(self)?;
            lhs = binary(op, lhs, rhs)?;
        }
        Ok(lhs)
    }

    fn relational(&mut self) -> PResult<RExpr> {
        let lhs = self.additive()?;
        let result = if let Some(op) = relational_op(self.peek()) {
            self.advance();
            binary(op, lhs, self.additive()?)?
        } else if self.eat_kw("is") {
            let pos = lhs.pos;
            let ctor = self.ident("a constructor name")?;
            RExpr::new(RExprKind::Is(Box::new(lhs), ctor), pos)?
        } else {
            return Ok(lhs);
        };
        if relational_op(self.peek()).is_some() || self.is_kw("is") {
            return Err(self.expected("a parenthesis (comparisons do not associate)"));
        }
        Ok(result)
    }

    fn additive(&mut self) -> PResult<RExpr> {
        let first = self.multiplicative()?;
        let classify = |tok: &Tok| match tok {
            Tok::Punct("+") => Some(BinOp::Add),
            Tok::Punct("-") => Some(BinOp::Sub),
            _ => None,
        };
        self.left_chain(first, classify, None, Parser::multiplicative)
    }

    fn multiplicative(&mut self) -> PResult<RExpr> {
        let first = self.unary()?;
        let classify = |tok: &Tok| match tok {
            Tok::Punct("*") => Some(BinOp::Mul),
            Tok::Punct("/") => Some(BinOp::Div),
            Tok::Punct("%") => Some(BinOp::Mod),
            Tok::Kw("div") => Some(BinOp::EuclidDiv),
            Tok::Kw("mod") => Some(BinOp::EuclidMod),
            _ => None,
        };
        self.left_chain(first, classify, None, Parser::unary)
    }

    fn unary(&mut self) -> PResult<RExpr> {
        let pos = self.here();
        let op = match self.peek() {
            Tok::Punct("-") => UnOp::Neg,
            Tok::Punct("!") => UnOp::Not,
            _ => return self.postfix(),
        };
        self.advance();
        if let (UnOp::Neg, Tok::Int(n)) = (op, self.peek())
            && !matches!(self.peek_at(1), Tok::Punct("->") | Tok::Punct("["))
        {
            let kind = RExprKind::Int(-n.clone());
            self.advance();
            return RExpr::new(kind, pos);
        }
        let arg = self.nested(|p| p.unary())?;
        RExpr::new(RExprKind::Unary(op, Box::new(arg)), pos)
    }

    fn postfix(&mut self) -> PResult<RExpr> {
        let mut e = self.atom()?;
        loop {
            let pos = e.pos;
            if self.eat_punct("->") {
                let field = self.ident("a field name")?;
                e = RExpr::new(RExprKind::Select(Box::new(e), field), pos)?;
            } else if self.eat_punct("[") {
                e = RExpr::new(self.map_access(e)?, pos)?;
            } else {
                return Ok(e);
            }
        }
    }

    /// After `map[`: `index]` or `index := value]`.
    fn map_access(&mut self, map: RExpr) -> PResult<RExprKind> {
        let index = self.expr()?;
        let kind = if self.eat_punct(":=") {
            let value = self.expr()?;
            RExprKind::MapSet(Box::new(map), Box::new(index), Box::new(value))
        } else {
            RExprKind::MapGet(Box::new(map), Box::new(index))
        };
        self.expect_punct("]")?;
        Ok(kind)
    }

    /// `[key](value)`
    fn map_const(&mut self) -> PResult<RExprKind> {
        self.expect_punct("[")?;
        let key = self.ty()?;
        self.expect_punct("]")?;
        self.expect_punct("(")?;
        let value = self.expr()?;
        self.expect_punct(")")?;
        Ok(RExprKind::MapConst(key, Box::new(value)))
    }

    fn atom(&mut self) -> PResult<RExpr> {
        let pos = self.here();
        let kind = match self.peek().clone() {
            Tok::Int(n) => {
                self.advance();
                RExprKind::Int(n)
            }
            Tok::Kw("true") | Tok::Kw("false") => {
                RExprKind::Bool(self.advance() == Tok::Kw("true"))
            }
            Tok::Punct("(") if self.at_quantifier() => self.quantifier()?,
            Tok::Punct("(") => return self.parenthesized(),
            Tok::Punct("[") => self.map_const()?,
            Tok::Kw("if") => self.ite()?,
            Tok::Ident(_) => self.var_or_ctor()?,
            _ => return Err(self.expected("an expression")),
        };
        RExpr::new(kind, pos)
    }

    /// Whether `(forall x:` or `(exists x:` starts here (the words are not reserved: a
    /// variable named `forall` is never followed by a name and `:`).
    fn at_quantifier(&self) -> bool {
        matches!(self.peek_at(1), Tok::Ident(w) if w == "forall" || w == "exists")
            && matches!(self.peek_at(2), Tok::Ident(_))
            && matches!(self.peek_at(3), Tok::Punct(":"))
    }

    /// `(forall x: T, y: U :: body)`; `::` is two `:` tokens.
    fn quantifier(&mut self) -> PResult<RExprKind> {
        self.expect_punct("(")?;
        let forall = matches!(self.advance(), Tok::Ident(w) if w == "forall");
        let mut vars = Vec::new();
        loop {
            let name = self.ident("a bound variable")?;
            self.expect_punct(":")?;
            let ty = self.nested(|p| p.ty())?;
            vars.push((name, ty));
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(":")?;
        self.expect_punct(":")?;
        let body = self.nested(|p| p.expr())?;
        self.expect_punct(")")?;
        Ok(RExprKind::Quant(forall, vars, Box::new(body)))
    }

    fn parenthesized(&mut self) -> PResult<RExpr> {
        self.expect_punct("(")?;
        let e = self.expr()?;
        self.expect_punct(")")?;
        Ok(e)
    }

    fn ite(&mut self) -> PResult<RExprKind> {
        self.expect_kw("if")?;
        let cond = self.expr()?;
        self.expect_kw("then")?;
        let then = self.expr()?;
        self.expect_kw("else")?;
        let else_ = self.expr()?;
        Ok(RExprKind::Ite(
            Box::new(cond),
            Box::new(then),
            Box::new(else_),
        ))
    }

    fn var_or_ctor(&mut self) -> PResult<RExprKind> {
        let name = self.ident("a name")?;
        if !self.eat_punct("(") {
            return Ok(RExprKind::Var(name));
        }
        Ok(RExprKind::Ctor(name, self.args_until_close()?))
    }

    /// `[expr (, expr)*] )`
    fn args_until_close(&mut self) -> PResult<Vec<RExpr>> {
        let mut args = Vec::new();
        if self.eat_punct(")") {
            return Ok(args);
        }
        loop {
            args.push(self.expr()?);
            if self.eat_punct(")") {
                return Ok(args);
            }
            if !self.eat_punct(",") {
                return Err(self.expected("`,` or `)`"));
            }
        }
    }
}

/// `base[i := base[i][j := … rhs …]]` for the indices `i, j, …` (just `rhs` for none).
fn updated(base: RExpr, indices: &[RExpr], rhs: RExpr) -> PResult<RExpr> {
    let Some((index, rest)) = indices.split_first() else {
        return Ok(rhs);
    };
    let pos = base.pos;
    let inner = RExpr::new(
        RExprKind::MapGet(Box::new(base.clone()), Box::new(index.clone())),
        pos,
    )?;
    let value = updated(inner, rest, rhs)?;
    RExpr::new(
        RExprKind::MapSet(Box::new(base), Box::new(index.clone()), Box::new(value)),
        pos,
    )
}

fn binary(op: BinOp, lhs: RExpr, rhs: RExpr) -> PResult<RExpr> {
    let pos = lhs.pos;
    RExpr::new(RExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), pos)
}

fn relational_op(tok: &Tok) -> Option<BinOp> {
    match tok {
        Tok::Punct("==") => Some(BinOp::Eq),
        Tok::Punct("!=") => Some(BinOp::Neq),
        Tok::Punct("<") => Some(BinOp::Lt),
        Tok::Punct("<=") => Some(BinOp::Le),
        Tok::Punct(">") => Some(BinOp::Gt),
        Tok::Punct(">=") => Some(BinOp::Ge),
        _ => None,
    }
}
