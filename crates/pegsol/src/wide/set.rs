//! Sets of holes in `W` 64-bit words, for boards of up to `64 W` holes.

use std::fmt;

/// A set of holes on a board of up to `64 W` holes: bit `i % 64` of word `i / 64` stands for
/// hole `i`. The public API uses `WideSet<4>` (256 holes); the wide solver's hot loops run on
/// the fewest words the board needs (1, 2 or 4), picked once per board.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WideSet<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for WideSet<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> WideSet<W> {
    /// The empty set.
    pub const EMPTY: Self = WideSet([0; W]);

    /// The most holes a set of this width holds.
    pub const CAPACITY: usize = 64 * W;

    /// The set of hole `i` alone; `i` must be below [`Self::CAPACITY`].
    #[must_use]
    pub const fn bit(i: usize) -> Self {
        let mut w = [0; W];
        w[i / 64] = 1 << (i % 64);
        WideSet(w)
    }

    /// The holes `0..n` (all of them when `n` is at least [`Self::CAPACITY`]).
    #[must_use]
    pub const fn first(n: usize) -> Self {
        let mut w = [0; W];
        let mut k = 0;
        while k < W {
            let lo = 64 * k;
            w[k] = if n >= lo + 64 {
                u64::MAX
            } else if n > lo {
                (1 << (n - lo)) - 1
            } else {
                0
            };
            k += 1;
        }
        WideSet(w)
    }

    /// Whether hole `i` is in the set.
    #[must_use]
    pub const fn contains(&self, i: usize) -> bool {
        i < Self::CAPACITY && self.0[i / 64] >> (i % 64) & 1 == 1
    }

    /// The set with hole `i` added.
    #[must_use]
    pub const fn with(mut self, i: usize) -> Self {
        self.0[i / 64] |= 1 << (i % 64);
        self
    }

    /// The set with hole `i` removed.
    #[must_use]
    pub const fn without(mut self, i: usize) -> Self {
        self.0[i / 64] &= !(1 << (i % 64));
        self
    }

    /// The holes in either set.
    #[must_use]
    pub fn union(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        self
    }

    /// The holes in both sets.
    #[must_use]
    pub fn and(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        self
    }

    /// The holes in `self` and not in `other`.
    #[must_use]
    pub fn minus(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        self
    }

    /// The holes in exactly one of the sets.
    #[must_use]
    pub fn xor(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a ^= b;
        }
        self
    }

    /// Whether every hole of `self` is in `other`.
    #[must_use]
    pub fn is_subset(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }

    /// Whether the sets share no hole.
    #[must_use]
    pub fn is_disjoint(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & b == 0)
    }

    /// How many holes.
    #[must_use]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The holes in increasing order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..W).flat_map(move |k| {
            let mut w = self.0[k];
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let i = w.trailing_zeros() as usize;
                    w &= w - 1;
                    64 * k + i
                })
            })
        })
    }

    /// The same holes in a set of `V` words; holes past `64 V` are dropped.
    #[must_use]
    pub fn resize<const V: usize>(&self) -> WideSet<V> {
        let mut w = [0; V];
        for (a, b) in w.iter_mut().zip(self.0) {
            *a = b;
        }
        WideSet(w)
    }

    /// A 64-bit hash of the set (for open tables and tie-breaks).
    #[must_use]
    pub fn hash64(&self) -> u64 {
        let mut h = 0x9E37_79B9_7F4A_7C15u64;
        for &w in &self.0 {
            h = (h ^ w).wrapping_mul(0xBF58_476D_1CE4_E5B9).rotate_left(31);
        }
        h ^ h >> 29
    }
}

impl<const W: usize> fmt::Debug for WideSet<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_agree_with_a_list_of_holes() {
        let holes = [0usize, 5, 63, 64, 100, 191, 192, 255];
        let s = holes.iter().fold(WideSet::<4>::EMPTY, |s, &h| s.with(h));
        assert_eq!(s.iter().collect::<Vec<_>>(), holes);
        assert_eq!(s.count(), 8);
        assert!(s.contains(255) && !s.contains(254));
        assert_eq!(s.without(64).count(), 7);
        assert_eq!(WideSet::<4>::first(100).count(), 100);
        assert_eq!(WideSet::<4>::first(300).count(), 256);
        assert_eq!(WideSet::<2>::first(64).0, [u64::MAX, 0]);
        assert_eq!(s.resize::<2>().count(), 5);
        assert!(WideSet::<4>::bit(100).is_subset(&s));
        assert!(s.minus(s).is_empty());
    }
}
