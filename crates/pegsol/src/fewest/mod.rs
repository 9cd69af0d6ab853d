//! Fewest moves: a move is one or more consecutive jumps by the same peg.
//!
//! # Methods
//!
//! The number of jumps in a solution is fixed (pegs at the start minus pegs at the finish), but
//! the number of moves is not, and a search for any solution finds far more moves than needed.
//! The answer here is exact and its optimality is proved by exhaustion. Both methods begin the
//! same way: cheap refutations (position class, pagoda functions) through [`crate::solve`],
//! which also yields a first solution and so an upper bound, and the Merson-region lower bound
//! ([`MoveBound`]: a full region that every jump over it starts or ends in, such as a corner or
//! a pair of edge holes of a triangle, must see a move begin in it, and disjoint regions see
//! different moves).
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
//!    finish is one position it is found from both ends (`count::meeting`): forward
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

use crate::error::{Error, Result};

mod beam;
mod bound;
mod chains;
mod forced;
mod meet;
mod moves;
mod shortest;
mod sorted;
mod winning;

#[cfg(test)]
mod tests;

use std::time::Instant;

use crate::problem::{Limits, Problem};

pub use beam::few_moves;
pub use bound::{MoveBound, Origins};
pub use forced::Forced;
pub use meet::{
    fewest_moves_meeting, fewest_moves_meeting_with, single_vacancies, Known, MeetOutcome,
    MeetProgress, MeetReport, MeetSolution,
};
pub use moves::{move_bound, move_count, MoveSolution, MovesOutcome, MovesReport};
pub use shortest::{
    proof_limits, shortest, ShortestPhase, ShortestReport, FIRST_LINE, UPPER_BOUND_SECS,
};
pub use winning::{fewest_moves_by_winning_set, WinningSet};

/// Finds a solution with the fewest moves within `limits` (time and memory), and proves that
/// none is shorter by meeting in the middle ([`fewest_moves_meeting_with`], given the
/// solver's first solution: only shorter ones are sought), on a board of any size.
///
/// ```
/// use pegsol::{Board, Problem, fewest::{fewest_moves, MovesOutcome}, Limits};
/// let board = Board::builtin("triangle5").unwrap();
/// let start = board.holes().without(board.hole("a1").unwrap());
/// let problem = Problem::new(&board, start, pegsol::Finish::AnyOne).unwrap();
/// let report = fewest_moves(&problem, &Limits::default()).unwrap();
/// let MovesOutcome::Optimal(s) = report.outcome else { panic!() };
/// assert_eq!((s.jumps.len(), s.moves), (13, 10));
/// ```
///
/// # Errors
///
/// [`Error::Internal`] when an answer fails its own check: a bug, never an answer.
pub fn fewest_moves(problem: &Problem, limits: &Limits) -> Result<MovesReport> {
    let started = Instant::now();
    let (best, lower) = match moves::first_solution(problem, limits, started)? {
        Ok(found) => found,
        Err(done) => return Ok(done),
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
    // The first solution bounds the meeting's search: only shorter ones are sought.
    let known = MeetSolution {
        start: problem.start(),
        jumps: best.jumps.clone(),
        moves: best.moves,
        finish: best.finish,
    };
    // One search below it: where the regions' bound is far below the fewest (the English
    // board), deepening by steps would repeat most of the search.
    let known = Known {
        line: &known,
        by_steps: false,
    };
    let r = fewest_moves_meeting_with(problem, &rest, Some(known), &|_| {})?;
    match r.outcome {
        MeetOutcome::Optimal(s) => {
            let found = MoveSolution {
                jumps: s.jumps,
                moves: s.moves,
                finish: s.finish,
            };
            Ok(report(
                MovesOutcome::Optimal(found),
                s.moves,
                Some(r.depths),
            ))
        }
        MeetOutcome::Undecided(budget) => {
            Ok(report(undecided(budget), lower.max(r.lower_bound), None))
        }
        // The first search found a solution, so the meeting cannot find none.
        MeetOutcome::Impossible => Err(Error::Internal(
            "the meeting found no line for a solvable problem",
        )),
    }
}
