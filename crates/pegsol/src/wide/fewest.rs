//! Fewest moves on wide boards, proved by meeting in the middle (the method of
//! [`fewest_moves_meeting`](crate::fewest::fewest_moves_meeting), on positions of 1, 2 or 4
//! words).
//!
//! A move is a chain of jumps by one peg. `F(a)` holds the positions first reached in `a` moves
//! from a start, `B(b)` those from which a finish is first reachable in `b` moves (found by
//! undoing chains from the finishes), both up to the symmetries that keep the starts and the
//! finishes. The invariant is that no position lies in both `F(<= a)` and `B(<= b)`, which
//! proves every solution longer than `a + b` moves; each step grows the cheaper side and checks
//! its new positions against the other, and the first contact is a solution of exactly
//! `a + b + 1` moves. When a budget runs out, `a + b + 1` is still a proven lower bound.
//!
//! The solution is rebuilt from the level tables, replayed by the coordinate checker
//! [`replay`](super::replay) and its moves recounted before it is returned.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::solve::{finish_targets, WideFinish, WideLimits};
use super::tables::{stabilizer, Build, Canon, Tables};
use crate::bitset::Bits;
use crate::bitset::Pegs;
use crate::board::Board;
use crate::error::{Error, Result};
use crate::jumps::Jump;
use crate::problem::Budget;
use crate::replay::replay;

/// A solution with its start, found by [`fewest_moves_wide`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WideMoves {
    /// The starting position (one of the starts asked for).
    pub start: Pegs,
    /// The jumps in order.
    pub jumps: Vec<Jump>,
    /// Moves: jumps not continuing the previous jump's peg.
    pub moves: u32,
    /// The final position (one of the finishes).
    pub finish: Pegs,
}

/// The answer of [`fewest_moves_wide`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WideMovesOutcome {
    /// A solution with the fewest moves over every start and finish; none has fewer.
    Optimal(WideMoves),
    /// No start reaches any finish (position classes, or a side ran dry).
    Impossible,
    /// A budget ran out; the report's lower bound still holds.
    Undecided(Budget),
}

/// An outcome with the evidence for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WideMovesReport {
    /// The answer.
    pub outcome: WideMovesOutcome,
    /// Proven: every solution needs at least this many moves.
    pub lower_bound: u32,
    /// Positions up to symmetry first reached in `k` moves from the starts, per `k`.
    pub forward: Vec<u64>,
    /// Positions up to symmetry first able to reach a finish in `k` moves, per `k`.
    pub backward: Vec<u64>,
    /// Levels completed from the starts and from the finishes.
    pub depths: (u32, u32),
    /// Order of the symmetry group used.
    pub symmetries: usize,
    /// Most bytes the level tables and frontiers held.
    pub peak_bytes: usize,
    /// Wall-clock milliseconds.
    pub millis: u64,
    /// Words per position (1, 2 or 4).
    pub words: usize,
}

/// Where a search stands, reported after every chunk of a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WideMovesProgress {
    /// Levels completed from the starts and from the finishes.
    pub depths: (u32, u32),
    /// Whether the level being grown is on the starts' side.
    pub growing_forward: bool,
    /// Positions of the frontier expanded so far.
    pub done: u64,
    /// Positions of the frontier in all.
    pub frontier: u64,
    /// Bytes the level tables hold.
    pub table_bytes: usize,
}

/// The number of moves in a line of jumps: a jump that starts where the previous one landed
/// continues its move.
#[must_use]
pub fn wide_move_count(jumps: &[Jump]) -> u32 {
    let mut moves = 0;
    let mut last = None;
    for j in jumps {
        if last != Some(j.from()) {
            moves += 1;
        }
        last = Some(j.to());
    }
    moves
}

