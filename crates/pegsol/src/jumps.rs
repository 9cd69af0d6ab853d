//! Jumps and move generation.
//!
//! A jump takes the peg on `from` over a peg on `over` into the empty hole `to`, on one line of
//! the lattice, and removes the jumped peg. Over GF(2) it adds the vector of its three holes to
//! the position, which is why it preserves the position class (see [`crate::Classes`]).

use crate::bitset::{Bits, Hole};

/// One jump: three holes in a line.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Jump {
    from: Hole,
    over: Hole,
    to: Hole,
}

impl Jump {
    /// The jump from `from` over `over` into `to`. [`crate::Board`] builds these from its shape;
    /// it is not checked here that the three holes lie in a line.
    #[must_use]
    pub const fn new(from: Hole, over: Hole, to: Hole) -> Jump {
        Jump { from, over, to }
    }

    /// The hole the jumping peg starts on.
    #[must_use]
    pub const fn from(self) -> Hole {
        self.from
    }

    /// The hole of the peg jumped over (and removed).
    #[must_use]
    pub const fn over(self) -> Hole {
        self.over
    }

    /// The hole the peg lands in.
    #[must_use]
    pub const fn to(self) -> Hole {
        self.to
    }

    /// The two holes that must hold pegs.
    #[must_use]
    pub fn needs(self) -> Bits {
        self.from.bit().union(self.over.bit())
    }

    /// All three holes: a jump is `xor` with this set.
    #[must_use]
    pub fn holes(self) -> Bits {
        self.needs().with(self.to)
    }

    /// Whether the jump can be played in `pegs`.
    #[must_use]
    #[inline]
    pub fn is_legal(self, pegs: Bits) -> bool {
        let needs = self.needs().raw();
        pegs.raw() & needs == needs && !pegs.contains(self.to)
    }

    /// The position after the jump (no legality check).
    #[must_use]
    #[inline]
    pub fn apply(self, pegs: Bits) -> Bits {
        pegs.xor(self.holes())
    }
}

/// A precomputed jump table in the form the hot loops want: the two needed holes and the
/// landing hole as raw words, so a legality test is two ANDs.
#[derive(Clone, Debug, Default)]
pub struct JumpTable {
    needs: Vec<u64>,
    to: Vec<u64>,
    jumps: Vec<Jump>,
}

impl JumpTable {
    /// Builds the table for `jumps`, keeping their order.
    #[must_use]
    pub fn new(jumps: &[Jump]) -> JumpTable {
        JumpTable {
            needs: jumps.iter().map(|j| j.needs().raw()).collect(),
            to: jumps.iter().map(|j| j.to().bit().raw()).collect(),
            jumps: jumps.to_vec(),
        }
    }

    /// Number of jumps in the table.
    #[must_use]
    pub fn len(&self) -> usize {
        self.jumps.len()
    }

    /// Whether the table has no jumps.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.jumps.is_empty()
    }

    /// The jump with this index.
    #[must_use]
    pub fn get(&self, i: usize) -> Jump {
        self.jumps[i]
    }

    /// Whether jump `i` of the table can be played in `pegs`.
    #[must_use]
    #[inline]
    pub fn is_legal(&self, i: usize, pegs: Bits) -> bool {
        let p = pegs.raw();
        p & self.needs[i] == self.needs[i] && p & self.to[i] == 0
    }

    /// The legal jumps in `pegs`, as indices into the table, in table order. Allocates nothing.
    #[inline]
    pub fn legal(&self, pegs: Bits) -> impl Iterator<Item = usize> + '_ {
        let p = pegs.raw();
        self.needs
            .iter()
            .zip(&self.to)
            .enumerate()
            .filter(move |(_, (&n, &t))| p & n == n && p & t == 0)
            .map(|(i, _)| i)
    }

    /// Whether any jump is legal in `pegs`.
    #[must_use]
    #[inline]
    pub fn any_legal(&self, pegs: Bits) -> bool {
        let p = pegs.raw();
        self.needs
            .iter()
            .zip(&self.to)
            .any(|(&n, &t)| p & n == n && p & t == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    #[test]
    fn english_opening_has_four_jumps() {
        let b = Board::builtin("english").unwrap();
        let table = JumpTable::new(b.jumps());
        let start = b.start().unwrap();
        let legal: Vec<Jump> = table.legal(start).map(|i| table.get(i)).collect();
        assert_eq!(legal.len(), 4);
        for j in legal {
            assert!(j.is_legal(start));
            assert_eq!(j.to(), b.hole("d4").unwrap());
            let after = j.apply(start);
            assert_eq!(after.count(), 31);
            assert!(!j.is_legal(after));
            // Undoing a jump is the same jump played in the complement position.
            let complement = b.holes().minus(after);
            assert!(j.is_legal(complement));
            assert_eq!(j.apply(complement), b.holes().minus(start));
        }
        assert!(!table.any_legal(b.hole("d4").unwrap().bit()));
    }
}
