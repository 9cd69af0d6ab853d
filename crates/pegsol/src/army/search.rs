//! The backward search for the smallest army: from the man on the target, undo jumps (one man
//! becomes two) until every man stands on or below the line, by iterative deepening on the
//! number of men, inside a window of the infinite board.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::bound::WindowPagoda;
use super::geometry::{across, distance, mirror, pagoda_bound, steps, Cell, SIGMA};
use crate::stop::Stop;
use crate::Lattice;

/// A set of window cells as a bitset: `u128` for windows of up to 128 cells (the orthogonal
/// army), [`Cells256`] up to 256; the search is compiled for each.
pub(super) trait CellSet: Copy + Eq + Hash + Ord + Default + Send + Sync {
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
    /// Every jump of the window, `(a, b, c)`: `a` over `b` into `c`.
    jumps: Vec<(usize, usize, usize)>,
    /// Per cell, whether it is on or below the line.
    low: Vec<bool>,
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
            jumps: Vec::new(),
            low: cells.iter().map(|&(_, y)| y <= 0).collect(),
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
                    l.jumps.push((a, b, i));
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

    /// The best pagoda function of the window for `pegs` ([`WindowPagoda::fit`]).
    pub(super) fn fit(&self, pegs: S) -> Option<WindowPagoda> {
        let cells: Vec<usize> = pegs.members().collect();
        WindowPagoda::fit(&self.jumps, &self.low, &cells)
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
    /// Every army of up to this many men is ruled out (the search was told to stop there).
    NoneUpTo(u32),
}

type Failed<S> = HashMap<S, u32, BuildHasherDefault<Spread>>;

/// The table of failed positions (up to the mirror), each with the most men it was allowed,
/// shared by the threads in shards behind locks.
struct Table<S> {
    shards: Vec<Mutex<Failed<S>>>,
    max_per_shard: usize,
}

impl<S: CellSet> Table<S> {
    const SHARDS: usize = 64;

    fn new(max_memory: usize) -> Table<S> {
        // A bucket holds the key, the limit and a control byte; a shard's buckets come in
        // powers of two at most 7/8 full. Each shard may fill the largest power of two of
        // buckets that fits its share of the budget (a shard that grows holds its old
        // buckets beside the new ones for a moment: one shard's share, not the budget's).
        let bucket = std::mem::size_of::<(S, u32)>() + 1;
        let share = max_memory / Self::SHARDS / bucket;
        let buckets = if share == 0 { 1 } else { 1 << share.ilog2() };
        Table {
            shards: (0..Self::SHARDS).map(|_| Mutex::default()).collect(),
            max_per_shard: (buckets / 8 * 7).max(1024),
        }
    }

    fn shard(&self, key: &S) -> std::sync::MutexGuard<'_, Failed<S>> {
        let mut h = Spread::default();
        key.hash(&mut h);
        let i = (h.finish() >> 58) as usize % Self::SHARDS;
        // A worker that panicked left no half-written entry: the map is still sound.
        self.shards[i]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn failed(&self, key: &S, limit: u32) -> bool {
        self.shard(key).get(key).is_some_and(|&l| l >= limit)
    }

    fn record(&self, key: S, limit: u32) {
        let mut shard = self.shard(&key);
        if shard.len() >= self.max_per_shard {
            // The table is a cache: dropping a shard costs time, never an answer.
            shard.clear();
        }
        shard.insert(key, limit);
    }
}

/// A position of the search: its men, how many, their pagoda total, and the undos that led
/// to it from the target.
struct Node<S> {
    pegs: S,
    men: u32,
    total: f64,
    /// The window's pagoda function handed down to this position, and its total there.
    pagoda: (Arc<WindowPagoda>, i64),
    path: Vec<(usize, usize, usize)>,
}

/// A pagoda function of the window and a position's total under it (borrowed: the walk
/// hands it down without touching a shared count).
#[derive(Clone, Copy)]
struct Fitted<'f> {
    f: &'f WindowPagoda,
    total: i64,
}

impl Fitted<'_> {
    /// The total after the undo that replaces the man on `c` by men on `a` and `b`.
    #[inline]
    fn undo(&self, c: usize, a: usize, b: usize) -> i64 {
        self.total - self.f.weight(c) + self.f.weight(a) + self.f.weight(b)
    }

    #[inline]
    fn men_needed(&self) -> u32 {
        self.f.men_needed(self.total)
    }
}

/// Positions of up to this many men get their own pagoda function ([`WindowPagoda::fit`]):
/// the linear program costs milliseconds, so only near the target, where one cut saves most.
const FIT_MEN: u32 = 3;

