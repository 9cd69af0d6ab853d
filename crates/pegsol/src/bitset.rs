//! Sets of holes in one or more 64-bit words, and hole indices.
//!
//! A board numbers its holes `0..n` (row-major over its holes, not over its bounding box),
//! so any shape fits its words whatever its bounding box. A set is a [`Bits`] over a
//! [`Word`]: one `u64` (the default, up to 64 holes) or an array of them (`[u64; 2]`,
//! `[u64; 4]`, up to 128 or 256 holes). The operations are written once over the word, and
//! the one-word instance compiles to exactly the single-word code.

use std::fmt;
use std::hash::Hash;

/// The most holes a one-word set takes: one bit each in a [`Bits`] of `u64`.
pub const MAX_HOLES: usize = 64;

/// A set of holes of any board (up to 256 holes): the width a board keeps its own sets in,
/// whatever the width of the positions an engine works on.
pub type Pegs = Bits<[u64; 4]>;

/// The most holes any board has (four 64-bit words): [`Pegs`] holds them all.
pub const MAX_BOARD_HOLES: usize = 256;

/// The index of a hole on its board: below 256, and below [`MAX_HOLES`] on a board whose
/// positions are one word.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hole(u8);

impl Hole {
    /// The hole with this index, or `None` past 255 (no board has more than 256 holes).
    #[must_use]
    pub const fn new(index: usize) -> Option<Hole> {
        if index < 256 {
            Some(Hole(index as u8))
        } else {
            None
        }
    }

    /// The hole with this index, for an index known to be a board's.
    ///
    /// # Panics
    /// Past 255.
    #[must_use]
    #[inline]
    #[track_caller]
    pub const fn at(index: usize) -> Hole {
        assert!(index < 256, "a hole index past 255");
        Hole(index as u8)
    }

    /// The index of this hole in its board's numbering.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The set of any width holding just this hole (which must be below its capacity); the
    /// width is most often inferred from where the set goes.
    #[must_use]
    #[inline]
    pub fn bit<W: Word>(self) -> Bits<W> {
        Bits::single(self)
    }
}

impl fmt::Debug for Hole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hole({})", self.0)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u64 {}
    impl<const N: usize> Sealed for [u64; N] {}
}

/// The storage of a [`Bits`]: one `u64`, or an array of them. Bit `i % 64` of word `i / 64`
/// stands for hole `i`. Sealed: these are the only widths.
pub trait Word:
    sealed::Sealed + Copy + Eq + Ord + Hash + Send + Sync + fmt::Debug + 'static
{
    /// How many 64-bit words.
    const WORDS: usize;
    /// The empty word.
    const ZERO: Self;
    /// Word `k` (`k < WORDS`).
    fn word(&self, k: usize) -> u64;
    /// Word `k`, to change (`k < WORDS`).
    fn word_mut(&mut self, k: usize) -> &mut u64;
    /// Bitwise or.
    fn or(self, other: Self) -> Self;
    /// Bitwise and.
    fn and(self, other: Self) -> Self;
    /// `self & !other`.
    fn and_not(self, other: Self) -> Self;
    /// Bitwise exclusive or.
    fn xor(self, other: Self) -> Self;
    /// How many bits are set.
    fn count_ones(&self) -> u32;
    /// Whether no bit is set.
    fn is_zero(&self) -> bool;
    /// The lowest set bit, cleared; `None` when there is none.
    fn pop_lowest(&mut self) -> Option<usize>;
}

