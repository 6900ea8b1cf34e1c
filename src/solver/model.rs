//! Model values as the solver prints them in `get-value` replies, decoded into [`ModelValue`].
//!
//! Understood forms: numerals and `(- n)` of any size; `true`/`false`; a constructor of a
//! declared datatype, bare (`nil`, `K_succ`), applied (`(cons 3 nil)`) or sort-annotated
//! (`(as nil IntList)`); `(let ((x v) ...) body)` sharing; and arrays as z3 prints them:
//! `((as const (Array Int Int)) 0)`, `(store a k v)` over one of those, and
//! `(lambda ((x Int)) (ite (= x k) v …))` ending in a value. A lambda over integers of
//! another shape (z3's models after model-based quantifier instantiation: ranges, `let`s)
//! is sampled ([`sampled`]): its value at every integer from one below its smallest literal
//! to one above its largest (at most [`MAX_SAMPLES`] of them), and below that everywhere
//! else — exact at those keys, possibly not beyond the largest; only the concrete replay,
//! which checks every assumption on the values it is given, reads arrays. Anything else
//! (`(_ as-array f)` included) is an error carrying the reply text, never a panic.

use super::reply::Sx;
use num_bigint::BigInt;
use std::collections::HashMap;
use std::fmt;

/// A value in the solver's model.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ModelValue {
    Int(BigInt),
    Bool(bool),
    /// A datatype value: its constructor and the values of the constructor's fields.
    Data {
        ctor: String,
        fields: Vec<ModelValue>,
    },
    /// An element of an uninterpreted sort, as z3 names it (`T!val!3` is 3).
    Elem(BigInt),
    /// An array: `default` everywhere except at the keys of `entries` (later entries win).
    Array {
        default: Box<ModelValue>,
        entries: Vec<(ModelValue, ModelValue)>,
    },
}

impl ModelValue {
    pub fn as_int(&self) -> Option<&BigInt> {
        match self {
            ModelValue::Int(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            ModelValue::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

/// Prints SMT-LIB syntax: `5`, `(- 5)`, `true`, `nil`, `(cons 3 nil)`.
impl fmt::Display for ModelValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelValue::Int(n) if n.sign() == num_bigint::Sign::Minus => write!(f, "(- {})", -n),
            ModelValue::Int(n) => write!(f, "{n}"),
            ModelValue::Bool(b) => write!(f, "{b}"),
            ModelValue::Elem(n) => write!(f, "elem!{n}"),
            ModelValue::Data { ctor, fields } if fields.is_empty() => f.write_str(ctor),
            ModelValue::Data { ctor, fields } => {
                write!(f, "({ctor}")?;
                for field in fields {
                    write!(f, " {field}")?;
                }
                f.write_str(")")
            }
            ModelValue::Array { default, entries } => {
                for _ in entries {
                    f.write_str("(store ")?;
                }
                write!(f, "((as const Array) {default})")?;
                for (k, v) in entries {
                    write!(f, " {k} {v})")?;
                }
                Ok(())
            }
        }
    }
}

/// z3's name for an element of an uninterpreted sort: `T!val!3` (quoted `|T!val!3|` when
/// `T` needs bars) is the element 3 of `T`.
fn elem(a: &str) -> Option<ModelValue> {
    let a = a.trim_start_matches('|').trim_end_matches('|');
    let (_, n) = a.rsplit_once("!val!")?;
    if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
        return n.parse().ok().map(ModelValue::Elem);
    }
    None
}

/// Decodes model values against the declared constructors (name → number of fields).
pub(crate) struct Decoder<'a> {
    ctors: &'a HashMap<String, usize>,
    /// `let` bindings in scope, innermost last.
    lets: Vec<(String, ModelValue)>,
}

