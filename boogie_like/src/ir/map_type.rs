//! Map types `[K]V`: interned, so that [`super::Type`] stays a small `Copy` value.
//!
//! Guarantees: [`MapType::new`] returns the same handle for equal key/value types (the pair
//! is interned once per process by [`crate::intern`]: there are only as many as the
//! distinct map types written), so handles compare, hash and copy like the pair itself.
//! Keys are restricted by [`crate::verify`] to `int`, `bool` and uninterpreted sorts (see
//! [`is_key_type`]).

use std::fmt;

use super::Type;

/// The key and value types of a map type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MapSig {
    pub key: Type,
    pub value: Type,
}

/// A map type `[key]value`: an interned [`MapSig`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MapType(&'static MapSig);

impl MapType {
    /// The map type `[key]value`.
    pub fn new(key: Type, value: Type) -> MapType {
        MapType(crate::intern::intern(MapSig { key, value }))
    }

    /// The key type.
    pub fn key(self) -> Type {
        self.0.key
    }

    /// The value type.
    pub fn value(self) -> Type {
        self.0.value
    }
}

impl fmt::Debug for MapType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{:?}]{:?}", self.key(), self.value())
    }
}

/// Whether `ty` may index a map (`int` or `bool`: values with a total order and an exact
/// equality, so the interpreter can keep a map as a finite table over a default).
pub fn is_key_type(ty: Type) -> bool {
    matches!(ty, Type::Int | Type::Bool | Type::Sort(_))
}