impl Word for u64 {
    const WORDS: usize = 1;
    const ZERO: u64 = 0;
    #[inline]
    fn word(&self, _: usize) -> u64 {
        *self
    }
    #[inline]
    fn word_mut(&mut self, _: usize) -> &mut u64 {
        self
    }
    #[inline]
    fn or(self, other: u64) -> u64 {
        self | other
    }
    #[inline]
    fn and(self, other: u64) -> u64 {
        self & other
    }
    #[inline]
    fn and_not(self, other: u64) -> u64 {
        self & !other
    }
    #[inline]
    fn xor(self, other: u64) -> u64 {
        self ^ other
    }
    #[inline]
    fn count_ones(&self) -> u32 {
        u64::count_ones(*self)
    }
    #[inline]
    fn is_zero(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn pop_lowest(&mut self) -> Option<usize> {
        if *self == 0 {
            return None;
        }
        let i = self.trailing_zeros() as usize;
        *self &= *self - 1;
        Some(i)
    }
}

impl<const N: usize> Word for [u64; N] {
    const WORDS: usize = N;
    const ZERO: [u64; N] = [0; N];
    #[inline]
    fn word(&self, k: usize) -> u64 {
        self[k]
    }
    #[inline]
    fn word_mut(&mut self, k: usize) -> &mut u64 {
        &mut self[k]
    }
    #[inline]
    fn or(mut self, other: Self) -> Self {
        for (a, b) in self.iter_mut().zip(other) {
            *a |= b;
        }
        self
    }
    #[inline]
    fn and(mut self, other: Self) -> Self {
        for (a, b) in self.iter_mut().zip(other) {
            *a &= b;
        }
        self
    }
    #[inline]
    fn and_not(mut self, other: Self) -> Self {
        for (a, b) in self.iter_mut().zip(other) {
            *a &= !b;
        }
        self
    }
    #[inline]
    fn xor(mut self, other: Self) -> Self {
        for (a, b) in self.iter_mut().zip(other) {
            *a ^= b;
        }
        self
    }
    #[inline]
    fn count_ones(&self) -> u32 {
        self.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn is_zero(&self) -> bool {
        self.iter().all(|&w| w == 0)
    }
    #[inline]
    fn pop_lowest(&mut self) -> Option<usize> {
        for (k, w) in self.iter_mut().enumerate() {
            if *w != 0 {
                let i = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(64 * k + i);
            }
        }
        None
    }
}

/// A set of holes: bit `i` stands for hole `i`. Positions (the holes holding pegs) are
/// `Bits`. `Bits` alone is the one-word set of boards of up to 64 holes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bits<W: Word = u64>(pub W);

impl<W: Word> Default for Bits<W> {
    fn default() -> Self {
        Bits::EMPTY
    }
}

impl Bits<u64> {
    /// The word behind a one-word set.
    #[must_use]
    pub const fn raw(self) -> u64 {
        self.0
    }
}

impl<W: Word> Bits<W> {
    /// The empty set.
    pub const EMPTY: Bits<W> = Bits(W::ZERO);

    /// The most holes a set of this width holds.
    pub const CAPACITY: usize = 64 * W::WORDS;

    /// The set of the holes `0..n` (all of them when `n` is at least the capacity).
    #[must_use]
    pub fn first(n: usize) -> Bits<W> {
        let mut w = W::ZERO;
        for k in 0..W::WORDS {
            let lo = 64 * k;
            *w.word_mut(k) = if n >= lo + 64 {
                u64::MAX
            } else if n > lo {
                (1 << (n - lo)) - 1
            } else {
                0
            };
        }
        Bits(w)
    }

    /// The one-hole set of `hole` (which must be below the capacity).
    #[must_use]
    #[inline]
    pub fn single(hole: Hole) -> Bits<W> {
        Bits::EMPTY.with(hole)
    }

    /// Number of holes in the set (pegs, for a position).
    #[must_use]
    #[inline]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0.is_zero()
    }

    /// Whether `hole` is in the set (never, past the capacity).
    #[must_use]
    #[inline]
    pub fn contains(self, hole: Hole) -> bool {
        let i = hole.index();
        i < Self::CAPACITY && self.0.word(i / 64) >> (i % 64) & 1 == 1
    }

    /// The set with `hole` added (which must be below the capacity).
    #[must_use]
    #[inline]
    pub fn with(mut self, hole: Hole) -> Bits<W> {
        let i = hole.index();
        debug_assert!(
            i < Self::CAPACITY,
            "hole {i} past a set of {}",
            Self::CAPACITY
        );
        *self.0.word_mut(i / 64) |= 1 << (i % 64);
        self
    }

