//! Interning: one `&'static` copy per distinct value, so handles are small and `Copy`.
//!
//! Guarantees: [`intern`] returns the same reference for equal values (of one type) for
//! the whole process; interned values are never freed, so intern only values that come in
//! few distinct forms (types, such as the map types of a program).

use std::any::{Any, TypeId};
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::sync::{Mutex, OnceLock};

type Tables = HashMap<TypeId, Box<dyn Any + Send>>;

/// The interned copy of `value`.
pub fn intern<T: Eq + Hash + Send + Sync + 'static>(value: T) -> &'static T {
    static TABLES: OnceLock<Mutex<Tables>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| Mutex::new(HashMap::new()));
    let mut tables = tables
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let table = tables
        .entry(TypeId::of::<T>())
        .or_insert_with(|| Box::new(HashSet::<&'static T>::new()));
    let Some(table) = table.downcast_mut::<HashSet<&'static T>>() else {
        panic!("internal error: an intern table holds another type")
    };
    if let Some(found) = table.get(&value) {
        return found;
    }
    let leaked: &'static T = Box::leak(Box::new(value));
    table.insert(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::intern;

    #[test]
    fn equal_values_share_one_copy_and_types_do_not_mix() {
        let a = intern((1u8, 2u8));
        let b = intern((1u8, 2u8));
        assert!(std::ptr::eq(a, b));
        assert!(!std::ptr::eq(a, intern((2u8, 1u8))));
        assert_eq!(*intern("x".to_string()), "x");
    }
}
