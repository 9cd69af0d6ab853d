//! The answers of `count`: the whole game tree, the solutions alone, and a count a budget
//! stopped.

use serde::Serialize;

use super::ProblemView;
use crate::count::{peak_memory_mb, Count, CountError, Level, Solutions};
use crate::Problem;

/// One level of a count: its forward figures, and (known only once every level is) how many
/// of its positions can still finish.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelView {
    /// Jumps made.
    pub jumps: u32,
    /// Pegs left.
    pub pegs: u32,
    /// Positions reached.
    pub positions: u64,
    /// The same up to symmetry.
    pub classes: u64,
    /// Positions with no jump.
    pub dead_ends: u64,
    /// Jump sequences from the start to the level's positions.
    pub paths: u128,
    /// Positions from which the finish can still be reached (a finished count only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning: Option<u64>,
    /// The same up to symmetry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_classes: Option<u64>,
}

impl LevelView {
    /// The view of a level; `winning` when the count finished (the backward pass ran).
    #[must_use]
    pub fn of(l: &Level, winning: bool) -> LevelView {
        LevelView {
            jumps: l.jumps,
            pegs: l.pegs,
            positions: l.positions,
            classes: l.classes,
            dead_ends: l.dead_ends,
            paths: l.paths,
            winning: winning.then_some(l.winning),
            winning_classes: winning.then_some(l.winning_classes),
        }
    }
}

/// A finished count of the whole game tree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CountAnswer {
    /// `counted`.
    pub status: &'static str,
    /// The problem.
    #[serde(flatten)]
    pub problem: ProblemView,
    /// The order of the symmetry group counted under.
    pub symmetries: usize,
    /// Level by level.
    pub levels: Vec<LevelView>,
    /// Positions reachable.
    pub positions: u64,
    /// The same up to symmetry.
    pub positions_up_to_symmetry: u64,
    /// Positions from which the finish can still be reached.
    pub winning_positions: u64,
    /// The same up to symmetry.
    pub winning_positions_up_to_symmetry: u64,
    /// Jump sequences from the start to the finish.
    pub solutions: u128,
    /// Jump sequences from the start to a position with no jump.
    pub games: u128,
    /// The fewest jumps to a position with no jump that is not a finish.
    pub shortest_dead_end: Option<u32>,
    /// Wall-clock milliseconds.
    pub millis: u64,
    /// The process's peak memory, in MB.
    pub peak_memory_mb: u64,
    /// Worker threads (or processes of a cluster).
    pub threads: usize,
    /// Whether pagoda functions pruned the tree (then only the winning figures and the
    /// solutions are those of the whole game).
    pub pagoda_pruned: bool,
}

impl CountAnswer {
    /// The answer of a finished count of `problem` (its view).
    #[must_use]
    pub fn of(
        problem: ProblemView,
        c: &Count,
        millis: u64,
        threads: usize,
        pagoda: bool,
    ) -> CountAnswer {
        CountAnswer {
            status: "counted",
            problem,
            symmetries: c.symmetries,
            levels: c.levels.iter().map(|l| LevelView::of(l, true)).collect(),
            positions: c.positions(),
            positions_up_to_symmetry: c.classes(),
            winning_positions: c.winning(),
            winning_positions_up_to_symmetry: c.winning_classes(),
            solutions: c.solutions,
            games: c.games,
            shortest_dead_end: c.shortest_dead_end(),
            millis,
            peak_memory_mb: peak_memory_mb(),
            threads,
            pagoda_pruned: pagoda,
        }
    }
}

/// A count a budget stopped: the levels it finished, with their forward figures (which
/// positions can still win is known only once every level is, so it is left out).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CountUndecided {
    /// `undecided`.
    pub status: &'static str,
    /// `time budget` or `memory budget`.
    pub reason: &'static str,
    /// What ran out, and how to raise it.
    pub message: String,
    /// The problem.
    #[serde(flatten)]
    pub problem: ProblemView,
    /// The levels finished.
    pub levels_finished: Vec<LevelView>,
    /// Wall-clock milliseconds.
    pub millis: u64,
    /// The process's peak memory, in MB.
    pub peak_memory_mb: u64,
    /// Worker threads.
    pub threads: usize,
}

impl CountUndecided {
    /// The answer of a count `e` stopped, `message` saying how to raise the budget.
    #[must_use]
    pub fn of(
        e: &CountError,
        message: String,
        problem: ProblemView,
        levels: &[Level],
        millis: u64,
        threads: usize,
    ) -> CountUndecided {
        CountUndecided {
            status: "undecided",
            reason: match e {
                CountError::Timeout => "time budget",
                _ => "memory budget",
            },
            message,
            problem,
            levels_finished: levels.iter().map(|l| LevelView::of(l, false)).collect(),
            millis,
            peak_memory_mb: peak_memory_mb(),
            threads,
        }
    }
}

/// The solutions and winning positions of a game with one finish, by meeting in the middle
/// (or by a whole count: spilled to disk where the meeting did not fit, or on a cluster).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolutionsAnswer {
    /// `counted`.
    pub status: &'static str,
    /// The problem.
    #[serde(flatten)]
    pub problem: ProblemView,
    /// How they were counted ([`crate::count::SolutionsMethod::as_str`]).
    pub method: &'static str,
    /// The order of the symmetry group counted under.
    pub symmetries: usize,
    /// Jump sequences from the start to the finish.
    pub solutions: u128,
    /// Positions from which the finish can still be reached.
    pub winning_positions: u64,
    /// The same up to symmetry.
    pub winning_positions_up_to_symmetry: u64,
    /// Per level: jumps, winning positions, the same up to symmetry.
    pub winning_levels: Vec<(u32, u64, u64)>,
    /// Wall-clock milliseconds.
    pub millis: u64,
    /// The process's peak memory, in MB.
    pub peak_memory_mb: u64,
    /// Worker threads.
    pub threads: usize,
}

impl SolutionsAnswer {
    /// The answer of `problem`'s solution count `s`.
    #[must_use]
    pub fn of(problem: &Problem, s: &Solutions, threads: usize) -> SolutionsAnswer {
        SolutionsAnswer {
            status: "counted",
            problem: ProblemView::of(problem),
            method: s.method.as_str(),
            symmetries: s.symmetries,
            solutions: s.solutions,
            winning_positions: s.winning(),
            winning_positions_up_to_symmetry: s.winning_classes(),
            winning_levels: s
                .winning
                .iter()
                .enumerate()
                .map(|(k, w)| (k as u32, w.0, w.1))
                .collect(),
            millis: s.millis,
            peak_memory_mb: peak_memory_mb(),
            threads,
        }
    }
}
