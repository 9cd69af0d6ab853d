//! Fewest moves: a move is one or more consecutive jumps by the same peg.
//!
//! # Methods
//!
//! The number of jumps in a solution is fixed (pegs at the start minus pegs at the finish), but
//! the number of moves is not, and a search for any solution finds far more moves than needed.
//! The answer here is exact and its optimality is proved by exhaustion. Both methods begin the
//! same way: cheap refutations (position class, pagoda functions) through [`crate::solve`],
//! which also yields a first solution and so an upper bound, and the corner-peg lower bound (a
//! peg on a hole that no jump passes over can only leave by jumping itself, and that jump begins
//! a move of its own, so every such peg not allowed to stay until the end costs one move).
//!
//! [`fewest_moves`] then meets in the middle ([`fewest_moves_meeting`]):
//! breadth first by moves from the start, and by undone moves from the finish, until the two
//! meet. It never looks further than half a solution from either end, takes many starts and
//! finishes at once (the basic game of a board is one search), and when a budget runs out the
//! levels it completed are still a proven lower bound.
//!
//! [`fewest_moves_by_winning_set`] is the older, exhaustive method, kept because it also counts
//! the winning positions (checked against published figures) and as a cross-check:
//!
//! 1. The *winning set*: every position reachable from the start from which the finish can
//!    still be reached, level by level up to the symmetries fixing start and finish. When the
//!    finish is one position it is found from both ends (`count::winners_meeting`): forward
//!    levels to the middle, and forward levels of the dual game (start: the finish's
//!    complement) to the middle from the other side, since a position can reach the finish
//!    exactly when its complement is reachable in the dual game. Otherwise (a finish of one
//!    peg anywhere) it comes from the forward enumeration and backward pass of
//!    [`crate::count`]. Every optimal solution lies in this set.
//! 2. A shortest-path computation over that set, whose states are a position and the hole
//!    where the last jump landed. Continuing with that peg costs nothing; any other jump starts
//!    a new move and costs one. With `M(p)` the fewest moves still needed from `p` when the
//!    next jump starts a move, and `G(p, h)` the same when the peg on `h` may continue,
//!
//!    ```text
//!    G(finish, h) = 0
//!    G(p, h)      = min( M(p) + 1, min over jumps j from h of G(j(p), to(j)) )
//!    M(p)         = min over jumps j of G(j(p), to(j))
//!    ```
//!
//!    `M` depends only on the position, so it is one byte per winning representative, filled
//!    from the finish back to the start (each level needs only deeper ones). `G` is evaluated
//!    on demand by following the chains of the peg that just landed. The start needs
//!    `M(start) + 1` moves; a solution is rebuilt forward by choosing, at every step, a jump
//!    that keeps the remaining count exact.
//!
//! Every solution either method returns is replayed by the independent checker and its moves
//! recounted first. When the time or memory budget runs out, the answer is the first
//! solution's move count as an upper bound with the best proven lower bound.

use std::time::Instant;

use rayon::prelude::*;

use crate::bitset::{Bits, Hole};
use crate::count::{analyse, group_of, winners_meeting, CountError, Space, Winners};
use crate::jumps::Jump;
use crate::problem::{Budget, Finish, Limits, Outcome, Problem, Reason};
use crate::replay::replay;
use crate::search::solve;
use crate::symmetry::Canonicalizer;

pub use crate::meet::{
    fewest_moves_meeting, fewest_moves_meeting_with, single_vacancies, MeetOutcome, MeetProgress,
    MeetReport, MeetSolution,
};

/// A solution with its move count, replayed and recounted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSolution {
    /// The jumps in order.
    pub jumps: Vec<Jump>,
    /// Moves: jumps not continuing the previous jump's peg.
    pub moves: u32,
    /// The final position.
    pub finish: Bits,
}

/// The answer to a fewest-moves question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovesOutcome {
    /// A solution with the fewest moves; no solution has fewer (proved by exhaustion).
    Optimal(MoveSolution),
    /// The problem has no solution at all.
    Impossible(Reason),
    /// A budget ran out before optimality was proved.
    Undecided {
        /// Which budget ran out.
        budget: Budget,
        /// The best solution known, if any.
        best: Option<MoveSolution>,
    },
}

