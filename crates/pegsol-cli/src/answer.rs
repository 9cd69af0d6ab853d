//! The pieces every typed answer shares, as JSON (serde): the problem, a finish, the effort,
//! a line of play. One convention across commands: holes are labels; a finish is a list of
//! labels, `"any"` or `"any:N"`; `jumps` are `"from-to"` strings, `moves` their number of
//! moves and `move_list` the moves as `"d2-d4-f4"` strings; `final` the last position's
//! labels; `status` and `reason` say what was decided and why.

use pegsol::{notation, Board, Finish, Jump, Problem, Stats};
use serde::Serialize;

/// A finish as JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub(crate) enum FinishView {
    /// These holes.
    Holes(Vec<String>),
    /// `"any"` or `"any:N"`.
    Anywhere(String),
}

impl FinishView {
    pub(crate) fn of(board: &Board, finish: Finish) -> FinishView {
        match finish {
            Finish::Holes(f) => FinishView::Holes(board.labels(f)),
            Finish::AnyOne => FinishView::Anywhere("any".to_string()),
            Finish::Pegs(n) => FinishView::Anywhere(format!("any:{n}")),
        }
    }
}

/// The problem, as every answer about one starts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ProblemView {
    pub board: String,
    pub holes: usize,
    pub lattice: &'static str,
    pub empty: Vec<String>,
    pub finish: FinishView,
}

impl ProblemView {
    pub(crate) fn of(problem: &Problem) -> ProblemView {
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
pub(crate) struct StatsView {
    pub nodes: u64,
    pub dead: u64,
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
pub(crate) struct Line {
    pub jumps: Vec<String>,
    pub moves: usize,
    pub move_list: Vec<String>,
}

impl Line {
    pub(crate) fn of(board: &Board, jumps: &[Jump]) -> Line {
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

/// Labels of a set.
pub(crate) fn labels(board: &Board, set: pegsol::Pegs) -> Vec<String> {
    board.labels(set)
}
