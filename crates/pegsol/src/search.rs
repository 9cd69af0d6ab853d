//! The solver: a depth-first search with a bounded table of dead positions.
//!
//! Compared with the seed's memoized search it adds, in order of effect:
//! - instant refutation by position class and by pagoda functions before any search;
//! - canonical forms under the finish's stabilizer in the board's symmetry group, so one dead
//!   entry stands for every symmetric position;
//! - pagoda pruning at every node (a pagoda total never rises, so a child whose total is below
//!   the finish's is cut without being entered);
//! - a compact open-addressing table of 64-bit keys, bounded by the memory budget: when it is
//!   full the answer is "undecided within budget", never an out-of-memory kill;
//! - a race between the problem and its dual (the complement game played backwards) on two
//!   threads: whichever decides first answers for both.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::bitset::{Bits, Hole};
use crate::board::Board;
use crate::error::{Error, Result};
use crate::jumps::{Jump, JumpTable};
use crate::pagoda::Pagoda;
use crate::replay::replay;
use crate::symmetry::Canonicalizer;

/// What the last pegs must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Exactly these holes hold pegs at the end.
    Holes(Bits),
    /// One peg, anywhere.
    AnyOne,
    /// This many pegs, anywhere (for "how few pegs can be left").
    Pegs(u32),
}

/// Most finishing positions a [`Finish::Pegs`] may stand for.
pub const MAX_FINISHES: u64 = 100_000;

/// A problem: a board, a starting position and a finish. Built only by [`Problem::new`].
#[derive(Clone, Copy, Debug)]
pub struct Problem<'b> {
    board: &'b Board,
    start: Bits,
    finish: Finish,
}

impl<'b> Problem<'b> {
    /// A checked problem: the start and finish use only the board's holes, and the finish has
    /// at least one and at most as many pegs as the start.
    pub fn new(board: &'b Board, start: Bits, finish: Finish) -> Result<Problem<'b>> {
        board.position(start)?;
        if let Finish::Holes(f) = finish {
            board.position(f)?;
            if f.is_empty() {
                return Err(Error::EmptyFinish);
            }
            if f.count() > start.count() {
                return Err(Error::FinishTooLarge {
                    finish: f.count(),
                    start: start.count(),
                });
            }
        } else {
            let n = match finish {
                Finish::Pegs(n) => n,
                _ => 1,
            };
            if n == 0 {
                return Err(Error::EmptyFinish);
            }
            if n > start.count() {
                return Err(Error::FinishTooLarge {
                    finish: n,
                    start: start.count(),
                });
            }
            let holes = u64::from(board.holes().count());
            // C(holes, n), stopping as soon as it passes the limit.
            let mut subsets = 1u64;
            for i in 0..u64::from(n) {
                subsets = subsets * (holes - i) / (i + 1);
                if subsets > MAX_FINISHES {
                    return Err(Error::TooManyFinishes { pegs: n, holes });
                }
            }
        }
        Ok(Problem {
            board,
            start,
            finish,
        })
    }

    /// The board's conventional problem: its usual start and [`Problem::default_finish`].
    pub fn conventional(board: &'b Board) -> Result<Problem<'b>> {
        let start = board
            .start()
            .ok_or_else(|| Error::NoStart(board.name().to_string()))?;
        Problem::new(board, start, Problem::default_finish(board, start))
    }

    /// The default finish: the single starting vacancy when there is one, otherwise any one peg.
    #[must_use]
    pub fn default_finish(board: &Board, start: Bits) -> Finish {
        let vacant = board.holes().minus(start);
        if vacant.count() == 1 {
            Finish::Holes(vacant)
        } else {
            Finish::AnyOne
        }
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &'b Board {
        self.board
    }

    /// The starting pegs.
    #[must_use]
    pub const fn start(&self) -> Bits {
        self.start
    }

    /// The finish.
    #[must_use]
    pub const fn finish(&self) -> Finish {
        self.finish
    }

    /// The final positions that would count as solved.
    #[must_use]
    pub fn targets(&self) -> Vec<Bits> {
        match self.finish {
            Finish::Holes(f) => vec![f],
            Finish::AnyOne => self.board.holes().iter().map(Hole::bit).collect(),
            Finish::Pegs(n) => {
                // Every n-subset of the holes, by choosing holes in increasing order.
                let holes: Vec<Hole> = self.board.holes().iter().collect();
                let mut out = Vec::new();
                let mut pick: Vec<usize> = (0..n as usize).collect();
                if pick.len() > holes.len() {
                    return out;
                }
                loop {
                    out.push(pick.iter().fold(Bits::EMPTY, |s, &i| s.with(holes[i])));
                    // The rightmost index that can still move right.
                    let Some(i) = (0..pick.len())
                        .rev()
                        .find(|&i| pick[i] < holes.len() - pick.len() + i)
                    else {
                        break;
                    };
                    pick[i] += 1;
                    for j in i + 1..pick.len() {
                        pick[j] = pick[j - 1] + 1;
                    }
                }
                out
            }
        }
    }
}

/// Budgets for one search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most bytes the dead-position table may use.
    pub max_memory: usize,
    /// Wall-clock limit.
    pub timeout: Option<Duration>,
    /// Race the dual problem on a second thread when the finish is one exact position.
    pub race_dual: bool,
    /// Prune with pagoda functions (off only to measure what they save).
    pub pagoda: bool,
    /// Canonicalise under the finish's symmetry stabilizer (off only to measure it).
    pub symmetry: bool,
    /// Set from elsewhere (a server whose client went away) to stop the search; the answer
    /// is then undecided, as if the time had run out.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Whether the search must stop now: the deadline has passed or the work was cancelled.
    pub(crate) fn spent(&self, deadline: Option<Instant>) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
            || deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_memory: 4 << 30,
            timeout: None,
            race_dual: true,
            pagoda: true,
            symmetry: true,
            cancel: None,
        }
    }
}

