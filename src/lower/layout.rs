//! How HORef values are laid out in the IR (DESIGN.md §4).
//!
//! Guarantees: a value of type `T` is represented by the IR components
//! [`Layout::components`]`(T)`: `Int` → one `int`; `Unit` → nothing; `List` → one `IntList`;
//! a pair → the components of its first then its second half; an arrow type → one value of
//! that arrow type's closure datatype; `Ref T` → one `int`, the cell's address (the cell's
//! content is in the heap maps of [`super::heap`]). Every arrow type of the program has exactly one
//! closure datatype, with one constructor per function (method or lambda) of that type whose
//! fields are the function's captured values, laid out the same way.

use crate::syntax::ast::Type;
use boogie_like::ir::{CtorId, DatatypeId, Program as IrProgram, Type as IrType};
use std::collections::HashMap;

/// The IR datatypes standing for HORef types.
#[derive(Debug, Default)]
pub struct Layout {
    closures: HashMap<Type, DatatypeId>,
    /// In declaration order, for deterministic iteration.
    closure_order: Vec<Type>,
    pub list: Option<ListDatatype>,
}

/// The `IntList` datatype and its constructors.
#[derive(Clone, Copy, Debug)]
pub struct ListDatatype {
    pub datatype: DatatypeId,
    pub nil: CtorId,
    pub cons: CtorId,
}

impl Layout {
    /// Declares the datatype of every arrow type in `types` (and inside them), plus
    /// `IntList` if any type mentions lists.
    pub fn declare<'t>(ir: &mut IrProgram, types: impl IntoIterator<Item = &'t Type>) -> Layout {
        let mut layout = Layout::default();
        for ty in types {
            layout.declare_type(ir, ty);
        }
        layout
    }

    fn declare_type(&mut self, ir: &mut IrProgram, ty: &Type) {
        match ty {
            Type::Int | Type::Unit => {}
            Type::Ref(content) => self.declare_type(ir, content),
            Type::List => self.declare_list(ir),
            Type::Pair(a, b) => {
                self.declare_type(ir, a);
                self.declare_type(ir, b);
            }
            Type::Arrow(params, ret) => {
                if !self.closures.contains_key(ty) {
                    let id = ir.add_datatype(format!("Clo{}", self.closure_order.len()));
                    self.closures.insert(ty.clone(), id);
                    self.closure_order.push(ty.clone());
                }
                for t in params.iter().chain(std::iter::once(&**ret)) {
                    self.declare_type(ir, t);
                }
            }
        }
    }

    fn declare_list(&mut self, ir: &mut IrProgram) {
        if self.list.is_some() {
            return;
        }
        let datatype = ir.add_datatype("IntList");
        let nil = ir.add_ctor::<&str>(datatype, "nil", vec![]);
        let cons = ir.add_ctor(
            datatype,
            "cons",
            vec![("head", IrType::Int), ("tail", IrType::Data(datatype))],
        );
        self.list = Some(ListDatatype {
            datatype,
            nil,
            cons,
        });
    }

    /// The closure datatype of an arrow type.
    pub fn closure(&self, arrow: &Type) -> DatatypeId {
        *self
            .closures
            .get(arrow)
            .unwrap_or_else(|| panic!("internal error: no datatype for `{arrow}`"))
    }

    /// Every arrow type with its datatype, in declaration order.
    pub fn closure_types(&self) -> impl Iterator<Item = (&Type, DatatypeId)> {
        self.closure_order.iter().map(|t| (t, self.closures[t]))
    }

    pub fn list(&self) -> ListDatatype {
        self.list
            .unwrap_or_else(|| panic!("internal error: lists used but IntList not declared"))
    }

    /// The IR types of the components of a value of type `ty`.
    pub fn components(&self, ty: &Type) -> Vec<IrType> {
        let mut out = Vec::new();
        self.push_components(ty, &mut out);
        out
    }

    fn push_components(&self, ty: &Type, out: &mut Vec<IrType>) {
        match ty {
            Type::Int | Type::Ref(_) => out.push(IrType::Int),
            Type::Unit => {}
            Type::List => out.push(IrType::Data(self.list().datatype)),
            Type::Arrow(..) => out.push(IrType::Data(self.closure(ty))),
            Type::Pair(a, b) => {
                self.push_components(a, out);
                self.push_components(b, out);
            }
        }
    }

    /// How many components a value of type `ty` has.
    pub fn width(&self, ty: &Type) -> usize {
        match ty {
            Type::Unit => 0,
            Type::Int | Type::List | Type::Arrow(..) | Type::Ref(_) => 1,
            Type::Pair(a, b) => self.width(a) + self.width(b),
        }
    }
}

/// Names for the components of a value called `base`: `base`, or `base.0`, `base.1`, ...
pub fn component_names(base: &str, count: usize) -> Vec<String> {
    if count == 1 {
        vec![base.to_string()]
    } else {
        (0..count).map(|i| format!("{base}.{i}")).collect()
    }
}
