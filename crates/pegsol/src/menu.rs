//! The built-in boards and families ([`Board::builtins`]), and the boards a player is
//! offered, each with a game that can be won ([`GAMES`]): the one list the web playground's
//! menu, `GET /api/boards` and the tests all read.
//!
//! Where a board's classic game (its conventional vacancy, finishing there) cannot be won, the
//! game offered is a solvable variant, and `classic` keeps the classic one so that a page can
//! say why it fails (its certificate comes from [`crate::check`]).

use crate::board::Board;
use crate::error::{Error, Result};
use crate::problem::{Finish, Problem};

/// A built-in board, or a family of them ([`Board::builtins`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Builtin {
    /// The name, e.g. `english` or `rect:RxC`.
    pub name: &'static str,
    /// A board of the family, by a name [`Board::builtin`] takes (the board itself when it
    /// is one).
    pub sample: &'static str,
    /// For a family, its number of holes in terms of its parameters.
    pub holes: Option<&'static str>,
}

impl Board {
    /// Every built-in board and family, with a sample of each family: the one list that
    /// `pegsol boards` and the web page's menu show.
    ///
    /// ```
    /// for b in pegsol::Board::builtins() {
    ///     assert!(pegsol::Board::builtin(b.sample).is_ok(), "{}", b.name);
    /// }
    /// ```
    #[must_use]
    pub fn builtins() -> &'static [Builtin] {
        const fn one(name: &'static str) -> Builtin {
            Builtin {
                name,
                sample: name,
                holes: None,
            }
        }
        const BUILTINS: [Builtin; 9] = [
            one("english"),
            one("french"),
            one("wiegleb"),
            one("diamond"),
            Builtin {
                name: "rect:RxC",
                sample: "rect:4x4",
                holes: Some("R*C (<= 256)"),
            },
            Builtin {
                name: "triangle:N",
                sample: "triangle:5",
                holes: Some("N(N+1)/2 (N <= 22)"),
            },
            Builtin {
                name: "hexagon:N",
                sample: "hexagon:4",
                holes: Some("3N(N-1)+1 (N <= 9)"),
            },
            one("english-diagonal"),
            one("french-diagonal"),
        ];
        &BUILTINS
    }
}

/// A game on a built-in board: its empty holes and finish, written as a player would
/// (labels; `any` for one peg anywhere, `any:N` for N pegs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// A name [`Board::builtin`] takes.
    pub board: &'static str,
    /// The holes empty at the start.
    pub empty: &'static str,
    /// The finish.
    pub finish: &'static str,
    /// The classic game of the board when it cannot be won, as (empty, finish).
    pub classic: Option<(&'static str, &'static str)>,
}

/// Every built-in board and family member a player is offered, with a winnable game; each
/// is solved by the tests.
pub const GAMES: &[Game] = &[
    game("english", "d4", "d4"),
    Game {
        classic: Some(("d4", "any")),
        ..game("french", "c1", "e4")
    },
    game("wiegleb", "e5", "e5"),
    // From the centre one peg cannot be left (position class), and from the single
    // vacancies that allow one (d2, e3 and their images) an opening jump of each (d4-d2,
    // e5-e3) is still undecided: two pegs from the centre, where every opening is decided.
    Game {
        classic: Some(("e5", "e5")),
        ..game("diamond", "e5", "any:2")
    },
    game("english-diagonal", "d4", "d4"),
    game("french-diagonal", "d4", "d4"),
    Game {
        classic: Some(("a1", "any")),
        ..game("triangle4", "a2", "any")
    },
    game("triangle5", "a1", "a1"),
    game("triangle6", "a1", "any"),
    game("triangle7", "a3", "c6"),
    Game {
        classic: Some(("d4", "any")),
        ..game("hexagon4", "b1", "f7")
    },
    game("hexagon5", "e5", "e5"),
    game("rect:3x4", "a1", "a1"),
    game("rect:3x5", "c1", "any"),
    game("rect:4x4", "b1", "any"),
    game("rect:4x5", "a1", "any"),
    game("rect:5x5", "c2", "any"),
    game("rect:6x6", "a1", "any"),
    game("triangle:11", "a1", "any"),
    game("rect:9x9", "e5", "e5"),
];

const fn game(board: &'static str, empty: &'static str, finish: &'static str) -> Game {
    Game {
        board,
        empty,
        finish,
        classic: None,
    }
}

impl Game {
    /// The game's problem on its board.
    ///
    /// # Errors
    ///
    /// Only if the list above is wrong (a test builds every game).
    pub fn problem(&self) -> Result<Problem> {
        let board = Board::builtin(self.board)?;
        problem_of(&board, self.empty, self.finish)
    }

    /// The classic game's problem, when the board's classic game is not the one offered.
    ///
    /// # Errors
    ///
    /// As [`Game::problem`].
    pub fn classic_problem(&self) -> Result<Option<Problem>> {
        let Some((empty, finish)) = self.classic else {
            return Ok(None);
        };
        let board = Board::builtin(self.board)?;
        problem_of(&board, empty, finish).map(Some)
    }
}

fn problem_of(board: &Board, empty: &str, finish: &str) -> Result<Problem> {
    let start: crate::Pegs = board.holes().minus(board.hole_set(empty)?);
    let finish = match finish {
        "any" => Finish::AnyOne,
        f if f.starts_with("any:") => {
            Finish::Pegs(f[4..].parse().map_err(|_| Error::BadLabel(f.to_string()))?)
        }
        f => Finish::Holes(board.hole_set(f)?),
    };
    Problem::new(board, start, finish)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_well_formed_and_every_family_is_offered() {
        for g in GAMES {
            let p = g.problem().unwrap();
            assert!(
                p.target_count() > 0,
                "{}: a finish of the start's class",
                g.board
            );
            if let Some(c) = g.classic_problem().unwrap() {
                assert!(
                    c.start::<[u64; 4]>() != p.start() || c.finish() != p.finish(),
                    "{}: the classic game is the one offered",
                    g.board
                );
            }
        }
        for b in Board::builtins() {
            let family = b.name.split(':').next().unwrap_or(b.name);
            assert!(
                GAMES.iter().any(|g| g.board.starts_with(family)),
                "{} is not offered",
                b.name
            );
        }
    }
}
