//! `solve --fewest-moves` and `shortest` on boards of 65 to 256 holes: the library's wide
//! meeting in the middle, with the portfolio's solution as an upper bound when a budget stops
//! the proof.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Result;
use pegsol::{
    fewest_moves_wide, solve_wide, wide_move_count, Board, Hole, Jump, Pegs, WideFinish,
    WideLimits, WideMovesOutcome, WideMovesProgress, WideMovesReport, WideOutcome,
};

use super::{finish_of, finish_view, limits_of, start_and_finish, start_text, write_strip};
use crate::answer::{Line, ProblemView};
use crate::cli::{BudgetArgs, Setup};
use crate::common::{drawn, plural, print_json, print_moves, spinner, IMPOSSIBLE, UNDECIDED};
use crate::fewest::{FewestAnswer, ShortestAnswer, Starts};
use indicatif::ProgressBar;

/// A line of play, replayed by coordinates and its moves recounted.
struct Checked {
    start: Pegs,
    jumps: Vec<Jump>,
    moves: u32,
    finish: Pegs,
}

impl Checked {
    fn of(board: &Board, start: Pegs, jumps: &[Jump], finish: &WideFinish) -> Result<Checked> {
        let end = pegsol::replay(board, start, jumps)?;
        let reaches = match finish {
            WideFinish::Exactly(f) => end == *f,
            WideFinish::Pegs(n) => end.count() as usize == *n,
        };
        if !reaches {
            return Err(pegsol::Error::Internal("a wide solution replays elsewhere").into());
        }
        Ok(Checked {
            start,
            jumps: jumps.to_vec(),
            moves: wide_move_count(jumps),
            finish: end,
        })
    }
}

/// The progress line of a meeting.
fn show_progress(bar: &Option<ProgressBar>) -> impl Fn(&WideMovesProgress) + Sync + '_ {
    move |p: &WideMovesProgress| {
        if let Some(bar) = bar {
            bar.set_message(format!(
                "no solution within {} moves; growing the {} side to level {}: {} of {} positions; tables {} MB",
                p.depths.0 + p.depths.1,
                if p.growing_forward { "start" } else { "finish" },
                if p.growing_forward { p.depths.0 + 1 } else { p.depths.1 + 1 },
                p.done,
                p.frontier,
                p.table_bytes >> 20
            ));
        }
    }
}

/// `limits` less the time already spent.
fn rest_of(limits: &WideLimits, began: Instant) -> WideLimits {
    WideLimits {
        timeout: limits.timeout.map(|t| {
            t.saturating_sub(began.elapsed())
                .max(Duration::from_millis(1))
        }),
        max_memory: limits.max_memory,
    }
}

fn undecided_reason(report: &WideMovesReport, limits: &WideLimits) -> String {
    match report.outcome {
        WideMovesOutcome::Undecided(pegsol::Budget::Memory) => format!(
            "memory budget: the level tables reached {} MB; raise --max-memory",
            limits.max_memory >> 20
        ),
        _ => "time budget: raise --timeout".to_string(),
    }
}