    /// The set with `hole` removed.
    #[must_use]
    #[inline]
    pub fn without(mut self, hole: Hole) -> Bits<W> {
        let i = hole.index();
        if i < Self::CAPACITY {
            *self.0.word_mut(i / 64) &= !(1 << (i % 64));
        }
        self
    }

    /// Union.
    #[must_use]
    #[inline]
    pub fn union(self, other: Bits<W>) -> Bits<W> {
        Bits(self.0.or(other.0))
    }

    /// Intersection.
    #[must_use]
    #[inline]
    pub fn intersect(self, other: Bits<W>) -> Bits<W> {
        Bits(self.0.and(other.0))
    }

    /// The holes of `self` that are not in `other`.
    #[must_use]
    #[inline]
    pub fn minus(self, other: Bits<W>) -> Bits<W> {
        Bits(self.0.and_not(other.0))
    }

    /// Symmetric difference: what a jump does to a position is `xor` with its three holes.
    #[must_use]
    #[inline]
    pub fn xor(self, other: Bits<W>) -> Bits<W> {
        Bits(self.0.xor(other.0))
    }

    /// Whether every hole of `self` is in `other`.
    #[must_use]
    #[inline]
    pub fn is_subset(self, other: Bits<W>) -> bool {
        self.0.and_not(other.0).is_zero()
    }

    /// Whether the sets share no hole.
    #[must_use]
    #[inline]
    pub fn is_disjoint(self, other: Bits<W>) -> bool {
        self.0.and(other.0).is_zero()
    }

    /// The lowest hole in the set.
    #[must_use]
    #[inline]
    pub fn lowest(self) -> Option<Hole> {
        let mut w = self.0;
        w.pop_lowest().map(|i| Hole(i as u8))
    }

    /// The same holes in a set of another width; holes past its capacity are dropped.
    #[must_use]
    pub fn resize<V: Word>(self) -> Bits<V> {
        let mut w = V::ZERO;
        for k in 0..W::WORDS.min(V::WORDS) {
            *w.word_mut(k) = self.0.word(k);
        }
        Bits(w)
    }

    /// A 64-bit hash of the set (for open tables and tie-breaks).
    #[must_use]
    #[inline]
    pub fn hash64(&self) -> u64 {
        let mut h = 0x9E37_79B9_7F4A_7C15u64;
        for k in 0..W::WORDS {
            h = (h ^ self.0.word(k))
                .wrapping_mul(0xBF58_476D_1CE4_E5B9)
                .rotate_left(31);
        }
        h ^ h >> 29
    }

    /// The holes of the set in increasing order.
    #[inline]
    pub fn iter(self) -> BitsIter<W> {
        BitsIter(self.0)
    }
}

impl<W: Word> FromIterator<Hole> for Bits<W> {
    fn from_iter<I: IntoIterator<Item = Hole>>(iter: I) -> Bits<W> {
        iter.into_iter().fold(Bits::EMPTY, Bits::with)
    }
}

impl<W: Word> IntoIterator for Bits<W> {
    type Item = Hole;
    type IntoIter = BitsIter<W>;
    fn into_iter(self) -> BitsIter<W> {
        self.iter()
    }
}

/// Iterator over the holes of a [`Bits`], lowest first.
#[derive(Clone, Debug)]
pub struct BitsIter<W: Word = u64>(W);

impl<W: Word> Iterator for BitsIter<W> {
    type Item = Hole;
    #[inline]
    fn next(&mut self) -> Option<Hole> {
        self.0.pop_lowest().map(|i| Hole(i as u8))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl<W: Word> ExactSizeIterator for BitsIter<W> {}

impl<W: Word> fmt::Debug for Bits<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Without its board a set has no shape; list the hole indices.
        f.write_str("Bits")?;
        f.debug_set().entries(self.iter().map(Hole::index)).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a = Hole::new(3).unwrap();
        let b = Hole::new(63).unwrap();
        let s = Bits::<u64>::EMPTY.with(a).with(b);
        assert_eq!(s.count(), 2);
        assert!(s.contains(a) && s.contains(b));
        assert_eq!(s.without(a), b.bit());
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![a, b]);
        assert_eq!(s.lowest(), Some(a));
        assert!(Hole::new(255).is_some() && Hole::new(256).is_none());
        assert_eq!(Bits::first(64), Bits(u64::MAX));
        assert_eq!(Bits::first(3), Bits(7));
        assert_eq!(format!("{s:?}"), "Bits{3, 63}");
        assert!(a.bit().is_subset(s) && !s.is_subset(a.bit()));
    }