/// The fewest moves from any of `starts` to `finish` on a wide board, proved by meeting in
/// the middle within `limits`. With every single vacancy as the starts and one peg anywhere
/// as the finish, this is the board's basic game (OEIS A127500 on triangles).
///
/// ```
/// use pegsol::{fewest_moves_wide, Hole, Board, WideFinish, WideLimits, WideMovesOutcome};
/// let board = Board::builtin("triangle:5")?;
/// let start = board.holes().without(board.hole("a1")?);
/// let report =
///     fewest_moves_wide(&board, &[start], &WideFinish::Pegs(1), &WideLimits::default(), &|_| {})?;
/// let WideMovesOutcome::Optimal(s) = report.outcome else { panic!("solvable") };
/// assert_eq!((s.moves, report.lower_bound), (10, 10)); // from the corner; the basic game (any vacancy) takes 9
/// # Ok::<(), pegsol::Error>(())
/// ```
///
/// # Errors
///
/// No starts, a start or finish off the board, an empty finish, a finish with more pegs than
/// a start, a finish of `k` pegs anywhere standing for too many positions, or a solution that
/// fails its independent check (a bug, [`Error::Internal`]).
pub fn fewest_moves_wide(
    board: &Board,
    starts: &[Pegs],
    finish: &WideFinish,
    limits: &WideLimits,
    progress: &(dyn Fn(&WideMovesProgress) + Sync),
) -> Result<WideMovesReport> {
    let began = Instant::now();
    if starts.is_empty() {
        return Err(Error::NoStarts);
    }
    let mut targets = Vec::new();
    for &s in starts {
        targets = finish_targets(board, s, finish, true)?;
    }
    targets.sort_unstable();
    targets.dedup();
    // A jump keeps the position class: each start can reach only finishes of its own class.
    let start_classes: Vec<crate::Class> = starts
        .iter()
        .map(|&s| board.classes().class_of(s))
        .collect();
    targets.retain(|&t| start_classes.contains(&board.classes().class_of(t)));
    let mut starts: Vec<Pegs> = starts
        .iter()
        .copied()
        .filter(|&s| {
            let class = board.classes().class_of(s);
            targets
                .iter()
                .any(|&t| board.classes().class_of(t) == class)
        })
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let group = stabilizer(board, &[&starts, &targets]);
    let mut report = match board.words() {
        1 => Meet::<1>::new(board, &group, limits, began, progress).run(&starts, &targets)?,
        2 => Meet::<2>::new(board, &group, limits, began, progress).run(&starts, &targets)?,
        _ => Meet::<4>::new(board, &group, limits, began, progress).run(&starts, &targets)?,
    };
    report.symmetries = group.len();
    report.words = board.words();
    report.millis = began.elapsed().as_millis() as u64;
    if let WideMovesOutcome::Optimal(s) = &report.outcome {
        // The independent check: replay by coordinates, land on a finish, recount the moves.
        let end = replay(board, s.start, &s.jumps)?;
        let ok = end == s.finish
            && targets.contains(&end)
            && starts.contains(&s.start)
            && wide_move_count(&s.jumps) == s.moves
            && s.moves == report.lower_bound;
        if !ok {
            return Err(Error::Internal(
                "a shortest wide solution failed its replay",
            ));
        }
    }
    Ok(report)
}

/// Parents per chunk: enough for both cores, small enough to bound the children buffered.
const CHUNK: usize = 1 << 13;

/// The level of each position reached, with the fewest and most pegs of any key, to skip
/// lookups that cannot hit.
struct Levels<const W: usize> {
    depth: HashMap<Bits<[u64; W]>, u8, Build>,
    pegs: (u32, u32),
}

impl<const W: usize> Levels<W> {
    const ENTRY: usize = std::mem::size_of::<(Bits<[u64; W]>, u8)>() + 1;

    /// The table's bytes: a hash map's capacity is 7/8 of its buckets.
    fn bytes(&self) -> usize {
        self.depth.capacity() / 7 * 8 * Self::ENTRY
    }

    #[inline]
    fn get(&self, key: &Bits<[u64; W]>) -> Option<u8> {
        let n = key.count();
        if n < self.pegs.0 || n > self.pegs.1 {
            return None;
        }
        self.depth.get(key).copied()
    }

    /// The most bytes the table takes while `more` entries are added: past its capacity it
    /// grows to the next power of two of buckets (at 7/8 full), and while it moves its
    /// entries the old buckets are held too.
    fn bytes_with(&self, more: usize) -> usize {
        let need = self.depth.len() + more;
        if need <= self.depth.capacity() {
            self.bytes()
        } else {
            (need * 8 / 7).next_power_of_two() * Self::ENTRY + self.bytes()
        }
    }

