//! End holes: every hole where a single last peg can finish, each with a verified solution,
//! and the reason for every other hole.

use rayon::prelude::*;

use crate::bitset::{Hole, Pegs};
use crate::error::{Error, Result};
use crate::jumps::Jump;
use crate::problem::{Finish, Limits, Outcome, Problem, Stats};
use crate::search::solve;

/// The answer for one hole.
#[derive(Clone, Debug)]
pub struct EndHole {
    /// The hole.
    pub hole: Hole,
    /// Its outcome: solved (with the jumps), impossible (with the reason) or undecided.
    pub outcome: Outcome,
    /// The effort of the search that decided it (or the hole its answer was mapped from).
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
/// own finish is not used); `limits` apply to each hole. Holes that a symmetry keeping the
/// start maps onto each other are solved once: the image of a solution under such a
/// symmetry is a solution to the image hole (replayed before it is given), and the image of
/// an impossible hole is impossible for the same reason.
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

/// [`ends`], calling `progress` once for each hole as it is decided (in whatever order they
/// finish; a hole answered by symmetry after the hole it is mapped from).
///
/// # Errors
///
/// As [`ends`].
pub fn ends_with_progress(
    problem: &Problem,
    limits: &Limits,
    progress: &(dyn Fn(&EndHole) + Sync),
) -> Result<Ends> {
    let board = problem.board();
    let start: Pegs = problem.start();
    let sym = board.symmetries();
    let group = sym.stabilizer(&[start]);
    // Each hole's representative and the symmetry that maps the representative onto it.
    let mut image_of: Vec<Option<(Hole, usize)>> = vec![None; board.hole_count()];
    let mut representatives = Vec::new();
    for hole in board.each_hole() {
        if image_of[hole.index()].is_some() {
            continue;
        }
        representatives.push(hole);
        for &g in &group {
            let m = sym.map_hole(g, hole);
            if image_of[m.index()].is_none() {
                image_of[m.index()] = Some((hole, g));
            }
        }
    }
    let solved: Vec<EndHole> = representatives
        .par_iter()
        .map(|&hole| {
            let done = end_hole(problem, limits, hole)?;
            progress(&done);
            Ok(done)
        })
        .collect::<Result<_>>()?;
    let mut holes = Vec::with_capacity(board.hole_count());
    for hole in board.each_hole() {
        let Some((rep, g)) = image_of[hole.index()] else {
            return Err(Error::Internal("a hole outside every orbit"));
        };
        let Some(decided) = solved.iter().find(|e| e.hole == rep) else {
            return Err(Error::Internal("an orbit without its representative"));
        };
        let outcome = match &decided.outcome {
            Outcome::Solved { jumps, .. } if rep != hole => {
                let jumps = jumps
                    .iter()
                    .map(|j| board.jump_between(sym.map_hole(g, j.from()), sym.map_hole(g, j.to())))
                    .collect::<Option<Vec<Jump>>>()
                    .ok_or(Error::Internal("a symmetry that maps a jump off the board"))?;
                let finish: Pegs = crate::replay(board, start, &jumps)
                    .map_err(|_| Error::Internal("a solution's image fails its replay"))?;
                if finish != Pegs::single(hole) {
                    return Err(Error::Internal("a solution's image ends elsewhere"));
                }
                Outcome::Solved { jumps, finish }
            }
            other => other.clone(),
        };
        let done = EndHole {
            hole,
            outcome,
            stats: decided.stats,
        };
        if rep != hole {
            progress(&done);
        }
        holes.push(done);
    }
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