    /// Every operation at every width against a sorted list of hole indices, on random sets
    /// (the one-word instance is today's 64-hole set; the others hold up to 128 and 256).
    fn agrees_with_lists<W: Word>(seed: u64) {
        use std::collections::BTreeSet;
        let cap = Bits::<W>::CAPACITY;
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let set = |n: u64, next: &mut dyn FnMut() -> u64| -> (Bits<W>, BTreeSet<usize>) {
            let list: BTreeSet<usize> = (0..next() % n)
                .map(|_| (next() % cap as u64) as usize)
                .collect();
            (list.iter().map(|&i| Hole::at(i)).collect(), list)
        };
        for _ in 0..200 {
            let (a, la) = set(2 * cap as u64, &mut next);
            let (b, lb) = set(cap as u64 / 2, &mut next);
            let holes = |s: Bits<W>| s.iter().map(Hole::index).collect::<BTreeSet<_>>();
            assert_eq!(holes(a), la);
            assert_eq!(a.count() as usize, la.len());
            assert_eq!(a.is_empty(), la.is_empty());
            assert_eq!(holes(a.union(b)), &la | &lb);
            assert_eq!(holes(a.intersect(b)), &la & &lb);
            assert_eq!(holes(a.minus(b)), &la - &lb);
            assert_eq!(holes(a.xor(b)), &la ^ &lb);
            assert_eq!(a.is_subset(b), la.is_subset(&lb));
            assert_eq!(a.is_disjoint(b), la.is_disjoint(&lb));
            assert_eq!(a.lowest().map(Hole::index), la.first().copied());
            assert_eq!(a.iter().len(), la.len());
            for i in [0, 1, 63, 64, 65, 127, 128, 200, 255] {
                let h = Hole::at(i);
                assert_eq!(a.contains(h), la.contains(&i), "{i}");
                if i < cap {
                    assert!(a.with(h).contains(h) && !a.without(h).contains(h));
                    assert_eq!(a.with(h).without(h), a.without(h));
                    assert_eq!(Bits::<W>::single(h).count(), 1);
                } else {
                    assert_eq!(a.without(h), a);
                }
            }
            let n = (next() % (cap as u64 + 10)) as usize;
            assert_eq!(holes(Bits::<W>::first(n)), (0..n.min(cap)).collect());
            let wide: Bits<[u64; 4]> = a.resize();
            assert_eq!(holes(wide.resize()), la);
            assert_eq!(wide.iter().map(Hole::index).collect::<BTreeSet<_>>(), la);
            let narrow: Bits = a.resize();
            assert_eq!(holes(narrow.resize()), la.range(..64).copied().collect());
            let same: Bits<W> = la.iter().rev().map(|&i| Hole::at(i)).collect();
            assert_eq!((same, same.hash64()), (a, a.hash64()));
        }
    }

    #[test]
    fn every_width_agrees_with_a_list_of_holes() {
        for seed in 1..20 {
            agrees_with_lists::<u64>(seed);
            agrees_with_lists::<[u64; 2]>(seed);
            agrees_with_lists::<[u64; 4]>(seed);
        }
        assert_eq!(Bits::<u64>::CAPACITY, 64);
        assert_eq!(Bits::<[u64; 4]>::CAPACITY, 256);
        assert_eq!(Bits::<[u64; 2]>::first(64).0, [u64::MAX, 0]);
        assert_eq!(
            format!("{:?}", Bits::<[u64; 4]>::first(2).with(Hole::at(200))),
            "Bits{0, 1, 200}"
        );
    }
}