impl<'a> Decoder<'a> {
    pub(crate) fn new(ctors: &'a HashMap<String, usize>) -> Decoder<'a> {
        Decoder {
            ctors,
            lets: Vec::new(),
        }
    }

    /// `None` when the term is not a value form we understand.
    pub(crate) fn decode(&mut self, sx: &Sx) -> Option<ModelValue> {
        match sx {
            Sx::Atom(a) => self.atom(a),
            Sx::Str(_) => None,
            Sx::List(items) => self.list(items),
        }
    }

    fn atom(&self, a: &str) -> Option<ModelValue> {
        if let Some((_, v)) = self.lets.iter().rev().find(|(name, _)| name == a) {
            return Some(v.clone());
        }
        match a {
            "true" => Some(ModelValue::Bool(true)),
            "false" => Some(ModelValue::Bool(false)),
            _ if is_numeral(a) => a.parse().ok().map(ModelValue::Int),
            _ if self.ctors.get(a) == Some(&0) => Some(data(a, Vec::new())),
            _ => elem(a),
        }
    }

    fn list(&mut self, items: &[Sx]) -> Option<ModelValue> {
        let (head, args) = items.split_first()?;
        if let (Some([as_, konst, _sort]), [value]) = (head.list(), args)
            && as_.is_atom("as")
            && konst.is_atom("const")
        {
            let default = Box::new(self.decode(value)?);
            return Some(ModelValue::Array {
                default,
                entries: Vec::new(),
            });
        }
        match (head.atom()?, args) {
            ("-", [n]) => self.negated(n),
            ("as", [term, _sort]) => self.decode(term),
            ("let", [Sx::List(bindings), body]) => self.let_(bindings, body),
            ("store", [array, key, value]) => self.store(array, key, value),
            ("lambda", [Sx::List(params), body]) => self.lambda(params, body),
            (ctor, [_, ..]) if self.ctors.get(ctor) == Some(&args.len()) => {
                let fields = args.iter().map(|a| self.decode(a)).collect::<Option<_>>()?;
                Some(data(ctor, fields))
            }
            _ => None,
        }
    }

    /// `(store a k v)`: `a` with `k` sent to `v`.
    fn store(&mut self, array: &Sx, key: &Sx, value: &Sx) -> Option<ModelValue> {
        let ModelValue::Array {
            default,
            mut entries,
        } = self.decode(array)?
        else {
            return None;
        };
        entries.push((self.decode(key)?, self.decode(value)?));
        Some(ModelValue::Array { default, entries })
    }

    /// `(lambda ((x S)) (ite (= x k1) v1 (ite (= x k2) v2 … d)))`: the first test that
    /// matches wins, so the entries are listed last test first.
    fn lambda(&mut self, params: &[Sx], body: &Sx) -> Option<ModelValue> {
        let [Sx::List(param)] = params else {
            return None;
        };
        let x = param.first()?.atom()?;
        self.lambda_of_tests(x, body).or_else(|| {
            let int_keys = matches!(param.get(1), Some(s) if s.is_atom("Int"));
            if !int_keys {
                return None;
            }
            sampled(x, body, self)
        })
    }

    /// `(ite (= x k1) v1 (ite (= x k2) v2 … d))`.
    fn lambda_of_tests(&mut self, x: &str, body: &Sx) -> Option<ModelValue> {
        let mut entries = Vec::new();
        let mut rest = body;
        loop {
            match rest.list() {
                Some([ite, test, then, else_]) if ite.is_atom("ite") => {
                    let key = self.key_tested(x, test)?;
                    entries.push((key, self.decode(then)?));
                    rest = else_;
                }
                _ => break,
            }
        }
        let default = Box::new(self.decode(rest)?);
        entries.reverse();
        Some(ModelValue::Array { default, entries })
    }

    /// The key `k` of a test `(= x k)` or `(= k x)`.
    fn key_tested(&mut self, x: &str, test: &Sx) -> Option<ModelValue> {
        match test.list()? {
            [eq, a, b] if eq.is_atom("=") && a.is_atom(x) => self.decode(b),
            [eq, a, b] if eq.is_atom("=") && b.is_atom(x) => self.decode(a),
            _ => None,
        }
    }

    fn negated(&mut self, n: &Sx) -> Option<ModelValue> {
        match self.decode(n)? {
            ModelValue::Int(n) => Some(ModelValue::Int(-n)),
            _ => None,
        }
    }

    /// `(let ((x v) ...) body)`: the values are decoded in the outer scope (parallel let).
    fn let_(&mut self, bindings: &[Sx], body: &Sx) -> Option<ModelValue> {
        let mut bound = Vec::with_capacity(bindings.len());
        for binding in bindings {
            let [name, value] = binding.list()? else {
                return None;
            };
            bound.push((name.atom()?.to_string(), self.decode(value)?));
        }
        let depth = self.lets.len();
        self.lets.extend(bound);
        let result = self.decode(body);
        self.lets.truncate(depth);
        result
    }
}

/// The most keys a sampled lambda is evaluated at.
pub const MAX_SAMPLES: usize = 4096;

/// An integer or Boolean while evaluating a lambda's body.
type Value = ModelValue;

/// `(lambda ((x Int)) body)` with an integer or Boolean body built from `ite`, `let`,
/// comparisons, `and`/`or`/`not`/`=>`, `+ - *` and literals, as an array: the body's value
/// at each integer from one below its smallest literal to one above its largest, and its
/// value one further below as the default (the body's tests all answer the same there).
fn sampled(x: &str, body: &Sx, decoder: &mut Decoder) -> Option<ModelValue> {
    let mut literals = Vec::new();
    collect_literals(body, &mut literals);
    let (low, high) = match (literals.iter().min(), literals.iter().max()) {
        (Some(low), Some(high)) => (low - 1, high + 1),
        _ => (BigInt::from(0), BigInt::from(0)),
    };
    let span: BigInt = &high - &low;
    if span > BigInt::from(MAX_SAMPLES) {
        return None;
    }
    let at = |key: &BigInt, decoder: &mut Decoder| {
        let env = HashMap::from([(x.to_string(), Value::Int(key.clone()))]);
        evaluate(body, &env, decoder)
    };
    let default = at(&(&low - 1), decoder)?;
    let mut entries = Vec::new();
    let mut key = low;
    while key <= high {
        let value = at(&key, decoder)?;
        if value != default {
            entries.push((Value::Int(key.clone()), value));
        }
        key += 1;
    }
    Some(ModelValue::Array {
        default: Box::new(default),
        entries,
    })
}

fn collect_literals(sx: &Sx, out: &mut Vec<BigInt>) {
    match sx {
        Sx::Atom(a) if is_numeral(a) => out.extend(a.parse::<BigInt>().ok()),
        Sx::List(items) => items.iter().for_each(|i| collect_literals(i, out)),
        _ => {}
    }
}

/// The value of `sx` under `env`; `None` for anything outside the forms [`sampled`] takes.
fn evaluate(sx: &Sx, env: &HashMap<String, Value>, decoder: &mut Decoder) -> Option<Value> {
    let int = |v: Value| match v {
        Value::Int(n) => Some(n),
        _ => None,
    };
    let boolean = |v: Value| v.as_bool();
    match sx {
        Sx::Atom(a) => env.get(a.as_str()).cloned().or_else(|| decoder.atom(a)),
        Sx::Str(_) => None,
        Sx::List(items) => {
            let (head, args) = items.split_first()?;
            let mut values = || {
                args.iter()
                    .map(|a| evaluate(a, env, decoder))
                    .collect::<Option<Vec<Value>>>()
            };
            match head.atom()? {
                "ite" => {
                    let [test, then, else_] = args else {
                        return None;
                    };
                    if boolean(evaluate(test, env, decoder)?)? {
                        evaluate(then, env, decoder)
                    } else {
                        evaluate(else_, env, decoder)
                    }
                }
                "let" => {
                    let [Sx::List(bindings), body] = args else {
                        return None;
                    };
                    let mut inner = env.clone();
                    for binding in bindings {
                        let [name, value] = binding.list()? else {
                            return None;
                        };
                        inner.insert(name.atom()?.to_string(), evaluate(value, env, decoder)?);
                    }
                    evaluate(body, &inner, decoder)
                }
                "not" => Some(Value::Bool(!boolean(values()?.pop()?)?)),
                op @ ("and" | "or") => {
                    let operands = values()?.into_iter().map(boolean);
                    let operands = operands.collect::<Option<Vec<bool>>>()?;
                    Some(Value::Bool(if op == "and" {
                        operands.iter().all(|b| *b)
                    } else {
                        operands.iter().any(|b| *b)
                    }))
                }
                "=>" => {
                    let [a, b] = values()?.try_into().ok()?;
                    Some(Value::Bool(!boolean(a)? || boolean(b)?))
                }
                "=" => {
                    let [a, b] = values()?.try_into().ok()?;
                    Some(Value::Bool(a == b))
                }
                op @ ("<" | "<=" | ">" | ">=") => {
                    let [a, b] = values()?.try_into().ok()?;
                    let (a, b) = (int(a)?, int(b)?);
                    Some(Value::Bool(match op {
                        "<" => a < b,
                        "<=" => a <= b,
                        ">" => a > b,
                        _ => a >= b,
                    }))
                }
                "-" if args.len() == 1 => Some(Value::Int(-int(values()?.pop()?)?)),
                op @ ("+" | "-" | "*") => {
                    let mut numbers = values()?.into_iter().map(int).collect::<Option<Vec<_>>>()?;
                    if numbers.is_empty() {
                        return None;
                    }
                    let first = numbers.remove(0);
                    Some(Value::Int(numbers.into_iter().fold(
                        first,
                        |acc, n| match op {
                            "+" => acc + n,
                            "-" => acc - n,
                            _ => acc * n,
                        },
                    )))
                }
                _ => None,
            }
        }
    }
}

fn data(ctor: &str, fields: Vec<ModelValue>) -> ModelValue {
    ModelValue::Data {
        ctor: ctor.to_string(),
        fields,
    }
}

fn is_numeral(a: &str) -> bool {
    !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::super::reply::parse;
    use super::*;

    fn ctors() -> HashMap<String, usize> {
        [("nil", 0), ("cons", 2), ("K_succ", 0), ("K_add", 2)]
            .into_iter()
            .map(|(n, a)| (n.to_string(), a))
            .collect()
    }

    fn decode(text: &str) -> Option<ModelValue> {
        let ctors = ctors();
        Decoder::new(&ctors).decode(&parse(text).unwrap())
    }

    fn int(n: i64) -> ModelValue {
        ModelValue::Int(n.into())
    }

    #[test]
    fn decodes_integers_of_any_size_and_sign() {
        assert_eq!(decode("42"), Some(int(42)));
        assert_eq!(decode("(- 5)"), Some(int(-5)));
        let big: BigInt = "100000000000000000000000000000".parse().unwrap();
        assert_eq!(
            decode("(- 100000000000000000000000000000)"),
            Some(ModelValue::Int(-big))
        );
        assert_eq!(decode("(- (- 3))"), Some(int(3)));
    }

    #[test]
    fn decodes_booleans_and_datatypes() {
        assert_eq!(decode("true"), Some(ModelValue::Bool(true)));
        let list = decode("(cons 3 (cons (- 1) nil))").unwrap();
        assert_eq!(list.to_string(), "(cons 3 (cons (- 1) nil))");
        assert_eq!(decode("(as nil IntList)"), Some(data("nil", vec![])));
        assert_eq!(
            decode("(K_add 2 K_succ)"),
            Some(data("K_add", vec![int(2), data("K_succ", vec![])]))
        );
        assert_eq!(
            decode("(let ((_let_1 (cons 1 nil))) (cons 2 _let_1))")
                .unwrap()
                .to_string(),
            "(cons 2 (cons 1 nil))"
        );
    }

    #[test]
    fn decodes_elements_of_uninterpreted_sorts_by_their_number() {
        let elem = |n: i64| ModelValue::Elem(BigInt::from(n));
        assert_eq!(decode("T!val!0"), Some(elem(0)));
        assert_eq!(decode("|My Ref!val!12|"), Some(elem(12)));
        assert_eq!(decode("(as Ref!val!3 Ref)"), Some(elem(3)));
        assert_eq!(
            decode("(store ((as const (Array T Int)) 0) T!val!1 5)"),
            Some(ModelValue::Array {
                default: Box::new(int(0)),
                entries: vec![(elem(1), int(5))],
            })
        );
        assert_eq!(decode("T!val!"), None);
        assert_eq!(decode("T!val!x1"), None);
    }

    #[test]
    fn decodes_arrays_in_the_forms_z3_prints() {
        let array =
            |default: ModelValue, entries: Vec<(ModelValue, ModelValue)>| ModelValue::Array {
                default: Box::new(default),
                entries,
            };
        assert_eq!(
            decode("(store (store ((as const (Array Int Int)) 7) 3 5) (- 1) 2)"),
            Some(array(int(7), vec![(int(3), int(5)), (int(-1), int(2))]))
        );
        let inner = array(ModelValue::Bool(true), vec![]);
        assert_eq!(
            decode("((as const (Array Int (Array Int Bool))) ((as const (Array Int Bool)) true))"),
            Some(array(inner, vec![]))
        );
        assert_eq!(
            decode("(lambda ((x!1 Int)) (ite (= x!1 3) 5 (ite (= 4 x!1) 6 0)))"),
            Some(array(int(0), vec![(int(4), int(6)), (int(3), int(5))]))
        );
        // z3's form after model-based instantiation: sampled from one below its smallest
        // literal (0) to one above its largest (5).
        assert_eq!(
            decode("(lambda ((x Int)) (ite (< x 3) 5 0))"),
            Some(array(
                int(5),
                vec![3, 4, 5, 6]
                    .into_iter()
                    .map(|k| (int(k), int(0)))
                    .collect()
            ))
        );
        assert_eq!(
            decode(
                "(lambda ((x!1 Int)) (let ((a!1 (and (<= 103 x!1) (not (<= 105 x!1))))) \
                 (ite a!1 100 (ite (<= 103 x!1) 104 7))))"
            ),
            Some(array(
                int(7),
                vec![
                    (int(103), int(100)),
                    (int(104), int(100)),
                    (int(105), int(104)),
                    (int(106), int(104)),
                ]
            ))
        );
        for text in [
            "(store 1 2 3)",
            "(lambda ((x Int)) (ite (< x 3) y 0))",
            "(lambda ((x Int)) (ite (< x 100000) 5 (ite (> x 0) 1 0)))",
            "(lambda ((x Int) (y Int)) 0)",
            "((as const (Array Int Int)) y)",
        ] {
            assert_eq!(decode(text), None, "{text}");
        }
    }

    #[test]
    fn refuses_what_it_does_not_understand() {
        for text in [
            "x",
            "(cons 3)",
            "(nil)",
            "(/ 1 2)",
            "1.5",
            "\"s\"",
            "(_ as-array k!0)",
            "(- true)",
            "()",
            "(let ((a 1)) b)",
            "#x0f",
        ] {
            assert_eq!(decode(text), None, "{text}");
        }
    }
}
