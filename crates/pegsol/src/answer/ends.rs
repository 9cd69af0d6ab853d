//! The answer of `ends`.

use serde::Serialize;

use super::{checked, Line, StatsView};
use crate::{Outcome, Problem, Result};

/// A hole where one last peg can end, with a replayed solution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct End {
    /// The hole.
    pub hole: String,
    /// A solution ending there.
    #[serde(flatten)]
    pub line: Line,
    /// The search's effort.
    pub stats: StatsView,
}

/// A hole where it cannot, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NoEnd {
    /// The hole.
    pub hole: String,
    /// The proof's kind.
    pub reason: String,
}

/// A hole not decided within the budget.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Open {
    /// The hole.
    pub hole: String,
    /// The budget that ran out.
    pub budget: String,
}

/// Every hole where one last peg can end from a start, and why the others cannot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EndsAnswer {
    /// The board's name.
    pub board: String,
    /// The start's empty holes.
    pub empty: Vec<String>,
    /// The start's position class.
    pub class: String,
    /// The holes reached, each with a solution.
    pub ends: Vec<End>,
    /// The holes proved out of reach.
    pub impossible: Vec<NoEnd>,
    /// The holes not decided within the budget.
    pub undecided: Vec<Open>,
}

impl EndsAnswer {
    /// The answer, after replaying every solution.
    pub fn of(problem: &Problem, result: &crate::Ends) -> Result<EndsAnswer> {
        let (board, start) = (problem.board(), problem.start());
        let mut answer = EndsAnswer {
            board: board.name().to_string(),
            empty: board.labels(board.holes().minus(start)),
            class: board.classes().class_text(start),
            ends: Vec::new(),
            impossible: Vec::new(),
            undecided: Vec::new(),
        };
        for e in &result.holes {
            let hole = board.label(e.hole);
            match &e.outcome {
                Outcome::Solved { jumps, finish } => {
                    checked(board, start, jumps, *finish)?;
                    answer.ends.push(End {
                        hole,
                        line: Line::of(board, jumps),
                        stats: StatsView::from(&e.stats),
                    });
                }
                Outcome::Impossible(r) => answer.impossible.push(NoEnd {
                    hole,
                    reason: r.to_string(),
                }),
                Outcome::Undecided(b) => answer.undecided.push(Open {
                    hole,
                    budget: b.to_string(),
                }),
            }
        }
        Ok(answer)
    }

    /// `undecided` when a hole is, else `impossible` when no hole can be reached, else
    /// `solved`.
    #[must_use]
    pub fn status(&self) -> &'static str {
        if !self.undecided.is_empty() {
            "undecided"
        } else if self.ends.is_empty() {
            "impossible"
        } else {
            "solved"
        }
    }
}