/// An outcome with its bounds and effort.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesReport {
    /// The answer.
    pub outcome: MovesOutcome,
    /// A proven lower bound on the moves of any solution (the optimum when proved).
    pub lower_bound: u32,
    /// Winning representatives searched by [`fewest_moves_by_winning_set`] (0 for
    /// [`fewest_moves`], or when the exhaustive stage did not run to the end).
    pub winning_classes: u64,
    /// For [`fewest_moves`]: the levels `(a, b)` the meeting completed, proving that no
    /// position within `a` moves of the start is within `b` moves of the finish.
    pub meeting: Option<(u32, u32)>,
    /// Wall-clock milliseconds.
    pub millis: u64,
}

impl MovesReport {
    /// A report with no searched classes and no meeting, timed from `started`.
    fn new(outcome: MovesOutcome, lower_bound: u32, started: Instant) -> MovesReport {
        MovesReport {
            outcome,
            lower_bound,
            winning_classes: 0,
            meeting: None,
            millis: started.elapsed().as_millis() as u64,
        }
    }
}

/// Moves in a jump sequence: a jump starts a move unless it starts where the last one landed.
#[must_use]
pub fn move_count(jumps: &[Jump]) -> u32 {
    let mut moves = 0;
    let mut last: Option<Hole> = None;
    for j in jumps {
        if last != Some(j.from()) {
            moves += 1;
        }
        last = Some(j.to());
    }
    moves
}

/// The corner-peg lower bound: pegs of the start on holes no jump passes over, less one that
/// may be the final peg, each need a move of their own.
#[must_use]
pub fn corner_bound(problem: &Problem) -> u32 {
    let board = problem.board();
    let passed = board
        .jumps()
        .iter()
        .fold(Bits::EMPTY, |acc, j| acc.with(j.over()));
    let corners = problem.start().minus(passed);
    let may_stay = match problem.finish() {
        Finish::Holes(f) => corners.intersect(f).count(),
        Finish::AnyOne => u32::from(!corners.is_empty()),
        Finish::Pegs(n) => corners.count().min(n),
    };
    let needed = corners.count() - may_stay;
    let any = problem.targets().iter().all(|&t| t != problem.start());
    needed.max(u32::from(any))
}

/// Finds a solution with the fewest moves within `limits` (time and memory), and proves that
/// none is shorter by meeting in the middle ([`fewest_moves_meeting`]).
///
/// ```
/// use pegsol::{Board, Problem, fewest::{fewest_moves, MovesOutcome}, Limits};
/// let board = Board::builtin("triangle5").unwrap();
/// let start = board.holes().without(board.hole("a1").unwrap());
/// let problem = Problem::new(&board, start, pegsol::Finish::AnyOne).unwrap();
/// let report = fewest_moves(&problem, &Limits::default());
/// let MovesOutcome::Optimal(s) = report.outcome else { panic!() };
/// assert_eq!((s.jumps.len(), s.moves), (13, 10));
/// ```
#[must_use]
pub fn fewest_moves(problem: &Problem, limits: &Limits) -> MovesReport {
    let started = Instant::now();
    let (best, lower) = match first_solution(problem, limits, started) {
        Ok(found) => found,
        Err(done) => return done,
    };
    let report = |outcome, lower_bound, meeting| MovesReport {
        meeting,
        ..MovesReport::new(outcome, lower_bound, started)
    };
    let rest = Limits {
        timeout: limits.timeout.map(|t| t.saturating_sub(started.elapsed())),
        ..limits.clone()
    };
    let undecided = |budget| MovesOutcome::Undecided {
        budget,
        best: Some(best.clone()),
    };
    match fewest_moves_meeting(problem, &rest) {
        Ok(r) => match r.outcome {
            MeetOutcome::Optimal(s) => {
                let found = MoveSolution {
                    jumps: s.jumps,
                    moves: s.moves,
                    finish: s.finish,
                };
                report(MovesOutcome::Optimal(found), s.moves, Some(r.depths))
            }
            MeetOutcome::Undecided(budget) => {
                report(undecided(budget), lower.max(r.lower_bound), None)
            }
            // The first search found a solution, so this is a bug: no proof rather than a
            // wrong answer.
            MeetOutcome::Impossible => report(undecided(Budget::Time), lower, None),
        },
        // The problem was checked by `solve` above, so an error here is an internal one
        // (a failed replay): no proof rather than a wrong answer.
        Err(_) => report(undecided(Budget::Time), lower, None),
    }
}

