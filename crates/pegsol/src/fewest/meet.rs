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

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::moves::move_count;
use crate::bitset::{Bits, Word};
use crate::board::Board;
use crate::error::{Error, Result};
use crate::jumps::Jump;
use crate::problem::{Budget, Limits, Problem};
use crate::replay::replay;
use crate::symmetry::Canonicalizer;
use crate::table::{Full, KeyMap};

/// A solution found by [`fewest_moves_meeting`], with the start it begins from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeetSolution {
    /// The starting position (one of the starts asked for).
    pub start: Bits,
    /// The jumps in order.
    pub jumps: Vec<Jump>,
    /// Moves: jumps not continuing the previous jump's peg.
    pub moves: u32,
    /// The final position (one of the finishes).
    pub finish: Bits,
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
    /// Positions up to symmetry first reached in `k` moves from the starts, per `k`
    /// (the last level counted only as far as it was expanded, when the search stopped in it).
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

/// The fewest moves from any of the problem's starts to its finish, proved by meeting in the
/// middle. With every single vacancy as the starts and `Finish::AnyOne` this is the shortest
/// solution of the board's basic game (OEIS A127500 on triangles).
///
/// `F(a)` holds the positions first reached in `a` moves from a start (a move ends wherever its
/// peg may stop), `B(b)` those first able to reach a finish in `b` moves (found by undoing
/// chains from the finishes), both up to the symmetries that keep the starts and the finishes.
/// The invariant is that no position is in both `F(<= a)` and `B(<= b)`, which proves every
/// solution longer than `a + b` moves. Each step grows the side that is cheaper to grow and
/// checks its new positions against the other side; the first contact is a solution of
/// exactly `a + b + 1` moves. A start can only reach finishes of its own position class, so
/// the others are dropped first. The solution is rebuilt from the level tables, replayed by
/// the independent checker and its moves recounted.
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
    problem.one_word()?;
    let began = Instant::now();
    let board = problem.board();
    let starts = problem.starts();
    let mut targets: Vec<Bits> = problem.targets();
    targets.sort_unstable();
    targets.dedup();
    // A jump keeps the position class, so each start can only reach finishes of its own class:
    // the rest are dropped on both sides (and an impossible problem is answered at once).
    let classes = board.classes();
    let start_classes: Vec<_> = starts.iter().map(|&s| classes.class_of(s)).collect();
    targets.retain(|&t| start_classes.contains(&classes.class_of(t)));
    let starts: Vec<Bits> = starts
        .iter()
        .copied()
        .filter(|&s| {
            targets
                .iter()
                .any(|&t| classes.class_of(t) == classes.class_of(s))
        })
        .collect();
    let sym = board.symmetries();
    let mut group = sym.stabilizer(&starts);
    group.retain(|g| sym.stabilizer(&targets).contains(g));
    let meet = Meet::new(board, sym.canonicalizer(&group), limits, began, progress);
    let mut report = meet.run(&starts, &targets)?;
    report.symmetries = group.len();
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

/// The level of each position reached, with the fewest and most pegs of any key, to skip
/// lookups that cannot hit.
struct Levels {
    depth: KeyMap<u8>,
    pegs: (u32, u32),
}

impl Levels {
    fn new() -> Levels {
        Levels {
            depth: KeyMap::with_capacity(512),
            pegs: (u32::MAX, 0),
        }
    }

    fn bytes(&self) -> usize {
        self.depth.bytes()
    }

    #[inline]
    fn get(&self, key: u64) -> Option<u8> {
        let n = key.count_ones();
        if n < self.pegs.0 || n > self.pegs.1 {
            return None;
        }
        self.depth.get(key)
    }

    /// Adds `key` at `depth` unless present; `Err` when the table's limit is reached.
    fn insert(&mut self, key: u64, depth: u8) -> std::result::Result<bool, Full> {
        let added = self.depth.insert(key, depth)?;
        let n = key.count_ones();
        self.pegs = (self.pegs.0.min(n), self.pegs.1.max(n));
        Ok(added)
    }
}

