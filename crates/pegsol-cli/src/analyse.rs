//! Every legal jump of a position with its fate: keeps the finish reachable, loses it, or not
//! known within the budget. The playground colours the moves by it (`POST /api/analyse`).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;

use pegsol::fewest::WinningSet;
use pegsol::{Board, Budget, Finish, Limits, Outcome, Pegs, Problem};

use crate::answer::FinishView;

/// One legal jump and what it does to the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct MoveFate {
    /// `from-to`.
    pub jump: String,
    pub from: String,
    pub over: String,
    pub to: String,
    /// `wins` (the finish stays reachable), `loses` or `unknown`.
    pub fate: &'static str,
    /// Why a jump loses, in a player's words; `None` otherwise.
    pub why: Option<&'static str>,
}

/// The answer of `POST /api/analyse`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct AnalyseAnswer {
    pub board: String,
    pub empty: Vec<String>,
    pub finish: FinishView,
    pub pegs: u32,
    /// `won` (this is a finish), `stuck` (no jump left), `winnable`, `lost` or `unknown`.
    pub status: &'static str,
    /// Whether the fates come from the game's exact winning set (else from the solver).
    pub exact: bool,
    pub moves: Vec<MoveFate>,
}

/// The fates decided so far, kept for a server's life: whether a position can still reach a
/// finish never changes, so a position seen again (a menu board's opening, an undone jump)
/// costs one lookup a jump. Only decided fates are kept; an unknown one is tried again.
pub(crate) struct FateMemo {
    known: Mutex<HashMap<FateKey, Fate>>,
}

/// A board (by its lattice and its holes' coordinates), a position on it and a finish.
type FateKey = (u64, Pegs, Pegs, u32);

/// A decided fate and why.
type Fate = (&'static str, Option<&'static str>);

/// Most fates kept (about 100 bytes each); past it the memo starts again empty.
const MAX_FATES: usize = 200_000;

impl FateMemo {
    pub(crate) fn new() -> FateMemo {
        FateMemo {
            known: Mutex::new(HashMap::new()),
        }
    }

    /// The key of `position` on `board` towards `finish`.
    fn key(board: &Board, position: Pegs, finish: Finish) -> FateKey {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        board.lattice().name().hash(&mut h);
        for hole in board.each_hole() {
            board.coords(hole).hash(&mut h);
        }
        let (holes, pegs) = match finish {
            Finish::Holes(f) => (f, 0),
            Finish::AnyOne => (Pegs::EMPTY, 1),
            Finish::Pegs(n) => (Pegs::EMPTY, n),
        };
        (h.finish(), position, holes, pegs)
    }

    fn get(&self, key: &FateKey) -> Option<Fate> {
        self.known.lock().ok()?.get(key).copied()
    }

    fn put(&self, key: FateKey, fate: Fate) {
        if let Ok(mut known) = self.known.lock() {
            if known.len() >= MAX_FATES {
                known.clear();
            }
            known.insert(key, fate);
        }
    }

    /// How many fates are kept.
    pub(crate) fn len(&self) -> usize {
        self.known.lock().map_or(0, |k| k.len())
    }
}

/// Why a jump loses when the winning set says so.
const LOST: &str = "no way on from there reaches the finish";

/// A reason, as a player would say it.
pub(crate) fn plain_reason(reason: pegsol::Reason) -> &'static str {
    match reason {
        pegsol::Reason::Class => {
            "the pegs are split the wrong way among the board's three-colouring (position class)"
        }
        pegsol::Reason::Pagoda => {
            "too few pegs are left in the places the finish needs (a pagoda count)"
        }
        pegsol::Reason::Exhausted => "every way on was tried and none reaches the finish",
    }
}