/// Positions a limit may take before the search fits pagoda functions (about a tenth of a
/// second).
const PROBE: u64 = 1 << 18;

/// A walk adds its positions to the shared count (and reads the clock) this often.
const FLUSH: u64 = 1 << 12;

/// The search, shared by its worker threads.
pub(super) struct Search<'l, S> {
    l: &'l Layout<S>,
    /// Prefix sums of the largest weights on or below the line of the infinite board.
    best: Vec<f64>,
    table: Table<S>,
    nodes: AtomicU64,
    /// The deadline and the cancel flag (a notebook's Ctrl-C).
    halt: Stop<'l>,
    /// The time ran out, or an army was found: every worker stops, and what it had not
    /// finished is not recorded as failed.
    stop: AtomicBool,
    out_of_time: AtomicBool,
    found: Mutex<Option<Vec<(usize, usize, usize)>>>,
    /// The window's best pagoda function for the target alone, fitted when first asked for.
    root: OnceLock<Arc<WindowPagoda>>,
    /// Zero weights: the function handed down while the search does not fit.
    zero: Arc<WindowPagoda>,
    /// Whether positions get their own functions: only once a limit outlives its probe, so a
    /// row the fixed bounds settle in a few thousand positions never pays for the linear
    /// program (tens of milliseconds a fit on a window of 256 cells).
    fitting: AtomicBool,
    /// While not fitting, the count of positions at which the probe of a limit gives up.
    probe_end: AtomicU64,
    probe_ran_out: AtomicBool,
    /// Those functions, by position (`None`: the solver failed), kept across the limits of
    /// the deepening.
    fits: Mutex<HashMap<S, Option<Arc<WindowPagoda>>>>,
}

impl<'l, S: CellSet + Send + Sync> Search<'l, S> {
    pub(super) fn new(l: &'l Layout<S>, halt: Stop<'l>, max_memory: usize) -> Self {
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
        let zero = WindowPagoda::new(vec![0; l.cells.len()], &l.jumps, &l.low)
            .expect("zero weights are a pagoda function");
        Search {
            l,
            best,
            root: OnceLock::new(),
            zero: Arc::new(zero),
            fitting: AtomicBool::new(false),
            probe_end: AtomicU64::new(0),
            probe_ran_out: AtomicBool::new(false),
            fits: Mutex::default(),
            table: Table::new(max_memory),
            nodes: AtomicU64::new(0),
            halt,
            stop: AtomicBool::new(false),
            out_of_time: AtomicBool::new(false),
            found: Mutex::new(None),
        }
    }

    /// Positions searched so far.
    pub(super) fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
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

    /// The men the window's best pagoda function for the target alone says every army
    /// needs (in the window).
    pub(super) fn root_bound(&self) -> u32 {
        let root = self.root();
        root.men_needed(root.weight(self.target()))
    }

    fn root(&self) -> &Arc<WindowPagoda> {
        self.root.get_or_init(|| {
            Arc::new(
                self.l
                    .fit(S::single(self.target()))
                    .unwrap_or_else(|| (*self.zero).clone()),
            )
        })
    }

    fn target(&self) -> usize {
        self.l
            .index((0, self.l.row))
            .expect("the target is in the window")
    }

    /// Whether a position is cut by a bound before it is searched.
    #[inline]
    fn cut(&self, pegs: S, men: u32, total: f64, pagoda: Fitted, limit: u32) -> bool {
        let up = pegs.and(self.l.above).count();
        men + up > limit
            || self.men_needed(total) > limit
            || pagoda.men_needed() > limit
            || self.l.lineage_bound(pegs, men, up) > limit
    }

