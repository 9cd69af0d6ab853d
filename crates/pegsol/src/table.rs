//! The open-addressing table every engine's hot loop uses: keys (64-bit words, or positions
//! of any width) mapped to a small copyable value, growing by doubling up to a byte limit and
//! then refusing, so that a full table is a budget that ran out, never an out-of-memory kill.
//!
//! One convention for every user: slot key 0 (the empty position) means free, and that key
//! itself is kept aside in its own field, so any key is valid. `count`'s per-bucket
//! sums are the one other hashed structure: their slots are ordered by rank so that a level
//! comes out sorted without a sort (see `count::packed`); they share [`SPREAD`].

use crate::bitset::{Bits, Word};

/// Hints the cache to load the line at `p` (any address: nothing is read), so that a batch
/// of lookups overlaps its cache misses instead of waiting on each in turn.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch only hints the cache: it never faults and reads nothing into
        // the program, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The multiplier that spreads keys over the slots (Fibonacci hashing): the one mix every
/// hashed table here uses.
pub(crate) const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

/// The inverse of [`SPREAD`] modulo `2^64`, to undo the mix.
pub(crate) const UNSPREAD: u64 = {
    // Newton's iteration doubles the bits of an inverse that are right; an odd `x` is its
    // own inverse modulo 8.
    let mut inv = SPREAD;
    let mut i = 0;
    while i < 5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(SPREAD.wrapping_mul(inv)));
        i += 1;
    }
    inv
};

/// A fast hasher for positions (and small tuples of them) in std's hash sets, whose bits are
/// already well spread by play: one multiply and rotate a word.
#[derive(Default)]
pub(crate) struct SetHasher(u64);

impl std::hash::Hasher for SetHasher {
    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 31
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(SPREAD).rotate_left(29);
    }
    fn write_u16(&mut self, w: u16) {
        self.write_u64(u64::from(w));
    }
    fn write_usize(&mut self, _: usize) {
        // An array's length prefix: the same for every key of a table.
    }
}

/// The builder of [`SetHasher`]s for std's hash maps and sets.
pub(crate) type SetBuild = std::hash::BuildHasherDefault<SetHasher>;

/// The table's limit was reached: the key was not added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Full;

/// A key of the table: a `u64`, or a position of any width. One value of it, the empty
/// position, marks a free slot and is kept aside when stored.
pub(crate) trait Key: Copy + Eq {
    /// The key that marks a free slot.
    const FREE: Self;
    /// A 64-bit mix of the key whose high bits pick its home slot.
    fn mix(self) -> u64;
}

impl Key for u64 {
    const FREE: u64 = 0;
    #[inline]
    fn mix(self) -> u64 {
        self.wrapping_mul(SPREAD)
    }
}

impl<W: Word> Key for Bits<W> {
    const FREE: Bits<W> = Bits::EMPTY;
    #[inline]
    fn mix(self) -> u64 {
        // One word mixes as a `u64` does, so a one-word search keeps its table's cost.
        if W::WORDS == 1 {
            self.0.word(0).mix()
        } else {
            self.hash64().mix()
        }
    }
}

/// Keys mapped to values by open addressing with linear probing.
///
/// Invariant: `len` keys are stored; the slot array's length is a power of two and at most
/// nine tenths full (seven tenths while it may grow); a key once stored stays, and keeps its
/// first value unless [`KeyMap::set`] changes it.
pub(crate) struct KeyMap<V, K: Key = u64> {
    keys: Vec<K>,
    values: Vec<V>,
    /// The value of key 0, which cannot sit in a slot.
    zero: Option<V>,
    len: usize,
    shift: u32,
    /// The most slots growth may reach.
    max_slots: usize,
}

/// A set of keys: a [`KeyMap`] with nothing stored beside them.
pub(crate) type KeySet<K = u64> = KeyMap<(), K>;