/// Search effort.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions entered.
    pub nodes: u64,
    /// Positions proved dead and stored.
    pub dead: u64,
    /// Wall-clock milliseconds.
    pub millis: u64,
}

/// Why a problem is impossible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The start and every allowed finish lie in different position classes.
    Class,
    /// A pagoda function totals less on the start than on every allowed finish.
    Pagoda,
    /// Every line of play was searched.
    Exhausted,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Class => "position class",
            Reason::Pagoda => "pagoda function",
            Reason::Exhausted => "exhausted search",
        })
    }
}

/// Which budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// The timeout passed.
    Time,
    /// The dead-position table reached the memory budget.
    Memory,
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Budget::Time => "time",
            Budget::Memory => "memory",
        })
    }
}

/// The answer to a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A sequence of jumps from the start to `finish`, already replayed by [`replay`].
    Solved {
        /// The jumps in order.
        jumps: Vec<Jump>,
        /// The final position reached.
        finish: Bits,
    },
    /// No sequence exists.
    Impossible(Reason),
    /// The search stopped when a budget ran out.
    Undecided(Budget),
}

/// An outcome with the effort it took.
#[derive(Clone, Debug)]
pub struct Report {
    /// The answer.
    pub outcome: Outcome,
    /// The effort.
    pub stats: Stats,
}

/// Solves `problem` within `limits`.
///
/// ```
/// use pegsol::{Board, Outcome, Problem, Limits, solve};
/// let board = Board::builtin("english").unwrap();
/// let report = solve(&Problem::conventional(&board).unwrap(), &Limits::default());
/// match report.outcome {
///     Outcome::Solved { jumps, finish } => {
///         assert_eq!(jumps.len(), 31);
///         assert_eq!(board.labels(finish), ["d4"]);
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
#[must_use]
pub fn solve(problem: &Problem, limits: &Limits) -> Report {
    solve_with_progress(problem, limits, &|_| {})
}

