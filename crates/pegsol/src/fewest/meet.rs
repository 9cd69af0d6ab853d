//! Fewest moves by meeting in the middle: breadth first by moves from the starts, and by moves
//! of the reverse game from the finishes, until the two searches meet.
//!
//! # Method
//!
//! A move is a chain of jumps by one peg, so the positions one move away are the ends of every
//! chain (every prefix counts: a peg may stop anywhere). `F(a)` is the set of positions first
//! reached in `a` moves from any start; `B(b)` the set of positions from which some finish is
//! first reachable in `b` moves, found by undoing chains from the finishes (an undone jump puts
//! the jumped peg back). Both are kept up to the symmetries that map the starts onto themselves
//! and the finishes onto themselves.
//!
//! The invariant is that no position lies in both `F(<= a)` and `B(<= b)`: a solution of `m`
//! moves passes, after `min(a, m)` moves, through a position of `F(<= a)` that is at most
//! `m - a` moves from a finish, so `m > a + b`. Each step grows the side that is cheaper to grow
//! (frontier size times the time per position measured on that side) and checks every new
//! position against the other side; the first contact gives a solution of exactly `a + b + 1`
//! moves, and it is the fewest. When a frontier runs dry first, the finishes cannot be reached.
//!
//! Unlike [`fewest_moves_by_winning_set`](crate::fewest::fewest_moves_by_winning_set), which
//! searches the whole winning set of one problem, this never looks further than half a solution from either end, and many
//! starts and finishes make one search: the *basic game* of a board (every start with one hole
//! empty, every finish with one peg) is a single run. When a budget runs out, `a + b + 1` is
//! still a proven lower bound.
//!
//! The solution is rebuilt from the level tables (walking back to a start through `F`, forward
//! to a finish through `B`), replayed by the independent checker and its moves recounted.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::bound::MoveBound;
use super::chains::{Chains, Scratch, Way};
use super::moves::move_count;
use crate::bitset::{Bits, Pegs, Word};
use crate::board::Board;
use crate::error::{Error, Result};
use crate::jumps::Jump;
use crate::problem::{Budget, Limits, Problem};
use crate::replay::replay;
use crate::stop;
use crate::symmetry::Canonicalizer;
use crate::table::{Full, KeyMap};
use crate::width::with_width;

/// A solution found by [`fewest_moves_meeting`], with the start it begins from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeetSolution {
    /// The starting position (one of the starts asked for).
    pub start: Pegs,
    /// The jumps in order.
    pub jumps: Vec<Jump>,
    /// Moves: jumps not continuing the previous jump's peg.
    pub moves: u32,
    /// The final position (one of the finishes).
    pub finish: Pegs,
}

/// The answer of [`fewest_moves_meeting`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MeetOutcome {
    /// A solution with the fewest moves over every start and finish; none has fewer.
    Optimal(MeetSolution),
    /// No start reaches any finish (both searches were exhausted).
    Impossible,
    /// A budget ran out; the report's lower bound still holds.
    Undecided(Budget),
}

/// An outcome with the evidence for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeetReport {
    /// The answer.
    pub outcome: MeetOutcome,
    /// Proven: every solution needs at least this many moves (the optimum when solved).
    pub lower_bound: u32,
    /// Positions up to symmetry first reached in `k` moves from the starts, per completed
    /// level `k`.
    pub forward: Vec<u64>,
    /// Positions up to symmetry first able to reach a finish in `k` moves, per `k`.
    pub backward: Vec<u64>,
    /// Levels completed on each side, `(a, b)`: no position within `a` moves of a start is
    /// within `b` moves of a finish, so `lower_bound = a + b + 1` (unless a start is a finish).
    pub depths: (u32, u32),
    /// Order of the symmetry group used.
    pub symmetries: usize,
    /// Most bytes the level tables and frontiers held.
    pub peak_bytes: usize,
    /// Wall-clock milliseconds.
    pub millis: u64,
}

/// Where a meeting search stands, reported after every chunk of a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeetProgress {
    /// Levels completed from the starts and from the finishes.
    pub depths: (u32, u32),
    /// Whether the level being grown is on the starts' side.
    pub growing_forward: bool,
    /// Positions of the frontier expanded so far, and in all.
    pub done: u64,
    /// Positions of the frontier in all.
    pub frontier: u64,
    /// Bytes the level tables hold.
    pub table_bytes: usize,
}

