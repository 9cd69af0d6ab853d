//! Sets of window cells as bitsets, one type per window size.

use std::hash::Hash;

/// A set of window cells as a bitset: `u128` for windows of up to 128 cells (the orthogonal
/// army), [`Cells256`] up to 256 and [`Cells512`] up to 512; the search is compiled for each.
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

/// `64 * W` cells in `W` words: [`Cells256`] and [`Cells512`] for the windows past 128.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(in crate::army) struct Cells<const W: usize>([u64; W]);

/// Up to 256 cells.
pub(in crate::army) type Cells256 = Cells<4>;
/// Up to 512 cells.
pub(in crate::army) type Cells512 = Cells<8>;

impl<const W: usize> Default for Cells<W> {
    fn default() -> Self {
        Cells([0; W])
    }
}

impl<const W: usize> CellSet for Cells<W> {
    const CAPACITY: usize = 64 * W;
    #[inline]
    fn single(i: usize) -> Self {
        let mut w = [0; W];
        w[i / 64] = 1 << (i % 64);
        Cells(w)
    }
    #[inline]
    fn has(self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }
    #[inline]
    fn flip(mut self, i: usize) -> Self {
        self.0[i / 64] ^= 1 << (i % 64);
        self
    }
    #[inline]
    fn and(self, o: Self) -> Self {
        Cells(std::array::from_fn(|k| self.0[k] & o.0[k]))
    }
    #[inline]
    fn not(self) -> Self {
        Cells(self.0.map(|w| !w))
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
