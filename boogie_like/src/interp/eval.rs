//! Expression evaluation over a frame of locals and the globals.
//!
//! Guarantees: evaluation of an expression of a verified program either yields a value of the
//! expression's type or a [`RuntimeError`] (unassigned local, selector of the wrong
//! constructor); `&&`, `||`, `==>` and `if then else` evaluate only what they need.

use num_bigint::BigInt;

use super::map_value::{MapKey, MapValue};
use super::{RuntimeError, Value};
use crate::arena::Arena;
use crate::ir::{BinOp, Expr, FieldRef, GlobalId, LocalId, Procedure, Program, UnOp, Var};

/// Where variables are read from.
pub(crate) struct Env<'a> {
    pub program: &'a Program,
    pub proc: &'a Procedure,
    pub locals: &'a [Option<Value>],
    pub globals: &'a Arena<GlobalId, Value>,
    pub quantifiers: Option<&'a dyn super::QuantifierOracle>,
}

type EResult = Result<Value, RuntimeError>;

/// The bound variables of every quantifier in `e`.
fn collect_bound(e: &Expr, out: &mut Vec<Var>) {
    if let Expr::Quant { vars, .. } = e {
        out.extend(vars.iter().map(|v| Var::Local(*v)));
    }
    for c in e.children() {
        collect_bound(c, out);
    }
}

fn type_confusion(what: &str) -> ! {
    panic!("internal error: ill-typed {what} in a verified program")
}