/// `solve --fewest-moves` on a wide board.
pub(crate) fn fewest(
    board: &Board,
    setup: &Setup,
    finish: Option<&str>,
    budget: &BudgetArgs,
    svg: Option<&Path>,
    json: bool,
) -> Result<u8> {
    let began = Instant::now();
    let (start, finish) = start_and_finish(board, setup, finish)?;
    let limits = limits_of(budget)?;
    let bar = spinner("solving first, for an upper bound");
    // The portfolio first: it refutes by class or exhaustion, or gives a line to beat.
    let first = solve_wide(board, start, &finish, &limits);
    let first = match first {
        Ok(r) => r,
        Err(e) => {
            if let Some(bar) = &bar {
                bar.finish_and_clear();
            }
            return Err(e.into());
        }
    };
    let upper = match &first.outcome {
        WideOutcome::Solved { jumps, .. } => Some(Checked::of(board, start, jumps, &finish)?),
        _ => None,
    };
    let report = if let WideOutcome::Impossible(_) = first.outcome {
        None
    } else {
        Some(fewest_moves_wide(
            board,
            &[start],
            &finish,
            &rest_of(&limits, began),
            &show_progress(&bar),
        )?)
    };
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let (status, code, best, reason) = match (&first.outcome, &report) {
        (WideOutcome::Impossible(r), _) => ("impossible", IMPOSSIBLE, None, Some(r.to_string())),
        (_, Some(r)) => match &r.outcome {
            WideMovesOutcome::Optimal(s) => (
                "solved",
                0,
                Some(Checked::of(board, s.start, &s.jumps, &finish)?),
                None,
            ),
            WideMovesOutcome::Impossible => (
                "impossible",
                IMPOSSIBLE,
                None,
                Some("both searches ran dry: no line of play reaches the finish".to_string()),
            ),
            WideMovesOutcome::Undecided(_) => (
                "undecided",
                UNDECIDED,
                upper,
                Some(undecided_reason(r, &limits)),
            ),
        },
        (_, None) => unreachable!("the meeting runs unless the problem was refuted"),
    };
    let optimal = status == "solved";
    let lower_bound = report.as_ref().map_or(0, |r| r.lower_bound);
    let answer = FewestAnswer {
        problem: ProblemView {
            board: board.name().to_string(),
            holes: board.hole_count(),
            lattice: board.lattice().name(),
            empty: board.labels(board.holes().minus(start)),
            finish: finish_view(board, &finish),
        },
        status,
        reason,
        optimal,
        lower_bound,
        upper_bound: best.as_ref().map(|b| b.moves),
        line: best
            .as_ref()
            .map_or_else(Line::default, |b| Line::of(board, &b.jumps)),
        last: best.as_ref().map(|b| board.labels(b.finish)),
        depths: report.as_ref().map(|r| [r.depths.0, r.depths.1]),
        millis: began.elapsed().as_millis() as u64,
    };
    let drawing = || match (svg, &best) {
        (Some(path), Some(b)) => write_strip(path, board, b.start, &b.jumps),
        _ => Ok(()),
    };
    if json {
        print_json(&answer);
        return drawn(drawing(), code);
    }
    println!(
        "board {} ({} holes, {} words a position), {}, finish: {}",
        answer.problem.board,
        answer.problem.holes,
        board.words(),
        start_text(board, start),
        answer.problem.finish.text()
    );
    let [ahead, behind] = answer.depths.unwrap_or_default();
    match (status, &best) {
        ("solved", Some(b)) => println!(
            "fewest moves: {} ({} jumps), proven optimal: no position is both within {} of the start and within {} of the finish",
            b.moves,
            b.jumps.len(),
            plural(ahead, "move"),
            plural(behind, "move"),
        ),
        ("impossible", _) => println!("impossible: {}", answer.reason.as_deref().unwrap_or("")),
        (_, Some(b)) => println!(
            "undecided within budget ({}): best found {} moves; proven lower bound {} moves",
            answer.reason.as_deref().unwrap_or(""),
            b.moves,
            answer.lower_bound
        ),
        _ => println!(
            "undecided within budget ({}): no solution found; proven lower bound {} moves",
            answer.reason.as_deref().unwrap_or(""),
            answer.lower_bound
        ),
    }
    if let Some(b) = &best {
        print_moves(&answer.line.move_list);
        println!(
            "final position (replayed and checked):\n{}",
            board.draw(b.finish)
        );
    }
    println!("{} ms", answer.millis);
    drawn(drawing(), code)
}

/// Seconds the search for an upper bound takes when the proof stops, unless `--timeout`
/// says otherwise.
const UPPER_BOUND_SECS: u64 = 60;

/// The line with the fewest moves found from `starts`: a first line from the portfolio (a
/// few starts, at most 5 s each), then the library's beam over moves for the rest of
/// `limits`' time, or [`UPPER_BOUND_SECS`] without a timeout; replayed. Every phase shares
/// the one budget: `limits.timeout` is what is left of the command's.
fn upper_bound(
    board: &Board,
    starts: &[Pegs],
    finish: &WideFinish,
    limits: &WideLimits,
) -> Result<Option<Checked>> {
    let began = Instant::now();
    let total = limits
        .timeout
        .unwrap_or(Duration::from_secs(UPPER_BOUND_SECS));
    let left = || total.saturating_sub(began.elapsed());
    let mut best: Option<Checked> = None;
    for &s in starts.iter().take(3) {
        let quick = WideLimits {
            timeout: Some(left().min(Duration::from_secs(5))),
            max_memory: limits.max_memory,
        };
        if left().is_zero() {
            break;
        }
        if let WideOutcome::Solved { jumps, .. } = solve_wide(board, s, finish, &quick)?.outcome {
            best = Some(Checked::of(board, s, &jumps, finish)?);
            break;
        }
    }
    let limits = WideLimits {
        timeout: Some(left().max(Duration::from_millis(1))),
        max_memory: limits.max_memory,
    };
    if let Some(s) = pegsol::few_moves_wide(board, starts, finish, &limits)? {
        let line = Checked::of(board, s.start, &s.jumps, finish)?;
        if best.as_ref().is_none_or(|b| line.moves < b.moves) {
            best = Some(line);
        }
    }
    Ok(best)
}

