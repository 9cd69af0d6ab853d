//! Moves and their reports: counting a line's moves, the Merson-region bound, and the cheap
//! first stages both methods share.

use std::time::Instant;

use super::bound::MoveBound;
use crate::bitset::{Hole, Pegs};
use crate::error::Result;
use crate::jumps::Jump;
use crate::problem::{Budget, Limits, Outcome, Problem, Reason};
use crate::search::solve;

/// A solution with its move count, replayed and recounted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSolution {
    /// The jumps in order.
    pub jumps: Vec<Jump>,
    /// Moves: jumps not continuing the previous jump's peg.
    pub moves: u32,
    /// The final position.
    pub finish: Pegs,
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
    /// Winning representatives searched by [`fewest_moves_by_winning_set`](super::fewest_moves_by_winning_set) (0 for
    /// [`fewest_moves`](super::fewest_moves), or when the exhaustive stage did not run to the end).
    pub winning_classes: u64,
    /// For [`fewest_moves`](super::fewest_moves): the levels `(a, b)` the meeting completed, proving that no
    /// position within `a` moves of the start is within `b` moves of the finish.
    pub meeting: Option<(u32, u32)>,
    /// Wall-clock milliseconds.
    pub millis: u64,
}

impl MovesReport {
    /// A report with no searched classes and no meeting, timed from `started`.
    pub(super) fn new(outcome: MovesOutcome, lower_bound: u32, started: Instant) -> MovesReport {
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

/// The Merson-region lower bound of the problem: the least, over its starts, of
/// [`MoveBound::moves_needed`] (corners, edge pairs and other regions a move must begin in).
/// Never above the fewest moves of any solution.
#[must_use]
pub fn move_bound(problem: &Problem) -> u32 {
    MoveBound::<[u64; 4]>::new(problem.board()).least(&problem.starts(), &problem.finish())
}

/// The cheap stages shared by both methods: a refutation or a first solution (the upper
/// bound) from [`solve`], and the Merson-region lower bound; the inner `Err` is already the
/// answer.
pub(super) fn first_solution(
    problem: &Problem,
    limits: &Limits,
    started: Instant,
) -> Result<std::result::Result<(MoveSolution, u32), MovesReport>> {
    let lower = move_bound(problem);
    let report = |outcome, lower_bound| MovesReport::new(outcome, lower_bound, started);
    let first = solve(problem, limits)?;
    let best = match first.outcome {
        Outcome::Impossible(r) => return Ok(Err(report(MovesOutcome::Impossible(r), 0))),
        Outcome::Undecided(budget) => {
            return Ok(Err(report(
                MovesOutcome::Undecided { budget, best: None },
                lower,
            )))
        }
        Outcome::Solved { jumps, finish } => MoveSolution {
            moves: move_count(&jumps),
            jumps,
            finish: finish.resize(),
        },
    };
    if best.moves == lower {
        return Ok(Err(report(MovesOutcome::Optimal(best), lower)));
    }
    Ok(Ok((best, lower)))
}
