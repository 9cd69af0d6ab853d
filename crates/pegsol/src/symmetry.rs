//! The symmetry group of a board, found from its shape, and canonical forms under it.
//!
//! A symmetry is a linear map of the lattice (one that permutes its jump directions) which maps
//! the holes onto themselves up to a translation. It maps jumps to jumps, so a position and its
//! image are equally solvable, provided the finish is mapped onto itself too: a finish hole
//! breaks the symmetry, and the search uses only the finish's stabilizer.
//!
//! Applying a symmetry to a 64-bit position goes byte by byte through lookup tables (eight
//! lookups at most), so canonical forms cost a few nanoseconds per group element.

use crate::bitset::{Bits, Hole, Word, MAX_HOLES};
use crate::lattice::Lattice;

/// The symmetries of a board, the identity first.
#[derive(Clone, Debug, Default)]
pub struct Symmetries {
    matrices: Vec<[i32; 4]>,
    perms: Vec<Vec<Hole>>,
    bytes: usize,
    tables: Vec<Bits>,
}

impl Symmetries {
    /// Finds the group of the board whose holes are at `coords` (sorted row-major, as a
    /// board numbers them) among `lattice`'s point group.
    #[must_use]
    pub fn of(lattice: Lattice, coords: &[(usize, usize)]) -> Symmetries {
        let n = coords.len();
        let holes: Vec<(i64, i64)> = coords.iter().map(|&(r, c)| (r as i64, c as i64)).collect();
        let hole_at = |r: i64, c: i64| -> Option<Hole> {
            let at = (usize::try_from(r).ok()?, usize::try_from(c).ok()?);
            coords.binary_search(&at).ok().and_then(Hole::new)
        };
        let mut matrices = Vec::new();
        let mut perms = Vec::new();
        let mut group = lattice.point_group();
        // Identity first, so that element 0 is always the identity.
        group.sort_by_key(|m| *m != [1, 0, 0, 1]);
        for m in group {
            let image: Vec<(i64, i64)> = holes
                .iter()
                .map(|&(r, c)| {
                    (
                        m[0] as i64 * r + m[1] as i64 * c,
                        m[2] as i64 * r + m[3] as i64 * c,
                    )
                })
                .collect();
            let r0 = image.iter().map(|p| p.0).min().unwrap_or(0);
            let c0 = image.iter().map(|p| p.1).min().unwrap_or(0);
            let perm: Option<Vec<Hole>> = image
                .iter()
                .map(|&(r, c)| hole_at(r - r0, c - c0))
                .collect();
            if let Some(perm) = perm {
                matrices.push(m);
                perms.push(perm);
            }
        }
        // Byte tables for one-word positions only; a wider one goes hole by hole.
        let bytes = n.div_ceil(8);
        let identity: Vec<u32> = (0..n as u32).collect();
        let tables = if n <= MAX_HOLES {
            perms
                .iter()
                .flat_map(|perm| byte_tables::<u64>(perm, &identity))
                .collect()
        } else {
            Vec::new()
        };
        Symmetries {
            matrices,
            perms,
            bytes,
            tables,
        }
    }

    /// The order of the group.
    #[must_use]
    pub fn len(&self) -> usize {
        self.perms.len()
    }