impl<V: Copy + Default, K: Key> KeyMap<V, K> {
    /// An empty table that may grow while it and its rehash copy fit `max_bytes`.
    pub(crate) fn new(max_bytes: usize) -> KeyMap<V, K> {
        let mut map = KeyMap::with_slots(1 << 10);
        map.limit(max_bytes);
        let initial = (1usize << 14).min(map.max_slots);
        if initial > map.keys.len() {
            map = KeyMap {
                max_slots: map.max_slots,
                ..KeyMap::with_slots(initial)
            };
        }
        map
    }

    /// An empty table with room for `n` keys without growing, and no limit.
    pub(crate) fn with_capacity(n: usize) -> KeyMap<V, K> {
        KeyMap::with_slots((n.max(1) * 2).next_power_of_two().max(16))
    }

    fn with_slots(slots: usize) -> KeyMap<V, K> {
        KeyMap {
            keys: vec![K::FREE; slots],
            values: vec![V::default(); slots],
            zero: None,
            len: 0,
            shift: 64 - slots.trailing_zeros(),
            max_slots: usize::MAX,
        }
    }

    /// Lets the table grow only while it and its rehash copy (old and new slots together)
    /// fit `max_bytes`; a table already larger keeps its slots.
    pub(crate) fn limit(&mut self, max_bytes: usize) {
        let slot = std::mem::size_of::<K>() + std::mem::size_of::<V>();
        // Growing from s/2 to s slots holds 3s/2 slots at once.
        let most = (max_bytes / slot).saturating_mul(2) / 3;
        let most = if most.is_power_of_two() {
            most
        } else {
            most.checked_next_power_of_two().map_or(1 << 62, |p| p / 2)
        };
        self.max_slots = most.max(self.keys.len());
    }

    /// Keys stored.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Bytes held by the slots.
    pub(crate) fn bytes(&self) -> usize {
        self.keys.len() * (std::mem::size_of::<K>() + std::mem::size_of::<V>())
    }

    #[inline]
    fn home(&self, key: K) -> usize {
        (key.mix() >> self.shift) as usize
    }

    /// Starts loading the slot where `key`'s search begins into the cache: a batch of
    /// lookups prefetched first overlaps its cache misses instead of waiting on each in turn
    /// (the meeting's lookups in tables of millions of positions wait on memory). Only the
    /// key is fetched: most lookups of a search miss, and [`KeyMap::contains`] reads no value.
    #[inline]
    pub(crate) fn prefetch(&self, key: K) {
        prefetch(self.keys.as_ptr().wrapping_add(self.home(key)));
    }

