//! The backward search for the smallest army: from the man on the target, undo jumps (one man
//! becomes two) until every man stands on or below the line, by iterative deepening on the
//! number of men, inside a window of the infinite board.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::time::Instant;

use super::geometry::{across, distance, mirror, pagoda_bound, steps, Cell, SIGMA};
use crate::Lattice;

/// A set of window cells as a bitset: `u128` for windows of up to 128 cells (the orthogonal
/// army), [`Cells256`] up to 256; the search is compiled for each.
pub(super) trait CellSet: Copy + Eq + Hash + Ord + Default {
    /// The most cells a set can hold.
    const CAPACITY: usize;
    fn single(i: usize) -> Self;
    fn has(self, i: usize) -> bool;
    fn flip(self, i: usize) -> Self;
    fn and(self, other: Self) -> Self;
    fn not(self) -> Self;
    fn count(self) -> u32;
    fn lowest(self) -> Option<usize>;
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
pub(super) struct Cells256([u64; 4]);

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

/// The part of the infinite board the search may use: rows from the target's down to
/// `-below`, and cells at most `half_width` columns (half cells: `2 * half_width` across)
/// either side of the target's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Columns either side of the target.
    pub half_width: i32,
    /// Rows below the line the window reaches down to (`0`: the line only).
    pub below: i32,
}

impl Window {
    /// The window used when none is given: the one the orthogonal army has always used
    /// (columns -5..5, eleven rows) for rows 1 to 4, and for the other lattices the widest
    /// that fits 256 cells with rows to 4 below the line (to 3 on the triangular lattice).
    #[must_use]
    pub fn default_for(lattice: Lattice, row: u32) -> Window {
        let row = row as i32;
        match lattice {
            Lattice::Orthogonal => Window {
                half_width: 5,
                below: (10 - row).max(4),
            },
            Lattice::Diagonal | Lattice::Triangular => {
                let below = if lattice == Lattice::Diagonal { 4 } else { 3 };
                let height = row + 1 + below;
                let half_width = ((256 / height - 1) / 2).min(row + 4);
                Window { half_width, below }
            }
        }
    }

    /// The window's cells, top row first, each row left to right.
    pub(super) fn cells(self, lattice: Lattice, row: i32) -> Vec<Cell> {
        let mut cells = Vec::new();
        // Wide enough for the triangular lattice's slanted columns.
        let reach = self.half_width + row + self.below + 1;
        for y in (-self.below..=row).rev() {
            for x in -reach..=reach {
                if across(lattice, (x, y), row).abs() <= 2 * self.half_width {
                    cells.push((x, y));
                }
            }
        }
        cells
    }
}

/// The window's geometry, with everything the search looks up per cell.
pub(super) struct Layout<S> {
    pub(super) cells: Vec<Cell>,
    index: HashMap<Cell, usize>,
    weights: Vec<f64>,
    /// The cells above the line.
    above: S,
    /// Per row above the line, its cells and the men a lone man there needs by the pagoda
    /// bound centred on him (1 on or below the line): lineages of different men never help
    /// each other (men only block), so these add up.
    need: Vec<(S, u32)>,
    mirror: Vec<usize>,
    /// Undo moves per cell `c`: `(a, b)`, the jump `a` over `b` into `c`.
    undos: Vec<Vec<(usize, usize)>>,
    lattice: Lattice,
    row: i32,
}

impl<S: CellSet> Layout<S> {
    pub(super) fn new(lattice: Lattice, row: i32, window: Window) -> Option<Layout<S>> {
        let cells = window.cells(lattice, row);
        if cells.len() > S::CAPACITY || !cells.contains(&(0, row)) {
            return None;
        }
        let index: HashMap<Cell, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let mut l = Layout {
            weights: Vec::with_capacity(cells.len()),
            above: S::default(),
            need: Vec::new(),
            mirror: Vec::with_capacity(cells.len()),
            undos: Vec::with_capacity(cells.len()),
            lattice,
            row,
            index: HashMap::new(),
            cells: Vec::new(),
        };
        for (i, &(x, y)) in cells.iter().enumerate() {
            l.weights.push(SIGMA.powi(distance(lattice, x, y - row)));
            if y > 0 {
                l.above = l.above.flip(i);
            }
            l.mirror.push(index[&mirror(lattice, (x, y), row)]);
            let mut undo = Vec::new();
            for &(dx, dy) in steps(lattice) {
                if let (Some(&a), Some(&b)) = (
                    index.get(&(x - 2 * dx, y - 2 * dy)),
                    index.get(&(x - dx, y - dy)),
                ) {
                    undo.push((a, b));
                }
            }
            l.undos.push(undo);
        }
        for y in 1..=row {
            let mut mask = S::default();
            for (i, c) in cells.iter().enumerate() {
                if c.1 == y {
                    mask = mask.flip(i);
                }
            }
            let need = pagoda_bound(lattice, y).unwrap_or(u32::MAX / 1024);
            l.need.push((mask, need));
        }
        l.index = index;
        l.cells = cells;
        Some(l)
    }

    pub(super) fn index(&self, cell: Cell) -> Option<usize> {
        self.index.get(&cell).copied()
    }

    fn mirror(&self, pegs: S) -> S {
        let mut out = S::default();
        let mut p = pegs;
        while let Some(i) = p.lowest() {
            p = p.flip(i);
            out = out.flip(self.mirror[i]);
        }
        out
    }