    /// Whether the group is empty (never, for a built board: it holds the identity).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.perms.is_empty()
    }

    /// Element `g` as a lattice matrix `[a, b, c, d]`: `(r, c) -> (a r + b c, c r + d c)`.
    #[must_use]
    pub fn matrix(&self, g: usize) -> [i32; 4] {
        self.matrices[g]
    }

    /// Where element `g` sends `hole`.
    #[must_use]
    pub fn map_hole(&self, g: usize, hole: Hole) -> Hole {
        self.perms[g][hole.index()]
    }

    /// The image of a set of any width under element `g`: a symmetry maps holes to holes, so
    /// the image has as many.
    #[must_use]
    #[inline]
    pub fn apply<W: Word>(&self, g: usize, set: Bits<W>) -> Bits<W> {
        if W::WORDS == 1 && !self.tables.is_empty() {
            let mut out = W::ZERO;
            *out.word_mut(0) = image(&self.tables, self.bytes, g, Bits(set.0.word(0))).raw();
            return Bits(out);
        }
        set.iter()
            .fold(Bits::EMPTY, |out, h| out.with(self.perms[g][h.index()]))
    }

    /// The elements that map the collection `targets` onto itself (as a set of sets).
    #[must_use]
    pub fn stabilizer<W: Word>(&self, targets: &[Bits<W>]) -> Vec<usize> {
        (0..self.len())
            .filter(|&g| targets.iter().all(|&t| targets.contains(&self.apply(g, t))))
            .collect()
    }

    /// A canonicaliser of positions of `W` words (which must hold the board) for the
    /// subgroup `elements` (which must be closed under composition, as a stabilizer is).
    #[must_use]
    pub fn canonicalizer<W: Word>(&self, elements: &[usize]) -> Canonicalizer<W> {
        let n = self.perms.first().map_or(0, Vec::len);
        assert!(
            n <= Bits::<W>::CAPACITY,
            "a canonicalizer too narrow for the board"
        );
        let identity: Vec<u32> = (0..n as u32).collect();
        Canonicalizer::build(&self.perms, elements, &identity)
    }

    /// [`Symmetries::canonicalizer`] for positions whose hole `h` is kept at bit `place[h]`
    /// (distinct bits below the width's capacity), as a layout where every jump direction is
    /// one shift keeps them. Bits that hold no hole map to nothing.
    #[must_use]
    pub(crate) fn canonicalizer_placed<W: Word>(
        &self,
        elements: &[usize],
        place: &[u32],
    ) -> Canonicalizer<W> {
        assert!(
            place.iter().all(|&b| (b as usize) < Bits::<W>::CAPACITY),
            "a canonicalizer too narrow for its layout"
        );
        Canonicalizer::build(&self.perms, elements, place)
    }
}

/// Lanes of the wide tables: groups of order up to 8 (every square-lattice board).
pub(crate) const WIDE: usize = 8;

/// Canonical forms under a subgroup, for positions of `W` words: the least image of a
/// position. Applying a symmetry goes byte by byte through lookup tables (a lookup per byte
/// of the position); one-word positions of a group of order up to 8 take one lookup per byte
/// for the whole group.
#[derive(Clone, Debug)]
pub struct Canonicalizer<W: Word = u64> {
    bytes: usize,
    count: usize,
    tables: Vec<Bits<W>>,
    wide: Vec<[u64; WIDE]>,
}

impl<W: Word> Canonicalizer<W> {
    fn build(perms: &[Vec<Hole>], elements: &[usize], place: &[u32]) -> Canonicalizer<W> {
        let bytes = bytes_of(place);
        let tables: Vec<Bits<W>> = elements
            .iter()
            .filter(|&&g| g != 0)
            .flat_map(|&g| byte_tables::<W>(&perms[g], place))
            .collect();
        let count = tables.len() / (bytes * 256).max(1);
        // The wide form of one-word tables: per byte value, its images under every element
        // side by side, so one lookup per byte serves the whole group (the identity pads
        // unused lanes).
        let mut wide = Vec::new();
        if W::WORDS == 1 && count < WIDE {
            wide = vec![[0u64; WIDE]; bytes * 256];
            for k in 0..bytes {
                for v in 0..256usize {
                    let lanes = &mut wide[k * 256 + v];
                    lanes.fill((v as u64) << (8 * k));
                    for g in 0..count {
                        lanes[g] = tables[(g * bytes + k) * 256 + v].0.word(0);
                    }
                }
            }
        }
        Canonicalizer {
            bytes,
            count,
            tables,
            wide,
        }
    }

    /// The order of the subgroup (counting the identity).
    #[must_use]
    pub fn order(&self) -> usize {
        self.count + 1
    }

    /// The least image of `set` under the subgroup; equal for all positions of one orbit.
    #[must_use]
    #[inline]
    pub fn canonical(&self, set: Bits<W>) -> Bits<W> {
        self.canonical_and_orbit(set).0
    }

    /// The size of an orbit whose positions are each fixed by `fixed` elements of the group.
    #[inline]
    fn orbit_size(&self, fixed: u32) -> u32 {
        // Almost every position is fixed by the identity alone: no division for those (a
        // count asks this once per class, and a division was 1% of its time).
        if fixed == 1 {
            self.order() as u32
        } else {
            self.order() as u32 / fixed
        }
    }

