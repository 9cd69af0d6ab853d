//! Every legal jump of a position with its fate: keeps the finish reachable, loses it, or not
//! known within the budget. The playground colours the moves by it (`POST /api/analyse`).

use std::time::Duration;

use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;

use pegsol::fewest::WinningSet;
use pegsol::{Budget, Limits, Outcome, Problem};

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
    /// was reached in) when there is one, else solved on its own, in parallel, each within
    /// `budget` split among them. The answer, and whether some fate was left unknown for want
    /// of time.
    pub(crate) fn of(
        problem: &Problem,
        exact: Option<&WinningSet>,
        limits: &Limits,
        budget: Duration,
    ) -> Result<(AnalyseAnswer, bool)> {
        let board = problem.board();
        let start: pegsol::Pegs = problem.start();
        let legal: Vec<_> = board.jumps().iter().filter(|j| j.is_legal(start)).collect();
        let share = (budget / legal.len().max(1) as u32 * 2).max(Duration::from_millis(5));
        let fates: Vec<(MoveFate, bool)> = legal
            .par_iter()
            .map(|j| {
                let (fate, why, ran_out) = match exact {
                    Some(set) if set.wins(j.apply(start).resize()) => ("wins", None, false),
                    Some(_) => ("loses", Some(LOST), false),
                    None => {
                        let child = Problem::new(
                            problem.shared_board().clone(),
                            j.apply(start),
                            problem.finish(),
                        );
                        let limits = Limits {
                            timeout: Some(share.min(budget)),
                            ..limits.clone()
                        };
                        match child.and_then(|child| pegsol::solve(&child, &limits)) {
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
                        }
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
