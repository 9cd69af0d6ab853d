//! Typed answers: what each question to the library answers, in the one vocabulary every
//! front end shows (the CLI's `--json`, the web API, the Python package's `to_dict()`).
//!
//! One convention across questions: holes are labels; a finish is a list of labels, `"any"`
//! or `"any:N"`; `jumps` are `"from-to"` strings, `moves` their number of moves and
//! `move_list` the moves as `"d2-d4-f4"` strings; `final` the last position's labels;
//! `status` is `solved`, `impossible`, `undecided` (or `counted`) and `reason` says why.
//!
//! Invariant: every line of play an answer holds was replayed from its start by
//! [`crate::replay`] and ends on the position the answer names (else the answer is an
//! [`Error::Internal`], never a wrong line).

mod army;
mod catalog;
mod check;
mod count;
mod ends;
mod fewest;
mod forced;
mod replay;
mod solve;

pub use army::{ArmyAnswer, WindowView};
pub use catalog::{proof_kind, CatalogAnswer, EntryView, ProofCounts, SummaryView, VacancyView};
pub use check::{
    hex, kind_reason, reason, weights, CertificateFile, CertificateView, CheckAnswer, FinishesFile,
    Fraction, ProofView, SeparatedView, SetView, Weights, CLAIM, FORMAT, VERSION,
};
pub use count::{CountAnswer, CountUndecided, LevelView, SolutionsAnswer};
pub use ends::{End, EndsAnswer, NoEnd, Open};
pub use fewest::{FewestAnswer, ShortestAnswer, Starts};
pub use forced::{ForcedPosition, ForcedView};
pub use replay::ReplayAnswer;
pub use solve::{CertificateWritten, SolveAnswer};

use serde::Serialize;

use crate::{notation, Board, Error, Finish, Jump, Pegs, Problem, Result, Stats};

/// A finish as JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum FinishView {
    /// These holes.
    Holes(Vec<String>),
    /// `"any"` or `"any:N"`.
    Anywhere(String),
}

impl FinishView {
    /// The finish in labels.
    #[must_use]
    pub fn of(board: &Board, finish: Finish) -> FinishView {
        match finish {
            Finish::Holes(f) => FinishView::Holes(board.labels(f)),
            Finish::AnyOne => FinishView::Anywhere("any".to_string()),
            Finish::Pegs(n) => FinishView::Anywhere(format!("any:{n}")),
        }
    }
}

/// The problem, as every answer about one starts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProblemView {
    /// The board's name.
    pub board: String,
    /// Its number of holes.
    pub holes: usize,
    /// Its lattice's name.
    pub lattice: &'static str,
    /// The start's empty holes.
    pub empty: Vec<String>,
    /// The finish.
    pub finish: FinishView,
}

impl ProblemView {
    /// The view of `problem` (its first start).
    #[must_use]
    pub fn of(problem: &Problem) -> ProblemView {
        let board = problem.board();
        ProblemView {
            board: board.name().to_string(),
            holes: board.hole_count(),
            lattice: board.lattice().name(),
            empty: board.labels(problem.empty_holes()),
            finish: FinishView::of(board, problem.finish()),
        }
    }
}

/// Search effort.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StatsView {
    /// Positions entered.
    pub nodes: u64,
    /// Positions proved dead and stored.
    pub dead: u64,
    /// Wall-clock milliseconds.
    pub millis: u64,
}

impl From<&Stats> for StatsView {
    fn from(s: &Stats) -> StatsView {
        StatsView {
            nodes: s.nodes,
            dead: s.dead,
            millis: s.millis,
        }
    }
}

/// A line of play in notation: its jumps, and its moves.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Line {
    /// The jumps, `"from-to"`.
    pub jumps: Vec<String>,
    /// How many moves (runs of jumps by one peg) they make.
    pub moves: usize,
    /// The moves, `"d2-d4-f4"`.
    pub move_list: Vec<String>,
}

impl Line {
    /// The line of `jumps` on `board`.
    #[must_use]
    pub fn of(board: &Board, jumps: &[Jump]) -> Line {
        let move_list = notation::move_texts(board, jumps);
        Line {
            jumps: jumps
                .iter()
                .map(|&j| notation::jump_text(board, j))
                .collect(),
            moves: move_list.len(),
            move_list,
        }
    }
}

/// Replays a solution with the library's independent checker before it is shown: an
/// [`Error::Internal`] if it is illegal or ends elsewhere than `finish`.
pub fn checked(board: &Board, start: Pegs, jumps: &[Jump], finish: Pegs) -> Result<()> {
    let end = crate::replay(board, start, jumps)
        .map_err(|_| Error::Internal("a solution failed its replay"))?;
    if end != finish {
        return Err(Error::Internal(
            "a solution replays to a different position",
        ));
    }
    Ok(())
}

/// [`checked`], and the moves recounted from the jumps.
pub fn checked_moves(
    board: &Board,
    start: Pegs,
    jumps: &[Jump],
    finish: Pegs,
    moves: u32,
) -> Result<()> {
    checked(board, start, jumps, finish)?;
    if crate::fewest::move_count(jumps) != moves {
        return Err(Error::Internal(
            "a solution's move count does not match its jumps",
        ));
    }
    Ok(())
}
