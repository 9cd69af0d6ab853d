//! The answers of the solver endpoints, built from the CLI's own answer types.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use pegsol::{Budget, Limits, Outcome, Problem};

use crate::serve::request::{Kind, Parsed};
use crate::serve::views::{to_value, BoardAnswer, HoleView};
use pegsol::answer::FinishView;
use serde_json::Value;

/// Memory budget of one solver run.
pub(super) const MAX_MEMORY: usize = 256 << 20;

/// A solver answer, and whether its time ran out (so that more time may decide it).
pub(super) type Answer = (Value, bool);

pub(super) fn geometry(p: &Problem) -> BoardAnswer {
    let b = p.board();
    let (rows, cols) = b.dimensions();
    BoardAnswer {
        board: b.name().to_string(),
        lattice: b.lattice().name(),
        rows,
        cols,
        holes: b
            .each_hole()
            .map(|h| {
                let (row, col) = b.coords(h);
                let (x, y) = pegsol::svg::place(b, h);
                HoleView {
                    label: b.label(h),
                    row,
                    col,
                    x,
                    y,
                }
            })
            .collect(),
        jumps: b
            .jumps()
            .iter()
            .map(|j| [b.label(j.from()), b.label(j.over()), b.label(j.to())])
            .collect(),
        empty: b.labels(p.empty_holes()),
        finish: FinishView::of(b, p.finish()),
    }
}

/// The most time and memory `/api/analyse` gives to the forced positions.
const FORCED_TIME: Duration = Duration::from_millis(150);
const FORCED_MEMORY: usize = 256 << 20;

/// The limits of the forced positions' walk in a request of `budget`.
pub(super) fn forced_limits(budget: Duration) -> Limits {
    Limits {
        timeout: Some(FORCED_TIME.min(budget)),
        max_memory: FORCED_MEMORY,
        cancel: None,
    }
}

/// The winning set of the game `problem` is played in: the same board, the game started
/// from `origin`, and the same finish.
pub(super) fn winning_set_of<'a>(
    sets: &'a [Arc<pegsol::fewest::WinningSet>],
    problem: &Problem,
    origin: pegsol::Pegs,
) -> Option<&'a pegsol::fewest::WinningSet> {
    sets.iter()
        .find(|set| {
            let game = set.problem();
            game.board().name() == problem.board().name()
                && game.board().holes::<[u64; 4]>() == problem.board().holes()
                && game.start() == origin
                && game.finish() == problem.finish()
        })
        .map(|s| &**s)
}

/// One solver request, under the budget; the answer, and whether its time ran out. The
/// answers are the CLI's own types, so an endpoint's JSON is its command's.
pub(super) fn answer(
    kind: Kind,
    r: &Parsed,
    budget: Duration,
    cancel: Arc<AtomicBool>,
    sets: &[Arc<pegsol::fewest::WinningSet>],
    fates: &crate::analyse::FateMemo,
) -> Result<Answer> {
    let problem = &r.problem;
    let limits = Limits {
        max_memory: MAX_MEMORY,
        timeout: Some(budget),
        cancel: Some(cancel),
    };
    match kind {
        Kind::Solve | Kind::Hint => {
            let report = pegsol::solve(problem, &limits)?;
            let mut a = pegsol::answer::SolveAnswer::of(problem, &report)?;
            if kind == Kind::Hint {
                a.hint = a.line.jumps.first().cloned();
            }
            Ok((
                to_value(&a)?,
                report.outcome == Outcome::Undecided(Budget::Time),
            ))
        }
        Kind::Ends => {
            if problem.start::<[u64; 4]>().is_empty() {
                anyhow::bail!("the start has no pegs; leave at least one hole filled");
            }
            // The budget is for the whole request; ends solves one problem per hole.
            let holes = problem.board().hole_count().max(1) as u32;
            let limits = Limits {
                timeout: Some((budget / holes).max(Duration::from_millis(5))),
                max_memory: MAX_MEMORY / rayon::current_num_threads().max(1),
                ..limits
            };
            let result = pegsol::ends(problem, &limits)?;
            let ran_out = result
                .holes
                .iter()
                .any(|e| e.outcome == Outcome::Undecided(Budget::Time));
            Ok((
                to_value(&pegsol::answer::EndsAnswer::of(problem, &result)?)?,
                ran_out,
            ))
        }
        Kind::Check => {
            let decision = crate::check::decision_of(problem, &limits)?;
            let ran_out = decision.outcome == Outcome::Undecided(Budget::Time);
            Ok((
                to_value(&pegsol::answer::CheckAnswer::of(problem, &decision, None))?,
                ran_out,
            ))
        }
        Kind::Analyse => {
            let set = winning_set_of(sets, problem, r.origin);
            let (a, ran_out) =
                crate::analyse::AnalyseAnswer::of(problem, set, Some(fates), &limits, budget)?;
            // The forced positions only where they come quickly: a walk over the winning
            // positions ahead, long near the start of a big game and short late in it.
            let quick = Limits {
                cancel: limits.cancel,
                ..forced_limits(budget)
            };
            let a = a
                .with_odds(problem, set)
                .with_forced(problem, set, Some(fates), &quick);
            Ok((to_value(&a)?, ran_out))
        }
        Kind::Board => Ok((to_value(&geometry(problem))?, false)),
    }
}
