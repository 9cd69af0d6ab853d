//! What the meeting answers: its outcome, its solution, its report, and its progress.

use crate::bitset::Pegs;
use crate::jumps::Jump;
use crate::problem::Budget;

/// A solution found by [`fewest_moves_meeting`](super::fewest_moves_meeting), with the start it begins from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeetSolution {
    /// The starting position (one of the starts asked for).
    pub start: Pegs,
    /// The jumps in order.
    pub jumps: Vec<Jump>,
    /// Moves: jumps not continuing the previous jump's peg.
    pub moves: u32,
    /// The final position (one of the finishes).
    pub finish: Pegs,
}

/// The answer of [`fewest_moves_meeting`](super::fewest_moves_meeting).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MeetOutcome {
    /// A solution with the fewest moves over every start and finish; none has fewer.
    Optimal(MeetSolution),
    /// No start reaches any finish (both searches were exhausted).
    Impossible,
    /// A budget ran out; the report's lower bound still holds.
    Undecided(Budget),
}

/// An outcome with the evidence for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeetReport {
    /// The answer.
    pub outcome: MeetOutcome,
    /// Proven: every solution needs at least this many moves (the optimum when solved).
    pub lower_bound: u32,
    /// Positions up to symmetry first reached in `k` moves from the starts, per level `k`
    /// kept. A pruned search's level that brings the depths to the longest solution sought
    /// is only checked against the other side, never kept, and not listed: the last level
    /// `depths` counts may then be missing here.
    pub forward: Vec<u64>,
    /// Positions up to symmetry first able to reach a finish in `k` moves, per level `k`
    /// kept (as for `forward`).
    pub backward: Vec<u64>,
    /// Levels completed on each side, `(a, b)`: no position within `a` moves of a start is
    /// within `b` moves of a finish, so `lower_bound = a + b + 1` (unless a start is a finish).
    pub depths: (u32, u32),
    /// When the Merson-region bounds pruned the search (a line was known): every solution of
    /// at most this many moves kept all its positions on the sides (longer ones may not).
    pub pruned_to: Option<u32>,
    /// Order of the symmetry group used.
    pub symmetries: usize,
    /// Most bytes the level tables and frontiers held.
    pub peak_bytes: usize,
    /// Wall-clock milliseconds.
    pub millis: u64,
}

/// Where a meeting search stands, reported after every chunk of a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeetProgress {
    /// Levels completed from the starts and from the finishes.
    pub depths: (u32, u32),
    /// Whether the level being grown is on the starts' side.
    pub growing_forward: bool,
    /// Positions of the frontier expanded so far, and in all.
    pub done: u64,
    /// Positions of the frontier in all.
    pub frontier: u64,
    /// Bytes the level tables hold.
    pub table_bytes: usize,
    /// Proven so far: every solution has at least this many moves.
    pub lower_bound: u32,
}