/// [`solve`], calling `progress` now and then with the effort so far.
#[must_use]
pub fn solve_with_progress(
    problem: &Problem,
    limits: &Limits,
    progress: &(dyn Fn(&Stats) + Sync),
) -> Report {
    let began = Instant::now();
    let stop = AtomicBool::new(false);
    let deadline = limits.timeout.map(|t| began + t);
    let board = problem.board();
    let classes = board.classes();
    let class = classes.class_of(problem.start);
    let mut targets: Vec<Bits> = problem
        .targets()
        .into_iter()
        .filter(|&t| classes.class_of(t) == class)
        .collect();
    let finish = |outcome, nodes, dead| Report {
        outcome,
        stats: Stats {
            nodes,
            dead,
            millis: began.elapsed().as_millis() as u64,
        },
    };
    if targets.is_empty() {
        return finish(Outcome::Impossible(Reason::Class), 0, 0);
    }
    if targets.contains(&problem.start) {
        return finish(
            Outcome::Solved {
                jumps: Vec::new(),
                finish: problem.start,
            },
            0,
            0,
        );
    }
    // The budget holds from the first step: set-up (pagoda stock, LP fits) is checked too.
    let spent = |nodes, dead| finish(Outcome::Undecided(Budget::Time), nodes, dead);
    if limits.spent(deadline) {
        return spent(0, 0);
    }
    let stock = if limits.pagoda {
        Pagoda::stock(board)
    } else {
        Vec::new()
    };
    // The stock of pagoda functions refutes some finishes for free.
    targets.retain(|&t| stock.iter().all(|p| p.total(problem.start) >= p.total(t)));
    if targets.is_empty() {
        return finish(Outcome::Impossible(Reason::Pagoda), 0, 0);
    }
    // A quick probe first: most solvable problems fall within a few thousand nodes of the
    // goal sweep, before fitting LPs or starting a second thread is worth its fixed cost.
    let quick = Direction {
        start: problem.start,
        targets: targets.clone(),
        reversed: false,
        start_halfway: false,
        functions: stock.clone(),
    };
    let mut probe = Dfs::new(
        board,
        &quick,
        1,
        limits,
        limits.max_memory,
        deadline,
        &stop,
        progress,
    );
    probe.node_limit = PROBE_NODES;
    let probed = probe.run(problem.start, false);
    let (probe_nodes, probe_dead) = (probe.nodes, probe.dead.len() as u64);
    if probed == Ok(false) {
        // The probe searched everything within its limit.
        return finish(
            Outcome::Impossible(Reason::Exhausted),
            probe_nodes,
            probe_dead,
        );
    }
    if probed == Ok(true) {
        let outcome = verified(problem, &targets, probe.path_jumps(false));
        return finish(outcome, probe_nodes, probe_dead);
    }
    drop(probe);
    stop.store(false, Ordering::Relaxed);
    if probed == Err(Budget::Time) && limits.spent(deadline) {
        return spent(probe_nodes, probe_dead);
    }
    // A pagoda function fitted to each finish (by LP) refutes it outright or prunes for it.
    let mut fitted: Vec<(Bits, Pagoda)> = Vec::new();
    if limits.pagoda && targets.len() <= 8 {
        for &t in &targets {
            if limits.spent(deadline) {
                return spent(probe_nodes, probe_dead);
            }
            if let Some(p) = Pagoda::fit(board, problem.start, t) {
                fitted.push((t, p));
            }
        }
    }
    let refuted = |t: Bits| {
        fitted
            .iter()
            .any(|(f, p)| *f == t && p.total(problem.start) < p.total(t))
    };
    targets.retain(|&t| !refuted(t));
    if targets.is_empty() {
        return finish(Outcome::Impossible(Reason::Pagoda), 0, 0);
    }
    let mut forward_functions = stock.clone();
    if targets.len() == 1 {
        forward_functions.extend(
            fitted
                .iter()
                .filter(|f| f.0 == targets[0])
                .map(|f| f.1.clone()),
        );
    }
    let forward = Direction {
        start: problem.start,
        targets: targets.clone(),
        reversed: false,
        start_halfway: false,
        functions: forward_functions,
    };
    let run = |dir: &Direction, budget: usize| {
        let mut dfs = Dfs::new(
            board,
            dir,
            usize::MAX,
            limits,
            budget,
            deadline,
            &stop,
            progress,
        );
        let result = dfs.run(dir.start, dir.start_halfway);
        let stats = (dfs.nodes, dfs.dead.len() as u64);
        (result, dfs.path_jumps(dir.reversed), stats)
    };
    let (result, jumps, (nodes, dead)) = if limits.race_dual && targets.len() == 1 {
        // The dual: jumps in the complement game are the original's jumps played backwards.
        let (dual_start, dual_target) = (
            board.holes().minus(targets[0]),
            board.holes().minus(problem.start),
        );
        let mut functions = stock.clone();
        if limits.pagoda && !limits.spent(deadline) {
            functions.extend(Pagoda::fit(board, dual_start, dual_target));
        }
        // When the dual is the problem itself (a central game), the second thread would repeat
        // the first one's search; it starts halfway round the orders instead.
        let same = dual_start == problem.start && dual_target == targets[0];
        let dual = Direction {
            start: dual_start,
            targets: vec![dual_target],
            reversed: true,
            start_halfway: same,
            functions,
        };
        let half = limits.max_memory / 2;
        let (a, b) = rayon::join(|| run(&forward, half), || run(&dual, half));
        let total = (a.2 .0 + b.2 .0, a.2 .1 + b.2 .1);
        let decided = |r: &Result<bool, Budget>| r.is_ok();
        let pick = if decided(&a.0) || !decided(&b.0) {
            a
        } else {
            b
        };
        (pick.0, pick.1, total)
    } else {
        run(&forward, limits.max_memory)
    };
    let outcome = match result {
        Ok(true) => verified(problem, &targets, jumps),
        Ok(false) => Outcome::Impossible(Reason::Exhausted),
        Err(budget) => Outcome::Undecided(budget),
    };
    finish(outcome, nodes + probe_nodes, dead + probe_dead)
}

