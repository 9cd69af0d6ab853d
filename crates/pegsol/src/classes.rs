//! Position classes: the rule of three made exact for any board and lattice.
//!
//! A jump flips three holes, so over GF(2) it adds its hole vector to the position. Positions
//! connected by jumps therefore differ by an element of the span of the jump vectors, and a
//! linear functional that vanishes on that span (a set of holes meeting every jump in an even
//! number of holes) has the same parity on both. The functionals found here are a basis of the
//! annihilator of the span, so the class of a position (one bit per functional) is invariant
//! under jumps, and positions in different classes can never be connected.
//!
//! On the full square lattice this gives the seed's four bits (16 classes on the English board);
//! on other shapes there may be more.

use crate::bitset::{Bits, Hole, Pegs, Word};
use crate::jumps::Jump;

/// The class structure of a board: a basis of the functionals invariant under every jump.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Classes {
    functionals: Vec<Pegs>,
}

/// The class of a position: bit `k` is the parity of its pegs on functional `k`'s holes (a
/// board of `n` holes has at most `n` functionals, so 256 bits hold any class).
pub type Class = Bits<[u64; 4]>;

impl Classes {
    /// Computes the invariants of a board of `n` holes (at most 256) with these jumps, by
    /// Gaussian elimination over GF(2).
    #[must_use]
    pub fn of(n: usize, jumps: &[Jump]) -> Classes {
        // Reduced row echelon form of the jump vectors.
        let mut rows: Vec<Pegs> = Vec::new();
        let mut pivots: Vec<Hole> = Vec::new();
        for j in jumps {
            let mut v: Pegs = j.holes();
            for (r, &p) in rows.iter().zip(&pivots) {
                if v.contains(p) {
                    v = v.xor(*r);
                }
            }
            let Some(p) = v.lowest() else { continue };
            for r in rows.iter_mut() {
                if r.contains(p) {
                    *r = r.xor(v);
                }
            }
            rows.push(v);
            pivots.push(p);
        }
        // Null space of the matrix whose rows are the jump vectors: one vector per free column.
        let mut functionals = Vec::new();
        for f in (0..n).map(Hole::at) {
            if pivots.contains(&f) {
                continue;
            }
            let mut x = Pegs::single(f);
            for (r, &p) in rows.iter().zip(&pivots) {
                if r.contains(f) {
                    x = x.with(p);
                }
            }
            functionals.push(x);
        }
        Classes { functionals }
    }

    /// The invariant functionals: sets of holes whose peg parity no jump changes.
    #[must_use]
    pub fn functionals(&self) -> &[Pegs] {
        &self.functionals
    }

    /// Number of independent invariant bits.
    #[must_use]
    pub fn dimension(&self) -> usize {
        self.functionals.len()
    }

    /// Number of classes, `2^dimension` (saturating at `u64::MAX`).
    #[must_use]
    pub fn count(&self) -> u64 {
        1u64.checked_shl(self.functionals.len() as u32)
            .unwrap_or(u64::MAX)
    }

    /// The class of a position of any width. Jumps preserve it.
    #[must_use]
    #[inline]
    pub fn class_of<W: Word>(&self, pegs: Bits<W>) -> Class {
        let pegs: Pegs = pegs.resize();
        let mut class = Class::EMPTY;
        for (k, f) in self.functionals.iter().enumerate() {
            if pegs.intersect(*f).count() & 1 == 1 {
                class = class.with(Hole::at(k));
            }
        }
        class
    }

    /// The class of the position of one peg on `hole`.
    #[must_use]
    pub fn class_of_hole(&self, hole: Hole) -> Class {
        self.class_of(Class::single(hole))
    }

    /// The class as a string of bits, functional 0 first.
    #[must_use]
    pub fn class_text<W: Word>(&self, pegs: Bits<W>) -> String {
        let c = self.class_of(pegs);
        (0..self.dimension())
            .map(|k| if c.contains(Hole::at(k)) { '1' } else { '0' })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::Board;

    #[test]
    fn english_has_sixteen_classes_and_five_end_holes() {
        let b = Board::builtin("english").unwrap();
        assert_eq!(b.classes().count(), 16);
        let start: crate::Bits = b.start().unwrap();
        let c = b.classes().class_of(start);
        let ends: Vec<String> = b
            .each_hole()
            .filter(|h| b.classes().class_of_hole(*h) == c)
            .map(|h| b.label(h))
            .collect();
        assert_eq!(ends, ["d1", "a4", "d4", "g4", "d7"]);
    }

    #[test]
    fn french_centre_start_matches_no_single_peg() {
        let b = Board::builtin("french").unwrap();
        let c = b.classes().class_of(b.start::<u64>().unwrap());
        assert!(b.each_hole().all(|h| b.classes().class_of_hole(h) != c));
    }

    #[test]
    fn functionals_meet_every_jump_evenly() {
        for name in [
            "english",
            "french",
            "wiegleb",
            "diamond",
            "rect:5x7",
            "triangle:6",
            "english-diagonal",
        ] {
            let b = Board::builtin(name).unwrap();
            for f in b.classes().functionals() {
                for j in b.jumps() {
                    assert_eq!(j.holes().intersect(*f).count() % 2, 0, "{name}");
                }
            }
            // The jumps of a connected square board leave exactly the seed's four bits.
            if name == "diamond" || name == "wiegleb" {
                assert_eq!(b.classes().dimension(), 4, "{name}");
            }
        }
    }
}
