//! The backward search for the smallest army: from the man on the target, undo jumps (one man
//! becomes two) until every man stands on or below the line, by iterative deepening on the
//! number of men, inside a window of the infinite board.

mod cells;
mod layout;
mod table;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

pub(super) use cells::{CellSet, Cells256, Cells512};
pub(super) use layout::Layout;
pub use layout::Window;
use table::Table;

use super::bound::WindowPagoda;
use super::geometry::SIGMA;
use crate::stop::Stop;

/// How a search ended.
pub(super) enum Ending {
    /// An army of this many men: the undos made, as `(c, a, b)`.
    Found(Vec<(usize, usize, usize)>),
    /// The budget ran out; armies of fewer than this many men are ruled out.
    Budget(u32),
    /// Every army of up to this many men is ruled out (the search was told to stop there).
    NoneUpTo(u32),
    /// No army of any size fits the window: its best pagoda function for the target totals
    /// more than every cell on or below the line together.
    NoneInWindow,
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

/// The stages of a limit's search, each a stronger bound at a higher price, and the
/// positions each may take before the limit is searched again at the next: the fixed bounds
/// alone (about a tenth of a second), then functions fitted near the target (a few seconds),
/// then, past those, a function fitted for a lone man on every cell above the line (the
/// lineage bound per cell: a quarter to half a second on windows of 170 to 250 cells, paid
/// only by searches that run longer). What a stage finished stays in the table of failed positions.
const PROBES: [u64; 2] = [1 << 18, 1 << 22];

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
    /// Per cell, the men a lone man there needs by the window's best pagoda function for
    /// him (at least his row's bound), fitted at the last stage ([`PROBES`]).
    alone: OnceLock<Vec<u32>>,
    /// Zero weights: the function handed down while the search does not fit.
    zero: Arc<WindowPagoda>,
    /// The stage ([`PROBES`]): positions get their own functions from stage 1, once a limit
    /// outlives its probe, so a row the fixed bounds settle in a few thousand positions
    /// never pays for the linear program (tens of milliseconds a fit on a window of 256
    /// cells).
    stage: AtomicUsize,
    /// Before the last stage, the count of positions at which the stage gives up.
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
            alone: OnceLock::new(),
            zero: Arc::new(zero),
            stage: AtomicUsize::new(0),
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
            || self.lineage_bound(pegs, men, up) > limit
    }

    /// The men `pegs` need by their lineages ([`Layout::lineage_bound`]), each man above the
    /// line counted at his own cell's bound once those are fitted.
    #[inline]
    fn lineage_bound(&self, pegs: S, men: u32, up: u32) -> u32 {
        match self.alone.get() {
            Some(alone) => pegs
                .and(self.l.above)
                .members()
                .fold(men - up, |sum, c| sum.saturating_add(alone[c])),
            None => self.l.lineage_bound(pegs, men, up),
        }
    }

    /// Fits the window's best pagoda function for a lone man on each cell above the line
    /// (one cell of each mirror pair, in parallel): the bound per lineage.
    fn fit_alone(&self) {
        self.alone.get_or_init(|| {
            use rayon::prelude::*;
            let l = self.l;
            let mut alone: Vec<u32> = (0..l.cells.len())
                .map(|c| if l.above.has(c) { l.row_need(c) } else { 1 })
                .collect();
            let cells: Vec<usize> = l.above.members().filter(|&c| l.mirror[c] >= c).collect();
            let fitted: Vec<(usize, u32)> = cells
                .par_iter()
                .filter_map(|&c| {
                    let f = l.fit(S::single(c))?;
                    Some((c, f.men_needed(f.weight(c))))
                })
                .collect();
            for (c, need) in fitted {
                for cell in [c, l.mirror[c]] {
                    alone[cell] = alone[cell].max(need);
                }
            }
            alone
        });
    }

    /// The function fitted to this position, with its total there, if it bounds the
    /// position at least as well as the one handed down (fitted here once, for positions of
    /// at most [`FIT_MEN`] men).
    fn refit(&self, pegs: S, men: u32, handed: Fitted) -> Option<(Arc<WindowPagoda>, i64)> {
        if men > FIT_MEN || self.stage.load(Ordering::Relaxed) == 0 {
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
            let stage = self.stage.load(Ordering::Relaxed);
            let f = if stage > 0 { self.root() } else { &self.zero };
            if stage == PROBES.len() {
                self.fit_alone();
            }
            if stage > 0 {
                // The window's best function for the target rules out every size below
                // its bound without a search.
                let proved = self.root_bound();
                if proved == u32::MAX {
                    return Ending::NoneInWindow;
                }
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
            let probe = PROBES.get(stage).map_or(u64::MAX, |&p| self.nodes() + p);
            self.probe_end.store(probe, Ordering::Relaxed);
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
                // The limit is searched again at the next stage: what this one finished
                // stays in the table, what it left is searched anew.
                self.stage.fetch_add(1, Ordering::Relaxed);
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
            if nodes >= self.s.probe_end.load(Ordering::Relaxed) {
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
