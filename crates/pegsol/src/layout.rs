//! Where a board's holes sit in a count's keys (one 64-bit word, or two or four past 64
//! holes) for whole-game work.
//!
//! A board numbers its holes densely (the English board's 33 holes are bits 0 to 32), which
//! keeps positions small but gives every jump its own shape. Placing hole `(r, c)` at bit
//! `r * cols + c` instead, when the board's rectangle fits 64 bits (or at `r * a + c * b` for
//! small `a` and `b` that keep the holes apart within 64 bits, which the diamond and the
//! Wiegleb cross need), turns every jump direction into one constant shift: the jumps of a
//! position in one direction are then found for all holes at once with a few shifts and ands
//! (see [`Layout::for_each_jump`]), with no branch per candidate jump. Boards with no such
//! placement (every board past one word among them) keep the dense numbering and go jump by
//! jump.

use crate::bitset::Bits;
use crate::board::Board;
use crate::key::CountKey;

/// One jump direction of a grid layout: `from`, `from + shift`, `from + 2 * shift`.
#[derive(Clone, Copy, Debug)]
struct Direction {
    shift: i32,
    /// The bits from which a jump in this direction exists on the board.
    from: u64,
    /// The jump's three bits from bit 0 up (`0, |s|, 2|s|`), and how far to turn them for a
    /// jump from bit `at`: `at` for a positive shift, `at - 2|s|` (mod 64) for a negative one.
    line: u64,
    turn: u32,
}

/// The key holding just bit `b`.
#[inline]
fn bit_at<K: CountKey>(b: u32) -> K {
    let mut k = K::ZERO;
    *k.word_mut(b as usize / 64) |= 1 << (b % 64);
    k
}

/// The most directions a lattice has (the diagonal one: 8).
const MAX_DIRECTIONS: usize = 8;

/// A placement of a board's holes in a key, and the board's jumps in it.
#[derive(Clone, Debug)]
pub(crate) struct Layout<K> {
    /// Bit of each hole.
    place: Vec<u32>,
    /// The bits that hold holes.
    holes: K,
    /// Non-empty when every jump direction is one shift (the grid layout, one word only).
    directions: Vec<Direction>,
    /// Every jump as (the bits that must hold pegs, the landing bit), for the dense layout.
    jumps: Vec<(K, K)>,
    /// Indices into `jumps` grouped by landing bit and by starting bit (`by_to[to_start[b]..
    /// to_start[b + 1]]`), so that a dense position's jumps are found from whichever is
    /// fewer, its empty holes or its pegs, instead of testing every jump.
    to_start: Vec<usize>,
    by_to: Vec<usize>,
    from_start: Vec<usize>,
    by_from: Vec<usize>,
    /// For one-word keys: per byte of a key, the board's holes each value of the byte
    /// holds, so that [`Layout::bits`] takes a lookup a byte, not a step a hole.
    unplace: Vec<[u64; 256]>,
}

impl<K: CountKey> Layout<K> {
    /// The grid layout when the keys are one word, the board's rectangle fits 64 bits and
    /// each jump direction is a constant shift in it; the board's own numbering otherwise.
    pub(crate) fn of(board: &Board) -> Layout<K> {
        Layout::grid(board).unwrap_or_else(|| Layout::dense(board))
    }

    /// The board's own numbering, jump by jump.
    pub(crate) fn dense(board: &Board) -> Layout<K> {
        let n = board.hole_count() as u32;
        Layout::with(board, (0..n).collect(), Vec::new())
    }

    fn grid(board: &Board) -> Option<Layout<K>> {
        if K::WORDS > 1 {
            return None;
        }
        let place = grid_places(board)?;
        let mut directions: Vec<Direction> = Vec::new();
        for j in board.jumps() {
            let (f, o, t) = (
                place[j.from().index()] as i32,
                place[j.over().index()] as i32,
                place[j.to().index()] as i32,
            );
            let shift = o - f;
            if t - o != shift {
                return None;
            }
            match directions.iter_mut().find(|d| d.shift == shift) {
                Some(d) => d.from |= 1 << f,
                None => directions.push(Direction {
                    shift,
                    from: 1 << f,
                    line: 1 | 1 << shift.unsigned_abs() | 1 << (2 * shift.unsigned_abs()),
                    turn: if shift > 0 {
                        0
                    } else {
                        (64 - 2 * shift.unsigned_abs()) & 63
                    },
                }),
            }
        }
        if directions.len() > MAX_DIRECTIONS {
            return None;
        }
        // `from` holds only bits where the board has that jump, so rows wrapping into each
        // other under a shift never admit a jump the board lacks.
        Some(Layout::with(board, place, directions))
    }

