//! `shortest`: the fewest moves from any of several starts, proved by the meeting, and when
//! the proof stops, the best line found for an upper bound; one budget for the whole.

use std::time::{Duration, Instant};

use super::{few_moves, fewest_moves_meeting_with, move_count, MeetProgress, MeetReport};
use super::{MeetOutcome, MeetSolution};
use crate::error::Result;
use crate::problem::{Limits, Outcome, Problem};

/// Seconds the search for an upper bound takes when the proof stops, unless the budget
/// gives a timeout.
pub const UPPER_BOUND_SECS: u64 = 60;

/// What [`shortest`] is doing, for a progress display.
#[derive(Clone, Copy, Debug)]
pub enum ShortestPhase<'a> {
    /// The meeting, proving.
    Proof(&'a MeetProgress),
    /// The proof stopped; solving for an upper bound.
    UpperBound,
}

/// The proof's report and the line given.
#[derive(Clone, Debug)]
pub struct ShortestReport {
    /// The meeting's report: its outcome and proven lower bound.
    pub meeting: MeetReport,
    /// The optimum when proved, else the best line found for an upper bound.
    pub best: Option<MeetSolution>,
    /// Wall-clock milliseconds of the whole.
    pub millis: u64,
}

/// The fewest moves from the problem's starts to its finish. With a timeout, the proof gets
/// three quarters of it and the line for an upper bound all that is left when the proof
/// stops, so the whole keeps to `limits`.
///
/// # Errors
///
/// [`crate::Error::Internal`] when an answer fails its own check.
pub fn shortest(
    problem: &Problem,
    limits: &Limits,
    progress: &(dyn Fn(ShortestPhase<'_>) + Sync),
) -> Result<ShortestReport> {
    let began = Instant::now();
    let meeting = fewest_moves_meeting_with(problem, &proof_limits(limits), &|p| {
        progress(ShortestPhase::Proof(p));
    })?;
    let best = match &meeting.outcome {
        MeetOutcome::Optimal(s) => Some(s.clone()),
        MeetOutcome::Impossible => None,
        MeetOutcome::Undecided(_) => {
            progress(ShortestPhase::UpperBound);
            let rest = Limits {
                timeout: limits.timeout.map(|t| {
                    t.saturating_sub(began.elapsed())
                        .max(Duration::from_millis(1))
                }),
                ..limits.clone()
            };
            upper_bound(problem, &rest)?
        }
    };
    Ok(ShortestReport {
        meeting,
        best,
        millis: began.elapsed().as_millis() as u64,
    })
}

/// The proof's share of `limits`: three quarters of its time.
#[must_use]
pub fn proof_limits(limits: &Limits) -> Limits {
    Limits {
        timeout: limits.timeout.map(|t| t * 3 / 4),
        ..limits.clone()
    }
}

/// The line with the fewest moves found from the problem's starts, once the proof stopped: a
/// first line from the solver (a few starts, at most 5 s each), then the beam over moves for
/// the rest of `limits`' time, or [`UPPER_BOUND_SECS`] without a timeout.
fn upper_bound(problem: &Problem, limits: &Limits) -> Result<Option<MeetSolution>> {
    let began = Instant::now();
    let total = limits
        .timeout
        .unwrap_or(Duration::from_secs(UPPER_BOUND_SECS));
    let left = || total.saturating_sub(began.elapsed());
    let mut best: Option<MeetSolution> = None;
    for start in problem.starts::<[u64; 4]>().into_iter().take(3) {
        if left().is_zero() || limits.spent(None) {
            break;
        }
        let quick = Limits {
            timeout: Some(left().min(Duration::from_secs(5))),
            ..limits.clone()
        };
        if let Outcome::Solved { jumps, finish } =
            crate::solve(&problem.from_start(start)?, &quick)?.outcome
        {
            best = Some(MeetSolution {
                start,
                moves: move_count(&jumps),
                jumps,
                finish,
            });
            break;
        }
    }
    let rest = Limits {
        timeout: Some(left().max(Duration::from_millis(1))),
        ..limits.clone()
    };
    if let Some(line) = few_moves(problem, &rest)? {
        if best.as_ref().is_none_or(|b| line.moves < b.moves) {
            best = Some(line);
        }
    }
    Ok(best)
}
