//! `shortest`: the fewest moves from any of several starts: a line of few moves first (the
//! solver's, else the beam's), then the meeting's proof that none is shorter, pruned by that line's length, and
//! when the proof stops, the best line found for an upper bound; one budget for the whole.

use std::time::{Duration, Instant};

use super::{few_moves, fewest_moves_meeting_with, move_count, MeetProgress, MeetReport};
use super::{Known, MeetOutcome, MeetSolution};
use crate::error::Result;
use crate::problem::{Limits, Outcome, Problem};

/// Seconds the search for an upper bound takes when the proof stops, unless the budget
/// gives a timeout.
pub const UPPER_BOUND_SECS: u64 = 60;

/// The most time the first line takes (an eighth of a timeout, if less): the solver's line,
/// or the beam's where the solver finds none in time. The proof deepens from the regions'
/// bound up, so the line's length only caps it.
pub const FIRST_LINE: Duration = Duration::from_secs(1);

/// What [`shortest`] is doing, for a progress display.
#[derive(Clone, Copy, Debug)]
pub enum ShortestPhase<'a> {
    /// A first line of few moves, whose length bounds the proof's search.
    FirstLine,
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

/// The fewest moves from the problem's starts to its finish: a first line (the solver's, else
/// the beam over moves', within [`FIRST_LINE`] or an eighth of the timeout), then the meeting's
/// proof, which seeks only
/// shorter solutions and prunes both sides by the Merson-region bounds
/// ([`fewest_moves_meeting_with`]). The first line and the proof keep to three quarters of a
/// timeout; when the proof stops, a better line for an upper bound is sought with what is
/// left, so the whole keeps to `limits`.
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
    // What is left of a share of the timeout (`end` since the start), as limits.
    let until = |end: Option<Duration>| -> Limits {
        Limits {
            timeout: end.map(|t| {
                t.saturating_sub(began.elapsed())
                    .max(Duration::from_millis(1))
            }),
            ..limits.clone()
        }
    };
    progress(ShortestPhase::FirstLine);
    let eighth = until(limits.timeout.map(|t| t / 8)).timeout;
    let first_line = FIRST_LINE.min(eighth.unwrap_or(FIRST_LINE));
    let first = line(
        problem,
        &Limits {
            timeout: Some(first_line),
            ..limits.clone()
        },
        true,
        false,
    )?;
    // Deepening by steps: the basic games of the triangles, where the regions' bound leaves
    // little slack, are cheap to rule out a move at a time.
    let known = first.as_ref().map(|line| Known {
        line,
        by_steps: true,
    });
    let proof = until(proof_limits(limits).timeout);
    let meeting = fewest_moves_meeting_with(problem, &proof, known, &|p| {
        progress(ShortestPhase::Proof(p));
    })?;
    let best = match &meeting.outcome {
        MeetOutcome::Optimal(s) => Some(s.clone()),
        MeetOutcome::Impossible => None,
        MeetOutcome::Undecided(_) => {
            progress(ShortestPhase::UpperBound);
            // The solver's line is the first line already: only the beam, unless the solver
            // found none in the first line's time.
            let better = line(problem, &until(limits.timeout), first.is_none(), true)?;
            match (first, better) {
                (Some(a), Some(b)) => Some(if b.moves < a.moves { b } else { a }),
                (a, b) => a.or(b),
            }
        }
    };
    Ok(ShortestReport {
        meeting,
        best,
        millis: began.elapsed().as_millis() as u64,
    })
}

/// The first line's and the proof's share of `limits`: three quarters of its time (the rest
/// is for a better line when the proof stops).
#[must_use]
pub fn proof_limits(limits: &Limits) -> Limits {
    Limits {
        timeout: limits.timeout.map(|t| t * 3 / 4),
        ..limits.clone()
    }
}

/// The line with the fewest moves found from the problem's starts: with `solver`, the
/// solver's first line from one of the first three starts (at most 5 s each); then, when
/// `beam` or when none was found, the beam over moves for what is left of `limits`' time
/// ([`UPPER_BOUND_SECS`] without a timeout).
fn line(
    problem: &Problem,
    limits: &Limits,
    solver: bool,
    beam: bool,
) -> Result<Option<MeetSolution>> {
    let began = Instant::now();
    let total = limits
        .timeout
        .unwrap_or(Duration::from_secs(UPPER_BOUND_SECS));
    let left = || total.saturating_sub(began.elapsed());
    let mut best: Option<MeetSolution> = None;
    let tried = if solver { 3 } else { 0 };
    for start in problem.starts::<[u64; 4]>().into_iter().take(tried) {
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
    if beam || best.is_none() {
        let rest = Limits {
            timeout: Some(left().max(Duration::from_millis(1))),
            ..limits.clone()
        };
        if let Some(line) = few_moves(problem, &rest)? {
            if best.as_ref().is_none_or(|b| line.moves < b.moves) {
                best = Some(line);
            }
        }
    }
    Ok(best)
}
