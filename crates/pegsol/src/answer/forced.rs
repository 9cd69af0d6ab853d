//! What every winning line from a position passes through, as JSON.

use serde::Serialize;

use crate::fewest::Forced;
use crate::{notation, Board, Jump};

/// [`Forced`] in labels.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ForcedView {
    /// Per number of jumps from the position (0: the position itself): how many positions
    /// that many jumps on can be reached and still reach the finish. Empty when the position
    /// cannot win.
    pub counts: Vec<u64>,
    /// The jumps every winning line from the position begins with (empty when the first
    /// jump is a choice).
    pub opening: Vec<String>,
    /// The positions every winning line passes through, nearest first.
    pub positions: Vec<ForcedPosition>,
}

/// One position every winning line passes through.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ForcedPosition {
    /// How many jumps from the position it is.
    pub after: u32,
    /// The jump every winning line reaches it by, when the position one jump before it is
    /// forced too (or is the position itself).
    pub jump: Option<String>,
    /// Its pegs.
    pub pegs: Vec<String>,
}

impl ForcedView {
    /// The view of `forced`, found on `board`.
    #[must_use]
    pub fn of(board: &Board, forced: &Forced) -> ForcedView {
        let name = |j: Jump| notation::jump_text(board, j);
        ForcedView {
            counts: forced.counts.clone(),
            opening: forced.opening().into_iter().map(name).collect(),
            positions: forced
                .positions
                .iter()
                .map(|&(after, q)| ForcedPosition {
                    after,
                    jump: forced
                        .jumps
                        .iter()
                        .find(|(k, _)| k + 1 == after)
                        .map(|&(_, j)| name(j)),
                    pegs: board.labels(q),
                })
                .collect(),
        }
    }
}
