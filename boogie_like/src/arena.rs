//! Typed `u32` ids and the dense arenas they index.
//!
//! Guarantees: an [`Arena<I, T>`] hands out ids `0, 1, 2, …` in push order and never removes
//! an element, so an id returned by [`Arena::push`] stays valid for the arena's lifetime.
//! Ids of different kinds are different types (`ProcId` is not a `LocalId`), so two index
//! spaces can never be mixed up. Lookups with a foreign or stale id either return `None`
//! ([`Arena::get`]) or panic with an internal-error message (`arena[id]`); code that handles
//! user input uses `get`.

use std::fmt;
use std::marker::PhantomData;

/// A typed index: a newtype over `u32`.
pub trait EntityId: Copy + Eq + Ord + std::hash::Hash + fmt::Debug {
    /// The id with the given dense index.
    fn from_index(index: usize) -> Self;
    /// The dense index of this id.
    fn index(self) -> usize;
}

/// Declares a typed id newtype over `u32` implementing [`EntityId`].
macro_rules! entity_id {
    ($(#[$meta:meta])* $name:ident, $prefix:literal) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $crate::arena::EntityId for $name {
            fn from_index(index: usize) -> Self {
                match u32::try_from(index) {
                    Ok(i) => $name(i),
                    Err(_) => panic!("internal error: more than u32::MAX entities"),
                }
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}
pub(crate) use entity_id;

/// A dense map from typed ids to values; ids are allocated by [`Arena::push`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Arena<I: EntityId, T> {
    items: Vec<T>,
    _id: PhantomData<fn(I) -> I>,
}

impl<I: EntityId, T> Arena<I, T> {
    /// An empty arena.
    pub fn new() -> Self {
        Arena {
            items: Vec::new(),
            _id: PhantomData,
        }
    }

    /// Appends `item` and returns its id.
    pub fn push(&mut self, item: T) -> I {
        let id = I::from_index(self.items.len());
        self.items.push(item);
        id
    }

    /// The id the next [`Arena::push`] will return.
    pub fn next_id(&self) -> I {
        I::from_index(self.items.len())
    }

    /// The element with id `id`, if `id` belongs to this arena.
    pub fn get(&self, id: I) -> Option<&T> {
        self.items.get(id.index())
    }

    /// The element with id `id`, mutably, if `id` belongs to this arena.
    pub fn get_mut(&mut self, id: I) -> Option<&mut T> {
        self.items.get_mut(id.index())
    }

    /// Whether `id` belongs to this arena.
    pub fn contains(&self, id: I) -> bool {
        id.index() < self.items.len()
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the arena is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// All ids, in push order.
    pub fn ids(
        &self,
    ) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator + Clone + use<I, T> {
        (0..self.items.len()).map(I::from_index)
    }

    /// `(id, element)` pairs, in push order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.items
            .iter()
            .enumerate()
            .map(|(i, t)| (I::from_index(i), t))
    }

    /// `(id, element)` pairs, mutably, in push order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (I, &mut T)> {
        self.items
            .iter_mut()
            .enumerate()
            .map(|(i, t)| (I::from_index(i), t))
    }

    /// The elements, in push order.
    pub fn values(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }
}

impl<I: EntityId, T> Default for Arena<I, T> {
    fn default() -> Self {
        Arena::new()
    }
}

impl<I: EntityId, T> FromIterator<T> for Arena<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        Arena {
            items: iter.into_iter().collect(),
            _id: PhantomData,
        }
    }
}

impl<I: EntityId, T> std::ops::Index<I> for Arena<I, T> {
    type Output = T;
    fn index(&self, id: I) -> &T {
        match self.items.get(id.index()) {
            Some(item) => item,
            None => panic!(
                "internal error: id {id:?} out of range ({} elements)",
                self.len()
            ),
        }
    }
}

impl<I: EntityId, T> std::ops::IndexMut<I> for Arena<I, T> {
    fn index_mut(&mut self, id: I) -> &mut T {
        let len = self.items.len();
        match self.items.get_mut(id.index()) {
            Some(item) => item,
            None => panic!("internal error: id {id:?} out of range ({len} elements)"),
        }
    }
}

impl<I: EntityId, T: fmt::Debug> fmt::Debug for Arena<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    entity_id!(TestId, "t");

    #[test]
    fn push_hands_out_dense_ids_in_order() {
        let mut arena: Arena<TestId, &str> = Arena::new();
        assert_eq!(arena.next_id(), TestId(0));
        let a = arena.push("a");
        let b = arena.push("b");
        assert_eq!((a, b), (TestId(0), TestId(1)));
        assert_eq!(arena[b], "b");
        assert_eq!(arena.get(TestId(2)), None);
        assert!(arena.contains(a) && !arena.contains(TestId(7)));
        assert_eq!(arena.ids().collect::<Vec<_>>(), vec![a, b]);
        assert_eq!(format!("{:?}", arena), "{t0: \"a\", t1: \"b\"}");
    }

    #[test]
    fn index_mut_and_collect() {
        let mut arena: Arena<TestId, i32> = (1..=3).collect();
        arena[TestId(1)] += 10;
        assert_eq!(arena.values().copied().collect::<Vec<_>>(), vec![1, 12, 3]);
        assert_eq!(arena.len(), 3);
    }
}