    fn with(board: &Board, place: Vec<u32>, directions: Vec<Direction>) -> Layout<K> {
        let bit = |h: crate::bitset::Hole| bit_at::<K>(place[h.index()]);
        let holes = place.iter().fold(K::ZERO, |m, &b| m.or(bit_at(b)));
        let jumps = board
            .jumps()
            .iter()
            .map(|j| (bit(j.from()).or(bit(j.over())), bit(j.to())))
            .collect();
        let (mut to_start, mut by_to, mut from_start, mut by_from) =
            (vec![0], Vec::new(), vec![0], Vec::new());
        // Only the dense layout goes by these lists.
        let lists = if directions.is_empty() {
            0..64 * K::WORDS as u32
        } else {
            0..0
        };
        for b in lists {
            for (i, j) in board.jumps().iter().enumerate() {
                if place[j.to().index()] == b {
                    by_to.push(i);
                }
                if place[j.from().index()] == b {
                    by_from.push(i);
                }
            }
            to_start.push(by_to.len());
            from_start.push(by_from.len());
        }
        let unplace = if K::WORDS == 1 {
            // The hole at each bit of a key (none where no hole is placed).
            let bytes = place.iter().map(|&b| b as usize / 8 + 1).max().unwrap_or(0);
            let mut hole_at = vec![0u64; bytes * 8];
            for (h, &b) in place.iter().enumerate() {
                hole_at[b as usize] = 1 << h;
            }
            (0..bytes)
                .map(|k| {
                    // A byte's holes are those of the byte less its lowest bit, and that bit's.
                    let mut table = [0u64; 256];
                    for v in 1..256usize {
                        table[v] =
                            table[v & (v - 1)] | hole_at[k * 8 + v.trailing_zeros() as usize];
                    }
                    table
                })
                .collect()
        } else {
            Vec::new()
        };
        Layout {
            place,
            holes,
            directions,
            jumps,
            to_start,
            by_to,
            from_start,
            by_from,
            unplace,
        }
    }

    /// The bit of each hole.
    pub(crate) fn place(&self) -> &[u32] {
        &self.place
    }

    /// The bits that hold holes.
    pub(crate) const fn holes(&self) -> K {
        self.holes
    }

    /// Whether jumps go by shifts (the grid layout).
    pub(crate) fn is_grid(&self) -> bool {
        !self.directions.is_empty()
    }

    /// A position in this layout.
    pub(crate) fn key(&self, set: Bits<K>) -> K {
        // Bit by bit with shifts and no branch: the winners of a whole game go through here
        // (on one word, `word` ignores its index and this is the plain shift loop).
        let mut out = K::ZERO;
        for (h, &b) in self.place.iter().enumerate() {
            let bit = set.0.word(h / 64) >> (h % 64) & 1;
            *out.word_mut(b as usize / 64) |= bit << (b % 64);
        }
        out
    }

    /// A position of this layout as the board's holes.
    pub(crate) fn bits(&self, key: K) -> Bits<K> {
        if !self.unplace.is_empty() {
            let x = key.word(0);
            let mut out = 0u64;
            for (k, table) in self.unplace.iter().enumerate() {
                out |= table[(x >> (8 * k) & 255) as usize];
            }
            return Bits(K::from_low(out));
        }
        let mut out = K::ZERO;
        for (h, &b) in self.place.iter().enumerate() {
            let bit = key.word(b as usize / 64) >> (b % 64) & 1;
            *out.word_mut(h / 64) |= bit << (h % 64);
        }
        Bits(out)
    }