/// The cheap stages shared by both methods: a refutation or a first solution (the upper
/// bound) from [`solve`], and the corner-peg lower bound; `Err` is already the answer.
fn first_solution(
    problem: &Problem,
    limits: &Limits,
    started: Instant,
) -> Result<(MoveSolution, u32), MovesReport> {
    let lower = corner_bound(problem);
    let report = |outcome, lower_bound| MovesReport::new(outcome, lower_bound, started);
    let first = solve(problem, limits);
    let best = match first.outcome {
        Outcome::Impossible(r) => return Err(report(MovesOutcome::Impossible(r), 0)),
        Outcome::Undecided(budget) => {
            return Err(report(
                MovesOutcome::Undecided { budget, best: None },
                lower,
            ))
        }
        Outcome::Solved { jumps, finish } => MoveSolution {
            moves: move_count(&jumps),
            jumps,
            finish,
        },
    };
    if best.moves == lower {
        return Err(report(MovesOutcome::Optimal(best), lower));
    }
    Ok((best, lower))
}

/// [`fewest_moves`] by the other method: the shortest-path pass over the whole winning set
/// (see the module docs). Slower and larger than the meeting, but it also reports how many
/// winning positions there are, which the golden tests check against published counts.
#[must_use]
pub fn fewest_moves_by_winning_set(problem: &Problem, limits: &Limits) -> MovesReport {
    let started = Instant::now();
    let deadline = limits.timeout.map(|t| started + t);
    let (best, lower) = match first_solution(problem, limits, started) {
        Ok(found) => found,
        Err(done) => return done,
    };
    let report = |outcome, lower_bound, winning_classes| MovesReport {
        winning_classes,
        ..MovesReport::new(outcome, lower_bound, started)
    };
    let undecided = |budget| MovesOutcome::Undecided {
        budget,
        best: Some(best.clone()),
    };
    let canon = group_of(problem);
    // From both ends when the finish is one position; else the forward count's winners.
    let found =
        winners_meeting(problem, &canon, limits.max_memory, deadline).unwrap_or_else(|| {
            analyse(
                problem,
                Some(&canon),
                &Space::new(problem, true),
                None,
                limits.max_memory,
                None,
                deadline,
                &|_| {},
            )
            .map(|(_, w)| w)
        });
    let winners = match found {
        Ok(w) => w,
        Err(CountError::Timeout) => return report(undecided(Budget::Time), lower, 0),
        Err(CountError::Memory { .. } | CountError::Overflow | CountError::Io(_)) => {
            return report(undecided(Budget::Memory), lower, 0)
        }
    };
    let classes = winners.iter().map(|l| l.len() as u64).sum();
    let Some(tables) = Tables::new(problem, &canon, winners, deadline) else {
        return report(undecided(Budget::Time), lower, classes);
    };
    match tables.solution(problem) {
        Some(found) => {
            let moves = found.moves;
            report(MovesOutcome::Optimal(found), moves, classes)
        }
        // The first search found a solution, so the winning set holds the start: reaching
        // here is a bug, reported as no proof rather than a wrong answer.
        None => report(undecided(Budget::Time), lower, classes),
    }
}

/// "No way to the finish" in the move tables.
const NONE: u8 = u8::MAX;

/// The winning set with `M` for each representative.
struct Tables<'c> {
    canon: &'c Canonicalizer,
    /// Jumps grouped by starting hole.
    by_from: Vec<Vec<Jump>>,
    all: Vec<Jump>,
    winners: Winners,
    /// `M` per winner, parallel to `winners`.
    rest: Vec<Vec<u8>>,
    /// Per level, winner key to index: a hash lookup is one cache miss where a binary search
    /// of a level is a dozen.
    index: Vec<KeyIndex>,
    start_pegs: u32,
    goal: u32,
}