    /// The least image of `set` and the size of its orbit under the subgroup.
    #[must_use]
    #[inline]
    pub fn canonical_and_orbit(&self, set: Bits<W>) -> (Bits<W>, u32) {
        if self.count == 0 {
            return (set, 1);
        }
        if W::WORDS == 1 && !self.wide.is_empty() {
            let x = set.0.word(0);
            let lanes = self.lanes(x);
            let best = lanes[..self.count].iter().fold(x, |m, &y| m.min(y));
            let fixed = 1 + lanes[..self.count].iter().filter(|&&y| y == x).count() as u32;
            let mut out = W::ZERO;
            *out.word_mut(0) = best;
            return (Bits(out), self.orbit_size(fixed));
        }
        let (mut best, mut fixed) = (set, 1u32);
        for g in 0..self.count {
            let y = image(&self.tables, self.bytes, g, set);
            best = best.min(y);
            fixed += u32::from(y == set);
        }
        (best, self.orbit_size(fixed))
    }

    /// The images of the one-word `x` under every element but the identity, side by side
    /// (unused lanes hold `x` itself), from the wide tables.
    #[inline]
    fn lanes(&self, x: u64) -> [u64; WIDE] {
        // One lookup per byte gives that byte's image under every element at once.
        let mut lanes = [0u64; WIDE];
        for k in 0..self.bytes {
            let row = &self.wide[k * 256 + (x >> (8 * k) & 255) as usize];
            for (a, r) in lanes.iter_mut().zip(row) {
                *a |= r;
            }
        }
        lanes
    }
}

impl<W: Word> Canonicalizer<W> {
    /// The images of `set` under every element but the identity, side by side (unused lanes
    /// hold `set` itself); `None` when the group is too large for the wide tables, or the
    /// positions are wider than one word.
    ///
    /// A symmetry permutes bits, so the images of `a ^ b` are those of `a` xor those of `b`:
    /// a child's images are its parent's xor its jump's, without any table lookup
    /// ([`Canonicalizer::least_of`]).
    #[must_use]
    #[inline]
    pub(crate) fn images(&self, set: Bits<W>) -> Option<[u64; WIDE]> {
        (!self.wide.is_empty()).then(|| self.lanes(set.0.word(0)))
    }

    /// The image of `set` under the `g`-th element of the subgroup that is not the identity
    /// (in the order the elements were given).
    #[must_use]
    #[inline]
    pub(crate) fn image_under(&self, g: usize, set: Bits<W>) -> Bits<W> {
        image(&self.tables, self.bytes, g, set)
    }

    /// The canonical form of `a ^ b` from the [`images`](Self::images) of `a` and of `b`.
    #[must_use]
    #[inline]
    pub(crate) fn least_of(a: &[u64; WIDE], b: &[u64; WIDE]) -> u64 {
        // The wide tables exist only for groups with fewer than `WIDE` elements besides the
        // identity, so the last lane always holds the identity image: `a ^ b` itself. A tree
        // of minima keeps the chain of dependent compares short.
        const { assert!(WIDE == 8) };
        let l: [u64; WIDE] = std::array::from_fn(|i| a[i] ^ b[i]);
        (l[0].min(l[1]).min(l[2].min(l[3]))).min(l[4].min(l[5]).min(l[6].min(l[7])))
    }

    /// The size of the orbit of `set`, from its [`images`](Self::images).
    #[must_use]
    #[inline]
    pub(crate) fn orbit_of(&self, images: &[u64; WIDE], set: Bits<W>) -> u32 {
        let fixed = 1 + images[..self.count]
            .iter()
            .filter(|&&y| y == set.0.word(0))
            .count() as u32;
        self.orbit_size(fixed)
    }
}

/// Bytes of a position whose hole `h` is kept at bit `place[h]`.
fn bytes_of(place: &[u32]) -> usize {
    place
        .iter()
        .map(|&b| b as usize + 1)
        .max()
        .unwrap_or(0)
        .div_ceil(8)
}