    /// The function fitted to this position, with its total there, if it bounds the
    /// position at least as well as the one handed down (fitted here once, for positions of
    /// at most [`FIT_MEN`] men).
    fn refit(&self, pegs: S, men: u32, handed: Fitted) -> Option<(Arc<WindowPagoda>, i64)> {
        if men > FIT_MEN || !self.fitting.load(Ordering::Relaxed) {
            return None;
        }
        let known = self
            .fits
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&pegs)
            .cloned();
        let own = known.unwrap_or_else(|| {
            let own = self.l.fit(pegs).map(Arc::new);
            self.fits
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(pegs, own.clone());
            own
        });
        let f = own?;
        let total = f.total(pegs.members());
        (f.men_needed(total) >= handed.men_needed()).then_some((f, total))
    }

    /// The positions one undo after `node` that no bound cuts.
    fn children(&self, node: &Node<S>, limit: u32) -> Vec<Node<S>> {
        let mut out = Vec::new();
        let mut p = node.pegs;
        while let Some(c) = p.lowest() {
            p = p.flip(c);
            for &(a, b) in &self.l.undos[c] {
                if !node.pegs.has(a) && !node.pegs.has(b) {
                    let pegs = node.pegs.flip(c).flip(a).flip(b);
                    let w = &self.l.weights;
                    let total = node.total - w[c] + w[a] + w[b];
                    let parent = Fitted {
                        f: &node.pagoda.0,
                        total: node.pagoda.1,
                    };
                    let handed = Fitted {
                        f: &node.pagoda.0,
                        total: parent.undo(c, a, b),
                    };
                    let pagoda = self
                        .refit(pegs, node.men + 1, handed)
                        .unwrap_or_else(|| (node.pagoda.0.clone(), handed.total));
                    let fitted = Fitted {
                        f: &pagoda.0,
                        total: pagoda.1,
                    };
                    let is_army = pegs.and(self.l.above) == S::default();
                    if is_army || !self.cut(pegs, node.men + 1, total, fitted, limit) {
                        let mut path = node.path.clone();
                        path.push((c, a, b));
                        out.push(Node {
                            pegs,
                            men: node.men + 1,
                            total,
                            pagoda,
                            path,
                        });
                    }
                }
            }
        }
        out
    }

    /// Iterative deepening from `from` men up to `to` on `threads` threads: the first army
    /// found is the smallest. The first few undos are made here, breadth first, and the positions
    /// they reach (distinct up to the mirror) are searched in parallel, depth first, sharing
    /// one table of failed positions. With one thread the search is the plain depth-first
    /// one from the target.
    pub(super) fn run(
        &self,
        from: u32,
        to: u32,
        threads: usize,
        progress: &dyn Fn(u32, u64),
    ) -> Ending {
        let target = self.target();
        let mut limit = from;
        loop {
            let fitting = self.fitting.load(Ordering::Relaxed);
            let f = if fitting { self.root() } else { &self.zero };
            if fitting {
                // The window's best function for the target rules out every size below
                // its bound without a search.
                let proved = self.root_bound();
                if proved > to {
                    return Ending::NoneUpTo(to);
                }
                limit = limit.max(proved);
            }
            let root = Node {
                pegs: S::single(target),
                men: 1,
                total: 1.0,
                pagoda: (f.clone(), f.weight(target)),
                path: Vec::new(),
            };
            self.probe_end
                .store(self.nodes() + PROBE, Ordering::Relaxed);
            progress(limit, self.nodes());
            // The frontier: enough positions to keep every thread busy.
            let mut frontier = vec![root.clone_node()];
            while threads > 1 && !frontier.is_empty() && frontier.len() < 32 * threads {
                let mut next: Vec<Node<S>> = Vec::new();
                let mut seen = std::collections::HashSet::new();
                for node in &frontier {
                    for child in self.children(node, limit) {
                        if child.pegs.and(self.l.above) == S::default() {
                            return Ending::Found(child.path);
                        }
                        if seen.insert(child.pegs.min(self.l.mirror(child.pegs))) {
                            next.push(child);
                        }
                    }
                }
                self.nodes
                    .fetch_add(frontier.len() as u64, Ordering::Relaxed);
                frontier = next;
            }
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
            let search = |node: &Node<S>| {
                let mut walk = Walk {
                    s: self,
                    path: node.path.clone(),
                    nodes: 0,
                    ranked: Vec::new(),
                };
                let handed = Fitted {
                    f: &node.pagoda.0,
                    total: node.pagoda.1,
                };
                if walk.go(node.pegs, node.men, node.total, handed, limit) {
                    let mut found = self
                        .found
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    if found.is_none() {
                        *found = Some(walk.path);
                    }
                    self.stop.store(true, Ordering::Relaxed);
                }
                self.nodes.fetch_add(walk.nodes % FLUSH, Ordering::Relaxed);
            };
            match pool {
                Ok(pool) if threads > 1 => pool.install(|| {
                    use rayon::prelude::*;
                    frontier.par_iter().for_each(search);
                }),
                _ => frontier.iter().for_each(search),
            }
            if let Some(path) = self
                .found
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take()
            {
                return Ending::Found(path);
            }
            if self.probe_ran_out.swap(false, Ordering::Relaxed)
                && !self.out_of_time.load(Ordering::Relaxed)
            {
                // The limit is searched again, fitting: what the probe finished stays in
                // the table, what it left is searched anew.
                self.fitting.store(true, Ordering::Relaxed);
                self.stop.store(false, Ordering::Relaxed);
                continue;
            }
            if self.out_of_time.load(Ordering::Relaxed) {
                return Ending::Budget(limit);
            }
            if limit >= to {
                return Ending::NoneUpTo(limit);
            }
            limit += 1;
        }
    }
}

