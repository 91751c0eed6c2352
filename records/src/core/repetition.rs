//! Counting positions for the repetition rules in constant time per ply: a game keeps the
//! count of each position key since its last irreversible action, instead of rescanning that
//! stretch every ply (which made a long capture-free game quadratic: a 130,000-ply xiangqi
//! record took 40 s to validate).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// How many times each position key occurred since the last irreversible action, and where
/// it first did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repetitions {
    seen: HashMap<u64, Seen, BuildHasherDefault<KeyHasher>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seen {
    count: u32,
    /// The index (as the caller counts) of the first occurrence.
    first: u32,
}

impl Repetitions {
    /// Room for `capacity` keys up front (a game's no-progress limit bounds them), so that a
    /// game allocates nothing while it runs; [`Repetitions::clear`] keeps the room.
    pub fn with_capacity(capacity: usize) -> Repetitions {
        Repetitions {
            seen: HashMap::with_capacity_and_hasher(capacity, Default::default()),
        }
    }

    /// Forgets every key (an irreversible action: nothing before it can come back).
    #[inline]
    pub fn clear(&mut self) {
        self.seen.clear();
    }

    /// Counts one occurrence of `key` at `index`; gives how many there are now.
    #[inline]
    pub fn push(&mut self, key: u64, index: u32) -> u32 {
        let seen = self.seen.entry(key).or_insert(Seen {
            count: 0,
            first: index,
        });
        seen.count += 1;
        seen.count
    }

    /// Every key counted (in no particular order).
    pub fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.seen.keys().copied()
    }

    /// How many times `key` occurred.
    #[inline]
    pub fn count(&self, key: u64) -> u32 {
        self.seen.get(&key).map_or(0, |s| s.count)
    }

    /// The index of `key`'s first occurrence, if it occurred.
    #[inline]
    pub fn first(&self, key: u64) -> Option<u32> {
        self.seen.get(&key).map(|s| s.first)
    }
}

/// Keys are already well-mixed 64-bit hashes: the table uses them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed; anything else folds in byte by byte.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    #[inline]
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_first_occurrences_since_the_last_clear() {
        let mut r = Repetitions::with_capacity(4);
        assert_eq!(r.push(7, 0), 1);
        assert_eq!(r.push(9, 1), 1);
        assert_eq!(r.push(7, 2), 2);
        assert_eq!((r.count(7), r.first(7)), (2, Some(0)));
        r.clear();
        assert_eq!((r.count(7), r.first(7)), (0, None));
        assert_eq!(r.push(7, 5), 1);
        assert_eq!(r.first(7), Some(5));
    }
}