    /// The men `pegs` need by their lineages: one each on or below the line (`men` less
    /// `up` of them), the single-man bound of his row for each above.
    #[inline]
    fn lineage_bound(&self, pegs: S, men: u32, up: u32) -> u32 {
        self.need.iter().fold(men - up, |sum, &(mask, need)| {
            sum.saturating_add(pegs.and(mask).count().saturating_mul(need))
        })
    }
}

/// The hash of the table of failed positions: the words of a position mixed by the one
/// multiplier the project's tables use ([`crate::table::SPREAD`]); the keys are positions, not
/// input from anyone who could choose them to collide.
#[derive(Default)]
struct Spread(u64);

impl Hasher for Spread {
    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 29
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u64(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(23) ^ w).wrapping_mul(crate::table::SPREAD);
    }
    #[inline]
    fn write_u128(&mut self, w: u128) {
        self.write_u64(w as u64);
        self.write_u64((w >> 64) as u64);
    }
}

/// How a search ended.
pub(super) enum Ending {
    /// An army of this many men: the undos made, as `(c, a, b)`.
    Found(Vec<(usize, usize, usize)>),
    /// The budget ran out; armies of fewer than this many men are ruled out.
    Budget(u32),
}

/// The search's state between calls.
pub(super) struct Search<'l, S> {
    l: &'l Layout<S>,
    /// Prefix sums of the largest weights on or below the line of the infinite board.
    best: Vec<f64>,
    /// Failed positions (up to the mirror) with the most men they were allowed.
    failed: HashMap<S, u32, BuildHasherDefault<Spread>>,
    max_entries: usize,
    pub(super) nodes: u64,
    path: Vec<(usize, usize, usize)>,
    deadline: Option<Instant>,
    out_of_time: bool,
}

impl<'l, S: CellSet> Search<'l, S> {
    pub(super) fn new(l: &'l Layout<S>, deadline: Option<Instant>, max_memory: usize) -> Self {
        // A table entry: the key, the limit, and the hash table's own overhead.
        let entry = std::mem::size_of::<S>() + 24;
        let mut best = vec![0.0];
        let (a, b) = super::geometry::ring(l.lattice);
        let mut sum = 0.0;
        'rings: for j in 0..200i64 {
            for _ in 0..a * j + b * i64::from(l.row) + 1 {
                sum += SIGMA.powi(l.row + j as i32);
                best.push(sum);
                if best.len() > 20_000 {
                    break 'rings;
                }
            }
        }
        Search {
            l,
            best,
            failed: HashMap::default(),
            max_entries: (max_memory / entry).max(1 << 16),
            nodes: 0,
            path: Vec::new(),
            deadline,
            out_of_time: false,
        }
    }

    /// The fewest men below the line whose weights can total `total`.
    fn men_needed(&self, total: f64) -> u32 {
        // The sums rise, so a binary search: a total past them all (men high above the
        // line) would otherwise cost a scan of every entry.
        match self.best.partition_point(|&s| s < total - 1e-9) {
            k if k == self.best.len() => u32::MAX,
            k => k as u32,
        }
    }

    /// Iterative deepening from `from` men up: the first army found is the smallest.
    pub(super) fn run(&mut self, from: u32, progress: &dyn Fn(u32, u64)) -> Ending {
        let target = self
            .l
            .index((0, self.l.row))
            .expect("the target is in the window");
        let mut limit = from;
        loop {
            progress(limit, self.nodes);
            if self.go(S::single(target), 1, 1.0, limit) {
                return Ending::Found(std::mem::take(&mut self.path));
            }
            if self.out_of_time {
                return Ending::Budget(limit);
            }
            limit += 1;
        }
    }

    /// Whether the men in `pegs` (`men` of them, pagoda total `total`) can be brought on or
    /// below the line with at most `limit` men in all.
    fn go(&mut self, pegs: S, men: u32, total: f64, limit: u32) -> bool {
        let up = pegs.and(self.l.above);
        if up == S::default() {
            return true;
        }
        let up_men = up.count();
        if men + up_men > limit
            || self.men_needed(total) > limit
            || self.l.lineage_bound(pegs, men, up_men) > limit
        {
            return false;
        }
        self.nodes += 1;
        if self.nodes & 0xffff == 0 && self.deadline.is_some_and(|d| Instant::now() > d) {
            self.out_of_time = true;
        }
        if self.out_of_time {
            return false;
        }
        let key = pegs.min(self.l.mirror(pegs));
        if self.failed.get(&key).is_some_and(|&l| l >= limit) {
            return false;
        }
        // Undo men above the line first, highest first (cells are numbered from the top):
        // they are what remains to be done.
        for part in [up, pegs.and(self.l.above.not())] {
            let mut p = part;
            while let Some(c) = p.lowest() {
                p = p.flip(c);
                for &(a, b) in &self.l.undos[c] {
                    if !pegs.has(a) && !pegs.has(b) {
                        let next = pegs.flip(c).flip(a).flip(b);
                        let w = &self.l.weights;
                        let t = total - w[c] + w[a] + w[b];
                        self.path.push((c, a, b));
                        if self.go(next, men + 1, t, limit) {
                            return true;
                        }
                        self.path.pop();
                    }
                }
            }
        }
        if !self.out_of_time {
            if self.failed.len() >= self.max_entries {
                // The table is a cache: dropping it costs time, never an answer.
                self.failed.clear();
            }
            self.failed.insert(key, limit);
        }
        false
    }
}
