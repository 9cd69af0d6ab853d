//! The answers of `solve --fewest-moves` and `shortest`.

use serde::Serialize;

use super::{checked_moves, FinishView, Line, ProblemView};
use crate::fewest::{MeetOutcome, MovesOutcome, MovesReport, ShortestReport};
use crate::{Pegs, Problem, Result};

/// The fewest moves from one start, proved, or bounds with the best line found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FewestAnswer {
    /// The problem.
    #[serde(flatten)]
    pub problem: ProblemView,
    /// `solved`, `impossible` or `undecided`.
    pub status: &'static str,
    /// Why impossible or undecided.
    pub reason: Option<String>,
    /// Whether the moves are proved the fewest.
    pub optimal: bool,
    /// Proven: no solution has fewer moves.
    pub lower_bound: u32,
    /// The moves of the best line found (the optimum when `optimal`).
    pub upper_bound: Option<u32>,
    /// That line.
    #[serde(flatten)]
    pub line: Line,
    /// Its last position.
    #[serde(rename = "final")]
    pub last: Option<Vec<String>>,
    /// Levels of the meeting from the start and from the finish, when it ran.
    pub depths: Option<[u32; 2]>,
    /// Wall-clock milliseconds.
    pub millis: u64,
}

impl FewestAnswer {
    /// The answer to `problem`, after the replay of its line and a recount of its moves.
    pub fn of(problem: &Problem, report: &MovesReport) -> Result<FewestAnswer> {
        let (board, start) = (problem.board(), problem.start());
        let (status, best) = match &report.outcome {
            MovesOutcome::Optimal(s) => ("solved", Some(s)),
            MovesOutcome::Impossible(_) => ("impossible", None),
            MovesOutcome::Undecided { best, .. } => ("undecided", best.as_ref()),
        };
        if let Some(s) = best {
            checked_moves(board, start, &s.jumps, s.finish.resize(), s.moves)?;
        }
        Ok(FewestAnswer {
            problem: ProblemView::of(problem),
            status,
            reason: match &report.outcome {
                MovesOutcome::Impossible(r) => Some(r.to_string()),
                MovesOutcome::Undecided { budget, .. } => Some(format!("{budget} budget")),
                MovesOutcome::Optimal(_) => None,
            },
            optimal: status == "solved",
            lower_bound: report.lower_bound,
            upper_bound: best.map(|s| s.moves),
            line: best.map_or_else(Line::default, |s| Line::of(board, &s.jumps)),
            last: best.map(|s| board.labels(s.finish)),
            depths: report.meeting.map(|(a, b)| [a, b]),
            millis: report.millis,
        })
    }
}

/// Which starts `shortest` took.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Starts {
    /// Each start's empty holes.
    These(Vec<Vec<String>>),
    /// `"every single vacancy"`.
    Every(&'static str),
}

/// The fewest moves from any of several starts, proved, or bounds with the best line found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShortestAnswer {
    /// The board's name.
    pub board: String,
    /// Its number of holes.
    pub holes: usize,
    /// The starts.
    pub starts: Starts,
    /// The finish.
    pub finish: FinishView,
    /// `solved`, `impossible` or `undecided`.
    pub status: &'static str,
    /// Why impossible or undecided.
    pub reason: Option<String>,
    /// Whether the moves are proved the fewest.
    pub optimal: bool,
    /// Proven: no solution from any start has fewer moves.
    pub lower_bound: u32,
    /// The moves of the line given (the optimum when `optimal`).
    pub upper_bound: Option<u32>,
    /// The start of that line.
    pub empty: Option<Vec<String>>,
    /// Its last position.
    #[serde(rename = "final")]
    pub last: Option<Vec<String>>,
    /// The line.
    #[serde(flatten)]
    pub line: Line,
    /// Positions up to symmetry first reached in `k` moves from the starts.
    pub forward_levels: Vec<u64>,
    /// Positions up to symmetry first able to reach a finish in `k` moves.
    pub backward_levels: Vec<u64>,
    /// Levels completed from the starts and from the finishes.
    pub depths: [u32; 2],
    /// When the Merson-region bounds pruned the last search: the longest solutions it kept
    /// every position of (`null`: nothing was pruned).
    pub pruned_to: Option<u32>,
    /// The order of the symmetry group searched under.
    pub symmetries: usize,
    /// The level tables' peak, in MB.
    pub peak_table_mb: usize,
    /// Wall-clock milliseconds of the whole.
    pub millis: u64,
}

impl ShortestAnswer {
    /// The answer to `problem`; `every` when its starts are every single vacancy. The line
    /// is replayed and its moves recounted first.
    pub fn of(problem: &Problem, every: bool, report: &ShortestReport) -> Result<ShortestAnswer> {
        let board = problem.board();
        let meeting = &report.meeting;
        let best = report.best.as_ref();
        if let Some(s) = best {
            checked_moves(board, s.start, &s.jumps, s.finish, s.moves)?;
        }
        let status = match meeting.outcome {
            MeetOutcome::Optimal(_) => "solved",
            MeetOutcome::Impossible => "impossible",
            MeetOutcome::Undecided(_) => "undecided",
        };
        Ok(ShortestAnswer {
            board: board.name().to_string(),
            holes: board.hole_count(),
            starts: if every {
                Starts::Every("every single vacancy")
            } else {
                Starts::These(
                    problem
                        .starts()
                        .iter()
                        .map(|&s: &Pegs| board.labels(board.holes().minus(s)))
                        .collect(),
                )
            },
            finish: FinishView::of(board, problem.finish()),
            status,
            reason: match &meeting.outcome {
                MeetOutcome::Undecided(b) => Some(format!("{b} budget")),
                MeetOutcome::Impossible => Some(
                    "no start can reach a finish (position classes, or both searches ran dry)"
                        .to_string(),
                ),
                MeetOutcome::Optimal(_) => None,
            },
            optimal: status == "solved",
            lower_bound: meeting.lower_bound,
            upper_bound: best.map(|s| s.moves),
            empty: best.map(|s| board.labels(board.holes().minus(s.start))),
            last: best.map(|s| board.labels(s.finish)),
            line: best.map_or_else(Line::default, |s| Line::of(board, &s.jumps)),
            forward_levels: meeting.forward.clone(),
            backward_levels: meeting.backward.clone(),
            depths: [meeting.depths.0, meeting.depths.1],
            pruned_to: meeting.pruned_to,
            symmetries: meeting.symmetries,
            peak_table_mb: meeting.peak_bytes >> 20,
            millis: report.millis,
        })
    }
}