    fn insert(&mut self, key: Bits<[u64; W]>, depth: u8) -> bool {
        let n = key.count();
        self.pegs = (self.pegs.0.min(n), self.pegs.1.max(n));
        match self.depth.entry(key) {
            std::collections::hash_map::Entry::Occupied(_) => false,
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(depth);
                true
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    /// From the starts, playing jumps.
    Forward,
    /// From the finishes, undoing jumps.
    Backward,
}

struct Side<const W: usize> {
    way: Way,
    table: Levels<W>,
    frontier: Vec<Bits<[u64; W]>>,
    depth: u8,
    sizes: Vec<u64>,
    /// Nanoseconds per frontier position in this side's last large expansion.
    rate: f64,
}

impl<const W: usize> Side<W> {
    fn cost(&self) -> f64 {
        self.frontier.len() as f64 * self.rate
    }

    /// Undoes a level that did not fit: its positions leave the table, its size the list,
    /// and the frontier is the one it was grown from, so the side is as before the attempt.
    fn rollback(&mut self, frontier: Vec<Bits<[u64; W]>>, added: &[Bits<[u64; W]>]) {
        for c in added {
            self.table.depth.remove(c);
        }
        self.sizes.pop();
        self.frontier = frontier;
    }
}

/// A thread's buffers for following chains.
#[derive(Default)]
struct Scratch<const W: usize> {
    stack: Vec<(Bits<[u64; W]>, u16)>,
    seen: std::collections::HashSet<(Bits<[u64; W]>, u16), Build>,
}

impl<const W: usize> Scratch<W> {
    fn bytes(&self) -> usize {
        self.stack.capacity() * std::mem::size_of::<(Bits<[u64; W]>, u16)>()
            + self.seen.capacity() * (std::mem::size_of::<(Bits<[u64; W]>, u16)>() + 1)
    }
}

/// A parent on the growing side's frontier and an actual child the other side holds.
struct Contact<const W: usize> {
    parent: Bits<[u64; W]>,
    child: Bits<[u64; W]>,
}

enum Stop<const W: usize> {
    Budget(Budget),
    Met(Contact<W>),
}

struct Meet<'p, const W: usize> {
    tables: Tables<W>,
    canon: Canon<W>,
    progress: &'p (dyn Fn(&WideMovesProgress) + Sync),
    max_memory: usize,
    deadline: Option<Instant>,
    peak: usize,
    /// The most pegs of a start and the fewest of a finish: no position of a solution lies
    /// outside them. Undone chains would otherwise add pegs without end on a sparse board.
    pegs: (u32, u32),
}

impl<'p, const W: usize> Meet<'p, W> {
    fn new(
        board: &Board,
        group: &[usize],
        limits: &WideLimits,
        began: Instant,
        progress: &'p (dyn Fn(&WideMovesProgress) + Sync),
    ) -> Self {
        Meet {
            tables: Tables::new(board),
            canon: Canon::new(board, group),
            progress,
            // What the tables and buffers are counted to take: the process was measured to
            // hold 1.7 to 1.8 times that (the threads' allocator arenas, growing vectors), so
            // half the budget keeps its peak within the budget.
            max_memory: limits.max_memory / 2,
            deadline: limits.timeout.map(|t| began + t),
            peak: 0,
            pegs: (u32::MAX, 0),
        }
    }

    /// The position jump `k` leads to from `q` on `way`, and the hole its peg then stands on.
    #[inline]
    fn one(&self, way: Way, q: Bits<[u64; W]>, k: u32) -> Option<(Bits<[u64; W]>, usize)> {
        let t = &self.tables;
        let j = t.jumps[k as usize];
        match way {
            Way::Forward => {
                (t.needs[k as usize].is_subset(q) && !q.contains(j.to()) && q.count() > self.pegs.0)
                    .then(|| (q.xor(t.flips[k as usize]), j.to().index()))
            }
            // Undo: the peg on `to` goes back to `from` and the jumped peg returns.
            Way::Backward => (q.contains(j.to())
                && t.needs[k as usize].is_disjoint(q)
                && q.count() < self.pegs.1)
                .then(|| (q.xor(t.flips[k as usize]), j.from().index())),
        }
    }

    /// The jumps that can continue (or undo) a chain whose peg stands on `at`.
    fn jumps_at(&self, way: Way, at: usize) -> &[u32] {
        match way {
            Way::Forward => &self.tables.out_of[at],
            Way::Backward => &self.tables.into[at],
        }
    }

    /// Calls `f` with every position one move from `p` on `way`; stops when `f` returns true.
    /// Chains that reach the same position with the peg on the same hole go on alike, so each
    /// such state is followed once (`seen`): undoing chains on a sparse board of 66 holes
    /// branches too much to follow every order of the same jumps.
    fn moves(
        &self,
        way: Way,
        p: Bits<[u64; W]>,
        scratch: &mut Scratch<W>,
        mut f: impl FnMut(Bits<[u64; W]>) -> bool,
    ) -> bool {
        let Scratch { stack, seen } = scratch;
        for h in p.iter() {
            stack.clear();
            seen.clear();
            stack.push((p, h.index() as u16));
            while let Some((q, at)) = stack.pop() {
                for &k in self.jumps_at(way, usize::from(at)) {
                    if let Some((r, next)) = self.one(way, q, k) {
                        if !seen.insert((r, next as u16)) {
                            continue;
                        }
                        if f(r) {
                            return true;
                        }
                        stack.push((r, next as u16));
                    }
                }
            }
        }
        false
    }