/// The byte tables of one symmetry, `perm`, for positions whose hole `h` is kept at bit
/// `place[h]`: entry `[byte][value]` is the image of `value << (8 * byte)`. Bits that hold no
/// hole map to nothing.
fn byte_tables<W: Word>(perm: &[Hole], place: &[u32]) -> Vec<Bits<W>> {
    let bytes = bytes_of(place);
    // Which hole sits at each bit.
    let mut hole_at = vec![None; bytes * 8];
    for (h, &b) in place.iter().enumerate() {
        hole_at[b as usize] = Some(h);
    }
    let mut tables = Vec::with_capacity(bytes * 256);
    for k in 0..bytes {
        for v in 0..256usize {
            let mut out = Bits::EMPTY;
            for bit in 0..8 {
                if let Some(h) = hole_at[k * 8 + bit].filter(|_| v >> bit & 1 == 1) {
                    out = out.with(Hole::at(place[perm[h].index()] as usize));
                }
            }
            tables.push(out);
        }
    }
    tables
}

/// The image of `x` under element `g` of byte tables laid out `[element][byte][value]`.
#[inline]
fn image<W: Word>(tables: &[Bits<W>], bytes: usize, g: usize, x: Bits<W>) -> Bits<W> {
    let t = &tables[g * bytes * 256..(g + 1) * bytes * 256];
    (0..bytes).fold(Bits::EMPTY, |out, k| {
        let byte = x.0.word(k / 8) >> (8 * (k % 8)) & 255;
        out.union(t[k * 256 + byte as usize])
    })
}

#[cfg(test)]
mod tests {
    use crate::Board;

    #[test]
    fn group_orders() {
        for (name, order) in [
            ("english", 8),
            ("french", 8),
            ("wiegleb", 8),
            ("diamond", 8),
            ("rect:3x4", 4),
            ("rect:4x4", 8),
            ("triangle:5", 6),
            ("english-diagonal", 8),
        ] {
            let b = Board::builtin(name).unwrap();
            assert_eq!(b.symmetries().len(), order, "{name}");
        }
    }

    #[test]
    fn symmetries_map_jumps_to_jumps() {
        for name in ["english", "triangle:6", "rect:3x5", "french-diagonal"] {
            let b = Board::builtin(name).unwrap();
            let s = b.symmetries();
            for g in 0..s.len() {
                for j in b.jumps() {
                    let image: crate::Bits = s.apply(g, j.holes());
                    let over = s.map_hole(g, j.over());
                    assert!(
                        b.jumps()
                            .iter()
                            .any(|k| k.holes() == image && k.over() == over),
                        "{name}: element {g}"
                    );
                }
            }
        }
    }

    #[test]
    fn stabilizer_of_an_arm_end() {
        let b = Board::builtin("english").unwrap();
        let s = b.symmetries();
        assert_eq!(s.stabilizer(&[b.hole("d4").unwrap().bit::<u64>()]).len(), 8);
        let d1 = s.stabilizer(&[b.hole("d1").unwrap().bit::<u64>()]);
        assert_eq!(d1.len(), 2);
        let c: crate::Canonicalizer = s.canonicalizer(&d1);
        let p = b.hole_set("c1,d2").unwrap();
        assert_eq!(c.canonical(p), c.canonical(b.hole_set("e1,d2").unwrap()));
        assert_ne!(c.canonical(p), c.canonical(b.hole_set("c7,d6").unwrap()));
    }

    /// The canonical forms and orbits of positions of two and four words are those of one
    /// word (the byte tables and the one-word lanes agree), on groups of 2, 8 and 12.
    #[test]
    fn every_width_canonicalizes_alike() {
        use crate::{Bits, Hole};
        for (name, finish) in [("english", "d1"), ("english", "d4"), ("hexagon:4", "d4")] {
            let b = crate::Board::builtin(name).unwrap();
            let s = b.symmetries();
            let group = s.stabilizer::<u64>(&[b.hole(finish).unwrap().bit()]);
            let one: crate::Canonicalizer = s.canonicalizer(&group);
            let two: crate::Canonicalizer<[u64; 2]> = s.canonicalizer(&group);
            let four: crate::Canonicalizer<[u64; 4]> = s.canonicalizer(&group);
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let p: Bits = b
                    .each_hole()
                    .filter(|h| x >> h.index() & 1 == 1)
                    .fold(Bits::EMPTY, |p, h: Hole| p.with(h));
                let (c, orbit) = one.canonical_and_orbit(p);
                assert_eq!(two.canonical_and_orbit(p.resize()), (c.resize(), orbit));
                assert_eq!(four.canonical_and_orbit(p.resize()), (c.resize(), orbit));
            }
        }
    }
}
