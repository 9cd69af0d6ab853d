//! A position's key in a count: the position in the count's layout, as one `u64` on boards
//! of up to 64 holes or as two or four words past them, with the orders a level is kept in.
//!
//! A level is kept sorted by a *rank* of its keys: in memory by a fixed mix ([`CountKey::spread`]),
//! on disk by a dense index ([`CountKey::index`]). Both are bijections, so a sorted level is a set
//! of keys in one order, and both spread keys evenly in their leading word (the rank's
//! [`head`](crate::spill::Value::head)), whose top byte picks a bucket and whose next bits a
//! hash slot. One word keeps its tricks: a rank is one `u64`, and the dense index of a key
//! of `w` bits is a `w`-bit number, so that a sorted level's gaps are small on disk. Wider
//! keys rank as their words with the first replaced by a mix of them all: the leading word
//! spreads, and the rest break its ties.

use crate::bitset::Word;
use crate::spill::Value;
use crate::table::{SPREAD, UNSPREAD};

/// A key of a count's layout: a [`Word`] with the ranks a level is sorted by (not the
/// hash table's `table::Key`, whose free slot is the empty position).
pub(crate) trait CountKey: Word {
    /// A rank: a bijective image of a key, compared as the level is sorted.
    type Rank: Value;
    /// Every bit set: no child's key, since its jump left a hole empty (a free table slot).
    const FREE: Self;
    /// The key whose first word is `x` (and any others empty).
    fn from_low(x: u64) -> Self;
    /// The rank of a level kept in memory: the key mixed by a bijection.
    fn spread(self) -> Self::Rank;
    /// The rank on disk: a dense index under `dense` (see [`Dense`]).
    fn index(self, dense: Dense) -> Self::Rank;
    /// The key of a dense index: `K::of_index(k.index(d), d) == k`.
    fn of_index(index: Self::Rank, dense: Dense) -> Self;
    /// The dense index as a hash table's rank: its leading word spread over all 64 bits.
    fn dense_rank(self, dense: Dense) -> Self::Rank;
}

impl CountKey for u64 {
    type Rank = u64;
    const FREE: u64 = u64::MAX;
    #[inline(always)]
    fn from_low(x: u64) -> u64 {
        x
    }
    #[inline(always)]
    fn spread(self) -> u64 {
        self.wrapping_mul(SPREAD)
    }
    #[inline(always)]
    fn index(self, dense: Dense) -> u64 {
        dense.index(self)
    }
    #[inline(always)]
    fn of_index(index: u64, dense: Dense) -> u64 {
        dense.key(index)
    }
    #[inline(always)]
    fn dense_rank(self, dense: Dense) -> u64 {
        dense.index(self) << dense.shift
    }
}

/// The mix of a wide key's words past the first, folded into the first so that the leading
/// word of its rank depends on every hole.
#[inline(always)]
fn tail_mix<const N: usize>(key: &[u64; N]) -> u64 {
    key[1..]
        .iter()
        .fold(0u64, |m, &w| (m ^ w).wrapping_mul(SPREAD).rotate_left(29))
}

impl<const N: usize> CountKey for [u64; N]
where
    [u64; N]: Word + Value,
{
    type Rank = [u64; N];
    const FREE: [u64; N] = [u64::MAX; N];
    #[inline(always)]
    fn from_low(x: u64) -> [u64; N] {
        let mut k = [0; N];
        k[0] = x;
        k
    }
    #[inline(always)]
    fn spread(self) -> [u64; N] {
        let mut r = self;
        r[0] = (self[0] ^ tail_mix(&self)).wrapping_mul(SPREAD);
        r
    }
    #[inline(always)]
    fn index(self, _: Dense) -> [u64; N] {
        self.spread()
    }
    #[inline(always)]
    fn of_index(index: [u64; N], _: Dense) -> [u64; N] {
        let mut k = index;
        k[0] = index[0].wrapping_mul(UNSPREAD) ^ tail_mix(&index);
        k
    }
    #[inline(always)]
    fn dense_rank(self, _: Dense) -> [u64; N] {
        self.spread()
    }
}

/// The order of levels on disk. A layout's keys fit its lowest `w` bits, and a key's index
/// is a bijection on `w`-bit numbers: the key with its high half folded onto its low half,
/// times an odd constant, modulo `2^w`. Indices are spread evenly, so that cutting their
/// range in equal parts cuts a level in equal parts, and dense, so that the gaps between a
/// sorted level's indices take few bytes in a file (see `spill`), where `count`'s rank would
/// spread `w` bits over 64.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dense {
    /// `64 - w`.
    pub(crate) shift: u32,
    /// `w / 2`, rounded up.
    pub(crate) half: u32,
}

impl Dense {
    /// The order of keys made of the bits of `holes`: one word's, where wider keys spread
    /// their leading word over all 64 bits (see [`CountKey::index`]).
    pub(crate) fn new<K: CountKey>(holes: K) -> Dense {
        let width = if K::WORDS == 1 {
            64 - (holes.word(0) | 1).leading_zeros()
        } else {
            64
        };
        Dense {
            shift: 64 - width,
            half: width.div_ceil(2),
        }
    }

    /// The index of a key: at most [`last`](Self::last).
    #[inline]
    pub(crate) const fn index(self, key: u64) -> u64 {
        (key ^ key >> self.half).wrapping_mul(SPREAD) & self.last()
    }

    /// The key of an index.
    #[inline]
    pub(crate) const fn key(self, index: u64) -> u64 {
        // Folding twice restores a key: its high half, shifted down, lands below `half`.
        let folded = index.wrapping_mul(UNSPREAD) & self.last();
        folded ^ folded >> self.half
    }

    /// The largest index.
    pub(crate) const fn last(self) -> u64 {
        u64::MAX >> self.shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_ranks_are_bijections_that_sort_by_their_leading_word() {
        let mut next = crate::testing::xorshift();
        let dense = Dense::new(u64::MAX);
        for _ in 0..1000 {
            let k = [next(), next() & 3];
            assert_eq!(<[u64; 2]>::of_index(k.index(dense), dense), k);
            let k4 = [next(), next(), next(), next()];
            assert_eq!(<[u64; 4]>::of_index(k4.index(dense), dense), k4);
            let j = [next(), next() & 3];
            let (a, b) = (k.spread(), j.spread());
            if a.head() != b.head() {
                assert_eq!(a < b, a.head() < b.head());
            }
        }
        for k in [0u64, 1, 0xdead_beef, u64::MAX >> 3] {
            let d = Dense::new(u64::MAX >> 3);
            assert_eq!(u64::of_index(k.index(d), d), k);
        }
    }
}
