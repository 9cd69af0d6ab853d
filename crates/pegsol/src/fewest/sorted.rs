//! A sorted level of keys with an index of where each range of leading words starts, so that a
//! lookup searches a few keys, not the whole level.
//!
//! A binary search of a level of a few hundred thousand keys misses the cache on most of its
//! twenty steps; the odds table of a winning set makes one per legal jump of every winning
//! position. Keys are compared by their first word first (that is how `u64` and `[u64; N]`
//! order), so the level is cut into about one range a key by that word, each range's start
//! kept: a lookup reads its range's start and end and searches the few keys between them.

use crate::bitset::Word;

/// Keys in increasing order, with the start of each range of their first word.
pub(super) struct Sorted<K> {
    keys: Vec<K>,
    /// `starts[r]`: the first key whose range is `r` or more; one past the last range too.
    starts: Vec<u32>,
    /// The least first word, and how far a first word above it is shifted to its range.
    least: u64,
    shift: u32,
}

impl<K: Word + Ord> Sorted<K> {
    /// The index of `keys`, which must be in increasing order.
    pub(super) fn new(keys: Vec<K>) -> Sorted<K> {
        debug_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        let (least, most) = match (keys.first(), keys.last()) {
            (Some(a), Some(b)) => (a.word(0), b.word(0)),
            _ => (0, 0),
        };
        // About one range a key: the span of first words shifted down to fit that many.
        let ranges = keys.len().next_power_of_two().max(1) as u64;
        let span = most - least;
        let shift = (64 - span.leading_zeros()).saturating_sub(ranges.trailing_zeros());
        let count = (span >> shift) as usize + 1;
        let mut starts = vec![0u32; count + 1];
        // Keys per range, then the running sum: each range's first key.
        for k in &keys {
            starts[((k.word(0) - least) >> shift) as usize + 1] += 1;
        }
        for r in 1..starts.len() {
            starts[r] += starts[r - 1];
        }
        Sorted {
            keys,
            starts,
            least,
            shift,
        }
    }

    /// The keys, in increasing order.
    pub(super) fn keys(&self) -> &[K] {
        &self.keys
    }

    /// The index of `key` among the keys, if it is one.
    #[inline]
    pub(super) fn find(&self, key: &K) -> Option<usize> {
        let first = key.word(0).checked_sub(self.least)?;
        let r = usize::try_from(first >> self.shift).ok()?;
        let (&from, &to) = (self.starts.get(r)?, self.starts.get(r + 1)?);
        let (from, to) = (from as usize, to as usize);
        self.keys[from..to]
            .binary_search(key)
            .ok()
            .map(|i| from + i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key is found at its index and no other value is, for one-word and two-word keys,
    /// on levels of every size up to a few thousand, spread or clustered.
    #[test]
    fn every_key_is_found_at_its_place_and_nothing_else() {
        let mut next = crate::testing::xorshift();
        for n in [0usize, 1, 2, 3, 10, 100, 1000, 5000] {
            for spread in [u64::MAX, 1 << 40, 1000] {
                let mut keys: Vec<u64> = (0..n).map(|_| next() % spread).collect();
                keys.sort_unstable();
                keys.dedup();
                let level = Sorted::new(keys.clone());
                for (i, k) in keys.iter().enumerate() {
                    assert_eq!(level.find(k), Some(i));
                }
                for _ in 0..2000 {
                    let probe = next() % spread;
                    assert_eq!(level.find(&probe), keys.binary_search(&probe).ok());
                }
                assert_eq!(level.find(&u64::MAX), keys.binary_search(&u64::MAX).ok());
                let mut wide: Vec<[u64; 2]> = keys.iter().map(|&k| [k, next()]).collect();
                wide.sort_unstable();
                let level = Sorted::new(wide.clone());
                for (i, k) in wide.iter().enumerate() {
                    assert_eq!(level.find(k), Some(i));
                    assert_eq!(level.find(&[k[0], k[1] ^ 1]), None);
                }
            }
        }
    }
}
