//! How HORef values are laid out in the IR (docs/ir.md).
//!
//! Guarantees: a value of type `T` is represented by the IR components
//! [`Layout::components`]`(T)`: `Int` → one `int`; `Unit` → nothing; a list → one value of
//! its element type's list datatype (`IntList` for `Int` elements, as HORef's `List`;
//! `List#k` for the k-th other element type, whose `cons#k` holds the element's components
//! then the tail; every constructor and field name is unique program-wide, as SMT needs);
//! a pair → the components of its first then its second half; an arrow type → one value of
//! that arrow type's closure datatype; `Ref T` → one `int`, the cell's address (the cell's
//! content is in the heap maps of [`super::heap`]). Every arrow type of the program has exactly one
//! closure datatype, with one constructor per function (method or lambda) of that type whose
//! fields are the function's captured values, laid out the same way.

use crate::core_lang::ast::{DataDecl, Type};
use boogie_like::ir::{CtorId, DatatypeId, Program as IrProgram, Type as IrType};
use std::collections::HashMap;

/// The IR datatypes standing for HORef types.
#[derive(Debug, Default)]
pub struct Layout {
    closures: HashMap<Type, DatatypeId>,
    /// In declaration order, for deterministic iteration.
    closure_order: Vec<Type>,
    /// The list datatype of each element type.
    lists: HashMap<Type, ListDatatype>,
    /// The IR datatype of each core datatype, by name, with its constructors in order.
    datatypes: HashMap<std::rc::Rc<str>, (DatatypeId, Vec<CtorId>)>,
}

/// A list datatype (`IntList`, `List#k`) and its constructors.
#[derive(Clone, Copy, Debug)]
pub struct ListDatatype {
    pub datatype: DatatypeId,
    pub nil: CtorId,
    pub cons: CtorId,
}

impl Layout {
    /// Declares the datatype of every arrow type in `types` (and inside them), plus one
    /// list datatype per element type of the list types they mention.
    /// The core's datatypes become IR datatypes of the same name, one constructor each
    /// (`Node#tree`), whose fields are the components of the core fields' types.
    pub fn declare<'t>(
        ir: &mut IrProgram,
        datatypes: &[DataDecl],
        types: impl IntoIterator<Item = &'t Type>,
    ) -> Layout {
        let mut layout = Layout::default();
        let ids: Vec<DatatypeId> = datatypes
            .iter()
            .map(|d| {
                let id = ir.add_datatype(d.name.to_string());
                layout.datatypes.insert(d.name.clone(), (id, Vec::new()));
                id
            })
            .collect();
        for d in datatypes {
            for c in &d.ctors {
                for f in &c.fields {
                    layout.declare_type(ir, f);
                }
            }
        }
        for (d, id) in datatypes.iter().zip(ids) {
            let mut ctors = Vec::new();
            for c in &d.ctors {
                let mut fields: Vec<(String, IrType)> = Vec::new();
                // `Node#tree`: the core's constructor names are capitalised (OCaml's), the
                // datatype names are not, so no name is taken twice.
                let ctor_name = format!("{}#{}", c.name, d.name);
                for (i, f) in c.fields.iter().enumerate() {
                    let parts = layout.components(f);
                    let names = component_names(&format!("{ctor_name}.{i}"), parts.len());
                    fields.extend(names.into_iter().zip(parts));
                }
                ctors.push(ir.add_ctor(id, ctor_name, fields));
            }
            if let Some(entry) = layout.datatypes.get_mut(&d.name) {
                entry.1 = ctors;
            }
        }
        for ty in types {
            layout.declare_type(ir, ty);
        }
        layout
    }

    /// The IR datatype of the core datatype `name` and its constructors.
    pub fn datatype(&self, name: &str) -> (DatatypeId, &[CtorId]) {
        let (id, ctors) = self
            .datatypes
            .get(name)
            .unwrap_or_else(|| panic!("internal error: no datatype `{name}`"));
        (*id, ctors)
    }

    fn declare_type(&mut self, ir: &mut IrProgram, ty: &Type) {
        match ty {
            Type::Int | Type::Unit | Type::Data(_) => {}
            Type::Ref(content) => self.declare_type(ir, content),
            Type::List(element) => {
                self.declare_type(ir, element);
                self.declare_list(ir, element);
            }
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

    fn declare_list(&mut self, ir: &mut IrProgram, element: &Type) {
        if self.lists.contains_key(element) {
            return;
        }
        let (datatype, nil, cons) = if *element == Type::Int {
            let datatype = ir.add_datatype("IntList");
            let nil = ir.add_ctor::<&str>(datatype, "nil", vec![]);
            let fields = vec![
                ("head".to_string(), IrType::Int),
                ("tail".to_string(), IrType::Data(datatype)),
            ];
            (datatype, nil, ir.add_ctor(datatype, "cons", fields))
        } else {
            let k = self.lists.keys().filter(|e| **e != Type::Int).count() + 1;
            let datatype = ir.add_datatype(format!("List#{k}"));
            let nil = ir.add_ctor::<String>(datatype, format!("nil#{k}"), vec![]);
            let heads = self.components(element);
            let mut fields: Vec<(String, IrType)> =
                component_names(&format!("head#{k}"), heads.len())
                    .into_iter()
                    .zip(heads)
                    .collect();
            fields.push((format!("tail#{k}"), IrType::Data(datatype)));
            (
                datatype,
                nil,
                ir.add_ctor(datatype, format!("cons#{k}"), fields),
            )
        };
        self.lists.insert(
            element.clone(),
            ListDatatype {
                datatype,
                nil,
                cons,
            },
        );
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

    /// The datatype of lists of `element`s.
    pub fn list(&self, element: &Type) -> ListDatatype {
        *self
            .lists
            .get(element)
            .unwrap_or_else(|| panic!("internal error: no list datatype for `{element}`"))
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
            Type::List(element) => out.push(IrType::Data(self.list(element).datatype)),
            Type::Data(name) => out.push(IrType::Data(self.datatype(name).0)),
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
            Type::Int | Type::List(_) | Type::Arrow(..) | Type::Ref(_) | Type::Data(_) => 1,
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
