//! The wide solver: a portfolio of an exact depth-first search and a guided beam, on
//! positions of 1, 2 or 4 words.
//!
//! - **Depth-first search** with a table of dead positions (positions from which the finish
//!   cannot be reached). It is exact: when it ends without a solution, there is none. When
//!   the table reaches its share of the memory budget, the search stops, undecided.
//! - **Beam search**, level by level from the start: each level's children (merged when
//!   equal) are scored and the best `width` kept, with widths growing fourfold. Near the end
//!   it meets exact levels built backwards from the finish, so the last jumps are found, not
//!   guessed. A run that never cut a level has searched everything: if it found nothing, the
//!   problem is impossible.
//!
//! The two run on two threads and the first answer wins. The score of a position (higher is
//! better) is three times its legal jumps less ten times its pegs on hard holes (holes that
//! at most half as many jumps clear as the busiest hole), as in the 64-hole beam.
//!
//! Invariants: a jump removes one peg and keeps the position class, so a finish of another
//! class or with more pegs is refuted at once; every line returned is the start with each
//! jump played in turn, and callers replay it with [`replay`](super::replay).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::tables::{stabilizer, Build, Canon, Tables};
use crate::bitset::Pegs;
use crate::bitset::{Bits, Hole};
use crate::board::Board;
use crate::error::{Error, Result};
use crate::jumps::Jump;
use crate::problem::{finishes_within_limit, Budget, Reason};

/// What a wide problem must end with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WideFinish {
    /// This many pegs, anywhere.
    Pegs(usize),
    /// Pegs on exactly these holes.
    Exactly(Pegs),
}

impl WideFinish {
    /// Checks the finish against a start on `board`: its holes on the board, at least one
    /// peg, and no more pegs than the start has.
    ///
    /// # Errors
    ///
    /// [`Error::NoSuchHole`], [`Error::EmptyFinish`] or [`Error::FinishTooLarge`].
    pub fn check(&self, board: &Board, start: Pegs) -> Result<()> {
        finish_targets(board, start, self, false).map(|_| ())
    }
}

/// The budgets of [`solve_wide`].
#[derive(Clone, Debug)]
pub struct WideLimits {
    /// Give up after this long (`None`: no limit).
    pub timeout: Option<Duration>,
    /// The bytes the dead-position table and the beam's levels may take, together.
    pub max_memory: usize,
}

impl Default for WideLimits {
    fn default() -> Self {
        WideLimits {
            timeout: None,
            max_memory: 2 << 30,
        }
    }
}

/// How a wide problem ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WideOutcome {
    /// A line of play, and the position it ends on.
    Solved {
        /// The jumps, in order.
        jumps: Vec<Jump>,
        /// The final position.
        finish: Pegs,
    },
    /// No line of play reaches the finish.
    Impossible(Reason),
    /// A budget ran out first.
    Undecided(Budget),
}

/// The answer of [`solve_wide`], with the work it took.
#[derive(Clone, Debug)]
pub struct WideReport {
    /// The answer.
    pub outcome: WideOutcome,
    /// Which member decided: `class`, `depth-first`, `beam`, or `none`.
    pub engine: &'static str,
    /// Positions expanded by both members.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub millis: u64,
    /// Words per position (1, 2 or 4).
    pub words: usize,
}

/// Decides whether `start` can be played down to `finish` on a wide board, within `limits`.
///
/// Errors: a start or finish off the board, an empty finish, or a finish with more pegs
/// than the start.
pub fn solve_wide(
    board: &Board,
    start: Pegs,
    finish: &WideFinish,
    limits: &WideLimits,
) -> Result<WideReport> {
    solve_wide_with(board, start, finish, limits, &AtomicBool::new(false))
}