impl AnalyseAnswer {
    /// Each legal jump's fate: looked up in `exact` (the winning set of the game the position
    /// was reached in) when there is one, else in `memo` (fates decided before), else solved
    /// on its own, in parallel, each within `budget` split among those left; what is decided
    /// goes into `memo`. The answer, and whether some fate was left unknown for want of time.
    pub(crate) fn of(
        problem: &Problem,
        exact: Option<&WinningSet>,
        memo: Option<&FateMemo>,
        limits: &Limits,
        budget: Duration,
    ) -> Result<(AnalyseAnswer, bool)> {
        let board = problem.board();
        let start: pegsol::Pegs = problem.start();
        let legal: Vec<_> = board.jumps().iter().filter(|j| j.is_legal(start)).collect();
        let key = |j: &pegsol::Jump| FateMemo::key(board, j.apply(start), problem.finish());
        let remembered: Vec<Option<Fate>> = legal
            .iter()
            .map(|j| memo.and_then(|m| m.get(&key(j))))
            .collect();
        let todo = remembered.iter().filter(|f| f.is_none()).count();
        let share = (budget / todo.max(1) as u32 * 2).max(Duration::from_millis(5));
        let fates: Vec<(MoveFate, bool)> = legal
            .par_iter()
            .zip(&remembered)
            .map(|(j, remembered)| {
                let (fate, why, ran_out) = match (exact, remembered) {
                    (Some(set), _) if set.wins(j.apply(start).resize()) => ("wins", None, false),
                    (Some(_), _) => ("loses", Some(LOST), false),
                    (None, Some((fate, why))) => (*fate, *why, false),
                    (None, None) => {
                        let child = Problem::new(
                            problem.shared_board().clone(),
                            j.apply(start),
                            problem.finish(),
                        );
                        let limits = Limits {
                            timeout: Some(share.min(budget)),
                            ..limits.clone()
                        };
                        let decided = match child.and_then(|child| pegsol::solve(&child, &limits)) {
                            Ok(r) => match r.outcome {
                                Outcome::Solved { .. } => ("wins", None, false),
                                Outcome::Impossible(r) => ("loses", Some(plain_reason(r)), false),
                                Outcome::Undecided(b) => ("unknown", None, b == Budget::Time),
                            },
                            // A finish of more pegs than the child has: this jump loses it.
                            Err(pegsol::Error::FinishTooLarge { .. }) => {
                                ("loses", Some("too few pegs are left for the finish"), false)
                            }
                            Err(e) => return Err(e.into()),
                        };
                        if let (Some(m), "wins" | "loses") = (memo, decided.0) {
                            m.put(key(j), (decided.0, decided.1));
                        }
                        decided
                    }
                };
                Ok((
                    MoveFate {
                        jump: format!("{}-{}", board.label(j.from()), board.label(j.to())),
                        from: board.label(j.from()),
                        over: board.label(j.over()),
                        to: board.label(j.to()),
                        fate,
                        why,
                    },
                    ran_out,
                ))
            })
            .collect::<Result<_>>()?;
        let ran_out = fates.iter().any(|f| f.1);
        let moves: Vec<MoveFate> = fates.into_iter().map(|f| f.0).collect();
        let status = if problem.targets().contains(&start) {
            "won"
        } else if moves.is_empty() {
            "stuck"
        } else if moves.iter().any(|m| m.fate == "wins") {
            "winnable"
        } else if moves.iter().all(|m| m.fate == "loses") {
            "lost"
        } else {
            "unknown"
        };
        Ok((
            AnalyseAnswer {
                board: board.name().to_string(),
                empty: board.labels(board.holes().minus(start)),
                finish: FinishView::of(board, problem.finish()),
                pegs: start.count(),
                status,
                exact: exact.is_some(),
                moves,
            },
            ran_out,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position analysed once is answered from the memo: with no time at all the fates are
    /// the ones decided before, where without the memo they are unknown.
    #[test]
    fn decided_fates_are_remembered_and_only_those() {
        // The menu's French game, c1 empty to one peg on e4: every opening jump needs a search.
        let board = Board::builtin("french").unwrap();
        let start = board.holes().without(board.hole("c1").unwrap());
        let finish = Finish::Holes(Pegs::single(board.hole("e4").unwrap()));
        let problem = Problem::new(board, start, finish).unwrap();
        let memo = FateMemo::new();
        let (first, _) = AnalyseAnswer::of(
            &problem,
            None,
            Some(&memo),
            &Limits::default(),
            Duration::from_secs(10),
        )
        .unwrap();
        let decided = first.moves.iter().filter(|m| m.fate != "unknown").count();
        assert!(decided > 0);
        assert_eq!(memo.len(), decided);
        let none = Limits {
            timeout: Some(Duration::ZERO),
            ..Limits::default()
        };
        let (again, _) =
            AnalyseAnswer::of(&problem, None, Some(&memo), &none, Duration::ZERO).unwrap();
        assert_eq!(again, first);
        let (fresh, ran_out) =
            AnalyseAnswer::of(&problem, None, None, &none, Duration::ZERO).unwrap();
        assert!(
            ran_out && fresh.moves.iter().all(|m| m.fate == "unknown"),
            "{fresh:?}"
        );
        // Another finish is another question: nothing remembered for it.
        let other = Problem::new(
            Board::builtin("french").unwrap(),
            problem.start(),
            Finish::AnyOne,
        )
        .unwrap();
        let (elsewhere, _) =
            AnalyseAnswer::of(&other, None, Some(&memo), &none, Duration::ZERO).unwrap();
        assert!(
            elsewhere.moves.iter().all(|m| m.fate == "unknown"),
            "{elsewhere:?}"
        );
    }
}
