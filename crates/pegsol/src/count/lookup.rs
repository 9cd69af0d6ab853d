//! A stored level laid out for lookups: its keys, already in [`rank`] order, placed in an
//! open-addressing table in one sequential pass, without hashing or sorting them again.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::count::packed::rank;
use crate::key::CountKey;
use crate::spill::Value;
use crate::table::prefetch;

/// How far ahead of its lookup a key's filter word or slot is prefetched.
const AHEAD: usize = 16;

/// A bit per slot of a [`Placed`] table, set from several threads: the keys of a level
/// that some search reaches.
pub(super) fn marks(slots: usize) -> Vec<AtomicU64> {
    (0..slots.div_ceil(64)).map(|_| AtomicU64::new(0)).collect()
}

/// Sets the bit of `slot`.
#[inline]
pub(super) fn mark(marks: &[AtomicU64], slot: usize) {
    marks[slot / 64].fetch_or(1 << (slot % 64), Ordering::Relaxed);
}

/// The slots whose bits are set in `marks`, in increasing order.
pub(super) fn marked_slots(marks: &[AtomicU64]) -> impl Iterator<Item = usize> + '_ {
    marks.iter().enumerate().flat_map(|(w, bits)| {
        let mut bits = bits.load(Ordering::Relaxed);
        std::iter::from_fn(move || {
            let slot = (bits != 0).then(|| w * 64 + bits.trailing_zeros() as usize);
            bits &= bits.wrapping_sub(1);
            slot
        })
    })
}

/// The keys of a level (in [`rank`] order), behind a filter.
///
/// A key's home slot is the top bits of its rank, and the keys are placed in rank order, each
/// at its home or just past the key before it. Homes never decrease along the level, so every
/// slot from a key's home to its place holds a key: a lookup walks from the home and stops at
/// the key or at the first free slot, as in linear probing.
///
/// Most keys looked up are not there, so a filter answers first: eight bits per home slot
/// (ten to twenty per key), the one at the top bits of each key's rank set. A key whose bit is
/// clear is not in the level (no false negatives); a set bit sends one in ten or twenty absent
/// keys on to the table. The filter is small enough to stay in the cache where the table is
/// not.
pub(super) struct Placed<K> {
    slots: Vec<K>,
    /// Home slots: `1 << (64 - shift)`.
    shift: u32,
    filter: Vec<u64>,
    /// Filter bits: `1 << (64 - filter_shift)`.
    filter_shift: u32,
}

/// The index in its level of the key in any slot of a [`Placed`] table, in constant time:
/// per 64 slots, a bit for each that holds a key, and the keys in the slots before them
/// (16 bytes per 64 slots, where [`Placed::indices`] walks the slots).
pub(super) struct Ranks(Vec<[u64; 2]>);

impl Ranks {
    /// The ranks of `table`'s slots.
    pub(super) fn of<K: CountKey>(table: &Placed<K>) -> Ranks {
        let mut before = 0u64;
        Ranks(
            table
                .slots
                .chunks(64)
                .map(|run| {
                    let held = run
                        .iter()
                        .enumerate()
                        .filter(|(_, &k)| k != K::FREE)
                        .fold(0u64, |bits, (i, _)| bits | 1 << i);
                    let entry = [held, before];
                    before += u64::from(held.count_ones());
                    entry
                })
                .collect(),
        )
    }

    /// The index in the level of the key in `slot`, which must hold one.
    #[inline]
    pub(super) fn index(&self, slot: usize) -> usize {
        let [held, before] = self.0[slot / 64];
        before as usize + (held & ((1u64 << (slot % 64)) - 1)).count_ones() as usize
    }
}

impl<K: CountKey> Placed<K> {
    /// The table of `keys`, which must be in [`rank`] order.
    pub(super) fn new(keys: &[K]) -> Placed<K> {
        let (homes, bits) = Self::sizes(keys.len());
        let shift = 64 - homes.trailing_zeros();
        let filter_shift = 64 - bits.trailing_zeros();
        let mut slots = vec![K::FREE; homes + 64];
        let mut filter = vec![0u64; bits / 64];
        let mut next = 0;
        for &k in keys {
            let r = rank(k).head();
            let bit = (r >> filter_shift) as usize;
            filter[bit / 64] |= 1 << (bit % 64);
            let place = ((r >> shift) as usize).max(next);
            if place >= slots.len() {
                slots.resize(place + 64, K::FREE);
            }
            slots[place] = k;
            next = place + 1;
        }
        Placed {
            slots,
            shift,
            filter,
            filter_shift,
        }
    }

    /// Home slots (at least five for every four keys) and filter bits for `n` keys.
    fn sizes(n: usize) -> (usize, usize) {
        let homes = (n.max(8) + n / 4).next_power_of_two();
        (homes, (homes * 8).max(64))
    }

    /// The bytes a table of `n` keys takes.
    pub(super) fn bytes(n: usize) -> usize {
        let (homes, bits) = Self::sizes(n);
        (homes + 64) * std::mem::size_of::<K>() + bits / 8
    }

