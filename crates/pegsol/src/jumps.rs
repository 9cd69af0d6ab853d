//! Jumps and move generation.
//!
//! A jump takes the peg on `from` over a peg on `over` into the empty hole `to`, on one line of
//! the lattice, and removes the jumped peg. Over GF(2) it adds the vector of its three holes to
//! the position, which is why it preserves the position class (see [`crate::Classes`]).

use crate::bitset::{Bits, Hole, Word};

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

    /// The two holes that must hold pegs, in a set of any width.
    #[must_use]
    #[inline]
    pub fn needs<W: Word>(self) -> Bits<W> {
        Bits::single(self.from).with(self.over)
    }

    /// All three holes: a jump is `xor` with this set.
    #[must_use]
    #[inline]
    pub fn holes<W: Word>(self) -> Bits<W> {
        self.needs().with(self.to)
    }

    /// Whether the jump can be played in `pegs`.
    #[must_use]
    #[inline]
    pub fn is_legal<W: Word>(self, pegs: Bits<W>) -> bool {
        self.needs().is_subset(pegs) && !pegs.contains(self.to)
    }

    /// The position after the jump (no legality check). A jump keeps the position class.
    #[must_use]
    #[inline]
    pub fn apply<W: Word>(self, pegs: Bits<W>) -> Bits<W> {
        pegs.xor(self.holes())
    }
}

/// A precomputed jump table in the form the hot loops want, for positions of `W` words: the
/// two needed holes and the landing hole as sets, so a legality test is two ANDs a word.
#[derive(Clone, Debug, Default)]
pub struct JumpTable<W: Word = u64> {
    needs: Vec<Bits<W>>,
    to: Vec<Bits<W>>,
    jumps: Vec<Jump>,
    /// The holes some jump uses: the only ones that matter for legality.
    used: Bits<W>,
    /// Per hole, the jumps that land there, and the jumps that start there.
    into: Vec<Vec<u32>>,
    out_of: Vec<Vec<u32>>,
}

impl<W: Word> JumpTable<W> {
    /// Builds the table for `jumps`, keeping their order (every hole below the width's
    /// capacity).
    #[must_use]
    pub fn new(jumps: &[Jump]) -> JumpTable<W> {
        let n = jumps
            .iter()
            .map(|j| j.from().max(j.over()).max(j.to()).index() + 1)
            .max()
            .unwrap_or(0);
        let (mut into, mut out_of) = (vec![Vec::new(); n], vec![Vec::new(); n]);
        for (k, j) in jumps.iter().enumerate() {
            into[j.to().index()].push(k as u32);
            out_of[j.from().index()].push(k as u32);
        }
        JumpTable {
            needs: jumps.iter().map(|j| j.needs()).collect(),
            to: jumps.iter().map(|j| j.to().bit()).collect(),
            jumps: jumps.to_vec(),
            used: jumps.iter().fold(Bits::EMPTY, |u, j| u.union(j.holes())),
            into,
            out_of,
        }
    }

    /// Calls `f` with every jump legal in `pegs` (an index into the table), found from the
    /// sparser side: through the empty holes a jump could land in when there are fewer of
    /// them than pegs, else through the pegs that could jump. Not in table order. Allocates
    /// nothing.
    #[inline]
    pub fn for_each_legal(&self, pegs: Bits<W>, mut f: impl FnMut(usize)) {
        let empty = self.used.minus(pegs);
        if empty.count() <= pegs.count() {
            for h in empty.iter() {
                for &k in &self.into[h.index()] {
                    if self.needs[k as usize].is_subset(pegs) {
                        f(k as usize);
                    }
                }
            }
        } else {
            for h in pegs.intersect(self.used).iter() {
                for &k in &self.out_of[h.index()] {
                    let j = self.jumps[k as usize];
                    if pegs.contains(j.over()) && !pegs.contains(j.to()) {
                        f(k as usize);
                    }
                }
            }
        }
    }

    /// How many jumps are legal in `pegs`.
    #[must_use]
    #[inline]
    pub fn legal_count(&self, pegs: Bits<W>) -> usize {
        let mut n = 0;
        self.for_each_legal(pegs, |_| n += 1);
        n
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
    pub fn is_legal(&self, i: usize, pegs: Bits<W>) -> bool {
        self.needs[i].is_subset(pegs) && self.to[i].is_disjoint(pegs)
    }

    /// The legal jumps in `pegs`, as indices into the table, in table order. Allocates nothing.
    #[inline]
    pub fn legal(&self, pegs: Bits<W>) -> impl Iterator<Item = usize> + '_ {
        self.needs
            .iter()
            .zip(&self.to)
            .enumerate()
            .filter(move |(_, (&n, &t))| n.is_subset(pegs) && t.is_disjoint(pegs))
            .map(|(i, _)| i)
    }

    /// Whether any jump is legal in `pegs`.
    #[must_use]
    #[inline]
    pub fn any_legal(&self, pegs: Bits<W>) -> bool {
        self.needs
            .iter()
            .zip(&self.to)
            .any(|(&n, &t)| n.is_subset(pegs) && t.is_disjoint(pegs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    #[test]
    fn english_opening_has_four_jumps() {
        let b = Board::builtin("english").unwrap();
        let table: JumpTable = JumpTable::new(b.jumps());
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

    /// The legal jumps found from the sparser side are those of the whole table, at every
    /// width, on boards of each lattice, with holes no jump uses, from full to nearly empty.
    #[test]
    fn the_sparser_side_finds_every_legal_jump() {
        fn check<W: crate::Word>(b: &Board) {
            let table: JumpTable<W> = JumpTable::new(b.jumps());
            let mut x = 0x2545_F491_4F6C_DD1Du64;
            for round in 0..400u64 {
                let mut p: Bits<W> = Bits::EMPTY;
                for h in b.each_hole() {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // Densities from about 1/8 to 7/8 as the rounds go.
                    if x % 8 < 1 + round % 7 {
                        p = p.with(h);
                    }
                }
                let mut found = Vec::new();
                table.for_each_legal(p, |i| found.push(i));
                found.sort_unstable();
                let all: Vec<usize> = table.legal(p).collect();
                assert_eq!(found, all, "{}", b.name());
                assert_eq!(table.legal_count(p), all.len());
            }
        }
        for name in ["english", "triangle:6", "french-diagonal", "hexagon:4"] {
            check::<u64>(&Board::builtin(name).unwrap());
        }
        let lonely = Board::parse("lonely", "ooo.o\n.....\no.ooo\n").unwrap();
        check::<u64>(&lonely);
        for name in ["triangle:11", "rect:9x9"] {
            check::<[u64; 2]>(&Board::builtin(name).unwrap());
        }
        check::<[u64; 4]>(&Board::builtin("hexagon:9").unwrap());
    }
}