/// [`solve_wide`], stopping early (as undecided on time) when `stop` is set.
pub fn solve_wide_with(
    board: &Board,
    start: Pegs,
    finish: &WideFinish,
    limits: &WideLimits,
    stop: &AtomicBool,
) -> Result<WideReport> {
    let began = Instant::now();
    let listed = finish_targets(board, start, finish, false)?;
    let goal = match finish {
        WideFinish::Pegs(k) => *k,
        WideFinish::Exactly(f) => f.count() as usize,
    };
    let report = |outcome, engine, nodes| WideReport {
        outcome,
        engine,
        nodes,
        millis: began.elapsed().as_millis() as u64,
        words: board.words(),
    };
    // The class test: a jump keeps the class, so the finish must share the start's.
    let class = board.classes().class_of(start);
    let targets: Vec<Pegs> = match finish {
        WideFinish::Pegs(1) => listed
            .into_iter()
            .filter(|&t| board.classes().class_of(t) == class)
            .collect(),
        _ => listed,
    };
    let refuted = match finish {
        // Any k > 1 pegs: not listed, so not refuted here.
        WideFinish::Pegs(k) if *k > 1 => false,
        _ => targets
            .iter()
            .all(|&t| board.classes().class_of(t) != class),
    };
    if refuted {
        return Ok(report(WideOutcome::Impossible(Reason::Class), "class", 0));
    }
    let deadline = limits.timeout.map(|t| began + t);
    let (outcome, engine, nodes) = match board.words() {
        1 => Portfolio::<1>::new(board, start, goal, &targets, limits).run(deadline, stop),
        2 => Portfolio::<2>::new(board, start, goal, &targets, limits).run(deadline, stop),
        _ => Portfolio::<4>::new(board, start, goal, &targets, limits).run(deadline, stop),
    };
    Ok(report(outcome, engine, nodes))
}

/// Checks `start` and `finish` on `board` and lists the finishing positions: the holes of an
/// exact finish, every single peg for one peg anywhere, and for `k > 1` pegs anywhere every
/// `k`-subset when `list_any` is set (at most [`MAX_FINISHES`](crate::MAX_FINISHES)), none otherwise (the
/// caller then checks the peg count alone).
pub(super) fn finish_targets(
    board: &Board,
    start: Pegs,
    finish: &WideFinish,
    list_any: bool,
) -> Result<Vec<Pegs>> {
    let off = |set: Pegs| {
        set.minus(board.holes())
            .iter()
            .next()
            .map(|h| Error::NoSuchHole {
                label: format!("#{}", h.index()),
                board: board.name().to_string(),
            })
    };
    if let Some(e) = off(start) {
        return Err(e);
    }
    let goal = match finish {
        WideFinish::Pegs(k) => *k,
        WideFinish::Exactly(f) => {
            if let Some(e) = off(*f) {
                return Err(e);
            }
            f.count() as usize
        }
    };
    if goal == 0 {
        return Err(Error::EmptyFinish);
    }
    if goal > start.count() as usize {
        return Err(Error::FinishTooLarge {
            finish: goal as u32,
            start: start.count(),
        });
    }
    Ok(match finish {
        WideFinish::Exactly(f) => vec![*f],
        WideFinish::Pegs(1) => (0..board.hole_count())
            .map(|h| Pegs::single(Hole::at(h)))
            .collect(),
        WideFinish::Pegs(_) if !list_any => Vec::new(),
        WideFinish::Pegs(k) => {
            let n = board.hole_count() as u64;
            if finishes_within_limit(n, *k as u64).is_none() {
                return Err(Error::TooManyFinishes {
                    pegs: *k as u32,
                    holes: n,
                });
            }
            let mut out = Vec::new();
            let mut pick: Vec<usize> = (0..*k).collect();
            loop {
                out.push(pick.iter().fold(Pegs::EMPTY, |s, &h| s.with(Hole::at(h))));
                let Some(i) = (0..*k).rev().find(|&i| pick[i] < n as usize - *k + i) else {
                    break;
                };
                pick[i] += 1;
                for j in i + 1..*k {
                    pick[j] = pick[j - 1] + 1;
                }
            }
            out
        }
    })
}

/// The most bytes of exact backward levels the beam builds.
const BACKWARD_BYTES: usize = 32 << 20;

/// What one member ended with.
enum End {
    Found(Vec<u32>),
    Exhausted,
    Cut,
    Stopped(Budget),
}

struct Portfolio<'a, const W: usize> {
    tables: Tables<W>,
    /// Canonical forms under the symmetries that keep the finishes: a position and its
    /// images are equally able to finish, so both members keep one of them.
    canon: Canon<W>,
    start: Bits<[u64; W]>,
    goal: u32,
    targets: Vec<Bits<[u64; W]>>,
    limits: &'a WideLimits,
}

impl<'a, const W: usize> Portfolio<'a, W> {
    fn new(
        board: &Board,
        start: Pegs,
        goal: usize,
        targets: &[Pegs],
        limits: &'a WideLimits,
    ) -> Self {
        // Any k pegs (no list) is kept by every symmetry.
        let group = stabilizer(board, &[targets]);
        Portfolio {
            tables: Tables::new(board),
            canon: Canon::new(board, &group),
            start: start.resize(),
            goal: goal as u32,
            targets: targets.iter().map(|s| s.resize()).collect(),
            limits,
        }
    }

