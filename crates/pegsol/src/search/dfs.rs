//! The exact search: depth first, with a bounded table of dead positions, pagoda pruning,
//! canonical forms under the finish's stabilizer, and jump orders taking turns.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::bitset::{Bits, Hole, Word};
use crate::board::Board;
use crate::jumps::{Jump, JumpTable};
use crate::pagoda::Pagoda;
use crate::symmetry::Canonicalizer;
use crate::table::KeySet;

use crate::problem::{Budget, Limits, Stats};

pub(super) struct Direction<W: Word> {
    pub(super) start: Bits<W>,
    pub(super) targets: Vec<Bits<W>>,
    pub(super) reversed: bool,
    /// Take the first turn with the order halfway round the list.
    pub(super) start_halfway: bool,
    /// Pagoda functions valid for pruning towards these targets.
    pub(super) functions: Vec<Pagoda>,
}

/// Most pagoda functions tracked at once along the search.
const MAX_PAGODA: usize = 8;

/// Nodes of the quick single-threaded probe that runs before the full machinery.
pub(super) const PROBE_NODES: u64 = 20_000;

/// Nodes the first order may visit before the next takes its turn; doubles every round.
const FIRST_SLICE: u64 = 1 << 16;

/// Why a descent stopped early.
enum Halt {
    /// A budget ran out: the search is over.
    Budget(Budget),
    /// This order's turn is over: restart from the root in the next order.
    Turn,
}

pub(super) struct Dfs<'a, W: Word> {
    /// The board's jumps.
    table: JumpTable<W>,
    /// Jump orders taking turns; each a permutation of jump indices.
    orders: Vec<Vec<u16>>,
    order: usize,
    /// The order that takes the first turn of each round.
    first_order: usize,
    turn_ends: u64,
    /// Stop (as if out of time) after this many nodes.
    pub(super) node_limit: u64,
    targets: &'a [Bits<W>],
    goal: u32,
    canon: Canonicalizer<W>,
    pub(super) dead: KeySet<Bits<W>>,
    pub(super) nodes: u64,
    path: Vec<u16>,
    pagoda_delta: Vec<[i64; MAX_PAGODA]>,
    pagoda_floor: [i64; MAX_PAGODA],
    pagoda_start: [i64; MAX_PAGODA],
    pagodas: usize,
    deadline: Option<Instant>,
    limits: &'a Limits,
    stop: &'a AtomicBool,
    progress: &'a (dyn Fn(&Stats) + Sync),
    began: Instant,
}

impl<'a, W: Word> Dfs<'a, W> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        board: &Board,
        dir: &'a Direction<W>,
        orders: usize,
        limits: &'a Limits,
        symmetry: bool,
        budget: usize,
        deadline: Option<Instant>,
        stop: &'a AtomicBool,
        progress: &'a (dyn Fn(&Stats) + Sync),
    ) -> Dfs<'a, W> {
        let sym = board.symmetries();
        let group = if symmetry {
            sym.stabilizer(&dir.targets)
        } else {
            vec![0]
        };
        let canon = sym.canonicalizer(&group);
        // Keep the pagoda functions that can cut something, those whose finish total is the
        // largest share of the start total (least slack) first.
        let floor = |p: &Pagoda| dir.targets.iter().map(|&t| p.total(t)).min().unwrap_or(0);
        let mut useful: Vec<&Pagoda> = dir
            .functions
            .iter()
            .filter(|p| p.can_cut(&dir.targets))
            .collect();
        useful.sort_by(|a, b| {
            a.room(dir.start, &dir.targets)
                .total_cmp(&b.room(dir.start, &dir.targets))
        });
        useful.truncate(MAX_PAGODA);
        let jumps = board.jumps();
        let mut pagoda_delta = vec![[0i64; MAX_PAGODA]; jumps.len()];
        let mut pagoda_floor = [0i64; MAX_PAGODA];
        let mut pagoda_start = [0i64; MAX_PAGODA];
        for (k, p) in useful.iter().enumerate() {
            pagoda_floor[k] = floor(p);
            pagoda_start[k] = p.total(dir.start);
            for (d, j) in pagoda_delta.iter_mut().zip(jumps) {
                d[k] = p.jump_change(*j);
            }
        }
        Dfs {
            table: JumpTable::new(jumps),
            first_order: 0,
            orders: jump_orders(board, &dir.targets, orders),
            order: 0,
            turn_ends: u64::MAX,
            node_limit: u64::MAX,
            targets: &dir.targets,
            goal: dir.targets[0].count(),
            canon,
            dead: KeySet::new(budget),
            nodes: 0,
            path: Vec::with_capacity(64),
            pagoda_delta,
            pagoda_floor,
            pagoda_start,
            pagodas: useful.len(),
            deadline,
            limits,
            stop,
            progress,
            began: Instant::now(),
        }
    }

    /// Searches from `start`, the orders taking turns with doubling node slices. The dead
    /// table is shared (deadness does not depend on the order), so a new turn repeats only
    /// the unfinished path of the last one.
    pub(super) fn run(&mut self, start: Bits<W>, start_halfway: bool) -> Result<bool, Budget> {
        if start_halfway {
            self.first_order = self.orders.len() / 2;
        }
        let totals = self.pagoda_start;
        let mut slice = FIRST_SLICE;
        loop {
            let n = self.orders.len();
            for turn in 0..n {
                self.order = (turn + self.first_order) % n;
                self.turn_ends = self.nodes.saturating_add(slice);
                self.path.clear();
                match self.visit(start, &totals) {
                    Ok(found) => {
                        // Tell the other direction, if any, that this one has decided.
                        self.stop.store(true, Ordering::Relaxed);
                        return Ok(found);
                    }
                    Err(Halt::Budget(b)) => return Err(b),
                    Err(Halt::Turn) => {}
                }
            }
            slice = slice.saturating_mul(2);
        }
    }

    pub(super) fn path_jumps(&self, reversed: bool) -> Vec<Jump> {
        let mut jumps: Vec<Jump> = self
            .path
            .iter()
            .map(|&i| self.table.get(i as usize))
            .collect();
        if reversed {
            jumps.reverse();
        }
        jumps
    }

    fn visit(&mut self, pos: Bits<W>, totals: &[i64; MAX_PAGODA]) -> Result<bool, Halt> {
        self.nodes += 1;
        if self.nodes & 0xFFF == 0 {
            self.check_budget()?;
        }
        if pos.count() == self.goal {
            return Ok(self.targets.contains(&pos));
        }
        let key = self.canon.canonical(pos);
        if self.dead.contains(key) {
            return Ok(false);
        }
        for k in 0..self.orders[self.order].len() {
            let i = self.orders[self.order][k] as usize;
            if !self.table.is_legal(i, pos) {
                continue;
            }
            let delta = &self.pagoda_delta[i];
            let mut next_totals = *totals;
            let mut cut = false;
            for k in 0..self.pagodas {
                next_totals[k] += delta[k];
                cut |= next_totals[k] < self.pagoda_floor[k];
            }
            if cut {
                continue;
            }
            self.path.push(i as u16);
            if self.visit(self.table.get(i).apply(pos), &next_totals)? {
                return Ok(true);
            }
            self.path.pop();
        }
        // Every child failed: dead for any order.
        if self.dead.insert(key, ()).is_err() {
            return Err(Halt::Budget(Budget::Memory));
        }
        Ok(false)
    }

    fn check_budget(&self) -> Result<(), Halt> {
        if self.stop.load(Ordering::Relaxed) {
            // The other direction decided; this one's answer no longer matters.
            return Err(Halt::Budget(Budget::Time));
        }
        if self.limits.spent(self.deadline) {
            return Err(Halt::Budget(Budget::Time));
        }
        if self.nodes >= self.node_limit {
            return Err(Halt::Budget(Budget::Time));
        }
        if self.nodes >= self.turn_ends {
            return Err(Halt::Turn);
        }
        if self.nodes & 0x3_FFFF == 0 {
            (self.progress)(&Stats {
                nodes: self.nodes,
                dead: self.dead.len() as u64,
                millis: self.began.elapsed().as_millis() as u64,
            });
        }
        Ok(())
    }
}