impl Env<'_> {
    /// The value of `e`.
    pub(crate) fn eval(&self, e: &Expr) -> EResult {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.eval_inner(e))
    }

    fn eval_inner(&self, e: &Expr) -> EResult {
        match e {
            Expr::Int(n) => Ok(Value::Int(n.clone())),
            Expr::Bool(b) => Ok(Value::Bool(*b)),
            Expr::Var(v) => self.read(*v),
            Expr::Unary { op, arg } => self.unary(*op, arg),
            Expr::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs),
            Expr::Ite { cond, then, else_ } => {
                if self.eval_bool(cond)? {
                    self.eval(then)
                } else {
                    self.eval(else_)
                }
            }
            Expr::Ctor { ctor, args } => {
                let fields = args
                    .iter()
                    .map(|a| self.eval(a))
                    .collect::<Result<_, _>>()?;
                Ok(Value::data(*ctor, fields))
            }
            Expr::Is { arg, ctor } => match self.eval(arg)? {
                Value::Data { ctor: c, .. } => Ok(Value::Bool(c == *ctor)),
                _ => type_confusion("tester"),
            },
            Expr::Select { arg, field } => self.select(arg, *field),
            Expr::MapConst { key, value } => {
                Ok(Value::map(MapValue::constant(*key, self.eval(value)?)))
            }
            Expr::MapGet { map, index } => {
                let (map, key) = (self.eval_map(map)?, self.eval_key(index)?);
                Ok(map.get(&key))
            }
            Expr::MapSet { map, index, value } => {
                let (map, key) = (self.eval_map(map)?, self.eval_key(index)?);
                Ok(Value::map(map.set(key, self.eval(value)?)))
            }
            Expr::Quant { .. } => self.quantifier(e),
        }
    }

    /// A quantifier, decided by the [`super::QuantifierOracle`] on the values of the other
    /// variables it reads.
    fn quantifier(&self, e: &Expr) -> EResult {
        let not_decided = |asked| RuntimeError::Quantifier {
            proc: self.proc.name.clone(),
            asked,
        };
        let Some(oracle) = self.quantifiers else {
            return Err(not_decided(false));
        };
        let mut bound = Vec::new();
        collect_bound(e, &mut bound);
        let mut free = Vec::new();
        let mut seen = Vec::new();
        e.for_each_var(&mut |v| {
            if !bound.contains(&v) && !seen.contains(&v) {
                seen.push(v);
            }
        });
        for v in seen {
            free.push((v, self.read(v)?));
        }
        match oracle.decide(self.program, self.proc, e, &free) {
            Some(holds) => Ok(Value::Bool(holds)),
            None => Err(not_decided(true)),
        }
    }

    fn eval_map(&self, e: &Expr) -> Result<std::rc::Rc<MapValue>, RuntimeError> {
        match &self.eval(e)? {
            Value::Map(m) => Ok(m.clone()),
            _ => type_confusion("map"),
        }
    }

    fn eval_key(&self, e: &Expr) -> Result<MapKey, RuntimeError> {
        match MapKey::of(&self.eval(e)?) {
            Some(key) => Ok(key),
            None => type_confusion("map index"),
        }
    }

    fn read(&self, var: Var) -> EResult {
        match var {
            Var::Global(g) => Ok(self.globals[g].clone()),
            Var::Local(l) => match self.locals.get(l.0 as usize) {
                Some(Some(v)) => Ok(v.clone()),
                Some(None) => Err(self.unassigned(l)),
                None => panic!("internal error: missing local {l} in a verified program"),
            },
        }
    }

    fn unassigned(&self, local: LocalId) -> RuntimeError {
        RuntimeError::UnassignedLocal {
            proc: self.proc.name.clone(),
            local: self.proc.locals[local].name.clone(),
        }
    }

    pub(crate) fn eval_bool(&self, e: &Expr) -> Result<bool, RuntimeError> {
        match self.eval(e)? {
            Value::Bool(b) => Ok(b),
            _ => type_confusion("condition"),
        }
    }

    fn eval_int(&self, e: &Expr) -> Result<BigInt, RuntimeError> {
        match &self.eval(e)? {
            Value::Int(n) => Ok(n.clone()),
            _ => type_confusion("arithmetic"),
        }
    }

    fn unary(&self, op: UnOp, arg: &Expr) -> EResult {
        match op {
            UnOp::Neg => Ok(Value::Int(-self.eval_int(arg)?)),
            UnOp::Not => Ok(Value::Bool(!self.eval_bool(arg)?)),
        }
    }

    fn binary(&self, op: BinOp, lhs: &Expr, rhs: &Expr) -> EResult {
        let b = |x: bool| Ok(Value::Bool(x));
        match op {
            BinOp::And => b(self.eval_bool(lhs)? && self.eval_bool(rhs)?),
            BinOp::Or => b(self.eval_bool(lhs)? || self.eval_bool(rhs)?),
            BinOp::Implies => b(!self.eval_bool(lhs)? || self.eval_bool(rhs)?),
            BinOp::Eq => b(self.eval(lhs)? == self.eval(rhs)?),
            BinOp::Neq => b(self.eval(lhs)? != self.eval(rhs)?),
            _ => self.arith(op, self.eval_int(lhs)?, self.eval_int(rhs)?),
        }
    }

    fn arith(&self, op: BinOp, l: BigInt, r: BigInt) -> EResult {
        Ok(match op {
            BinOp::Add => Value::Int(l + r),
            BinOp::Sub => Value::Int(l - r),
            BinOp::Mul => Value::Int(l * r),
            BinOp::Div | BinOp::Mod | BinOp::EuclidDiv | BinOp::EuclidMod
                if r == BigInt::from(0) =>
            {
                return Err(RuntimeError::DivisionByZero {
                    proc: self.proc.name.clone(),
                });
            }
            // `BigInt`'s `/` and `%` truncate toward zero, as the IR's do.
            BinOp::Div => Value::Int(l / r),
            BinOp::Mod => Value::Int(l % r),
            BinOp::EuclidDiv => Value::Int(euclid_div(&l, &r)),
            BinOp::EuclidMod => {
                let quotient = euclid_div(&l, &r);
                Value::Int(l - r * quotient)
            }
            BinOp::Lt => Value::Bool(l < r),
            BinOp::Le => Value::Bool(l <= r),
            BinOp::Gt => Value::Bool(l > r),
            BinOp::Ge => Value::Bool(l >= r),
            _ => panic!("internal error: {op:?} is not arithmetic"),
        })
    }

    fn select(&self, arg: &Expr, field: FieldRef) -> EResult {
        let value = self.eval(arg)?;
        let Value::Data { ctor, fields } = &value else {
            type_confusion("selector")
        };
        if *ctor != field.ctor {
            return Err(RuntimeError::SelectorMismatch {
                proc: self.proc.name.clone(),
                field: self
                    .program
                    .field(field)
                    .map_or_else(String::new, |f| f.name.clone()),
                found: self
                    .program
                    .ctor(*ctor)
                    .map_or_else(String::new, |c| c.name.clone()),
            });
        }
        match fields.get(field.index as usize) {
            Some(v) => Ok(v.clone()),
            None => type_confusion("selector"),
        }
    }
}

/// Euclidean division (`r != 0`): the truncated quotient, one step further from zero
/// when the truncated remainder is negative, so that the remainder is never negative.
fn euclid_div(l: &BigInt, r: &BigInt) -> BigInt {
    let zero = BigInt::from(0);
    let quotient = l / r;
    if l % r >= zero {
        quotient
    } else if *r > zero {
        quotient - 1
    } else {
        quotient + 1
    }
}