/// Every position of `board` with exactly one hole empty: the starts of its basic game.
#[must_use]
pub fn single_vacancies<W: Word>(board: &Board) -> Vec<Bits<W>> {
    board
        .each_hole()
        .map(|h| board.holes().without(h))
        .collect()
}

/// The starts and finishes a meeting searches between: the finishes of a start's own
/// position class (a jump keeps the class, so no other can be reached), and the starts that
/// have one; sorted, without repeats.
pub(super) fn ends_of(problem: &Problem) -> (Vec<Pegs>, Vec<Pegs>) {
    let classes = problem.board().classes();
    let mut starts: Vec<Pegs> = problem.starts();
    let mut targets: Vec<Pegs> = problem.targets();
    let start_classes: Vec<_> = starts.iter().map(|&s| classes.class_of(s)).collect();
    targets.retain(|&t| start_classes.contains(&classes.class_of(t)));
    starts.retain(|&s| {
        targets
            .iter()
            .any(|&t| classes.class_of(t) == classes.class_of(s))
    });
    for list in [&mut starts, &mut targets] {
        list.sort_unstable();
        list.dedup();
    }
    (starts, targets)
}

/// The symmetries of `board` that map the starts onto themselves and the finishes onto
/// themselves: the group both ends of a search by moves are kept up to.
pub(super) fn group_of_ends(board: &Board, starts: &[Pegs], targets: &[Pegs]) -> Vec<usize> {
    let sym = board.symmetries();
    let keeps_targets = sym.stabilizer(targets);
    let mut group = sym.stabilizer(starts);
    group.retain(|g| keeps_targets.contains(g));
    group
}

/// The fewest moves from any of the problem's starts to its finish, proved by meeting in the
/// middle, on a board of any size (positions of the fewest words that hold it).
/// With every single vacancy as the starts and `Finish::AnyOne` this is the shortest
/// solution of the board's basic game (OEIS A127500 on triangles).
///
/// `F(a)` holds the positions first reached in `a` moves from a start (a move ends wherever its
/// peg may stop), `B(b)` those first able to reach a finish in `b` moves (found by undoing
/// chains from the finishes), both up to the symmetries that keep the starts and the finishes.
/// The invariant is that no position is in both `F(<= a)` and `B(<= b)`, which proves every
/// solution longer than `a + b` moves. Each step grows the side that is cheaper to grow and
/// checks its new positions against the other side; the first contact is a solution of
/// exactly `a + b + 1` moves. When one side's next level does not fit the memory budget, the
/// other side goes on alone (raising the bound) until it does not fit either. A start can
/// only reach finishes of its own position class, so the others are dropped first. The
/// solution is rebuilt from the level tables, replayed by the independent checker and its
/// moves recounted.
///
/// ```
/// use pegsol::{Board, Finish, Limits, Problem};
/// use pegsol::fewest::{fewest_moves_meeting, single_vacancies, MeetOutcome};
/// let board = Board::builtin("triangle5").unwrap();
/// let basic = Problem::with_starts(&board, single_vacancies(&board), Finish::AnyOne).unwrap();
/// let report = fewest_moves_meeting(&basic, &Limits::default()).unwrap();
/// let MeetOutcome::Optimal(s) = report.outcome else { panic!() };
/// assert_eq!((s.moves, report.lower_bound), (9, 9));
/// ```
///
/// # Errors
///
/// A solution that fails its independent check (a bug, [`Error::Internal`]).
pub fn fewest_moves_meeting(problem: &Problem, limits: &Limits) -> Result<MeetReport> {
    fewest_moves_meeting_with(problem, limits, &|_| {})
}

/// [`fewest_moves_meeting`], calling `progress` after every chunk of every level.
///
/// # Errors
///
/// As for [`fewest_moves_meeting`].
pub fn fewest_moves_meeting_with(
    problem: &Problem,
    limits: &Limits,
    progress: &(dyn Fn(&MeetProgress) + Sync),
) -> Result<MeetReport> {
    meeting(problem, limits, progress, LEAST_ALLOWANCE)
}

/// The least time a level is allowed while both sides may grow, in nanoseconds.
const LEAST_ALLOWANCE: f64 = 250e6;

