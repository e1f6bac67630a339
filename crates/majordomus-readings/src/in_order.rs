//! Names looked up in a map sorted by name, in one pass when they come in
//! the map's order.
//!
//! Every local branch is looked up in the start snapshot's branches at every
//! check, by three readings; with ten thousand branches sharing a long
//! prefix (`topic/...`) a tree lookup's dozen string comparisons each were
//! a measurable share of `check`. The branches come sorted by name, as the
//! snapshot is: walked side by side, each lookup costs a comparison or two.
//! A name out of order is looked up in the map as usual, so the answer
//! never depends on the order.

use std::cmp::Ordering;
use std::collections::btree_map::{self, BTreeMap};
use std::iter::Peekable;

/// A cursor over `map` answering [`InOrder::get`].
#[derive(Debug)]
pub struct InOrder<'a, V> {
    map: &'a BTreeMap<String, V>,
    rest: Peekable<btree_map::Iter<'a, String, V>>,
    /// The greatest key the cursor has gone past.
    passed: Option<&'a str>,
}

impl<'a, V> InOrder<'a, V> {
    pub fn new(map: &'a BTreeMap<String, V>) -> Self {
        InOrder { map, rest: map.iter().peekable(), passed: None }
    }

    /// What `map` holds for `name`, as `map.get(name)` answers.
    pub fn get(&mut self, name: &str) -> Option<&'a V> {
        if self.passed.is_some_and(|p| name <= p) {
            return self.map.get(name);
        }
        while let Some(&(key, value)) = self.rest.peek() {
            match key.as_str().cmp(name) {
                Ordering::Less => {
                    self.passed = Some(key);
                    self.rest.next();
                }
                Ordering::Equal => return Some(value),
                Ordering::Greater => return None,
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lookup_answers_as_the_map_does_in_any_order() {
        let map: BTreeMap<String, usize> = ["a", "a-b", "a/x", "b", "topic/b0001", "topic/b0002", "z"]
            .iter()
            .enumerate()
            .map(|(i, k)| (k.to_string(), i))
            .collect();
        let names =
            ["", "a", "a-b", "a.", "a/x", "a/y", "b", "c", "topic/b0001", "topic/b0002", "topic/b0003", "z", "zz"];
        let mut sorted = InOrder::new(&map);
        for name in names {
            assert_eq!(sorted.get(name), map.get(name), "{name:?} in order");
            assert_eq!(sorted.get(name), map.get(name), "{name:?} asked again");
        }
        let mut shuffled = InOrder::new(&map);
        for name in ["topic/b0002", "a", "zz", "b", "a/x", "z", "", "topic/b0001"] {
            assert_eq!(shuffled.get(name), map.get(name), "{name:?} out of order");
        }
    }
}
