//! What the wide engines share: a hasher for sets, the jump tables in `W` words, and the
//! canonical form of a position under a group of the board's symmetries.

use crate::bitset::Pegs;
use crate::bitset::{Bits, Hole};
use crate::board::Board;
use crate::jumps::Jump;

pub(super) use crate::table::SetBuild as Build;

/// The board's jumps in `W` words, indexed by landing hole and by starting hole.
pub(super) struct Tables<const W: usize> {
    pub(super) holes: Bits<[u64; W]>,
    pub(super) jumps: Vec<Jump>,
    /// Per jump: the holes of `from` and `over`, and of all three.
    pub(super) needs: Vec<Bits<[u64; W]>>,
    pub(super) flips: Vec<Bits<[u64; W]>>,
    pub(super) into: Vec<Vec<u32>>,
    pub(super) out_of: Vec<Vec<u32>>,
    /// Holes few jumps clear (see the module docs).
    pub(super) hard: Bits<[u64; W]>,
}

impl<const W: usize> Tables<W> {
    pub(super) fn new(board: &Board) -> Self {
        let n = board.hole_count();
        let jumps = board.jumps().to_vec();
        let mut into = vec![Vec::new(); n];
        let mut out_of = vec![Vec::new(); n];
        let mut clearing = vec![0u32; n];
        for (k, j) in jumps.iter().enumerate() {
            into[j.to().index()].push(k as u32);
            out_of[j.from().index()].push(k as u32);
            clearing[j.from().index()] += 1;
            clearing[j.over().index()] += 1;
        }
        let most = clearing.iter().copied().max().unwrap_or(0);
        let hard = (0..n)
            .filter(|&h| 2 * clearing[h] <= most)
            .fold(Bits::EMPTY, |s, h| s.with(Hole::at(h)));
        Tables {
            holes: Bits::first(n),
            needs: jumps
                .iter()
                .map(|j| Bits::single(j.from()).with(j.over()))
                .collect(),
            flips: jumps
                .iter()
                .map(|j| Bits::single(j.from()).with(j.over()).with(j.to()))
                .collect(),
            jumps,
            into,
            out_of,
            hard,
        }
    }

    /// Calls `f(jump, child)` for every legal jump of `pos`: by the empty holes while they are
    /// fewer than the pegs, by the pegs after.
    #[inline]
    pub(super) fn for_each_child(
        &self,
        pos: Bits<[u64; W]>,
        mut f: impl FnMut(u32, Bits<[u64; W]>),
    ) {
        let empty = self.holes.minus(pos);
        if empty.count() <= pos.count() {
            for h in empty.iter() {
                for &k in &self.into[h.index()] {
                    if self.needs[k as usize].is_subset(pos) {
                        f(k, pos.xor(self.flips[k as usize]));
                    }
                }
            }
        } else {
            for h in pos.iter() {
                for &k in &self.out_of[h.index()] {
                    let j = self.jumps[k as usize];
                    if pos.contains(j.over()) && !pos.contains(j.to()) {
                        f(k, pos.xor(self.flips[k as usize]));
                    }
                }
            }
        }
    }

    pub(super) fn legal_count(&self, pos: Bits<[u64; W]>) -> i64 {
        let mut n = 0;
        self.for_each_child(pos, |_, _| n += 1);
        n
    }
}

/// The canonical form of a position under a group of the board's symmetries: the least of
/// its images. Each symmetry is a permutation of the holes, applied a byte at a time through
/// tables (the image of each value of each byte), so an image costs `8 W` lookups.
pub(super) struct Canon<const W: usize> {
    /// Per symmetry of the group other than the identity: `maps[g][byte][value]`.
    maps: Vec<Vec<[Bits<[u64; W]>; 256]>>,
}

impl<const W: usize> Canon<W> {
    /// The canonical form under `group` (indices into the board's symmetries, the identity
    /// among them or not).
    pub(super) fn new(board: &Board, group: &[usize]) -> Self {
        let n = board.hole_count();
        let maps = group
            .iter()
            .filter(|&&g| g != 0)
            .map(|&g| {
                let sym = board.symmetries();
                (0..8 * W)
                    .map(|byte| {
                        let mut table = [Bits::EMPTY; 256];
                        for (value, image) in table.iter_mut().enumerate() {
                            for bit in 0..8 {
                                let hole = 8 * byte + bit;
                                if value >> bit & 1 == 1 && hole < n {
                                    *image = image.with(sym.map_hole(g, Hole::at(hole)));
                                }
                            }
                        }
                        table
                    })
                    .collect()
            })
            .collect();
        Canon { maps }
    }

    /// The image of `p` under the `k`-th symmetry of the group other than the identity.
    #[inline]
    fn image(&self, k: usize, p: Bits<[u64; W]>) -> Bits<[u64; W]> {
        let map = &self.maps[k];
        let mut out = Bits::<[u64; W]>::EMPTY;
        for (w, &word) in p.0.iter().enumerate() {
            let mut x = word;
            let mut byte = 8 * w;
            while x != 0 {
                let part = map[byte][(x & 0xff) as usize];
                for (o, q) in out.0.iter_mut().zip(part.0) {
                    *o |= q;
                }
                x >>= 8;
                byte += 1;
            }
        }
        out
    }

    /// The least of the images of `p` (itself included): equal for every position of an orbit.
    #[inline]
    pub(super) fn canonical(&self, p: Bits<[u64; W]>) -> Bits<[u64; W]> {
        (0..self.maps.len()).fold(p, |best, k| best.min(self.image(k, p)))
    }
}

/// The symmetries of `board` (indices, the identity first) that map each of `families` onto
/// itself: a family of sets (the starts, or the finishes) must go to the same family.
pub(super) fn stabilizer(board: &Board, families: &[&[Pegs]]) -> Vec<usize> {
    (0..board.symmetries().len())
        .filter(|&g| {
            families.iter().all(|family| {
                let set: std::collections::HashSet<Pegs> = family.iter().copied().collect();
                family
                    .iter()
                    .all(|&s| set.contains(&board.symmetries().apply(g, s)))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms_agree_with_applying_each_symmetry() {
        for name in ["rect:9x9", "triangle:12", "hexagon:5", "english"] {
            let board = Board::builtin(name).unwrap();
            let all: Vec<usize> = (0..board.symmetries().len()).collect();
            let canon = Canon::<4>::new(&board, &all);
            let mut x = 0x1234_5678_9abc_def1u64;
            for _ in 0..50 {
                let mut p = Pegs::EMPTY;
                for h in 0..board.hole_count() {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    if x.is_multiple_of(3) {
                        p = p.with(Hole::at(h));
                    }
                }
                let images: Vec<Pegs> = (0..board.symmetries().len())
                    .map(|g| board.symmetries().apply(g, p))
                    .collect();
                assert_eq!(canon.canonical(p), *images.iter().min().unwrap(), "{name}");
                for &q in &images {
                    assert_eq!(canon.canonical(q), canon.canonical(p));
                }
            }
        }
    }

    #[test]
    fn the_stabilizer_of_a_corner_is_a_mirror() {
        let board = Board::builtin("triangle:11").unwrap();
        let corner = [board
            .holes()
            .without(Hole::at((board.hole("a1").unwrap()).index()))];
        assert_eq!(stabilizer(&board, &[&corner]).len(), 2);
        assert_eq!(stabilizer(&board, &[&[board.holes()]]).len(), 6);
    }
}