/// `pegsol shortest` on a wide board.
pub(crate) fn shortest(
    board: &Board,
    empty: Option<&str>,
    finish: Option<&str>,
    budget: &BudgetArgs,
    json: bool,
) -> Result<u8> {
    let began = Instant::now();
    let starts: Vec<Pegs> = match empty {
        Some(list) => vec![board.holes().minus(board.hole_set(list)?)],
        None => (0..board.hole_count())
            .map(|h| board.holes().without(Hole::at(h)))
            .collect(),
    };
    let finish = match finish {
        None => WideFinish::Pegs(1),
        Some(f) => finish_of(board, starts[0], Some(f))?,
    };
    let limits = limits_of(budget)?;
    // With a timeout the proof gets three quarters of it and the line for an upper bound the
    // rest (all that is left, when the proof stops early), so the whole command keeps to it.
    let proof_limits = WideLimits {
        timeout: limits.timeout.map(|t| t * 3 / 4),
        max_memory: limits.max_memory,
    };
    let bar = spinner("searching from both ends by moves");
    let report = fewest_moves_wide(board, &starts, &finish, &proof_limits, &show_progress(&bar));
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = report?;
    let (status, code, best) = match &report.outcome {
        WideMovesOutcome::Optimal(s) => (
            "solved",
            0,
            Some(Checked::of(board, s.start, &s.jumps, &finish)?),
        ),
        WideMovesOutcome::Impossible => ("impossible", IMPOSSIBLE, None),
        WideMovesOutcome::Undecided(_) => {
            let bar = spinner("the proof stopped; solving for an upper bound");
            let best = upper_bound(board, &starts, &finish, &rest_of(&limits, began));
            if let Some(bar) = &bar {
                bar.finish_and_clear();
            }
            ("undecided", UNDECIDED, best?)
        }
    };
    let answer = ShortestAnswer {
        board: board.name().to_string(),
        holes: board.hole_count(),
        starts: match empty {
            Some(_) => Starts::These(
                starts
                    .iter()
                    .map(|&s| board.labels(board.holes().minus(s)))
                    .collect(),
            ),
            None => Starts::Every("every single vacancy"),
        },
        finish: finish_view(board, &finish),
        status,
        reason: match &report.outcome {
            WideMovesOutcome::Undecided(_) => Some(undecided_reason(&report, &limits)),
            WideMovesOutcome::Impossible => Some(
                "no start can reach a finish (position classes, or both searches ran dry)"
                    .to_string(),
            ),
            WideMovesOutcome::Optimal(_) => None,
        },
        optimal: status == "solved",
        lower_bound: report.lower_bound,
        upper_bound: best.as_ref().map(|b| b.moves),
        empty: best
            .as_ref()
            .map(|b| board.labels(board.holes().minus(b.start))),
        last: best.as_ref().map(|b| board.labels(b.finish)),
        line: best
            .as_ref()
            .map_or_else(Line::default, |b| Line::of(board, &b.jumps)),
        forward_levels: report.forward.clone(),
        backward_levels: report.backward.clone(),
        depths: [report.depths.0, report.depths.1],
        symmetries: report.symmetries,
        peak_table_mb: report.peak_bytes >> 20,
        millis: began.elapsed().as_millis() as u64,
    };
    if json {
        print_json(&answer);
        return Ok(code);
    }
    let starts_text = match empty {
        Some(list) => format!("the start with {list} empty"),
        None => "any start with one hole empty".to_string(),
    };
    println!(
        "{} ({} holes, {} words a position): fewest moves from {starts_text} to finish {}",
        answer.board,
        answer.holes,
        report.words,
        answer.finish.text()
    );
    match (status, &best) {
        ("solved", Some(b)) => println!(
            "{} moves ({} jumps), proven optimal: no position is both within {} of a start and within {} of a finish",
            b.moves,
            b.jumps.len(),
            plural(report.depths.0, "move"),
            plural(report.depths.1, "move")
        ),
        ("impossible", _) => println!("impossible: {}", answer.reason.as_deref().unwrap_or("")),
        (_, best) => {
            println!("undecided within budget ({})", answer.reason.as_deref().unwrap_or(""));
            println!(
                "proven lower bound: {} moves (no position is both within {} of a start and within {} of a finish)",
                report.lower_bound,
                plural(report.depths.0, "move"),
                plural(report.depths.1, "move")
            );
            match best {
                Some(b) => println!(
                    "upper bound: {} moves, by the line below (the solver's first line, then a beam over moves for what is left of --timeout, or {UPPER_BOUND_SECS} s)",
                    b.moves
                ),
                None => println!("no line found for an upper bound (the solver, then a beam over moves for what is left of --timeout, or {UPPER_BOUND_SECS} s)"),
            }
        }
    }
    if let Some(b) = &best {
        println!(
            "start: {} empty",
            board.labels(board.holes().minus(b.start)).join(",")
        );
        print_moves(&answer.line.move_list);
        println!(
            "final position (replayed and checked):\n{}",
            board.draw(b.finish)
        );
    }
    let line = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
    println!(
        "positions up to {} symmetries, by moves from the starts: {}",
        report.symmetries,
        line(&report.forward)
    );
    println!("by moves to a finish: {}", line(&report.backward));
    println!(
        "{} ms, level tables {} MB",
        answer.millis, answer.peak_table_mb
    );
    Ok(code)
}