/// Which way a side searches.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    /// From the starts, playing jumps.
    Forward,
    /// From the finishes, undoing jumps.
    Backward,
}

/// One side of the search.
struct Side {
    way: Way,
    table: Levels,
    frontier: Vec<u64>,
    /// Completed levels.
    depth: u8,
    /// Classes first reached per level.
    sizes: Vec<u64>,
    /// Measured nanoseconds per frontier position in this side's last large expansion.
    rate: f64,
}

impl Side {
    fn cost(&self) -> f64 {
        self.frontier.len() as f64 * self.rate
    }
}

/// A contact between the sides: a parent on the growing side's frontier and a child (an
/// actual position reached from it in one move) that the other side holds.
struct Contact {
    parent: u64,
    child: u64,
}

/// Why a search stopped without an answer.
enum Stop {
    Budget(Budget),
    Met(Contact),
}

struct Meet<'p> {
    progress: &'p (dyn Fn(&MeetProgress) + Sync),
    by_from: Vec<Vec<Jump>>,
    by_to: Vec<Vec<Jump>>,
    canon: Canonicalizer,
    max_memory: usize,
    deadline: Option<Instant>,
    peak: usize,
}

impl<'p> Meet<'p> {
    fn new(
        board: &Board,
        canon: Canonicalizer,
        limits: &Limits,
        began: Instant,
        progress: &'p (dyn Fn(&MeetProgress) + Sync),
    ) -> Meet<'p> {
        let mut by_from = vec![Vec::new(); board.hole_count()];
        let mut by_to = vec![Vec::new(); board.hole_count()];
        for &j in board.jumps() {
            by_from[j.from().index()].push(j);
            by_to[j.to().index()].push(j);
        }
        Meet {
            progress,
            by_from,
            by_to,
            canon,
            max_memory: limits.max_memory,
            deadline: limits.timeout.map(|t| began + t),
            peak: 0,
        }
    }

    /// The position `jump` leads to from `q` on `way`, and the hole its peg then stands on.
    #[inline]
    fn one(way: Way, q: u64, j: Jump) -> Option<(u64, usize)> {
        match way {
            Way::Forward => j
                .is_legal(Bits(q))
                .then(|| (j.apply(Bits(q)).raw(), j.to().index())),
            Way::Backward => {
                // Undo: the peg on `to` goes back to `from` and the jumped peg returns.
                let need = j.from().bit().union(j.over().bit()).raw();
                (q & need == 0).then(|| ((q | need) & !j.to().bit().raw(), j.from().index()))
            }
        }
    }

    /// The jumps that can continue (or undo) a chain whose peg stands on `at`.
    fn jumps_at(&self, way: Way, at: usize) -> &[Jump] {
        match way {
            Way::Forward => &self.by_from[at],
            Way::Backward => &self.by_to[at],
        }
    }

    /// Calls `f` with every position one move from `p` on `way` (with repeats, allocating
    /// nothing past the caller's `stack`); stops when `f` returns true.
    fn moves(
        &self,
        way: Way,
        p: u64,
        stack: &mut Vec<(u64, u8)>,
        mut f: impl FnMut(u64) -> bool,
    ) -> bool {
        for h in Bits(p).iter() {
            stack.clear();
            stack.push((p, h.index() as u8));
            while let Some((q, at)) = stack.pop() {
                for &j in self.jumps_at(way, usize::from(at)) {
                    if let Some((r, next)) = Self::one(way, q, j) {
                        if f(r) {
                            return true;
                        }
                        stack.push((r, next as u8));
                    }
                }
            }
        }
        false
    }

    /// A move from `p` on `way` to a position accepted by `want`, with its jumps in playing
    /// order (used only to rebuild a solution, so it may recurse and allocate).
    fn traced(&self, way: Way, p: u64, want: &dyn Fn(u64) -> bool) -> Option<(u64, Vec<Jump>)> {
        fn go(
            m: &Meet<'_>,
            way: Way,
            q: u64,
            at: usize,
            path: &mut Vec<Jump>,
            want: &dyn Fn(u64) -> bool,
        ) -> Option<u64> {
            for &j in m.jumps_at(way, at) {
                if let Some((r, next)) = Meet::one(way, q, j) {
                    path.push(j);
                    if want(r) {
                        return Some(r);
                    }
                    if let Some(found) = go(m, way, r, next, path, want) {
                        return Some(found);
                    }
                    path.pop();
                }
            }
            None
        }
        let mut path = Vec::new();
        for h in Bits(p).iter() {
            if let Some(r) = go(self, way, p, h.index(), &mut path, want) {
                if way == Way::Backward {
                    // Undone jumps come last-played first.
                    path.reverse();
                }
                return Some((r, path));
            }
        }
        None
    }

    fn run(mut self, starts: &[Bits], targets: &[Bits]) -> Result<MeetReport> {
        let mut fwd = self.side(Way::Forward, starts);
        let mut back = self.side(Way::Backward, targets);
        let report = |s: &Self, outcome, fwd: &Side, back: &Side| MeetReport {
            outcome,
            lower_bound: u32::from(fwd.depth) + u32::from(back.depth) + 1,
            forward: fwd.sizes.clone(),
            backward: back.sizes.clone(),
            depths: (u32::from(fwd.depth), u32::from(back.depth)),
            symmetries: 0,
            peak_bytes: s.peak,
            millis: 0,
        };
        if let Some(&x) = starts
            .iter()
            .find(|&&x| back.table.get(self.canon.canonical(x).raw()).is_some())
        {
            // A start is already a finish (the finishes are closed under the group).
            let solution = MeetSolution {
                start: x,
                jumps: Vec::new(),
                moves: 0,
                finish: x,
            };
            let mut r = report(&self, MeetOutcome::Optimal(solution), &fwd, &back);
            r.lower_bound = 0;
            return Ok(r);
        }
        loop {
            if fwd.frontier.is_empty() || back.frontier.is_empty() {
                return Ok(report(&self, MeetOutcome::Impossible, &fwd, &back));
            }
            let forward_first = fwd.cost() <= back.cost();
            let (grow, other) = if forward_first {
                (&mut fwd, &back)
            } else {
                (&mut back, &fwd)
            };
            match self.expand(grow, other) {
                Ok(()) => {}
                Err(Stop::Budget(b)) => {
                    return Ok(report(&self, MeetOutcome::Undecided(b), &fwd, &back));
                }
                Err(Stop::Met(c)) => {
                    let moves = u32::from(fwd.depth) + u32::from(back.depth) + 1;
                    // A contact that cannot be walked back to both ends is a bug.
                    let s = self.rebuild(&fwd, &back, forward_first, &c, moves).ok_or(
                        Error::Internal("a meeting could not be rebuilt into a solution"),
                    )?;
                    return Ok(report(&self, MeetOutcome::Optimal(s), &fwd, &back));
                }
            }
        }
    }

    fn side(&mut self, way: Way, seeds: &[Bits]) -> Side {
        let mut table = Levels::new();
        let mut frontier = Vec::new();
        for &s in seeds {
            let c = self.canon.canonical(s).raw();
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
            rate: 1.0,
        }
    }

    /// Grows `side` by one level, checking every new position against `other`.
    fn expand(&mut self, side: &mut Side, other: &Side) -> std::result::Result<(), Stop> {
        let began = Instant::now();
        let depth = side.depth + 1;
        let frontier = std::mem::take(&mut side.frontier);
        let mut next = Vec::new();
        side.sizes.push(0);
        for (i, chunk) in frontier.chunks(CHUNK).enumerate() {
            if self.deadline.is_some_and(|d| Instant::now() > d) {
                return Err(Stop::Budget(Budget::Time));
            }
            let this = &*self;
            let own = &side.table;
            // Each thread's children may take a share of what is left; past it the level
            // cannot fit, so the search stops there, undecided. (One parent can have billions
            // of children: undoing chains of jumps from a single peg on a 45-hole triangle.)
            let share = self
                .max_memory
                .saturating_sub(side.table.bytes() + other.table.bytes())
                .saturating_sub((frontier.len() + next.len() + other.frontier.len()) * 8)
                / (2 * rayon::current_num_threads());
            let over = AtomicBool::new(false);
            let parts: Vec<(Vec<u64>, Option<Contact>)> = chunk
                .par_iter()
                .fold(
                    || (Vec::new(), None, Vec::new()),
                    |(mut out, mut hit, mut stack): (Vec<u64>, Option<Contact>, Vec<_>), &p| {
                        if hit.is_none() && !over.load(Ordering::Relaxed) {
                            this.moves(side.way, p, &mut stack, |r| {
                                let c = this.canon.canonical(Bits(r)).raw();
                                if other.table.get(c).is_some() {
                                    hit = Some(Contact {
                                        parent: p,
                                        child: r,
                                    });
                                    return true;
                                }
                                if own.get(c).is_none() {
                                    out.push(c);
                                    if out.len().is_multiple_of(4096) && out.capacity() * 8 > share
                                    {
                                        over.store(true, Ordering::Relaxed);
                                        return true;
                                    }
                                }
                                false
                            });
                        }
                        (out, hit, stack)
                    },
                )
                .map(|(out, hit, _)| (out, hit))
                .collect();
            if over.load(Ordering::Relaxed) {
                return Err(Stop::Budget(Budget::Memory));
            }
            let buffered: usize = parts.iter().map(|p| p.0.capacity() * 8).sum();
            let mut parts = parts;
            if let Some(c) = parts.iter_mut().find_map(|p| p.1.take()) {
                side.frontier = frontier;
                return Err(Stop::Met(c));
            }
            let room = self
                .max_memory
                .saturating_sub(other.table.bytes() + other.frontier.len() * 8)
                .saturating_sub(frontier.len() * 8 + next.len() * 8 + buffered);
            side.table.depth.limit(room);
            for (out, _) in parts {
                for c in out {
                    match side.table.insert(c, depth) {
                        Ok(true) => next.push(c),
                        Ok(false) => {}
                        Err(Full) => return Err(Stop::Budget(Budget::Memory)),
                    }
                }
            }
            let held = side.table.bytes()
                + other.table.bytes()
                + (frontier.len() + next.len() + other.frontier.len()) * 8
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
            side.rate = began.elapsed().as_nanos() as f64 / frontier.len() as f64;
        }
        side.frontier = next;
        side.depth = depth;
        Ok(())
    }

    /// The actual position `from` steps to next on `way`, with the move's jumps in playing
    /// order, chosen so that its class lies in `table` at `depth`.
    fn step(&self, way: Way, from: u64, table: &Levels, depth: u8) -> Option<(u64, Vec<Jump>)> {
        self.traced(way, from, &|r| {
            table.get(self.canon.canonical(Bits(r)).raw()) == Some(depth)
        })
    }

    /// The jumps of one move from `from` to exactly `to`.
    fn link(&self, from: u64, to: u64) -> Option<Vec<Jump>> {
        self.traced(Way::Forward, from, &|r| r == to)
            .map(|(_, jumps)| jumps)
    }

    /// Rebuilds a solution through the contact: back to a start through the forward levels,
    /// on to a finish through the backward levels.
    fn rebuild(
        &self,
        fwd: &Side,
        back: &Side,
        forward_grew: bool,
        c: &Contact,
        moves: u32,
    ) -> Option<MeetSolution> {
        // `a`: an actual position at forward depth `da`; `b`: one move on, at backward depth `db`.
        let (a, b) = if forward_grew {
            (c.parent, c.child)
        } else {
            (c.child, c.parent)
        };
        let middle = self.link(a, b)?;
        let da = fwd.table.get(self.canon.canonical(Bits(a)).raw())?;
        let db = back.table.get(self.canon.canonical(Bits(b)).raw())?;
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
            start: Bits(start),
            jumps,
            moves,
            finish: Bits(p),
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
