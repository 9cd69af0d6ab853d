//! Sets of holes as 64-bit words, and hole indices.
//!
//! A board numbers its holes `0..n` (row-major over its holes, not over its bounding box),
//! so any shape of up to 64 holes fits one word whatever its bounding box.

use std::fmt;

/// The most holes a board may have: one bit each in a [`Bits`].
pub const MAX_HOLES: usize = 64;

/// The index of a hole on its board, always below [`MAX_HOLES`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hole(u8);

impl Hole {
    /// The hole with this index, or `None` when it is 64 or more.
    #[must_use]
    pub const fn new(index: usize) -> Option<Hole> {
        if index < MAX_HOLES {
            Some(Hole(index as u8))
        } else {
            None
        }
    }

    /// The index of this hole in its board's numbering.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The one-hole set holding just this hole.
    #[must_use]
    pub const fn bit(self) -> Bits {
        Bits(1u64 << self.0)
    }
}

impl fmt::Debug for Hole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hole({})", self.0)
    }
}

/// A set of holes: bit `i` stands for hole `i`. Positions (the holes holding pegs) are `Bits`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bits(pub u64);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits(0);

    /// The set of the holes `0..n`.
    #[must_use]
    pub const fn first(n: usize) -> Bits {
        if n >= 64 {
            Bits(u64::MAX)
        } else {
            Bits((1u64 << n) - 1)
        }
    }

    /// The word behind the set.
    #[must_use]
    pub const fn raw(self) -> u64 {
        self.0
    }

    /// Number of holes in the set (pegs, for a position).
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `hole` is in the set.
    #[must_use]
    pub const fn contains(self, hole: Hole) -> bool {
        self.0 >> hole.0 & 1 == 1
    }

    /// The set with `hole` added.
    #[must_use]
    pub const fn with(self, hole: Hole) -> Bits {
        Bits(self.0 | 1u64 << hole.0)
    }

    /// The set with `hole` removed.
    #[must_use]
    pub const fn without(self, hole: Hole) -> Bits {
        Bits(self.0 & !(1u64 << hole.0))
    }

    /// Union.
    #[must_use]
    pub const fn union(self, other: Bits) -> Bits {
        Bits(self.0 | other.0)
    }

    /// Intersection.
    #[must_use]
    pub const fn intersect(self, other: Bits) -> Bits {
        Bits(self.0 & other.0)
    }

    /// The holes of `self` that are not in `other`.
    #[must_use]
    pub const fn minus(self, other: Bits) -> Bits {
        Bits(self.0 & !other.0)
    }

    /// Symmetric difference: what a jump does to a position is `xor` with its three holes.
    #[must_use]
    pub const fn xor(self, other: Bits) -> Bits {
        Bits(self.0 ^ other.0)
    }

    /// Whether every hole of `self` is in `other`.
    #[must_use]
    pub const fn is_subset(self, other: Bits) -> bool {
        self.0 & !other.0 == 0
    }

    /// The lowest hole in the set.
    #[must_use]
    pub const fn lowest(self) -> Option<Hole> {
        if self.0 == 0 {
            None
        } else {
            Some(Hole(self.0.trailing_zeros() as u8))
        }
    }

    /// The holes of the set in increasing order.
    pub fn iter(self) -> BitsIter {
        BitsIter(self.0)
    }
}

impl FromIterator<Hole> for Bits {
    fn from_iter<I: IntoIterator<Item = Hole>>(iter: I) -> Bits {
        iter.into_iter().fold(Bits::EMPTY, Bits::with)
    }
}

impl IntoIterator for Bits {
    type Item = Hole;
    type IntoIter = BitsIter;
    fn into_iter(self) -> BitsIter {
        self.iter()
    }
}

/// Iterator over the holes of a [`Bits`], lowest first.
#[derive(Clone, Debug)]
pub struct BitsIter(u64);

impl Iterator for BitsIter {
    type Item = Hole;
    #[inline]
    fn next(&mut self) -> Option<Hole> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Hole(i as u8))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitsIter {}

impl fmt::Debug for Bits {
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
        let s = Bits::EMPTY.with(a).with(b);
        assert_eq!(s.count(), 2);
        assert!(s.contains(a) && s.contains(b));
        assert_eq!(s.without(a), b.bit());
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![a, b]);
        assert_eq!(s.lowest(), Some(a));
        assert!(Hole::new(64).is_none());
        assert_eq!(Bits::first(64), Bits(u64::MAX));
        assert_eq!(Bits::first(3), Bits(7));
        assert_eq!(format!("{s:?}"), "Bits{3, 63}");
        assert!(a.bit().is_subset(s) && !s.is_subset(a.bit()));
    }
}