/// Jump orders for the search, as permutations of the board's jump list.
///
/// The first is a sweep towards the finish: jumps from holes on the far side of the board
/// (measured along the line from the board's centre to the finish) come first, ties in reading
/// order. A player clears the far side and plays towards the finish; on the English board the
/// search finds every finish within a few thousand nodes in that order (30 million in plain
/// reading order for an arm end). A central finish keeps plain reading order. The others sweep
/// along the eight compass directions: run times of a depth-first search are heavy-tailed in the
/// order, and taking turns between orders (sharing the dead table) cuts the tail.
fn jump_orders<W: Word>(board: &Board, targets: &[Bits<W>], most: usize) -> Vec<Vec<u16>> {
    let finish = targets.iter().fold(Bits::EMPTY, |a, &t| a.union(t));
    let n = finish.count().max(1) as f64;
    let (sr, sc) = finish.iter().fold((0.0, 0.0), |(r, c), h| {
        let (hr, hc) = board.coords(h);
        (r + hr as f64, c + hc as f64)
    });
    let (rows, cols) = board.dimensions();
    let mid = ((rows as f64 - 1.0) / 2.0, (cols as f64 - 1.0) / 2.0);
    let goal = (sr / n - mid.0, sc / n - mid.1);
    let compass = [
        (1.0, 0.0),
        (-1.0, 0.0),
        (0.0, 1.0),
        (0.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, -1.0),
        (-1.0, 1.0),
    ];
    let project = |h: Hole, u: (f64, f64)| {
        let (r, c) = board.coords(h);
        ((r as f64 - mid.0) * u.0 + (c as f64 - mid.1) * u.1).round() as i64
    };
    let mut orders: Vec<Vec<u16>> = Vec::new();
    let mut add = |u: (f64, f64), v: (f64, f64)| {
        if orders.len() >= most {
            return;
        }
        let mut order: Vec<u16> = (0..board.jumps().len() as u16).collect();
        order.sort_by_cached_key(|&i| {
            let j = board.jumps()[i as usize];
            // The goal sweep (v = 0) keeps reading order for ties.
            let landing = if v == (0.0, 0.0) {
                0
            } else {
                project(j.to(), u)
            };
            (project(j.from(), u), project(j.from(), v), landing)
        });
        if !orders.contains(&order) {
            orders.push(order);
        }
    };
    // The goal sweep, ties in reading order; then each compass sweep with ties broken by a
    // perpendicular sweep both ways, so that the set of orders is the same for symmetric
    // problems (the board's symmetries permute it).
    add(goal, (0.0, 0.0));
    for u in compass {
        add(u, (-u.1, u.0));
        add(u, (u.1, -u.0));
    }
    orders
}
