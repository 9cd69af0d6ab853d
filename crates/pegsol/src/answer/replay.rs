//! The answer of `replay`.

use serde::Serialize;

use super::Line;
use crate::{Board, Jump, Pegs, Result};

/// A line of play checked jump by jump, and where it ends.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplayAnswer {
    /// The board's name.
    pub board: String,
    /// The line.
    #[serde(flatten)]
    pub line: Line,
    /// Pegs left at the end.
    pub pegs: u32,
    /// The last position.
    #[serde(rename = "final")]
    pub last: Vec<String>,
}

impl ReplayAnswer {
    /// `jumps` replayed from `start`: an error naming the first illegal jump.
    pub fn of(board: &Board, start: Pegs, jumps: &[Jump]) -> Result<ReplayAnswer> {
        let end = crate::replay(board, start, jumps)?;
        Ok(ReplayAnswer {
            board: board.name().to_string(),
            line: Line::of(board, jumps),
            pegs: end.count(),
            last: board.labels(end),
        })
    }
}