/// [`fewest_moves_meeting_with`] with the least allowance of a level given (the tests make
/// it zero, so that levels are withdrawn and regrown often).
fn meeting(
    problem: &Problem,
    limits: &Limits,
    progress: &(dyn Fn(&MeetProgress) + Sync),
    least_allowance: f64,
) -> Result<MeetReport> {
    let began = Instant::now();
    let board = problem.board();
    let (starts, targets) = ends_of(problem);
    let group = group_of_ends(board, &starts, &targets);
    let sym = board.symmetries();
    let mut report = with_width!(board, W => {
        let narrow = |list: &[Pegs]| list.iter().map(|s| s.resize()).collect::<Vec<Bits<W>>>();
        let (starts, targets) = (narrow(&starts), narrow(&targets));
        let chains = Chains::new(board, &starts, &targets);
        let mut meet = Meet::new(chains, sym.canonicalizer(&group), limits, began, progress);
        meet.least_allowance = least_allowance;
        meet.run(&starts, &targets)?
    });
    report.symmetries = group.len();
    if matches!(report.outcome, MeetOutcome::Undecided(_)) {
        // The starts' Merson regions may prove more than the levels the budget allowed.
        let bound = MoveBound::<[u64; 4]>::new(board);
        let finish = problem.finish();
        let least = starts.iter().map(|&s| bound.moves_needed(s, &finish)).min();
        report.lower_bound = report.lower_bound.max(least.unwrap_or(0));
    }
    report.millis = began.elapsed().as_millis() as u64;
    if let MeetOutcome::Optimal(s) = &report.outcome {
        // The independent check: replay, land on a finish, recount the moves.
        let end = replay(board, s.start, &s.jumps)?;
        let ok = end == s.finish
            && targets.contains(&end)
            && starts.contains(&s.start)
            && move_count(&s.jumps) == s.moves
            && s.moves == report.lower_bound;
        if !ok {
            return Err(Error::Internal("a shortest solution failed its replay"));
        }
    }
    Ok(report)
}

/// Parents per chunk: enough for both cores, small enough to bound the children buffered.
const CHUNK: usize = 1 << 14;

/// The depth a position withdrawn from a table is marked with: it counts as absent.
const GONE: u8 = u8::MAX;

/// The level of each position reached, with the fewest and most pegs of any key, to skip
/// lookups that cannot hit.
struct Levels<W: Word> {
    depth: KeyMap<u8, Bits<W>>,
    pegs: (u32, u32),
}

impl<W: Word> Levels<W> {
    fn new() -> Levels<W> {
        Levels {
            depth: KeyMap::with_capacity(512),
            pegs: (u32::MAX, 0),
        }
    }

    fn bytes(&self) -> usize {
        self.depth.bytes()
    }

    #[inline]
    fn get(&self, key: Bits<W>) -> Option<u8> {
        let n = key.count();
        if n < self.pegs.0 || n > self.pegs.1 {
            return None;
        }
        self.depth.get(key).filter(|&d| d != GONE)
    }

    /// Adds `key` at `depth` unless present; `Err` when the table's limit is reached.
    fn insert(&mut self, key: Bits<W>, depth: u8) -> std::result::Result<bool, Full> {
        let added = match self.depth.insert(key, depth)? {
            true => true,
            // A withdrawn key is reached again.
            false => self.depth.get(key) == Some(GONE) && self.depth.set(key, depth),
        };
        let n = key.count();
        self.pegs = (self.pegs.0.min(n), self.pegs.1.max(n));
        Ok(added)
    }
}

/// One side of the search.
struct Side<W: Word> {
    way: Way,
    table: Levels<W>,
    frontier: Vec<Bits<W>>,
    /// Completed levels.
    depth: u8,
    /// Classes first reached per level.
    sizes: Vec<u64>,
    /// Measured nanoseconds per frontier position in this side's last large expansion, once
    /// there was one.
    rate: Option<f64>,
}

impl<W: Word> Side<W> {
    /// The time this side's next level is expected to take (one nanosecond a position while
    /// it is not measured: the first levels are a handful of positions).
    fn cost(&self) -> f64 {
        self.frontier.len() as f64 * self.rate.unwrap_or(1.0)
    }

    /// Withdraws a level that did not fit: its positions are marked gone from the table, its
    /// size leaves the list, and the frontier is the one it was grown from, so the side
    /// searches as before the attempt.
    fn rollback(&mut self, frontier: Vec<Bits<W>>, added: &[Bits<W>]) {
        for &c in added {
            self.table.depth.set(c, GONE);
        }
        self.abandon(frontier);
    }

