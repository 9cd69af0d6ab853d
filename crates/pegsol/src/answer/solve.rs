//! The answer of `solve`.

use serde::Serialize;

use super::{checked, Line, ProblemView, StatsView};
use crate::{Outcome, Problem, Report, Result};

/// Where a certificate went.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CertificateWritten {
    /// `class`, `pagoda` or `search`.
    pub kind: &'static str,
    /// The file written.
    pub file: String,
    /// What it proves by, in words.
    pub reason: String,
}

/// The answer of `solve` (and the web API's solve and hint).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveAnswer {
    /// The problem.
    #[serde(flatten)]
    pub problem: ProblemView,
    /// `solved`, `impossible` or `undecided`.
    pub status: &'static str,
    /// Why impossible (the proof's kind) or undecided (the budget).
    pub reason: Option<String>,
    /// The start's position class.
    pub class: String,
    /// How many classes the board has.
    pub classes: u64,
    /// The solution (empty unless solved).
    #[serde(flatten)]
    pub line: Line,
    /// The final position, when solved.
    #[serde(rename = "final", skip_serializing_if = "Option::is_none")]
    pub last: Option<Vec<String>>,
    /// The search's effort.
    pub stats: StatsView,
    /// The certificate written, when one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<CertificateWritten>,
    /// The next jump of the solution (the web API's hint).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl SolveAnswer {
    /// The answer to `problem`, after the independent replay of any solution.
    pub fn of(problem: &Problem, report: &Report) -> Result<SolveAnswer> {
        let board = problem.board();
        let start = problem.start();
        let (status, reason, line, last) = match &report.outcome {
            Outcome::Solved { jumps, finish } => {
                checked(board, start, jumps, *finish)?;
                (
                    "solved",
                    None,
                    Line::of(board, jumps),
                    Some(board.labels(*finish)),
                )
            }
            Outcome::Impossible(r) => ("impossible", Some(r.to_string()), Line::default(), None),
            Outcome::Undecided(b) => (
                "undecided",
                Some(format!("{b} budget")),
                Line::default(),
                None,
            ),
        };
        Ok(SolveAnswer {
            problem: ProblemView::of(problem),
            status,
            reason,
            class: board.classes().class_text(start),
            classes: board.classes().count(),
            line,
            last,
            stats: StatsView::from(&report.stats),
            certificate: None,
            hint: None,
        })
    }
}