    /// A move from `p` on `way` to a position accepted by `want`, with its jumps in playing
    /// order (only to rebuild a solution, so it may recurse and allocate).
    fn traced(
        &self,
        way: Way,
        p: Bits<[u64; W]>,
        want: &dyn Fn(Bits<[u64; W]>) -> bool,
    ) -> Option<(Bits<[u64; W]>, Vec<u32>)> {
        fn go<const W: usize>(
            m: &Meet<'_, W>,
            way: Way,
            q: Bits<[u64; W]>,
            at: usize,
            path: &mut Vec<u32>,
            want: &dyn Fn(Bits<[u64; W]>) -> bool,
        ) -> Option<Bits<[u64; W]>> {
            for &k in m.jumps_at(way, at) {
                if let Some((r, next)) = m.one(way, q, k) {
                    path.push(k);
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
        for h in p.iter() {
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

    fn report(&self, outcome: WideMovesOutcome, fwd: &Side<W>, back: &Side<W>) -> WideMovesReport {
        WideMovesReport {
            outcome,
            lower_bound: u32::from(fwd.depth) + u32::from(back.depth) + 1,
            forward: fwd.sizes.clone(),
            backward: back.sizes.clone(),
            depths: (u32::from(fwd.depth), u32::from(back.depth)),
            symmetries: 0,
            peak_bytes: self.peak,
            millis: 0,
            words: W,
        }
    }

    fn run(mut self, starts: &[Pegs], targets: &[Pegs]) -> Result<WideMovesReport> {
        let starts: Vec<Bits<[u64; W]>> = starts.iter().map(|s| s.resize()).collect();
        let targets: Vec<Bits<[u64; W]>> = targets.iter().map(|s| s.resize()).collect();
        self.pegs = (
            targets.iter().map(|s| s.count()).min().unwrap_or(0),
            starts.iter().map(|s| s.count()).max().unwrap_or(0),
        );
        let mut fwd = self.side(Way::Forward, &starts);
        let mut back = self.side(Way::Backward, &targets);
        if let Some(&x) = starts
            .iter()
            .find(|&&x| back.table.get(&self.canon.canonical(x)).is_some())
        {
            // A start is already a finish (the finishes are closed under the group).
            let solution = WideMoves {
                start: x.resize(),
                jumps: Vec::new(),
                moves: 0,
                finish: x.resize(),
            };
            let mut r = self.report(WideMovesOutcome::Optimal(solution), &fwd, &back);
            r.lower_bound = 0;
            return Ok(r);
        }
        // A side whose next level did not fit stops growing; the other may still grow (and
        // raise the lower bound) until it does not fit either.
        let mut blocked = (false, false);
        loop {
            if fwd.frontier.is_empty() || back.frontier.is_empty() {
                return Ok(self.report(WideMovesOutcome::Impossible, &fwd, &back));
            }
            let forward_first = match blocked {
                (true, true) => {
                    return Ok(self.report(
                        WideMovesOutcome::Undecided(Budget::Memory),
                        &fwd,
                        &back,
                    ));
                }
                (true, false) => false,
                (false, true) => true,
                (false, false) => fwd.cost() <= back.cost(),
            };
            let (grow, other) = if forward_first {
                (&mut fwd, &back)
            } else {
                (&mut back, &fwd)
            };
            match self.expand(grow, other) {
                Ok(()) => {}
                Err(Stop::Budget(Budget::Memory)) if forward_first => blocked.0 = true,
                Err(Stop::Budget(Budget::Memory)) => blocked.1 = true,
                Err(Stop::Budget(b)) => {
                    return Ok(self.report(WideMovesOutcome::Undecided(b), &fwd, &back));
                }
                Err(Stop::Met(c)) => {
                    let moves = u32::from(fwd.depth) + u32::from(back.depth) + 1;
                    let s = self.rebuild(&fwd, &back, forward_first, &c, moves).ok_or(
                        Error::Internal("a meeting could not be rebuilt into a solution"),
                    )?;
                    return Ok(self.report(WideMovesOutcome::Optimal(s), &fwd, &back));
                }
            }
        }
    }

    fn side(&mut self, way: Way, seeds: &[Bits<[u64; W]>]) -> Side<W> {
        let mut table = Levels {
            depth: HashMap::default(),
            pegs: (u32::MAX, 0),
        };
        let mut frontier = Vec::new();
        for &s in seeds {
            let c = self.canon.canonical(s);
            if table.insert(c, 0) {
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
    fn expand(&mut self, side: &mut Side<W>, other: &Side<W>) -> std::result::Result<(), Stop<W>> {
        let began = Instant::now();
        let depth = side.depth + 1;
        let frontier = std::mem::take(&mut side.frontier);
        let key = std::mem::size_of::<Bits<[u64; W]>>();
        let mut next = Vec::new();
        side.sizes.push(0);
        for (i, chunk) in frontier.chunks(CHUNK).enumerate() {
            if self.deadline.is_some_and(|d| Instant::now() > d) {
                side.frontier = frontier;
                return Err(Stop::Budget(Budget::Time));
            }
            let this = &*self;
            let own = &side.table;
            // Each thread's children and chain buffers may take a share of what is left;
            // past it the level cannot fit, so the search stops there, undecided.
            let share = self
                .max_memory
                .saturating_sub(side.table.bytes() + other.table.bytes())
                .saturating_sub((frontier.len() + next.len() + other.frontier.len()) * key)
                / (2 * rayon::current_num_threads());
            let over = AtomicBool::new(false);
            type Part<const W: usize> = (Vec<Bits<[u64; W]>>, Option<Contact<W>>, Scratch<W>);
            let parts: Vec<(Vec<super::Set<W>>, Option<Contact<W>>)> = chunk
                .par_iter()
                .fold(
                    || (Vec::new(), None, Scratch::default()),
                    |(mut out, mut hit, mut scratch): Part<W>, &p| {
                        if hit.is_none() && !over.load(Ordering::Relaxed) {
                            this.moves(side.way, p, &mut scratch, |r| {
                                let c = this.canon.canonical(r);
                                if other.table.get(&c).is_some() {
                                    hit = Some(Contact {
                                        parent: p,
                                        child: r,
                                    });
                                    return true;
                                }
                                if own.get(&c).is_none() {
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
                            if scratch.bytes() > share {
                                over.store(true, Ordering::Relaxed);
                            }
                        }
                        (out, hit, scratch)
                    },
                )
                .map(|(out, hit, _)| (out, hit))
                .collect();
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
            let buffered: usize = parts.iter().map(|p| p.0.capacity() * key).sum();
            let incoming: usize = parts.iter().map(|p| p.0.len()).sum();
            let held_else = other.table.bytes()
                + (other.frontier.capacity() + frontier.capacity() + next.capacity() + incoming)
                    * key
                + buffered;
            // The table after these children, at worst all new, with the rest held.
            if side.table.bytes_with(incoming) + held_else > self.max_memory {
                side.rollback(frontier, &next);
                return Err(Stop::Budget(Budget::Memory));
            }
            for (out, _) in parts {
                for c in out {
                    if side.table.insert(c, depth) {
                        next.push(c);
                    }
                }
            }
            self.peak = self.peak.max(side.table.bytes() + held_else);
            *side.sizes.last_mut().expect("pushed above") = next.len() as u64;
            let forward = side.way == Way::Forward;
            let (mine, theirs) = (u32::from(side.depth), u32::from(other.depth));
            (self.progress)(&WideMovesProgress {
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
        if frontier.len() >= 1024 {
            side.rate = began.elapsed().as_nanos() as f64 / frontier.len() as f64;
        }
        side.frontier = next;
        side.depth = depth;
        Ok(())
    }

    /// The actual position `from` steps to next on `way`, with the move's jumps in playing
    /// order, chosen so that its class lies in `table` at `depth`.
    fn step(
        &self,
        way: Way,
        from: Bits<[u64; W]>,
        table: &Levels<W>,
        depth: u8,
    ) -> Option<(Bits<[u64; W]>, Vec<u32>)> {
        self.traced(way, from, &|r| {
            table.get(&self.canon.canonical(r)) == Some(depth)
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
    ) -> Option<WideMoves> {
        let (a, b) = if forward_grew {
            (c.parent, c.child)
        } else {
            (c.child, c.parent)
        };
        let (_, middle) = self.traced(Way::Forward, a, &|r| r == b)?;
        let da = fwd.table.get(&self.canon.canonical(a))?;
        let db = back.table.get(&self.canon.canonical(b))?;
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
        let mut line: Vec<u32> = head.into_iter().rev().flatten().collect();
        line.extend(middle);
        let mut p = b;
        for d in (0..db).rev() {
            let (q, more) = self.step(Way::Forward, p, &back.table, d)?;
            line.extend(more);
            p = q;
        }
        Some(WideMoves {
            start: start.resize(),
            jumps: line
                .iter()
                .map(|&k| self.tables.jumps[k as usize])
                .collect(),
            moves,
            finish: p.resize(),
        })
    }
}

/// A line with few moves (not proven fewest) from one of `starts` to `finish`, by a beam over
/// moves: each level holds the `width` best positions one more move from a start (merged by
/// symmetry), best meaning fewest pegs, then most jumps to play, then fewest pegs on the
/// holes few jumps clear. Widths grow fourfold from 256 while `limits.timeout` allows; the
/// line with the fewest moves is returned, replayed by coordinates. It gives the upper bound
/// where [`fewest_moves_wide`] runs out of budget.
///
/// # Errors
///
/// As [`fewest_moves_wide`].
pub fn few_moves_wide(
    board: &Board,
    starts: &[Pegs],
    finish: &WideFinish,
    limits: &WideLimits,
) -> Result<Option<WideMoves>> {
    let began = Instant::now();
    if starts.is_empty() {
        return Err(Error::NoStarts);
    }
    let mut targets = Vec::new();
    for &s in starts {
        targets = finish_targets(board, s, finish, true)?;
    }
    let group = stabilizer(board, &[starts, &targets]);
    let found = match board.words() {
        1 => Meet::<1>::new(board, &group, limits, began, &|_| {}).beam(starts, &targets),
        2 => Meet::<2>::new(board, &group, limits, began, &|_| {}).beam(starts, &targets),
        _ => Meet::<4>::new(board, &group, limits, began, &|_| {}).beam(starts, &targets),
    };
    if let Some(s) = &found {
        let end = replay(board, s.start, &s.jumps)?;
        if end != s.finish || !targets.contains(&end) || wide_move_count(&s.jumps) != s.moves {
            return Err(Error::Internal(
                "a wide line of few moves failed its replay",
            ));
        }
    }
    Ok(found)
}

/// One entry of a move beam's level: the position, its parent in the level before, and the
/// jumps of the move that led to it.
struct Step<const W: usize> {
    pos: Bits<[u64; W]>,
    parent: u32,
    jumps: Vec<u32>,
}

impl<const W: usize> Meet<'_, W> {
    /// Every move from `p` with its jumps (the chains of each peg, each chain state once).
    fn moves_traced(&self, p: Bits<[u64; W]>, out: &mut Vec<(Bits<[u64; W]>, Vec<u32>)>) {
        let mut seen: std::collections::HashSet<(Bits<[u64; W]>, u16), Build> = Default::default();
        for h in p.iter() {
            let mut stack: Vec<(Bits<[u64; W]>, usize, Vec<u32>)> =
                vec![(p, h.index(), Vec::new())];
            while let Some((q, at, path)) = stack.pop() {
                for &k in self.jumps_at(Way::Forward, at) {
                    if let Some((r, next)) = self.one(Way::Forward, q, k) {
                        if seen.insert((r, next as u16)) {
                            let mut longer = path.clone();
                            longer.push(k);
                            out.push((r, longer.clone()));
                            stack.push((r, next, longer));
                        }
                    }
                }
            }
        }
    }

    fn beam(&mut self, starts: &[Pegs], targets: &[Pegs]) -> Option<WideMoves> {
        let targets: std::collections::HashSet<Bits<[u64; W]>> =
            targets.iter().map(|s| s.resize()).collect();
        let starts: Vec<Bits<[u64; W]>> = starts.iter().map(|s| s.resize()).collect();
        self.pegs = (
            targets.iter().map(|s| s.count()).min().unwrap_or(0),
            starts.iter().map(|s| s.count()).max().unwrap_or(0),
        );
        if let Some(&s) = starts.iter().find(|s| targets.contains(s)) {
            return Some(WideMoves {
                start: s.resize(),
                jumps: Vec::new(),
                moves: 0,
                finish: s.resize(),
            });
        }
        let mut best: Option<WideMoves> = None;
        let mut width = 256usize;
        loop {
            let halted = || self.deadline.is_some_and(|d| Instant::now() > d);
            let limit = best.as_ref().map_or(u32::MAX, |b| b.moves);
            let (found, cut) = self.beam_once(&starts, &targets, width, limit, &halted);
            let Some(cut) = cut else {
                // The next level did not fit the memory budget: no wider beam will.
                return best.or(found);
            };
            if let Some(f) = found {
                if best.as_ref().is_none_or(|b| f.moves < b.moves) {
                    best = Some(f);
                }
            }
            // A beam that never cut a level searched every line: nothing shorter exists.
            if !cut || halted() || self.deadline.is_none() {
                return best;
            }
            width = width.saturating_mul(4);
        }
    }

    /// One beam of `width`, looking for lines of fewer than `limit` moves; the line found,
    /// and whether a level was cut (`None`: a level would not fit in the memory budget).
    fn beam_once(
        &self,
        starts: &[Bits<[u64; W]>],
        targets: &std::collections::HashSet<Bits<[u64; W]>>,
        width: usize,
        limit: u32,
        halted: &dyn Fn() -> bool,
    ) -> (Option<WideMoves>, Option<bool>) {
        let t = &self.tables;
        // A child: its key and entry in the table, and its move's jumps.
        // The table's entry (twice over while it grows) and the jumps' own allocation.
        let child_bytes = 3 * std::mem::size_of::<(Bits<[u64; W]>, Step<W>)>() + 64;
        let mut held = 0usize;
        let mut levels: Vec<Vec<Step<W>>> = vec![starts
            .iter()
            .map(|&pos| Step {
                pos,
                parent: 0,
                jumps: Vec::new(),
            })
            .collect()];
        let mut cut = false;
        let mut children = Vec::new();
        while (levels.len() as u32) < limit {
            if halted() {
                return (None, Some(true));
            }
            let level = levels.last().expect("level 0");
            let mut next: HashMap<Bits<[u64; W]>, Step<W>, Build> = HashMap::default();
            for (i, step) in level.iter().enumerate() {
                children.clear();
                self.moves_traced(step.pos, &mut children);
                for (c, jumps) in children.drain(..) {
                    if targets.contains(&c) {
                        // Walk back to the start through the parents.
                        let mut moves = vec![jumps];
                        let mut index = i;
                        let mut start = step.pos;
                        for l in levels.iter().rev() {
                            let s = &l[index];
                            moves.push(s.jumps.clone());
                            start = s.pos;
                            index = s.parent as usize;
                        }
                        let line: Vec<u32> = moves.into_iter().rev().flatten().collect();
                        let count = levels.len() as u32;
                        let jumps: Vec<Jump> = line.iter().map(|&k| t.jumps[k as usize]).collect();
                        return (
                            Some(WideMoves {
                                start: start.resize(),
                                moves: count,
                                finish: c.resize(),
                                jumps,
                            }),
                            Some(cut),
                        );
                    }
                    next.entry(self.canon.canonical(c)).or_insert(Step {
                        pos: c,
                        parent: i as u32,
                        jumps,
                    });
                }
                if held + next.capacity() * child_bytes > self.max_memory {
                    return (None, None);
                }
            }
            if next.is_empty() {
                return (None, Some(cut));
            }
            let mut scored: Vec<((u32, i64, u32, u64), Step<W>)> = next
                .into_values()
                .map(|s| {
                    let key = (
                        s.pos.count(),
                        -t.legal_count(s.pos),
                        s.pos.intersect(t.hard).count(),
                        s.pos.hash64(),
                    );
                    (key, s)
                })
                .collect();
            if scored.len() > width {
                cut = true;
                scored.select_nth_unstable_by(width, |a, b| a.0.cmp(&b.0));
                scored.truncate(width);
            }
            held += scored.len() * (std::mem::size_of::<Step<W>>() + 64);
            levels.push(scored.into_iter().map(|s| s.1).collect());
        }
        (None, Some(cut))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fewest::{fewest_moves_meeting, single_vacancies, MeetOutcome};
    use crate::{Board, Finish, Hole, Limits, Problem};

    /// The wide meeting agrees with the one-word meeting, move for move, on every
    /// single-vacancy problem of small boards of each lattice, and on the basic games.
    #[test]
    fn agrees_with_the_narrow_meeting() {
        let pictures = [
            ("triangle:5", None),
            ("rect:4x4", None),
            ("d", Some("lattice: diagonal\nooooo\nooooo\nooooo\n")),
        ];
        for (name, picture) in pictures {
            let narrow = match picture {
                Some(p) => Board::parse(name, p).unwrap(),
                None => Board::builtin(name).unwrap(),
            };
            let wide = match picture {
                Some(p) => Board::parse(name, p).unwrap(),
                None => Board::builtin(name).unwrap(),
            };
            for e in 0..wide.hole_count() {
                let start = wide.holes().without(Hole::at(e));
                let nstart: Bits = narrow.holes().without(crate::Hole::new(e).unwrap());
                for (finish, nfinish) in [
                    (WideFinish::Pegs(1), Finish::AnyOne),
                    (
                        WideFinish::Exactly(Pegs::single(Hole::at(e))),
                        Finish::Holes(crate::Hole::new(e).unwrap().bit()),
                    ),
                ] {
                    let problem = Problem::new(&narrow, nstart.resize(), nfinish).unwrap();
                    let expected = match fewest_moves_meeting(&problem, &Limits::default())
                        .unwrap()
                        .outcome
                    {
                        MeetOutcome::Optimal(s) => Some(s.moves),
                        MeetOutcome::Impossible => None,
                        MeetOutcome::Undecided(b) => panic!("{b:?}"),
                    };
                    let r = fewest_moves_wide(
                        &wide,
                        &[start],
                        &finish,
                        &WideLimits::default(),
                        &|_| {},
                    )
                    .unwrap();
                    let got = match r.outcome {
                        WideMovesOutcome::Optimal(s) => Some(s.moves),
                        WideMovesOutcome::Impossible => None,
                        WideMovesOutcome::Undecided(b) => panic!("{b:?}"),
                    };
                    assert_eq!(got, expected, "{name} vacancy {e} {finish:?}");
                }
            }
            let starts: Vec<Pegs> = (0..wide.hole_count())
                .map(|h| wide.holes().without(Hole::at(h)))
                .collect();
            let basic =
                Problem::with_starts(&narrow, single_vacancies(&narrow), Finish::AnyOne).unwrap();
            let MeetOutcome::Optimal(n) = fewest_moves_meeting(&basic, &Limits::default())
                .unwrap()
                .outcome
            else {
                panic!("{name}: the basic game is solvable")
            };
            let r = fewest_moves_wide(
                &wide,
                &starts,
                &WideFinish::Pegs(1),
                &WideLimits::default(),
                &|_| {},
            )
            .unwrap();
            let WideMovesOutcome::Optimal(w) = r.outcome else {
                panic!("{name}: {:?}", r.outcome)
            };
            assert_eq!(w.moves, n.moves, "{name} basic game");
        }
    }

    #[test]
    fn a_budget_leaves_a_proven_lower_bound() {
        let board = Board::builtin("triangle:11").unwrap();
        let start = board.holes().without(board.hole("a1").unwrap());
        let limits = WideLimits {
            timeout: None,
            max_memory: 4 << 20,
        };
        let r =
            fewest_moves_wide(&board, &[start], &WideFinish::Pegs(1), &limits, &|_| {}).unwrap();
        assert_eq!(r.outcome, WideMovesOutcome::Undecided(Budget::Memory));
        assert!(r.lower_bound >= 2, "{}", r.lower_bound);
        assert!(r.peak_bytes <= 4 << 20);
        assert_eq!(r.words, 2);
    }

    /// The beam's lines are lines: never fewer moves than the proven optimum, and on small
    /// triangles it finds the optimum of the basic game.
    #[test]
    fn the_beam_over_moves_finds_real_lines() {
        for (n, optimum) in [(5, 9), (6, 9), (7, 12)] {
            let board = Board::builtin(&format!("triangle:{n}")).unwrap();
            let starts: Vec<Pegs> = (0..board.hole_count())
                .map(|h| board.holes().without(Hole::at(h)))
                .collect();
            let limits = WideLimits {
                timeout: Some(std::time::Duration::from_secs(5)),
                max_memory: 1 << 30,
            };
            let s = few_moves_wide(&board, &starts, &WideFinish::Pegs(1), &limits)
                .unwrap()
                .expect("a line");
            assert!(s.moves >= optimum, "side {n}: {} moves", s.moves);
            assert!(s.moves <= optimum + 1, "side {n}: {} moves", s.moves);
            assert_eq!(replay(&board, s.start, &s.jumps).unwrap().count(), 1);
        }
    }

    /// Bell's published minima for the triangles of side 9 and 10 (16 and 18 moves): the
    /// beam must not beat them (a line shorter than a proven minimum would be a bug).
    #[test]
    #[ignore = "a minute a side; run with --ignored"]
    fn the_beam_does_not_beat_the_published_minima() {
        for (n, minimum) in [(9, 16), (10, 18)] {
            let board = Board::builtin(&format!("triangle:{n}")).unwrap();
            let starts: Vec<Pegs> = (0..board.hole_count())
                .map(|h| board.holes().without(Hole::at(h)))
                .collect();
            let limits = WideLimits {
                timeout: Some(std::time::Duration::from_secs(60)),
                max_memory: 4 << 30,
            };
            let s = few_moves_wide(&board, &starts, &WideFinish::Pegs(1), &limits)
                .unwrap()
                .expect("a line");
            println!("side {n}: {} moves (published minimum {minimum})", s.moves);
            assert!(s.moves >= minimum, "side {n}: {} moves", s.moves);
        }
    }

    #[test]
    fn counts_moves_by_chains() {
        let j = |from, over, to| Jump::new(Hole::at(from), Hole::at(over), Hole::at(to));
        assert_eq!(wide_move_count(&[]), 0);
        assert_eq!(wide_move_count(&[j(0, 1, 2), j(2, 3, 4), j(9, 8, 7)]), 2);
    }
}
