//! Type expressions: arrows (right-associative), tuples `t1 * t2`, postfix constructors
//! `int list ref`, `(t1, t2) name`, type variables and names (an abbreviation's name is
//! expanded as it is read: parser/abbreviations.rs).
//!
//! Guarantees: the tree is as OCaml reads the type; nesting is bounded by
//! [`MAX_NESTING`].

use super::*;

impl Parser {
    pub(super) fn type_expr(&mut self) -> PResult<TypeExpr> {
        self.nested(|p| {
            let lhs = p.tuple_type()?;
            if p.eat("->") {
                let rhs = p.type_expr()?;
                return Ok(TypeExpr::Arrow(Box::new(lhs), Box::new(rhs)));
            }
            Ok(lhs)
        })
    }

    pub(super) fn tuple_type(&mut self) -> PResult<TypeExpr> {
        let first = self.applied_type()?;
        if !self.is("*") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat("*") {
            items.push(self.applied_type()?);
        }
        Ok(TypeExpr::Tuple(items))
    }

    /// An atom followed by postfix constructors: `int list ref`.
    pub(super) fn applied_type(&mut self) -> PResult<TypeExpr> {
        let mut ty = self.atom_type()?;
        while let Tok::Ident(name) = self.peek().clone() {
            let span = ty.span().to(self.bump().span);
            ty = self.named_type(name, vec![ty], span)?;
        }
        Ok(ty)
    }

    pub(super) fn atom_type(&mut self) -> PResult<TypeExpr> {
        match self.peek().clone() {
            Tok::TyVar(name) => Ok(TypeExpr::Var(name, self.bump().span)),
            Tok::Ident(name) => {
                let span = self.bump().span;
                self.named_type(name, vec![], span)
            }
            Tok::Punct("(") => {
                self.bump();
                let inner = self.nested(|p| p.type_expr())?;
                if !self.is(",") {
                    self.expect(")")?;
                    return Ok(inner);
                }
                // `(t1, t2) name`: a type constructor of several arguments.
                let mut args = vec![inner];
                while self.eat(",") {
                    args.push(self.nested(|p| p.type_expr())?);
                }
                self.expect(")")?;
                let Tok::Ident(name) = self.peek().clone() else {
                    return Err(self.unexpected("the name of a type constructor"));
                };
                let span = args[0].span().to(self.bump().span);
                self.named_type(name, args, span)
            }
            _ => Err(self.unexpected("a type")),
        }
    }
}