    fn done(&self, pos: &Bits<[u64; W]>) -> bool {
        pos.count() == self.goal && (self.targets.is_empty() || self.targets.contains(pos))
    }

    /// Runs both members; the first to decide stops the other.
    fn run(
        &self,
        deadline: Option<Instant>,
        outer: &AtomicBool,
    ) -> (WideOutcome, &'static str, u64) {
        let stop = AtomicBool::new(false);
        let halted = || {
            stop.load(Ordering::Relaxed)
                || outer.load(Ordering::Relaxed)
                || deadline.is_some_and(|d| Instant::now() >= d)
        };
        let memory = self.limits.max_memory / 2;
        let (dfs, beam) = std::thread::scope(|s| {
            let dfs = s.spawn(|| {
                let mut d = Dfs::new(self, memory);
                let end = d.search(self.start, &halted);
                if !matches!(end, End::Stopped(_)) {
                    stop.store(true, Ordering::Relaxed);
                }
                (end, d.nodes)
            });
            let beam = s.spawn(|| {
                let (end, nodes) = self.beams(memory, &halted);
                if !matches!(end, End::Stopped(_) | End::Cut) {
                    stop.store(true, Ordering::Relaxed);
                }
                (end, nodes)
            });
            (
                dfs.join().unwrap_or((End::Stopped(Budget::Time), 0)),
                beam.join().unwrap_or((End::Stopped(Budget::Time), 0)),
            )
        });
        let nodes = dfs.1 + beam.1;
        let solved = |line: Vec<u32>| {
            let jumps: Vec<Jump> = line
                .iter()
                .map(|&k| self.tables.jumps[k as usize])
                .collect();
            let finish = line
                .iter()
                .fold(self.start, |p, &k| p.xor(self.tables.flips[k as usize]))
                .resize();
            WideOutcome::Solved { jumps, finish }
        };
        match (dfs.0, beam.0) {
            (End::Found(line), _) => (solved(line), "depth-first", nodes),
            (_, End::Found(line)) => (solved(line), "beam", nodes),
            (End::Exhausted, _) => (
                WideOutcome::Impossible(Reason::Exhausted),
                "depth-first",
                nodes,
            ),
            (_, End::Exhausted) => (WideOutcome::Impossible(Reason::Exhausted), "beam", nodes),
            (End::Stopped(Budget::Memory), End::Stopped(Budget::Memory) | End::Cut) => {
                (WideOutcome::Undecided(Budget::Memory), "none", nodes)
            }
            _ => (WideOutcome::Undecided(Budget::Time), "none", nodes),
        }
    }

    /// Beams of growing widths until one decides, the memory budget stops the widths, or
    /// `halted` says so.
    fn beams(&self, memory: usize, halted: &dyn Fn() -> bool) -> (End, u64) {
        let mut nodes = 0;
        // Deep backward levels cost more to build than the beam saves: a few tens of MB let
        // it meet them within seconds (4 GB of them took 4 s on the 66-hole triangle, 32 MB
        // 0.4 s), so they are capped whatever the budget.
        let backward = self.backward_levels((memory / 4).min(BACKWARD_BYTES), halted);
        let mut width = 64usize;
        let entry = std::mem::size_of::<Bits<[u64; W]>>() + 16;
        loop {
            // A level's children (about 20 per kept position, in a table) and its history.
            let cost = width.saturating_mul(24 * entry + 8 * self.start.count() as usize);
            if cost > memory {
                return (End::Stopped(Budget::Memory), nodes);
            }
            match self.beam(width, &backward, &mut nodes, halted) {
                End::Cut => width = width.saturating_mul(4),
                end => return (end, nodes),
            }
        }
    }

    /// The exact levels back from the targets: `levels[k]` holds every position that reaches
    /// a target in exactly `k` jumps. A level that would pass `memory` bytes is left out
    /// whole, so every level kept is complete.
    fn backward_levels(
        &self,
        memory: usize,
        halted: &dyn Fn() -> bool,
    ) -> Vec<HashSet<Bits<[u64; W]>, Build>> {
        let mut levels: Vec<HashSet<Bits<[u64; W]>, Build>> = Vec::new();
        if self.targets.is_empty() {
            return levels;
        }
        levels.push(self.targets.iter().copied().collect());
        let entry = std::mem::size_of::<Bits<[u64; W]>>() * 2;
        let mut used = 0usize;
        let t = &self.tables;
        while self.goal + (levels.len() as u32) < self.start.count() {
            let last = &levels[levels.len() - 1];
            let mut next: HashSet<Bits<[u64; W]>, Build> = HashSet::default();
            for q in last {
                if halted() {
                    return levels;
                }
                // Undo a jump: its landing hole holds a peg, the other two are empty.
                for h in q.iter() {
                    for &k in &t.into[h.index()] {
                        if t.needs[k as usize].is_disjoint(*q) {
                            next.insert(q.xor(t.flips[k as usize]));
                        }
                    }
                }
                if (used + next.len()) * entry > memory {
                    return levels;
                }
            }
            used += next.len();
            levels.push(next);
        }
        levels
    }