/// A found line, replayed by the independent checker before anyone sees it.
fn verified(problem: &Problem, targets: &[Bits], jumps: Vec<Jump>) -> Outcome {
    match replay(problem.board(), problem.start(), &jumps) {
        Ok(end) if targets.contains(&end) => Outcome::Solved { jumps, finish: end },
        _ => unreachable!("the solver produced a line that does not replay"),
    }
}

struct Direction {
    start: Bits,
    targets: Vec<Bits>,
    reversed: bool,
    /// Take the first turn with the order halfway round the list.
    start_halfway: bool,
    /// Pagoda functions valid for pruning towards these targets.
    functions: Vec<Pagoda>,
}

/// Most pagoda functions tracked at once along the search.
const MAX_PAGODA: usize = 8;

/// Nodes of the quick single-threaded probe that runs before the full machinery.
const PROBE_NODES: u64 = 20_000;

/// Nodes the first order may visit before the next takes its turn; doubles every round.
const FIRST_SLICE: u64 = 1 << 16;

/// Why a descent stopped early.
enum Halt {
    /// A budget ran out: the search is over.
    Budget(Budget),
    /// This order's turn is over: restart from the root in the next order.
    Turn,
}

struct Dfs<'a> {
    /// The board's jumps.
    table: JumpTable,
    /// Jump orders taking turns; each a permutation of jump indices.
    orders: Vec<Vec<u16>>,
    order: usize,
    /// The order that takes the first turn of each round.
    first_order: usize,
    turn_ends: u64,
    /// Stop (as if out of time) after this many nodes.
    node_limit: u64,
    targets: &'a [Bits],
    goal: u32,
    canon: Canonicalizer,
    dead: DeadSet,
    nodes: u64,
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