    /// Whether `key` may be in the level: `false` only when it is not.
    #[inline(always)]
    pub(super) fn may_hold(&self, key: K) -> bool {
        let bit = (rank(key).head() >> self.filter_shift) as usize;
        self.filter[bit / 64] & (1 << (bit % 64)) != 0
    }

    /// The slot of `key`, if the level holds it. Slots are in the level's order: the index of
    /// a key in the level is the number of keys in the slots before its own
    /// ([`Placed::indices`]).
    #[inline]
    pub(super) fn find(&self, key: K) -> Option<usize> {
        if !self.may_hold(key) {
            return None;
        }
        let mut i = (rank(key).head() >> self.shift) as usize;
        while let Some(&k) = self.slots.get(i) {
            if k == key {
                return Some(i);
            }
            if k == K::FREE {
                return None;
            }
            i += 1;
        }
        None
    }

    /// Looks up every key of `batch` (each with a tag), and calls `hit(slot, tag)` for each
    /// one the level holds, in the batch's order; the batch is left empty. The filter is
    /// read first for all of them, then the table for those it lets through, each a few
    /// lookups behind its prefetch so that the cache misses overlap.
    #[inline]
    pub(super) fn find_all(&self, batch: &mut Vec<(K, u32)>, mut hit: impl FnMut(usize, u32)) {
        for &(k, _) in batch.iter().take(AHEAD) {
            self.prefetch_filter(k);
        }
        let mut kept = 0;
        for i in 0..batch.len() {
            if let Some(&(ahead, _)) = batch.get(i + AHEAD) {
                self.prefetch_filter(ahead);
            }
            let entry = batch[i];
            batch[kept] = entry;
            kept += usize::from(self.may_hold(entry.0));
        }
        batch.truncate(kept);
        for &(k, _) in batch.iter().take(AHEAD) {
            self.prefetch(k);
        }
        for i in 0..batch.len() {
            if let Some(&(ahead, _)) = batch.get(i + AHEAD) {
                self.prefetch(ahead);
            }
            let (key, tag) = batch[i];
            if let Some(slot) = self.find(key) {
                hit(slot, tag);
            }
        }
        batch.clear();
    }

    /// The number of slots (a slot is below it).
    pub(super) fn slots(&self) -> usize {
        self.slots.len()
    }

    /// The keys in the slots whose bits are set in `marks` (a bit per slot), in the level's
    /// order.
    pub(super) fn marked(&self, marks: &[AtomicU64]) -> Vec<K> {
        marked_slots(marks).map(|s| self.slots[s]).collect()
    }

    /// The index in the level of the key in each slot of `slots`, which must be in
    /// increasing order.
    pub(super) fn indices<'a>(
        &'a self,
        slots: impl Iterator<Item = usize> + 'a,
    ) -> impl Iterator<Item = usize> + 'a {
        let (mut at, mut index) = (0, 0);
        slots.map(move |s| {
            index += self.slots[at..s].iter().filter(|&&k| k != K::FREE).count();
            at = s;
            index
        })
    }

    /// Starts loading the filter word of `key` into the cache.
    #[inline(always)]
    pub(super) fn prefetch_filter(&self, key: K) {
        let bit = (rank(key).head() >> self.filter_shift) as usize;
        prefetch(self.filter.as_ptr().wrapping_add(bit / 64));
    }

    /// Starts loading the home slot of `key` into the cache, so that a batch of lookups
    /// overlaps its cache misses instead of waiting on each in turn.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: K) {
        prefetch(
            self.slots
                .as_ptr()
                .wrapping_add((rank(key).head() >> self.shift) as usize),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_found_and_no_other() {
        for n in [0usize, 1, 7, 100, 5000] {
            // Keys with clustered homes too: consecutive small numbers and sparse ones.
            let mut keys: Vec<u64> = (0..n as u64).map(|i| i * i * 7 + (i & 3)).collect();
            keys.sort_unstable_by_key(|&k| rank(k));
            keys.dedup();
            let table = Placed::new(&keys);
            let mut slots = Vec::new();
            for &k in &keys {
                slots.push(table.find(k).unwrap());
            }
            // Slots follow the level's order, and give back each key's index.
            assert!(slots.windows(2).all(|w| w[0] < w[1]));
            let indices: Vec<usize> = table.indices(slots.iter().copied()).collect();
            assert_eq!(indices, (0..keys.len()).collect::<Vec<_>>());
            let ranks = Ranks::of(&table);
            let ranked: Vec<usize> = slots.iter().map(|&s| ranks.index(s)).collect();
            assert_eq!(ranked, indices);
            // Every third key marked reads back in the level's order.
            let m = marks(table.slots());
            for &s in slots.iter().step_by(3) {
                mark(&m, s);
            }
            let every_third: Vec<u64> = keys.iter().copied().step_by(3).collect();
            assert_eq!(table.marked(&m), every_third);
            let held: std::collections::HashSet<u64> = keys.iter().copied().collect();
            let mut absent = 0;
            for k in (0..20_000u64).filter(|k| !held.contains(k)) {
                assert_eq!(table.find(k), None, "n {n} key {k}");
                absent += 1;
            }
            assert!(absent > 10_000);
        }
    }
}
