//! End holes: every hole where a single last peg can finish, each with a verified solution,
//! and the reason for every other hole.

use rayon::prelude::*;

use crate::bitset::{Bits, Hole};
use crate::board::Board;
use crate::search::{solve, Finish, Limits, Outcome, Problem, Stats};

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

/// Solves `start` to each single hole of `board`, in parallel; `limits` apply to each hole.
///
/// ```
/// let b = pegsol::Board::builtin("english").unwrap();
/// let e = pegsol::ends(&b, b.start().unwrap(), &pegsol::Limits::default());
/// let labels: Vec<String> = e.reachable().map(|h| b.label(h.hole)).collect();
/// assert_eq!(labels, ["d1", "a4", "d4", "g4", "d7"]);
/// ```
#[must_use]
pub fn ends(board: &Board, start: Bits, limits: &Limits) -> Ends {
    ends_with_progress(board, start, limits, &|_| {})
}

/// [`ends`], calling `progress` as each hole is decided (in whatever order they finish).
#[must_use]
pub fn ends_with_progress(
    board: &Board,
    start: Bits,
    limits: &Limits,
    progress: &(dyn Fn(&EndHole) + Sync),
) -> Ends {
    let holes: Vec<Hole> = board.holes().iter().collect();
    let holes = holes
        .par_iter()
        .map(|&hole| {
            let done = end_hole(board, start, limits, hole);
            progress(&done);
            done
        })
        .collect();
    Ends { holes }
}

/// Solves `start` to one peg on `hole`.
fn end_hole(board: &Board, start: Bits, limits: &Limits, hole: Hole) -> EndHole {
    match Problem::new(board, start, Finish::Holes(hole.bit())) {
        Ok(problem) => {
            let report = solve(&problem, limits);
            EndHole {
                hole,
                outcome: report.outcome,
                stats: report.stats,
            }
        }
        // Only an empty start gets here: no peg can end anywhere.
        Err(_) => EndHole {
            hole,
            outcome: Outcome::Impossible(crate::Reason::Class),
            stats: Stats::default(),
        },
    }
}