    /// One beam run of width `width`.
    fn beam(
        &self,
        width: usize,
        backward: &[HashSet<Bits<[u64; W]>, Build>],
        nodes: &mut u64,
        halted: &dyn Fn() -> bool,
    ) -> End {
        let t = &self.tables;
        // Where the beam meets the backward levels: at `goal + depth` pegs.
        let depth = backward.len().saturating_sub(1) as u32;
        let meet = self.goal + depth;
        let arrived = |p: &Bits<[u64; W]>| {
            if backward.is_empty() {
                self.done(p)
            } else {
                backward[depth as usize].contains(p)
            }
        };
        if self.start.count() <= meet {
            // The backward levels hold the start if it can finish at all.
            let k = (self.start.count() - self.goal) as usize;
            return if backward.is_empty() {
                if self.done(&self.start) {
                    End::Found(Vec::new())
                } else {
                    End::Exhausted
                }
            } else if backward[k].contains(&self.start) {
                End::Found(self.walk_down(self.start, backward, k))
            } else {
                End::Exhausted
            };
        }
        let mut level = vec![self.start];
        let mut history: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut cut = false;
        // Children by canonical form: one actual position of each orbit, with its link.
        let mut children: HashMap<super::Set<W>, (super::Set<W>, u32, u32), Build> =
            HashMap::default();
        loop {
            if halted() {
                return End::Stopped(Budget::Time);
            }
            children.clear();
            for (i, &p) in level.iter().enumerate() {
                *nodes += 1;
                t.for_each_child(p, |k, c| {
                    children
                        .entry(self.canon.canonical(c))
                        .or_insert((c, i as u32, k));
                });
            }
            if children.is_empty() {
                return if cut { End::Cut } else { End::Exhausted };
            }
            let pegs = level[0].count() - 1;
            if pegs == meet {
                let hit = children.values().find(|(c, _, _)| arrived(c));
                return match hit {
                    Some(&(c, parent, k)) => {
                        let mut line = self.walk_up(&history, parent as usize);
                        line.push(k);
                        line.extend(self.walk_down(c, backward, depth as usize));
                        End::Found(line)
                    }
                    None if cut => End::Cut,
                    None => End::Exhausted,
                };
            }
            let mut scored: Vec<(i64, super::Set<W>, (u32, u32))> = children
                .values()
                .map(|&(c, parent, k)| {
                    let hard = i64::from(c.intersect(t.hard).count());
                    let score = 3 * t.legal_count(c) - 10 * hard;
                    (score, c, (parent, k))
                })
                .collect();
            if scored.len() > width {
                cut = true;
                // Best first; ties broken by a hash so that equal scores do not favour
                // one corner of the board.
                scored.select_nth_unstable_by(width, |a, b| {
                    b.0.cmp(&a.0).then(a.1.hash64().cmp(&b.1.hash64()))
                });
                scored.truncate(width);
            }
            level = scored.iter().map(|s| s.1).collect();
            history.push(scored.iter().map(|s| s.2).collect());
        }
    }

    /// The jumps from the start to entry `index` of the last level of `history`.
    fn walk_up(&self, history: &[Vec<(u32, u32)>], mut index: usize) -> Vec<u32> {
        let mut line = Vec::with_capacity(history.len() + 1);
        for level in history.iter().rev() {
            let (parent, k) = level[index];
            line.push(k);
            index = parent as usize;
        }
        line.reverse();
        line
    }

    /// The jumps from `pos`, in backward level `k`, down to a target: each step finds a jump
    /// into level `k - 1`, which exists because the levels are exact.
    fn walk_down(
        &self,
        mut pos: Bits<[u64; W]>,
        backward: &[HashSet<Bits<[u64; W]>, Build>],
        mut k: usize,
    ) -> Vec<u32> {
        let mut line = Vec::with_capacity(k);
        while k > 0 {
            let mut next = None;
            self.tables.for_each_child(pos, |j, c| {
                if next.is_none() && backward[k - 1].contains(&c) {
                    next = Some((j, c));
                }
            });
            // The levels are exact, so a step down exists; without one, stop short and let
            // the caller's replay report the line as not reaching the finish.
            let Some((j, c)) = next else { break };
            line.push(j);
            pos = c;
            k -= 1;
        }
        line
    }
}

