//! Sets of window cells as bitsets, one type per window size.

use std::hash::Hash;

/// A set of window cells as a bitset: `u128` for windows of up to 128 cells (the orthogonal
/// army), [`Cells256`] up to 256; the search is compiled for each.
pub(in crate::army) trait CellSet:
    Copy + Eq + Hash + Ord + Default + Send + Sync
{
    /// The most cells a set can hold.
    const CAPACITY: usize;
    fn single(i: usize) -> Self;
    fn has(self, i: usize) -> bool;
    fn flip(self, i: usize) -> Self;
    fn and(self, other: Self) -> Self;
    fn not(self) -> Self;
    fn count(self) -> u32;
    fn lowest(self) -> Option<usize>;

    /// The cells of the set, lowest first.
    fn members(self) -> impl Iterator<Item = usize> {
        let mut p = self;
        std::iter::from_fn(move || {
            let i = p.lowest()?;
            p = p.flip(i);
            Some(i)
        })
    }
}

impl CellSet for u128 {
    const CAPACITY: usize = 128;
    #[inline]
    fn single(i: usize) -> u128 {
        1 << i
    }
    #[inline]
    fn has(self, i: usize) -> bool {
        self >> i & 1 != 0
    }
    #[inline]
    fn flip(self, i: usize) -> u128 {
        self ^ 1 << i
    }
    #[inline]
    fn and(self, other: u128) -> u128 {
        self & other
    }
    #[inline]
    fn not(self) -> u128 {
        !self
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn lowest(self) -> Option<usize> {
        (self != 0).then(|| self.trailing_zeros() as usize)
    }
}

/// 256 cells in four words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(in crate::army) struct Cells256([u64; 4]);

impl CellSet for Cells256 {
    const CAPACITY: usize = 256;
    #[inline]
    fn single(i: usize) -> Cells256 {
        let mut w = [0; 4];
        w[i / 64] = 1 << (i % 64);
        Cells256(w)
    }
    #[inline]
    fn has(self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }
    #[inline]
    fn flip(mut self, i: usize) -> Cells256 {
        self.0[i / 64] ^= 1 << (i % 64);
        self
    }
    #[inline]
    fn and(self, o: Cells256) -> Cells256 {
        Cells256(std::array::from_fn(|k| self.0[k] & o.0[k]))
    }
    #[inline]
    fn not(self) -> Cells256 {
        Cells256(self.0.map(|w| !w))
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> Option<usize> {
        self.0
            .iter()
            .position(|&w| w != 0)
            .map(|k| 64 * k + self.0[k].trailing_zeros() as usize)
    }
}