impl<'c> Tables<'c> {
    /// Fills `M` from the finish back to the start; `None` when the deadline passes.
    fn new(
        problem: &Problem,
        canon: &'c Canonicalizer,
        winners: Winners,
        deadline: Option<Instant>,
    ) -> Option<Tables<'c>> {
        let board = problem.board();
        let mut by_from = vec![Vec::new(); board.hole_count()];
        for &j in board.jumps() {
            by_from[j.from().index()].push(j);
        }
        let goal = problem.targets().first().map_or(1, |t| t.count());
        let mut t = Tables {
            canon,
            by_from,
            all: board.jumps().to_vec(),
            rest: winners.iter().map(|l| vec![NONE; l.len()]).collect(),
            index: winners.iter().map(|l| KeyIndex::new(l)).collect(),
            winners,
            start_pegs: problem.start().count(),
            goal,
        };
        for depth in (0..t.winners.len()).rev() {
            if deadline.is_some_and(|d| Instant::now() > d) {
                return None;
            }
            if t.start_pegs - depth as u32 == goal {
                t.rest[depth].fill(0);
                continue;
            }
            let level: Vec<u8> = t.winners[depth]
                .par_iter()
                .map(|&k| t.after_move(Bits(k)).0)
                .collect();
            t.rest[depth] = level;
        }
        Some(t)
    }

    /// `M(p)` for a winning `p` whose deeper levels are filled, with a jump achieving it.
    fn after_move(&self, p: Bits) -> (u8, Option<Jump>) {
        let mut best = (NONE, None);
        for &j in &self.all {
            if j.is_legal(p) {
                let g = self.continuing(j.apply(p), j.to());
                if g < best.0 {
                    best = (g, Some(j));
                }
            }
        }
        best
    }

    /// `M(p)` looked up; [`NONE`] when `p` cannot win.
    fn lookup(&self, p: Bits) -> u8 {
        let depth = (self.start_pegs - p.count()) as usize;
        let key = self.canon.canonical(p).raw();
        self.index
            .get(depth)
            .and_then(|level| level.get(key))
            .map_or(NONE, |i| self.rest[depth][i])
    }

    /// `G(p, h)`: the fewest moves from `p` when the peg on `h` may continue for free.
    fn continuing(&self, p: Bits, h: Hole) -> u8 {
        let m = self.lookup(p);
        if m == NONE {
            return NONE;
        }
        if p.count() == self.goal {
            return 0;
        }
        let mut best = m.saturating_add(1);
        for &j in &self.by_from[h.index()] {
            if best == 0 {
                break;
            }
            if j.is_legal(p) {
                best = best.min(self.continuing(j.apply(p), j.to()));
            }
        }
        best
    }

    /// Rebuilds an optimal solution forward, replays it and recounts its moves.
    fn solution(&self, problem: &Problem) -> Option<MoveSolution> {
        let mut p = problem.start();
        let mut jumps = Vec::new();
        let total = if p.count() == self.goal {
            0
        } else {
            self.lookup(p).checked_add(1)?
        };
        let (mut left, mut last): (u8, Option<Hole>) = (total, None);
        while p.count() > self.goal {
            // Continue the same peg when that keeps the count, else start a move.
            let cont = last.and_then(|h| {
                self.by_from[h.index()]
                    .iter()
                    .copied()
                    .find(|&j| j.is_legal(p) && self.continuing(j.apply(p), j.to()) == left)
            });
            let j = match cont {
                Some(j) => j,
                None => {
                    let (m, j) = self.after_move(p);
                    if m == NONE || m + 1 != left {
                        return None;
                    }
                    left = m;
                    j?
                }
            };
            jumps.push(j);
            p = j.apply(p);
            last = Some(j.to());
        }
        let end = replay(problem.board(), problem.start(), &jumps).ok()?;
        let moves = move_count(&jumps);
        (problem.targets().contains(&end) && moves == u32::from(total)).then_some(MoveSolution {
            jumps,
            moves,
            finish: end,
        })
    }
}

/// Open addressing from key to position in a level; `u64::MAX` marks a free slot (a winner
/// below the start always has an empty hole, and the start level is searched linearly).
struct KeyIndex {
    keys: Vec<u64>,
    at: Vec<u32>,
    shift: u32,
    /// Levels too small to hash (and the start level) are searched directly.
    plain: Vec<u64>,
}

