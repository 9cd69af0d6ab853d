//! The engines that take boards of up to 256 holes in positions of one, two or four words,
//! until the engines behind a [`Problem`](crate::Problem) are lifted past one word.
//!
//! [`solve_wide`] picks the width of its positions once per board (1, 2 or 4 words, one
//! monomorphised copy of the search for each), so a board runs on the fewest words it needs.
//!
//! ```
//! use pegsol::{solve_wide, Board, Pegs, WideFinish, WideLimits, WideOutcome};
//!
//! // The triangle of side 11: 66 holes, too many for one word.
//! let board = Board::builtin("triangle:11")?;
//! let start: Pegs = board.holes().without(board.hole("a1")?);
//! let report = solve_wide(&board, start, &WideFinish::Pegs(1), &WideLimits::default())?;
//! let WideOutcome::Solved { jumps, .. } = &report.outcome else { panic!("solvable") };
//! assert_eq!(jumps.len(), 64);
//! // Every solution replays by coordinates, independently of the solver's tables.
//! assert_eq!(pegsol::replay(&board, start, jumps)?.count(), 1);
//! # Ok::<(), pegsol::Error>(())
//! ```

mod solve;
mod tables;

pub use solve::{solve_wide, solve_wide_with, WideFinish, WideLimits, WideOutcome, WideReport};

/// A position of `W` words, in the wide engines' generic code.
pub(crate) type Set<const W: usize> = crate::bitset::Bits<[u64; W]>;
