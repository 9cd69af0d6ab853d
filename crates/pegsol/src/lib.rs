//! # pegsol
//!
//! Peg solitaire on any board of up to 256 holes, on square, diagonal or triangular lattices:
//! boards and positions, position classes, symmetry, pagoda functions, and a fast memoized
//! solver whose every answer is replayed by an independent checker. One [`Board`] serves
//! every size; a position is a [`Bits`] of one, two or four words, the fewest that hold the
//! board ([`Board::words`]). Every engine behind a [`Problem`] takes every board, the width
//! picked in one place and each engine compiled once per width.
//!
//! ## Quick start
//!
//! ```
//! use pegsol::{Board, Finish, Limits, Outcome, Problem, solve, notation};
//!
//! // The English board, centre empty, finish with one peg in the centre.
//! let board = Board::builtin("english")?;
//! let problem = Problem::conventional(&board)?;
//! let report = solve(&problem, &Limits::default())?;
//! let Outcome::Solved { jumps, .. } = report.outcome else { panic!("english is solvable") };
//! assert_eq!(jumps.len(), 31);
//! println!("{}", notation::move_texts(&board, &jumps).join(" "));
//!
//! // The French board from the centre cannot end with one peg anywhere: the position class
//! // of the start is that of no single peg.
//! let french = Board::builtin("french")?;
//! let problem = Problem::new(&french, french.start().unwrap(), Finish::AnyOne)?;
//! assert_eq!(solve(&problem, &Limits::default())?.outcome,
//!            Outcome::Impossible(pegsol::Reason::Class));
//! # Ok::<(), pegsol::Error>(())
//! ```

#![warn(missing_docs)]

pub mod answer;
pub mod army;
mod bitset;
mod board;
pub mod catalog;
pub mod check;
mod classes;
pub mod count;
mod ends;
mod error;
pub mod fewest;
mod jumps;
mod key;
mod labels;
mod lattice;
mod layout;
pub mod memory;
pub mod menu;
pub mod notation;
pub mod one_dimensional;
mod pagoda;
mod problem;
mod replay;
mod search;
mod shape;
mod space;
mod spill;
mod stop;
pub mod svg;
mod symmetry;
mod table;
#[cfg(test)]
mod testing;
mod width;

pub use bitset::{Bits, BitsIter, Hole, Pegs, Word, MAX_BOARD_HOLES, MAX_HOLES};
pub use board::{Board, GridLine, Position};
pub use classes::{Class, Classes};
pub use ends::{ends, ends_with_progress, EndHole, Ends};
pub use error::{Error, Result};
pub use jumps::{Jump, JumpTable};
pub use lattice::Lattice;
pub use menu::Builtin;
pub use pagoda::{Named, Pagoda, MAX_WEIGHT};
pub use problem::{
    Budget, Engines, Finish, Limits, Outcome, Problem, Reason, Report, SolveOptions, Stats,
    MAX_FINISHES,
};
pub use replay::replay;
pub use search::{solve, solve_with, solve_with_progress};
pub use shape::Shape;
pub use symmetry::{Canonicalizer, Symmetries};
