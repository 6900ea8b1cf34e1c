//! The heap of allocated references (`ref e`, `Ref T`): SMT arrays indexed by addresses.
//!
//! Guarantees: a value of type `Ref T` is one `int`, the address of its cell. The content
//! of every cell of type `Ref T` lives at its address in the heap maps of `T`, one global
//! `[int]C` per component `C` of `T`'s layout (`heap#n`, or `heap#n.0`, `heap#n.1`, … for
//! the `n`-th content type); a `Ref Unit` cell has no map. `ref e` takes the address
//! `alloc#next` and increments it, so addresses are `0, 1, 2, …` in allocation order,
//! the interpreter's when no cell is a single cell ([`super::single_cells`]: those have
//! negative addresses and globals of their own), and two cells never share an address:
//! aliasing in the IR is aliasing in the source. Maps of different content types never
//! alias (a cell has one type). A program without `Ref` types declares no global here, so
//! it lowers as before; nor does a content type whose cells are all single cells.

use super::layout::{Layout, component_names};
use super::single_cells::SingleCells;
use crate::core_lang::ast::Type;
use boogie_like::ir::{GlobalId, Program as IrProgram, Type as IrType};
use std::collections::HashMap;

/// The heap globals of a program.
#[derive(Debug, Default)]
pub struct Heaps {
    maps: HashMap<Type, Vec<GlobalId>>,
    next: Option<GlobalId>,
}

impl Heaps {
    /// Declares the maps of every content type `T` of a `Ref T` in `types` (or inside them)
    /// whose cells are not all single cells, and the allocation counter if there is one.
    pub fn declare<'t>(
        ir: &mut IrProgram,
        layout: &Layout,
        types: impl IntoIterator<Item = &'t Type>,
        single_cells: &SingleCells,
    ) -> Heaps {
        let mut contents = Vec::new();
        for ty in types {
            collect_contents(ty, &mut contents);
        }
        contents.retain(|content| single_cells.in_heap(content));
        let mut heaps = Heaps::default();
        if contents.is_empty() {
            return heaps;
        }
        heaps.next = Some(ir.add_global("alloc#next", IrType::Int));
        for content in contents {
            let components = layout.components(&content);
            let base = format!("heap#{}", heaps.maps.len());
            let names = component_names(&base, components.len());
            let globals = names
                .into_iter()
                .zip(components)
                .map(|(name, c)| ir.add_global(name, IrType::map(IrType::Int, c)))
                .collect();
            heaps.maps.insert(content, globals);
        }
        heaps
    }

    /// The maps holding the contents of cells of type `Ref content`, one per component.
    pub fn maps(&self, content: &Type) -> &[GlobalId] {
        self.maps
            .get(content)
            .unwrap_or_else(|| panic!("internal error: no heap for `{content}`"))
    }

    /// The allocation counter: the address the next `ref e` takes.
    pub fn next(&self) -> GlobalId {
        self.next
            .expect("internal error: an allocation in a program without `Ref` types")
    }
}

/// The content types of the `Ref` types in `ty`, each once, in first-seen order.
fn collect_contents(ty: &Type, out: &mut Vec<Type>) {
    match ty {
        // A datatype's fields are among the types the caller gives (`all_types` in `lower/mod.rs`).
        Type::Int | Type::Unit | Type::Data(_) => {}
        Type::List(element) => collect_contents(element, out),
        Type::Ref(content) => {
            if !out.contains(content) {
                out.push((**content).clone());
            }
            collect_contents(content, out);
        }
        Type::Pair(a, b) => {
            collect_contents(a, out);
            collect_contents(b, out);
        }
        Type::Arrow(params, ret) => {
            for t in params.iter().chain(std::iter::once(&**ret)) {
                collect_contents(t, out);
            }
        }
    }
}