impl<'a> Dfs<'a> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        board: &Board,
        dir: &'a Direction,
        orders: usize,
        limits: &'a Limits,
        budget: usize,
        deadline: Option<Instant>,
        stop: &'a AtomicBool,
        progress: &'a (dyn Fn(&Stats) + Sync),
    ) -> Dfs<'a> {
        let sym = board.symmetries();
        let group = if limits.symmetry {
            sym.stabilizer(&dir.targets)
        } else {
            vec![0]
        };
        let canon = sym.canonicalizer(&group);
        // Keep the pagoda functions that can cut something, those whose finish total is the
        // largest share of the start total (least slack) first.
        let floor = |p: &Pagoda| dir.targets.iter().map(|&t| p.total(t)).min().unwrap_or(0);
        let mut useful: Vec<&Pagoda> = dir.functions.iter().filter(|p| floor(p) > 0).collect();
        useful.sort_by_key(|p| {
            let start = p.total(dir.start) as f64;
            std::cmp::Reverse((floor(p) as f64 / start.max(1.0) * 1e6) as i64)
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
                d[k] = p.total(j.apply(j.needs())) - p.total(j.needs());
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
            dead: DeadSet::new(budget),
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
    fn run(&mut self, start: Bits, start_halfway: bool) -> Result<bool, Budget> {
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

    fn path_jumps(&self, reversed: bool) -> Vec<Jump> {
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

    fn visit(&mut self, pos: Bits, totals: &[i64; MAX_PAGODA]) -> Result<bool, Halt> {
        self.nodes += 1;
        if self.nodes & 0xFFF == 0 {
            self.check_budget()?;
        }
        if pos.count() == self.goal {
            return Ok(self.targets.contains(&pos));
        }
        let key = self.canon.canonical(pos);
        if self.dead.contains(key.raw()) {
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
        if !self.dead.insert(key.raw()) {
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
fn jump_orders(board: &Board, targets: &[Bits], most: usize) -> Vec<Vec<u16>> {
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

/// A set of nonzero 64-bit keys with open addressing, growing by doubling up to a byte budget.
pub(crate) struct DeadSet {
    slots: Vec<u64>,
    len: usize,
    shift: u32,
    max_slots: usize,
}

impl DeadSet {
    pub(crate) fn new(budget_bytes: usize) -> DeadSet {
        let max_slots = (budget_bytes / 8).max(1024).next_power_of_two() / 2;
        let initial = (1usize << 14).min(max_slots);
        DeadSet {
            slots: vec![0; initial],
            len: 0,
            shift: 64 - initial.trailing_zeros(),
            max_slots,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    #[inline]
    pub(crate) fn contains(&self, key: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            match self.slots[i] {
                0 => return false,
                k if k == key => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Inserts `key`; false when the budget is spent.
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        // Grow at 3/4 full; at the largest size the budget allows, fill to 9/10 first.
        if (self.len + 1) * 4 > self.slots.len() * 3 && self.slots.len() < self.max_slots {
            self.grow();
        }
        if (self.len + 1) * 10 > self.slots.len() * 9 {
            return false;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        while self.slots[i] != 0 {
            if self.slots[i] == key {
                return true;
            }
            i = (i + 1) & mask;
        }
        self.slots[i] = key;
        self.len += 1;
        true
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![0; old.len() * 2];
        self.shift -= 1;
        let mask = self.slots.len() - 1;
        for key in old.into_iter().filter(|&k| k != 0) {
            let mut i = self.slot(key);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = key;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn n_pegs_anywhere_stands_for_every_subset() {
        let b = Board::builtin("rect:3x3").unwrap();
        let p = Problem::new(&b, b.holes(), Finish::Pegs(2)).unwrap();
        let mut t = p.targets();
        assert_eq!(t.len(), 36);
        assert!(t.iter().all(|s| s.count() == 2 && s.is_subset(b.holes())));
        t.sort_unstable_by_key(|s| s.raw());
        t.dedup();
        assert_eq!(t.len(), 36);
        assert_eq!(
            Problem::new(&b, b.holes(), Finish::Pegs(9))
                .unwrap()
                .targets(),
            [b.holes()]
        );
        assert!(Problem::new(&b, b.holes(), Finish::Pegs(10)).is_err());
    }

    #[test]
    fn dead_set_grows_and_refuses_past_budget() {
        let mut d = DeadSet::new(64 * 1024);
        let mut n = 0u64;
        while d.insert(n + 1) {
            n += 1;
            assert!(n < 1_000_000);
        }
        assert!(n >= 2000 && (n as usize) * 8 <= 64 * 1024);
        assert!((1..=n).all(|k| d.contains(k)));
        assert!(!d.contains(n + 2));
    }

    #[test]
    fn english_centre() {
        let b = Board::builtin("english").unwrap();
        let r = solve(&Problem::conventional(&b).unwrap(), &Limits::default());
        let Outcome::Solved { jumps, finish } = r.outcome else {
            panic!("{:?}", r.outcome)
        };
        assert_eq!(jumps.len(), 31);
        assert_eq!(finish, b.hole("d4").unwrap().bit());
    }

    #[test]
    fn french_is_refuted_by_class() {
        let b = Board::builtin("french").unwrap();
        let p = Problem::new(&b, b.start().unwrap(), Finish::AnyOne).unwrap();
        let r = solve(&p, &Limits::default());
        assert_eq!(r.outcome, Outcome::Impossible(Reason::Class));
    }
}