/// The exact member: depth-first with a table of dead positions.
struct Dfs<'p, 'a, const W: usize> {
    p: &'p Portfolio<'a, W>,
    dead: HashSet<Bits<[u64; W]>, Build>,
    room: usize,
    line: Vec<u32>,
    buffers: Vec<Vec<(u32, Bits<[u64; W]>)>>,
    nodes: u64,
    /// Set when the table is full: the search stops there, undecided on memory, rather
    /// than go on without a memory of dead positions for as long as it takes.
    full: bool,
}

impl<'p, 'a, const W: usize> Dfs<'p, 'a, W> {
    fn new(p: &'p Portfolio<'a, W>, memory: usize) -> Self {
        Dfs {
            p,
            dead: HashSet::default(),
            room: memory / (2 * std::mem::size_of::<Bits<[u64; W]>>() + 8),
            line: Vec::new(),
            buffers: vec![Vec::new(); p.start.count() as usize + 1],
            nodes: 0,
            full: false,
        }
    }

    fn search(&mut self, start: Bits<[u64; W]>, halted: &dyn Fn() -> bool) -> End {
        match self.visit(start, halted) {
            Some(true) => End::Found(std::mem::take(&mut self.line)),
            Some(false) => End::Exhausted,
            None if self.full => End::Stopped(Budget::Memory),
            None => End::Stopped(Budget::Time),
        }
    }

    /// Whether `pos` reaches the finish (`None`: stopped).
    fn visit(&mut self, pos: Bits<[u64; W]>, halted: &dyn Fn() -> bool) -> Option<bool> {
        if pos.count() == self.p.goal {
            return Some(self.p.done(&pos));
        }
        let key = self.p.canon.canonical(pos);
        if self.dead.contains(&key) {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) && halted() {
            return None;
        }
        let depth = pos.count() as usize;
        let mut children = std::mem::take(&mut self.buffers[depth]);
        children.clear();
        self.p
            .tables
            .for_each_child(pos, |k, c| children.push((k, c)));
        let mut result = Some(false);
        for &(k, c) in &children {
            self.line.push(k);
            match self.visit(c, halted) {
                Some(false) => {
                    self.line.pop();
                }
                other => {
                    result = other;
                    break;
                }
            }
        }
        self.buffers[depth] = children;
        if result == Some(false) {
            if self.dead.len() >= self.room {
                self.full = true;
                return None;
            }
            self.dead.insert(key);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_width_gives_the_narrow_solver_s_answers() {
        // The same board on one word and forced onto two and four: the members must agree
        // with the 64-hole solver on every single-vacancy problem of the 15-hole triangle.
        let narrow = crate::Board::builtin("triangle:5").unwrap();
        let wide = Board::builtin("triangle:5").unwrap();
        let limits = WideLimits::default();
        for v in 0..wide.hole_count() {
            let start = wide.holes().without(Hole::at(v));
            let nstart: Bits = narrow.holes().without(crate::Hole::new(v).unwrap());
            let problem =
                crate::Problem::new(&narrow, nstart.resize(), crate::Finish::AnyOne).unwrap();
            let expected = matches!(
                crate::solve(&problem, &crate::Limits::default())
                    .unwrap()
                    .outcome,
                crate::Outcome::Solved { .. }
            );
            let targets: Vec<Pegs> = (0..wide.hole_count())
                .map(|h| Pegs::single(Hole::at(h)))
                .filter(|&t| wide.classes().class_of(t) == wide.classes().class_of(start))
                .collect();
            let stop = AtomicBool::new(false);
            let outcomes = [
                Portfolio::<1>::new(&wide, start, 1, &targets, &limits).run(None, &stop),
                Portfolio::<2>::new(&wide, start, 1, &targets, &limits).run(None, &stop),
                Portfolio::<4>::new(&wide, start, 1, &targets, &limits).run(None, &stop),
            ];
            for (outcome, _, _) in outcomes {
                match outcome {
                    WideOutcome::Solved { jumps, finish } => {
                        assert!(expected, "vacancy {v}");
                        assert_eq!(crate::replay::replay(&wide, start, &jumps).unwrap(), finish);
                        assert_eq!(finish.count(), 1);
                    }
                    WideOutcome::Impossible(_) => assert!(!expected, "vacancy {v}"),
                    WideOutcome::Undecided(_) => panic!("undecided on 15 holes"),
                }
            }
        }
    }
}