    /// The value of `key`, if stored.
    #[inline]
    pub(crate) fn get(&self, key: K) -> Option<V> {
        if key == K::FREE {
            return self.zero;
        }
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        loop {
            match self.keys[i] {
                k if k == key => return Some(self.values[i]),
                k if k == K::FREE => return None,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Whether `key` is stored.
    #[inline]
    pub(crate) fn contains(&self, key: K) -> bool {
        self.get(key).is_some()
    }

    /// Stores `key` with `value` unless it is there already: `Ok(true)` when added,
    /// `Ok(false)` when present (its value unchanged), `Err(Full)` at the limit.
    #[inline]
    pub(crate) fn insert(&mut self, key: K, value: V) -> Result<bool, Full> {
        if key == K::FREE {
            if self.zero.is_some() {
                return Ok(false);
            }
            self.zero = Some(value);
            self.len += 1;
            return Ok(true);
        }
        // Grow at 7/10 full (linear probing slows sharply past that); at the largest size the
        // limit allows, fill to 9/10 first.
        if (self.len + 1) * 10 > self.keys.len() * 7 && self.keys.len() < self.max_slots {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        while self.keys[i] != K::FREE {
            if self.keys[i] == key {
                return Ok(false);
            }
            i = (i + 1) & mask;
        }
        if (self.len + 1) * 10 > self.keys.len() * 9 {
            return Err(Full);
        }
        self.keys[i] = key;
        self.values[i] = value;
        self.len += 1;
        Ok(true)
    }

    /// Gives `key`, if stored, the value `value` (the one exception to "a key keeps its first
    /// value", for a caller that marks entries withdrawn); whether it was stored.
    pub(crate) fn set(&mut self, key: K, value: V) -> bool {
        if key == K::FREE {
            return self.zero.as_mut().map(|v| *v = value).is_some();
        }
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        loop {
            match self.keys[i] {
                k if k == key => {
                    self.values[i] = value;
                    return true;
                }
                k if k == K::FREE => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let slots = self.keys.len() * 2;
        let keys = std::mem::replace(&mut self.keys, vec![K::FREE; slots]);
        let values = std::mem::replace(&mut self.values, vec![V::default(); slots]);
        self.shift -= 1;
        let mask = slots - 1;
        for (k, v) in keys.into_iter().zip(values) {
            if k != K::FREE {
                let mut i = self.home(k);
                while self.keys[i] != K::FREE {
                    i = (i + 1) & mask;
                }
                self.keys[i] = k;
                self.values[i] = v;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_grows_and_refuses_past_its_limit() {
        let mut d = KeySet::new(64 * 1024);
        let mut n = 0u64;
        while d.insert(n + 1, ()).is_ok() {
            n += 1;
            assert!(n < 1_000_000);
        }
        assert!(n >= 2000 && (n as usize) * 8 <= 64 * 1024);
        assert!((1..=n).all(|k| d.contains(k)));
        assert!(!d.contains(n + 2));
        // A key present is found even when the table is full.
        assert_eq!(d.insert(1, ()), Ok(false));
    }

    #[test]
    fn values_and_the_zero_key() {
        let mut m = KeyMap::<u32>::with_capacity(100);
        assert_eq!(m.get(0), None);
        assert_eq!(m.insert(0, 7), Ok(true));
        assert_eq!(m.insert(0, 8), Ok(false));
        for k in 1..=1000u64 {
            assert_eq!(
                m.insert(k.wrapping_mul(0x1234_5678_9abc_def1), k as u32),
                Ok(true)
            );
        }
        assert_eq!(m.len(), 1001);
        assert_eq!(m.get(0), Some(7));
        assert!(
            (1..=1000u64).all(|k| m.get(k.wrapping_mul(0x1234_5678_9abc_def1)) == Some(k as u32))
        );
        assert_eq!(m.get(u64::MAX), None);
        assert!(m.set(0, 9) && m.set(1u64.wrapping_mul(0x1234_5678_9abc_def1), 5));
        assert!(!m.set(u64::MAX, 1));
        assert_eq!(
            (m.get(0), m.get(0x1234_5678_9abc_def1), m.len()),
            (Some(9), Some(5), 1001)
        );
        assert_eq!(SPREAD.wrapping_mul(UNSPREAD), 1);
    }

    /// Positions of two words as keys: the empty position kept aside like key 0, every key
    /// found again, none that was not stored, the limit honoured.
    #[test]
    fn positions_of_two_words_as_keys() {
        use crate::Hole;
        let mut set: KeySet<Bits<[u64; 2]>> = KeySet::new(64 * 1024);
        assert_eq!(set.insert(Bits::EMPTY, ()), Ok(true));
        assert_eq!(set.insert(Bits::EMPTY, ()), Ok(false));
        let key = |i: usize| {
            Bits::<[u64; 2]>::EMPTY
                .with(Hole::at(i % 128))
                .with(Hole::at(127 - i % 97))
        };
        let mut n = 0;
        while set.insert(key(n).with(Hole::at(64 + n / 128 % 64)), ()) != Err(Full) {
            n += 1;
            assert!(n < 1_000_000);
        }
        assert!(
            set.len() > 1000 && set.bytes() <= 64 * 1024,
            "{} keys",
            set.len()
        );
        assert!(set.contains(Bits::EMPTY));
        assert!(!set.contains(Bits::EMPTY.with(Hole::at(5))));
    }
}
