//! End holes: every hole where a single last peg can finish, each with a verified solution,
//! and the reason for every other hole.

use rayon::prelude::*;

use crate::bitset::{Hole, Pegs};
use crate::error::Result;
use crate::problem::{Finish, Limits, Outcome, Problem, Stats};
use crate::search::solve;

/// The answer for one hole.
#[derive(Clone, Debug)]
pub struct EndHole {
    /// The hole.
    pub hole: Hole,
    /// Its outcome: solved (with the jumps), impossible (with the reason) or undecided.
    pub outcome: Outcome,
    /// The search effort.
    pub stats: Stats,
}

/// The end-hole analysis of one start.
#[derive(Clone, Debug)]
pub struct Ends {
    /// One entry per hole of the board, in hole order.
    pub holes: Vec<EndHole>,
}

impl Ends {
    /// The holes where one last peg can finish.
    pub fn reachable(&self) -> impl Iterator<Item = &EndHole> {
        self.holes
            .iter()
            .filter(|e| matches!(e.outcome, Outcome::Solved { .. }))
    }
}

/// Solves the problem's start to each single hole of its board, in parallel (the problem's
/// own finish is not used); `limits` apply to each hole.
///
/// ```
/// use pegsol::{Board, Finish, Limits, Problem};
/// let b = Board::builtin("english").unwrap();
/// let p = Problem::new(&b, b.start().unwrap(), Finish::AnyOne).unwrap();
/// let e = pegsol::ends(&p, &Limits::default()).unwrap();
/// let labels: Vec<String> = e.reachable().map(|h| b.label(h.hole)).collect();
/// assert_eq!(labels, ["d1", "a4", "d4", "g4", "d7"]);
/// ```
///
/// # Errors
///
/// [`crate::Error::Internal`] if a solution found fails its replay (a bug).
pub fn ends(problem: &Problem, limits: &Limits) -> Result<Ends> {
    ends_with_progress(problem, limits, &|_| {})
}

/// [`ends`], calling `progress` as each hole is decided (in whatever order they finish).
///
/// # Errors
///
/// As [`ends`].
pub fn ends_with_progress(
    problem: &Problem,
    limits: &Limits,
    progress: &(dyn Fn(&EndHole) + Sync),
) -> Result<Ends> {
    let holes: Vec<Hole> = problem.board().each_hole().collect();
    let holes = holes
        .par_iter()
        .map(|&hole| {
            let done = end_hole(problem, limits, hole)?;
            progress(&done);
            Ok(done)
        })
        .collect::<Result<_>>()?;
    Ok(Ends { holes })
}

/// Solves the start to one peg on `hole`.
fn end_hole(problem: &Problem, limits: &Limits, hole: Hole) -> Result<EndHole> {
    let board = problem.shared_board().clone();
    match Problem::new(board, problem.start(), Finish::holes(Pegs::single(hole))) {
        Ok(problem) => {
            let report = solve(&problem, limits)?;
            Ok(EndHole {
                hole,
                outcome: report.outcome,
                stats: report.stats,
            })
        }
        // Only an empty start gets here: no peg can end anywhere.
        Err(_) => Ok(EndHole {
            hole,
            outcome: Outcome::Impossible(crate::Reason::Class),
            stats: Stats::default(),
        }),
    }
}