    /// Number of jump slots: [`Layout::for_each_jump`] passes indices below this.
    pub(crate) fn slots(&self) -> usize {
        if self.is_grid() {
            self.directions.len() * 64
        } else {
            self.jumps.len()
        }
    }

    /// The holes (all three) of jump slot `i`.
    pub(crate) fn slot_holes(&self, i: usize) -> K {
        let (needs, to) = self.slot(i);
        needs.or(to)
    }

    /// The landing hole of jump slot `i` (empty where the slot holds no jump).
    pub(crate) fn slot_landing(&self, i: usize) -> K {
        self.slot(i).1
    }

    /// Jump slot `i` as (the holes that must hold pegs, the landing hole); both empty where
    /// the slot holds no jump.
    fn slot(&self, i: usize) -> (K, K) {
        if self.is_grid() {
            let d = self.directions[i / 64];
            let f = (i % 64) as i32;
            if d.from >> f & 1 == 0 {
                return (K::ZERO, K::ZERO);
            }
            (
                K::from_low((1u64 << f) | 1 << (f + d.shift)),
                K::from_low(1 << (f + 2 * d.shift)),
            )
        } else {
            self.jumps[i]
        }
    }

    /// Calls `f(holes, slot)` for every jump legal in `pegs`: the jump's three holes, and
    /// its slot (an index below [`Layout::slots`], for per-jump tables).
    ///
    /// In the grid layout, the jumps in direction `s` start where a peg has a peg `s` further
    /// and an empty hole `2s` further: `from & pegs & pegs >> s & empty >> 2s` (as
    /// rotations, which serve negative `s` too), one word operation for all holes at once.
    #[inline]
    pub(crate) fn for_each_jump(&self, pegs: K, mut f: impl FnMut(K, usize)) {
        let empty = self.holes.and_not(pegs);
        if self.is_grid() {
            // Only one-word keys are laid out on a grid.
            let (pegs, empty) = (pegs.word(0), empty.word(0));
            // Every direction's starts first, then one loop over all of them: the loop ends
            // once per position, not once per direction, and its body has no branch that
            // depends on the position. Rotations serve both signs of a shift: the bits that
            // wrap around are outside `from`.
            let mut starts = [0u64; MAX_DIRECTIONS];
            let mut live = 0u32;
            for (d, dir) in self.directions.iter().enumerate() {
                let s = dir.shift as u32;
                starts[d] = dir.from
                    & pegs
                    & pegs.rotate_right(s & 63)
                    & empty.rotate_right(s.wrapping_mul(2) & 63);
                live |= u32::from(starts[d] != 0) << d;
            }
            while live != 0 {
                let d = live.trailing_zeros() as usize;
                let at = starts[d].trailing_zeros();
                starts[d] &= starts[d] - 1;
                live &= !(u32::from(starts[d] == 0) << d);
                let dir = &self.directions[d];
                f(
                    K::from_low(dir.line.rotate_left(at.wrapping_add(dir.turn) & 63)),
                    d * 64 + at as usize,
                );
            }
        } else {
            // From whichever is fewer, the empty holes (by landing hole) or the pegs (by
            // starting hole); the full test holds for either list.
            let (mut set, start, list) = if empty.count_ones() <= pegs.count_ones() {
                (empty, &self.to_start, &self.by_to)
            } else {
                (pegs, &self.from_start, &self.by_from)
            };
            while let Some(b) = set.pop_lowest() {
                for &i in &list[start[b]..start[b + 1]] {
                    let (needs, to) = self.jumps[i];
                    if pegs.and(needs) == needs && !empty.and(to).is_zero() {
                        f(needs.or(to), i);
                    }
                }
            }
        }
    }

    /// Calls `f(holes, slot)` for every jump that can be undone in `pegs`: its landing hole
    /// holds a peg and the other two are empty, so `pegs ^ holes` is a parent of `pegs`.
    #[inline]
    pub(crate) fn for_each_undo(&self, pegs: K, f: impl FnMut(K, usize)) {
        // Undoing a jump is a jump on the complement.
        self.for_each_jump(self.holes.and_not(pegs), f);
    }
}