impl KeyIndex {
    fn new(level: &[u64]) -> KeyIndex {
        if level.len() < 64 || level.contains(&u64::MAX) {
            return KeyIndex {
                keys: Vec::new(),
                at: Vec::new(),
                shift: 0,
                plain: level.to_vec(),
            };
        }
        let slots = (level.len() * 2).next_power_of_two();
        let mut ix = KeyIndex {
            keys: vec![u64::MAX; slots],
            at: vec![0; slots],
            shift: 64 - slots.trailing_zeros(),
            plain: Vec::new(),
        };
        for (i, &k) in level.iter().enumerate() {
            let mut s = ix.home(k);
            while ix.keys[s] != u64::MAX {
                s = (s + 1) & (slots - 1);
            }
            ix.keys[s] = k;
            ix.at[s] = i as u32;
        }
        ix
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    #[inline]
    fn get(&self, key: u64) -> Option<usize> {
        if self.keys.is_empty() {
            return self.plain.iter().position(|&k| k == key);
        }
        let mask = self.keys.len() - 1;
        let mut s = self.home(key);
        loop {
            match self.keys[s] {
                k if k == key => return Some(self.at[s] as usize),
                u64::MAX => return None,
                _ => s = (s + 1) & mask,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use std::collections::HashMap;

    /// Fewest moves by plain memoized search over (position, last landing hole), no symmetry.
    fn brute(board: &Board, start: Bits, targets: &[Bits]) -> Option<u32> {
        fn go(
            board: &Board,
            p: Bits,
            last: Option<Hole>,
            targets: &[Bits],
            memo: &mut HashMap<(Bits, Option<Hole>), Option<u32>>,
        ) -> Option<u32> {
            if targets.contains(&p) {
                return Some(0);
            }
            if let Some(&v) = memo.get(&(p, last)) {
                return v;
            }
            let mut best: Option<u32> = None;
            for &j in board.jumps() {
                if j.is_legal(p) {
                    let cost = u32::from(last != Some(j.from()));
                    if let Some(r) = go(board, j.apply(p), Some(j.to()), targets, memo) {
                        best = Some(best.map_or(r + cost, |b| b.min(r + cost)));
                    }
                }
            }
            memo.insert((p, last), best);
            best
        }
        go(board, start, None, targets, &mut HashMap::new())
    }

    fn check(name: &str, empty: &str, finish: Finish) {
        let board = Board::builtin(name).unwrap();
        let start = board.holes().minus(board.hole_set(empty).unwrap());
        let problem = Problem::new(&board, start, finish).unwrap();
        let expected = brute(&board, start, problem.targets());
        for method in [fewest_moves, fewest_moves_by_winning_set] {
            let report = method(&problem, &Limits::default());
            match report.outcome {
                MovesOutcome::Optimal(s) => {
                    assert_eq!(Some(s.moves), expected, "{name} {empty}");
                    assert_eq!(report.lower_bound, s.moves);
                    assert!(corner_bound(&problem) <= s.moves);
                    assert_eq!(move_count(&s.jumps), s.moves);
                }
                MovesOutcome::Impossible(_) => assert_eq!(expected, None, "{name} {empty}"),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn agrees_with_brute_force_on_small_boards() {
        for e in ["a1", "b2", "a3", "b3", "c3"] {
            check("triangle5", e, Finish::AnyOne);
        }
        for e in ["a1", "b2", "a2"] {
            check("triangle4", e, Finish::AnyOne);
        }
        check("rect:3x4", "b2", Finish::AnyOne);
        check("rect:4x4", "b1", Finish::AnyOne);
    }

    #[test]
    fn counts_moves_by_chains() {
        let board = Board::builtin("english").unwrap();
        let jumps = crate::notation::parse_jumps(&board, "f4-d4 d5-d3 d2-d4").unwrap();
        // f4-d4, then a new peg: d5-d3, then d2-d4 starts on another peg again.
        assert_eq!(move_count(&jumps), 3);
        let chain = crate::notation::parse_jumps(&board, "d2-d4 d4-f4").unwrap();
        assert_eq!(move_count(&chain), 1);
    }
}