impl<S: CellSet> Node<S> {
    fn clone_node(&self) -> Node<S> {
        Node {
            pegs: self.pegs,
            men: self.men,
            total: self.total,
            pagoda: self.pagoda.clone(),
            path: self.path.clone(),
        }
    }
}

/// An undo with its rank (men above the line first) and the men its pagoda total needs.
type Ranked = (u32, u32, (usize, usize, usize));

/// One thread's depth-first walk.
struct Walk<'s, 'l, S> {
    s: &'s Search<'l, S>,
    path: Vec<(usize, usize, usize)>,
    nodes: u64,
    /// Per number of men, the undos of a position ranked by bound (reused: the walk
    /// allocates only while it first goes deeper).
    ranked: Vec<Vec<Ranked>>,
}

impl<S: CellSet + Send + Sync> Walk<'_, '_, S> {
    /// Whether the men in `pegs` (`men` of them, pagoda total `total`) can be brought on or
    /// below the line with at most `limit` men in all.
    fn go(&mut self, pegs: S, men: u32, total: f64, handed: Fitted, limit: u32) -> bool {
        let l = self.s.l;
        let up = pegs.and(l.above);
        if up == S::default() {
            return true;
        }
        if self.s.cut(pegs, men, total, handed, limit) {
            return false;
        }
        let own = self.s.refit(pegs, men, handed);
        let pagoda = match &own {
            Some((f, total)) => Fitted { f, total: *total },
            None => handed,
        };
        if pagoda.men_needed() > limit {
            return false;
        }
        self.nodes += 1;
        if self.nodes & (FLUSH - 1) == 0 {
            let nodes = self.s.nodes.fetch_add(FLUSH, Ordering::Relaxed) + FLUSH;
            if self.s.halt.passed() {
                self.s.out_of_time.store(true, Ordering::Relaxed);
                self.s.stop.store(true, Ordering::Relaxed);
            }
            if !self.s.fitting.load(Ordering::Relaxed)
                && nodes >= self.s.probe_end.load(Ordering::Relaxed)
            {
                self.s.probe_ran_out.store(true, Ordering::Relaxed);
                self.s.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.s.stop.load(Ordering::Relaxed) {
            return false;
        }
        let key = pegs.min(l.mirror(pegs));
        if self.s.table.failed(&key, limit) {
            return false;
        }
        // Undo men above the line first, highest first (cells are numbered from the top):
        // they are what remains to be done. Among them, the undos the pagoda function
        // thinks cheapest go first (the sort is stable, so ties keep that order): the
        // search for an army that exists then meets it sooner; an exhausted search visits
        // the same positions in any order.
        let depth = men as usize;
        if self.ranked.len() <= depth {
            self.ranked.resize_with(depth + 1, Vec::new);
        }
        let mut ranked = std::mem::take(&mut self.ranked[depth]);
        ranked.clear();
        for (rank, part) in [up, pegs.and(l.above.not())].into_iter().enumerate() {
            let mut p = part;
            while let Some(c) = p.lowest() {
                p = p.flip(c);
                for &(a, b) in &l.undos[c] {
                    if !pegs.has(a) && !pegs.has(b) {
                        let need = pagoda.f.men_needed(pagoda.undo(c, a, b));
                        if need <= limit {
                            ranked.push((rank as u32, need, (c, a, b)));
                        }
                    }
                }
            }
        }
        ranked.sort_by_key(|&(rank, need, _)| (rank, need));
        let mut found = false;
        for &(_, _, (c, a, b)) in &ranked {
            let next = pegs.flip(c).flip(a).flip(b);
            let w = &l.weights;
            let t = total - w[c] + w[a] + w[b];
            let below = Fitted {
                f: pagoda.f,
                total: pagoda.undo(c, a, b),
            };
            self.path.push((c, a, b));
            if self.go(next, men + 1, t, below, limit) {
                found = true;
                break;
            }
            self.path.pop();
        }
        self.ranked[depth] = ranked;
        if found {
            return true;
        }
        if !self.s.stop.load(Ordering::Relaxed) {
            self.s.table.record(key, limit);
        }
        false
    }
}