/// The bit of each hole in a grid layout: hole `(r, c)` at `r * cols + c` where the board's
/// rectangle fits 64 bits; else at `r * a + c * b` (less the least such bit) for the small
/// `a` and `b` that keep the holes apart in the fewest bits, if those are at most 64. Any
/// such linear placement makes each jump direction `(dr, dc)` the one shift `dr * a + dc *
/// b`: the 41-hole diamond, in a 9 by 9 box, fits 41 bits exactly at `5r + 4c`, and the
/// 45-hole Wiegleb cross 59 bits at `6r + 5c`.
fn grid_places(board: &Board) -> Option<Vec<u32>> {
    let cells: Vec<(usize, usize)> = (0..board.hole_count())
        .filter_map(crate::bitset::Hole::new)
        .map(|h| board.coords(h))
        .collect();
    let (rows, cols) = board.dimensions();
    // `least`: the bit of the box's corner, `(0, 0)`, where the rectangle fits (so that the
    // layouts of those boards stay as they were), else the least hole's.
    let at = |a: usize, b: usize, corner: bool| -> Option<Vec<u32>> {
        let bits: Vec<usize> = cells.iter().map(|&(r, c)| r * a + c * b).collect();
        let least = if corner {
            0
        } else {
            bits.iter().copied().min().unwrap_or(0)
        };
        let mut seen = 0u64;
        for &x in &bits {
            let x = x - least;
            if x >= 64 || seen >> x & 1 == 1 {
                return None;
            }
            seen |= 1 << x;
        }
        Some(bits.into_iter().map(|x| (x - least) as u32).collect())
    };
    if rows * cols <= 64 {
        return at(cols, 1, true);
    }
    // The fewest bits first; a shift of 32 or more would not fit a jump's three bits.
    (1..32usize)
        .flat_map(|a| (1..32usize).map(move |b| (a, b)))
        .filter_map(|(a, b)| at(a, b, false))
        .min_by_key(|p| p.iter().copied().max().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_and_dense_layouts_find_the_same_jumps() {
        for name in [
            "english",
            "french",
            "triangle8",
            "rect:4x5",
            "english-diagonal",
            "diamond",
            "wiegleb",
        ] {
            let b = Board::builtin(name).unwrap();
            let layout = Layout::<u64>::of(&b);
            assert!(layout.is_grid(), "{name}");
            let dense = Layout::<u64>::dense(&b);
            let mut next = crate::testing::xorshift();
            for _ in 0..300 {
                let pegs = Bits(next() & b.holes().raw());
                assert_eq!(layout.bits(layout.key(pegs)), pegs);
                assert_eq!(dense.bits(dense.key(pegs)), pegs);
                let mut a = Vec::new();
                layout.for_each_jump(layout.key(pegs), |h, i| {
                    assert_eq!(layout.slot_holes(i), h);
                    let to = layout.slot_landing(i);
                    assert_eq!((to.count_ones(), to & layout.key(pegs)), (1, 0));
                    assert_eq!(to & h, to);
                    a.push(layout.bits(h).raw());
                });
                let mut d: Vec<u64> = b
                    .jumps()
                    .iter()
                    .filter(|j| j.is_legal(pegs))
                    .map(|j| j.holes().raw())
                    .collect();
                let mut u = Vec::new();
                layout.for_each_undo(layout.key(pegs), |h, _| u.push(layout.bits(h).raw()));
                let mut du: Vec<u64> = b
                    .jumps()
                    .iter()
                    .filter(|j| j.is_legal(Bits(b.holes().raw() & !pegs.raw())))
                    .map(|j| j.holes().raw())
                    .collect();
                let mut dd = Vec::new();
                dense.for_each_jump(pegs.raw(), |h, _| dd.push(h));
                for v in [&mut a, &mut d, &mut dd, &mut u, &mut du] {
                    v.sort_unstable();
                }
                assert_eq!(a, d, "{name}");
                assert_eq!(dd, d, "{name}");
                assert_eq!(u, du, "{name}");
            }
        }
    }
}