    /// Gives up a level when the search ends in it (a time budget): only its size leaves the
    /// list, since the table is not searched again (marking millions of entries withdrawn
    /// would take a second past the deadline).
    fn abandon(&mut self, frontier: Vec<Bits<W>>) {
        self.sizes.pop();
        self.frontier = frontier;
    }
}

/// A contact between the sides: a parent on the growing side's frontier and a child (an
/// actual position reached from it in one move) that the other side holds.
struct Contact<W: Word> {
    parent: Bits<W>,
    child: Bits<W>,
}

/// Why a search stopped without an answer.
enum Stop<W: Word> {
    Budget(Budget),
    /// The level ran past its allowance and was withdrawn: nanoseconds a parent took, at
    /// least.
    Slow(f64),
    Met(Contact<W>),
}

struct Meet<'p, W: Word> {
    progress: &'p (dyn Fn(&MeetProgress) + Sync),
    chains: Chains<W>,
    canon: Canonicalizer<W>,
    max_memory: usize,
    /// The budget's deadline and cancel flag.
    halt: stop::Stop<'p>,
    peak: usize,
    /// Nanoseconds a level is allowed at least while both sides may grow.
    least_allowance: f64,
}

impl<'p, W: Word> Meet<'p, W> {
    fn new(
        chains: Chains<W>,
        canon: Canonicalizer<W>,
        limits: &'p Limits,
        began: Instant,
        progress: &'p (dyn Fn(&MeetProgress) + Sync),
    ) -> Meet<'p, W> {
        Meet {
            progress,
            chains,
            canon,
            // What the tables and buffers are counted to take: the process was measured to hold
            // up to 1.4 times that (the threads' allocator arenas, vectors of children being
            // gathered), and the beam after it up to 1.9 times, so half the budget keeps the
            // command's peak within it.
            max_memory: limits.max_memory / 2,
            halt: limits.stop(began),
            peak: 0,
            least_allowance: LEAST_ALLOWANCE,
        }
    }

    fn report(&self, outcome: MeetOutcome, fwd: &Side<W>, back: &Side<W>) -> MeetReport {
        MeetReport {
            outcome,
            lower_bound: u32::from(fwd.depth) + u32::from(back.depth) + 1,
            forward: fwd.sizes.clone(),
            backward: back.sizes.clone(),
            depths: (u32::from(fwd.depth), u32::from(back.depth)),
            symmetries: 0,
            peak_bytes: self.peak,
            millis: 0,
        }
    }

    fn run(mut self, starts: &[Bits<W>], targets: &[Bits<W>]) -> Result<MeetReport> {
        let mut fwd = self.side(Way::Forward, starts);
        let mut back = self.side(Way::Backward, targets);
        if let Some(&x) = starts
            .iter()
            .find(|&&x| back.table.get(self.canon.canonical(x)).is_some())
        {
            // A start is already a finish (the finishes are closed under the group).
            let solution = MeetSolution {
                start: x.resize(),
                jumps: Vec::new(),
                moves: 0,
                finish: x.resize(),
            };
            let mut r = self.report(MeetOutcome::Optimal(solution), &fwd, &back);
            r.lower_bound = 0;
            return Ok(r);
        }
        // A side whose next level did not fit stops growing; the other may still grow (and
        // raise the lower bound) until it does not fit either.
        let mut blocked = (false, false);
        loop {
            if fwd.frontier.is_empty() || back.frontier.is_empty() {
                return Ok(self.report(MeetOutcome::Impossible, &fwd, &back));
            }
            let forward_first = match blocked {
                (true, true) => {
                    let outcome = MeetOutcome::Undecided(Budget::Memory);
                    return Ok(self.report(outcome, &fwd, &back));
                }
                (true, false) => false,
                (false, true) => true,
                (false, false) => {
                    // A side's first large level is priced by a sample of it: undoing chains
                    // can give thousands of children a parent where playing them gives ten.
                    for side in [&mut fwd, &mut back] {
                        if side.rate.is_none() && side.frontier.len() >= 1024 {
                            side.rate = Some(self.probe(side));
                        }
                    }
                    fwd.cost() <= back.cost()
                }
            };
            // While both sides may grow, a level is given four times what the other side's
            // next level is expected to take (a quarter of a second at least): one that runs
            // past it is withdrawn and its side priced at what it was seen to cost, so a side
            // whose parents each have millions of children does not take the whole budget
            // while the other could still raise the bound.
            let allowance = (blocked == (false, false)).then(|| {
                let other = if forward_first { &back } else { &fwd };
                let nanos = (4.0 * other.cost()).max(self.least_allowance).min(1e13);
                Instant::now() + std::time::Duration::from_nanos(nanos as u64)
            });
            let (grow, other) = if forward_first {
                (&mut fwd, &back)
            } else {
                (&mut back, &fwd)
            };
            match self.expand(grow, other, allowance) {
                Ok(()) => {}
                Err(Stop::Slow(rate)) => grow.rate = Some(rate),
                Err(Stop::Budget(Budget::Memory)) if forward_first => blocked.0 = true,
                Err(Stop::Budget(Budget::Memory)) => blocked.1 = true,
                Err(Stop::Budget(b)) => {
                    return Ok(self.report(MeetOutcome::Undecided(b), &fwd, &back));
                }
                Err(Stop::Met(c)) => {
                    let moves = u32::from(fwd.depth) + u32::from(back.depth) + 1;
                    // A contact that cannot be walked back to both ends is a bug.
                    let s = self.rebuild(&fwd, &back, forward_first, &c, moves).ok_or(
                        Error::Internal("a meeting could not be rebuilt into a solution"),
                    )?;
                    return Ok(self.report(MeetOutcome::Optimal(s), &fwd, &back));
                }
            }
        }
    }

    fn side(&mut self, way: Way, seeds: &[Bits<W>]) -> Side<W> {
        let mut table = Levels::new();
        let mut frontier = Vec::new();
        for &s in seeds {
            let c = self.canon.canonical(s);
            // The seeds are few: the first table never needs to grow past the budget's check.
            if table.insert(c, 0) == Ok(true) {
                frontier.push(c);
            }
        }
        Side {
            way,
            table,
            sizes: vec![frontier.len() as u64],
            frontier,
            depth: 0,
            rate: None,
        }
    }

    /// Nanoseconds a parent of `side`'s frontier takes, estimated on up to 64 parents spread
    /// over it and at most `2^16` children (a parent cut short counts whole, so a side whose
    /// parents have millions of children is priced high, not measured to the end).
    fn probe(&self, side: &Side<W>) -> f64 {
        let began = Instant::now();
        let step = (side.frontier.len() / 64).max(1);
        let mut scratch = Scratch::default();
        let (mut parents, mut children) = (0u32, 0u32);
        for &p in side.frontier.iter().step_by(step) {
            parents += 1;
            let cut = self.chains.moves(side.way, p, &mut scratch, |r| {
                std::hint::black_box(self.canon.canonical(r));
                children += 1;
                children >= 1 << 16
            });
            if cut {
                break;
            }
        }
        began.elapsed().as_nanos() as f64 / f64::from(parents.max(1))
    }

    /// Grows `side` by one level, checking every new position against `other`. A level that
    /// does not fit the memory budget is withdrawn whole (the side is as before it).
    fn expand(
        &mut self,
        side: &mut Side<W>,
        other: &Side<W>,
        allowance: Option<Instant>,
    ) -> std::result::Result<(), Stop<W>> {
        let began = Instant::now();
        // This level stops at the deadline or the allowance, or when cancelled.
        let stop_at = self.halt.sooner(allowance);
        let mut finished = 0usize;
        let depth = side.depth + 1;
        let frontier = std::mem::take(&mut side.frontier);
        let key = std::mem::size_of::<Bits<W>>();
        let mut next = Vec::new();
        side.sizes.push(0);
        for (i, chunk) in frontier.chunks(CHUNK).enumerate() {
            if stop_at.passed() {
                return Err(self.stop_late(side, frontier, &next, began, finished));
            }
            let this = &*self;
            let own = &side.table;
            // Each thread's children and chain buffers may take a share of what is left;
            // past it the level cannot fit. (One parent can have billions of children:
            // undoing chains of jumps from a single peg on a 45-hole triangle.)
            let share = self
                .max_memory
                .saturating_sub(side.table.bytes() + other.table.bytes())
                .saturating_sub((frontier.len() + next.len() + other.frontier.len()) * key)
                / (2 * rayon::current_num_threads());
            let over = AtomicBool::new(false);
            let late = AtomicBool::new(false);
            let done = AtomicUsize::new(0);
            type Part<W> = (Vec<Bits<W>>, Option<Contact<W>>, Scratch<W>, u32);
            // Per thread: its new children, a contact if one was met, the bytes of its buffers.
            type Done<W> = (Vec<Bits<W>>, Option<Contact<W>>, usize);
            let parts: Vec<Done<W>> = chunk
                .par_iter()
                .fold(
                    || (Vec::new(), None, Scratch::default(), 0),
                    |(mut out, mut hit, mut scratch, mut seen): Part<W>, &p| {
                        let stopped =
                            || over.load(Ordering::Relaxed) || late.load(Ordering::Relaxed);
                        if hit.is_none() && !stopped() {
                            scratch.limit = share;
                            this.chains.moves(side.way, p, &mut scratch, |r| {
                                // One parent may have millions of children: the clock is
                                // read every so many of them, not only between chunks.
                                seen = seen.wrapping_add(1);
                                if seen.is_multiple_of(1 << 14) && stop_at.passed() {
                                    late.store(true, Ordering::Relaxed);
                                    return true;
                                }
                                let c = this.canon.canonical(r);
                                if other.table.get(c).is_some() {
                                    hit = Some(Contact {
                                        parent: p,
                                        child: r,
                                    });
                                    return true;
                                }
                                if own.get(c).is_none() {
                                    out.push(c);
                                    if out.len().is_multiple_of(4096)
                                        && out.capacity() * key > share
                                    {
                                        over.store(true, Ordering::Relaxed);
                                        return true;
                                    }
                                }
                                false
                            });
                            if !stopped() {
                                done.fetch_add(1, Ordering::Relaxed);
                            }
                            if scratch.over || scratch.bytes() > share {
                                over.store(true, Ordering::Relaxed);
                            }
                        }
                        (out, hit, scratch, seen)
                    },
                )
                .map(|(out, hit, scratch, _)| (out, hit, scratch.bytes()))
                .collect();
            finished += done.load(Ordering::Relaxed);
            if late.load(Ordering::Relaxed) {
                return Err(self.stop_late(side, frontier, &next, began, finished));
            }
            if over.load(Ordering::Relaxed) {
                side.rollback(frontier, &next);
                return Err(Stop::Budget(Budget::Memory));
            }
            let mut parts = parts;
            if let Some(c) = parts.iter_mut().find_map(|p| p.1.take()) {
                side.frontier = frontier;
                return Err(Stop::Met(c));
            }
            // Capacities, not lengths: a vector holds up to twice what it uses.
            let buffered: usize = parts.iter().map(|p| p.0.capacity() * key + p.2).sum();
            let room = self
                .max_memory
                .saturating_sub(other.table.bytes() + other.frontier.len() * key)
                .saturating_sub((frontier.len() + next.len()) * key + buffered);
            side.table.depth.limit(room);
            for (out, _, _) in parts {
                for (k, c) in out.into_iter().enumerate() {
                    // Tens of millions of children may come from one chunk, and the table
                    // grows while they go in: the clock is read here too.
                    if k % (1 << 16) == 0 && stop_at.passed() {
                        return Err(self.stop_late(side, frontier, &next, began, finished));
                    }
                    match side.table.insert(c, depth) {
                        Ok(true) => next.push(c),
                        Ok(false) => {}
                        Err(Full) => {
                            side.rollback(frontier, &next);
                            return Err(Stop::Budget(Budget::Memory));
                        }
                    }
                }
            }
            let held = side.table.bytes()
                + other.table.bytes()
                + (frontier.len() + next.len() + other.frontier.len()) * key
                + buffered;
            self.peak = self.peak.max(held);
            *side.sizes.last_mut().expect("pushed above") = next.len() as u64;
            let forward = side.way == Way::Forward;
            let (mine, theirs) = (u32::from(side.depth), u32::from(other.depth));
            (self.progress)(&MeetProgress {
                depths: if forward {
                    (mine, theirs)
                } else {
                    (theirs, mine)
                },
                growing_forward: forward,
                done: (i * CHUNK + chunk.len()) as u64,
                frontier: frontier.len() as u64,
                table_bytes: side.table.bytes() + other.table.bytes(),
            });
        }
        // The first levels (a handful of starts or single pegs) say little about the cost per
        // position further on, so the rate is learnt from larger levels only.
        if frontier.len() >= 1024 {
            side.rate = Some(began.elapsed().as_nanos() as f64 / frontier.len() as f64);
        }
        side.frontier = next;
        side.depth = depth;
        Ok(())
    }

    /// Why a level stopped once its clock ran out: the deadline (the search ends; the level
    /// is only dropped from the sizes), or its allowance (the level is withdrawn from the
    /// table, and the time per parent seen so far returned).
    fn stop_late(
        &self,
        side: &mut Side<W>,
        frontier: Vec<Bits<W>>,
        added: &[Bits<W>],
        began: Instant,
        finished: usize,
    ) -> Stop<W> {
        if self.halt.passed() {
            side.abandon(frontier);
            return Stop::Budget(Budget::Time);
        }
        side.rollback(frontier, added);
        Stop::Slow(began.elapsed().as_nanos() as f64 / finished.max(1) as f64)
    }

    /// The actual position `from` steps to next on `way`, with the move's jumps in playing
    /// order, chosen so that its class lies in `table` at `depth`.
    fn step(
        &self,
        way: Way,
        from: Bits<W>,
        table: &Levels<W>,
        depth: u8,
    ) -> Option<(Bits<W>, Vec<Jump>)> {
        self.chains.traced(way, from, &|r| {
            table.get(self.canon.canonical(r)) == Some(depth)
        })
    }

    /// Rebuilds a solution through the contact: back to a start through the forward levels,
    /// on to a finish through the backward levels.
    fn rebuild(
        &self,
        fwd: &Side<W>,
        back: &Side<W>,
        forward_grew: bool,
        c: &Contact<W>,
        moves: u32,
    ) -> Option<MeetSolution> {
        // `a`: an actual position at forward depth `da`; `b`: one move on, at backward depth `db`.
        let (a, b) = if forward_grew {
            (c.parent, c.child)
        } else {
            (c.child, c.parent)
        };
        let (_, middle) = self.chains.traced(Way::Forward, a, &|r| r == b)?;
        let da = fwd.table.get(self.canon.canonical(a))?;
        let db = back.table.get(self.canon.canonical(b))?;
        if u32::from(da) + u32::from(db) + 1 != moves {
            return None;
        }
        let mut head = Vec::new();
        let mut p = a;
        for d in (0..da).rev() {
            let (q, jumps) = self.step(Way::Backward, p, &fwd.table, d)?;
            head.push(jumps);
            p = q;
        }
        let start = p;
        let mut jumps: Vec<Jump> = head.into_iter().rev().flatten().collect();
        jumps.extend(middle);
        let mut p = b;
        for d in (0..db).rev() {
            let (q, more) = self.step(Way::Forward, p, &back.table, d)?;
            jumps.extend(more);
            p = q;
        }
        Some(MeetSolution {
            start: start.resize(),
            jumps,
            moves,
            finish: p.resize(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fewest::{fewest_moves_by_winning_set, MovesOutcome};
    use crate::problem::Finish;

    fn meeting(name: &str, starts: &[Bits], finish: Finish) -> MeetReport {
        let board = Board::builtin(name).unwrap();
        let problem =
            Problem::with_starts(board, starts.iter().map(|s| s.resize()).collect(), finish)
                .unwrap();
        fewest_moves_meeting(&problem, &Limits::default()).unwrap()
    }

    /// The winning-set method and the meeting agree on every single problem of small boards.
    #[test]
    fn agrees_with_the_winning_set_method() {
        let diagonal = Board::parse("d", "lattice: diagonal\nooooo\nooooo\nooooo\n").unwrap();
        let boards =
            ["triangle4", "triangle5", "rect:3x4", "rect:4x4"].map(|n| Board::builtin(n).unwrap());
        for board in boards.iter().chain([&diagonal]) {
            let name = board.name();
            for e in board.each_hole() {
                let start = board.holes().without(e);
                for finish in [Finish::AnyOne, Finish::Holes(e.bit())] {
                    let problem = Problem::new(board, start, finish).unwrap();
                    let exhaustive = match fewest_moves_by_winning_set(&problem, &Limits::default())
                        .unwrap()
                        .outcome
                    {
                        MovesOutcome::Optimal(s) => Some(s.moves),
                        MovesOutcome::Impossible(_) => None,
                        other => panic!("{other:?}"),
                    };
                    let r = fewest_moves_meeting(&problem, &Limits::default()).unwrap();
                    // With no least allowance, a level that takes four times the other
                    // side's expected cost is withdrawn and grown again later: the same
                    // answer.
                    let hurried =
                        super::meeting(&problem, &Limits::default(), &|_| {}, 0.0).unwrap();
                    let moves = |o: &MeetOutcome| match o {
                        MeetOutcome::Optimal(s) => Some(s.moves),
                        _ => None,
                    };
                    assert_eq!(
                        (
                            moves(&hurried.outcome),
                            hurried.outcome == MeetOutcome::Impossible
                        ),
                        (moves(&r.outcome), r.outcome == MeetOutcome::Impossible),
                        "{name} {e:?} {finish:?}"
                    );
                    let got = match r.outcome {
                        MeetOutcome::Optimal(s) => {
                            assert_eq!(s.start, start.resize());
                            Some(s.moves)
                        }
                        MeetOutcome::Impossible => None,
                        MeetOutcome::Undecided(b) => panic!("{b:?}"),
                    };
                    assert_eq!(got, exhaustive, "{name} {e:?} {finish:?}");
                }
            }
        }
    }

    #[test]
    fn basic_game_of_small_triangles() {
        for (name, moves) in [("triangle4", 5), ("triangle5", 9), ("triangle6", 9)] {
            let board = Board::builtin(name).unwrap();
            let r = meeting(name, &single_vacancies(&board), Finish::AnyOne);
            let MeetOutcome::Optimal(s) = r.outcome else {
                panic!("{name}: {:?}", r.outcome)
            };
            assert_eq!((s.moves, r.lower_bound), (moves, moves), "{name}");
            assert_eq!(s.start.count() + 1, board.hole_count() as u32);
            assert_eq!(s.finish.count(), 1);
            assert_eq!(r.symmetries, 6);
        }
    }

    /// Undoing chains of jumps from one peg on the 45-hole triangle gives billions of
    /// positions from a single parent: the buffer of children honours the budget and the
    /// search stops undecided (it once grew past 23 GB under a 16 GB budget).
    #[test]
    fn one_parent_with_too_many_children_stops_within_the_budget() {
        let board = Board::builtin("triangle:9").unwrap();
        let limits = Limits {
            max_memory: 64 << 20,
            ..Limits::default()
        };
        let basic = Problem::with_starts(&board, single_vacancies(&board), Finish::AnyOne).unwrap();
        let r = fewest_moves_meeting(&basic, &limits).unwrap();
        assert_eq!(r.outcome, MeetOutcome::Undecided(Budget::Memory));
        assert!(r.lower_bound >= 1, "{}", r.lower_bound);
    }

    #[test]
    fn a_budget_leaves_a_proven_lower_bound() {
        let board = Board::builtin("triangle7").unwrap();
        let limits = Limits {
            max_memory: 1 << 20,
            ..Limits::default()
        };
        let basic = Problem::with_starts(&board, single_vacancies(&board), Finish::AnyOne).unwrap();
        let r = fewest_moves_meeting(&basic, &limits).unwrap();
        assert_eq!(r.outcome, MeetOutcome::Undecided(Budget::Memory));
        assert!(
            r.lower_bound >= 2 && r.lower_bound <= 12,
            "{}",
            r.lower_bound
        );
    }

    #[test]
    fn impossible_problems_are_exhausted() {
        let board = Board::builtin("triangle4").unwrap();
        // A corner vacancy cannot finish in the opposite corner's class... check with the
        // exhaustive method's verdict rather than assume which.
        let start = board.holes().without(board.hole("a1").unwrap());
        for h in board.each_hole() {
            let finish = Finish::Holes(h.bit());
            let problem = Problem::new(&board, start, finish).unwrap();
            let impossible = matches!(
                fewest_moves_by_winning_set(&problem, &Limits::default())
                    .unwrap()
                    .outcome,
                MovesOutcome::Impossible(_)
            );
            let r = meeting("triangle4", &[start.resize()], finish);
            assert_eq!(r.outcome == MeetOutcome::Impossible, impossible, "{h:?}");
        }
    }

    #[test]
    fn rejects_no_starts() {
        let board = Board::builtin("triangle5").unwrap();
        assert!(matches!(
            Problem::with_starts(board, Vec::new(), Finish::AnyOne),
            Err(Error::NoStarts)
        ));
    }
}
