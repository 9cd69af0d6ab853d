//! `pegsol solve --fewest-moves` and `pegsol shortest`: the fewest moves, proved.

use std::path::Path;

use anyhow::{Context, Result};
use std::time::{Duration, Instant};

use pegsol::fewest::{
    few_moves, fewest_moves, fewest_moves_meeting_with, move_count, single_vacancies, MeetOutcome,
    MeetSolution, MovesOutcome,
};
use pegsol::{notation, solve, Finish, Limits, Outcome, Pegs, Problem};
use serde::Serialize;

use crate::answer::{FinishView, Line, ProblemView};
use crate::cli::{BudgetArgs, Setup};
use crate::common::{
    checked_moves, drawn, explain, finish_of, finish_text, load_any_board, load_any_problem,
    plural, print_json, print_moves, problem_line, spinner, undecided_text, write_svg, IMPOSSIBLE,
    UNDECIDED,
};

/// The answer of `solve --fewest-moves --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct FewestAnswer {
    #[serde(flatten)]
    pub problem: ProblemView,
    pub status: &'static str,
    pub reason: Option<String>,
    /// Whether the moves are proved the fewest.
    pub optimal: bool,
    pub lower_bound: u32,
    /// The moves of the best line found (the optimum when `optimal`).
    pub upper_bound: Option<u32>,
    #[serde(flatten)]
    pub line: Line,
    #[serde(rename = "final")]
    pub last: Option<Vec<String>>,
    /// Levels of the meeting from the start and from the finish, when it ran.
    pub depths: Option<[u32; 2]>,
    pub millis: u64,
}

/// Which starts `shortest` took.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub(crate) enum Starts {
    /// Each start's empty holes.
    These(Vec<Vec<String>>),
    /// `"every single vacancy"`.
    Every(&'static str),
}

/// The answer of `shortest --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ShortestAnswer {
    pub board: String,
    pub holes: usize,
    pub starts: Starts,
    pub finish: FinishView,
    pub status: &'static str,
    pub reason: Option<String>,
    pub optimal: bool,
    pub lower_bound: u32,
    /// The moves of the line given (the optimum when `optimal`).
    pub upper_bound: Option<u32>,
    /// The start of the shortest solution found.
    pub empty: Option<Vec<String>>,
    #[serde(rename = "final")]
    pub last: Option<Vec<String>>,
    #[serde(flatten)]
    pub line: Line,
    pub forward_levels: Vec<u64>,
    pub backward_levels: Vec<u64>,
    pub depths: [u32; 2],
    pub symmetries: usize,
    pub peak_table_mb: usize,
    pub millis: u64,
}

pub(crate) fn fewest(
    setup: &Setup,
    finish: Option<&str>,
    budget: &BudgetArgs,
    svg: Option<&Path>,
    json: bool,
) -> Result<u8> {
    let problem = load_any_problem(setup, finish)?;
    let (board, start) = (problem.board(), problem.start());
    let limits = budget.limits()?;
    let bar = spinner("searching for the fewest moves");
    let report = fewest_moves(&problem, &limits)?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let (status, code, best) = match &report.outcome {
        MovesOutcome::Optimal(s) => ("solved", 0, Some(s)),
        MovesOutcome::Impossible(_) => ("impossible", IMPOSSIBLE, None),
        MovesOutcome::Undecided { best, .. } => ("undecided", UNDECIDED, best.as_ref()),
    };
    if let Some(s) = best {
        checked_moves(board, start, &s.jumps, s.finish.resize(), s.moves)?;
    }
    let drawing = || match (svg, best) {
        (Some(path), Some(s)) => write_svg(path, board, start, &s.jumps),
        _ => Ok(()),
    };
    let line = best.map_or_else(Line::default, |s| Line::of(board, &s.jumps));
    if json {
        print_json(&FewestAnswer {
            problem: ProblemView::of(&problem),
            status,
            reason: match &report.outcome {
                MovesOutcome::Impossible(r) => Some(r.to_string()),
                MovesOutcome::Undecided { budget, .. } => Some(format!("{budget} budget")),
                MovesOutcome::Optimal(_) => None,
            },
            optimal: matches!(report.outcome, MovesOutcome::Optimal(_)),
            lower_bound: report.lower_bound,
            upper_bound: best.map(|s| s.moves),
            line: line.clone(),
            last: best.map(|s| board.labels(s.finish)),
            depths: report.meeting.map(|(a, b)| [a, b]),
            millis: report.millis,
        });
        return drawn(drawing(), code);
    }
    let moves = &line.move_list;
    println!("{}", problem_line(&problem));
    match &report.outcome {
        MovesOutcome::Optimal(s) => match report.meeting {
            Some((a, b)) => println!(
                "fewest moves: {} ({} jumps), proven optimal: no position is both within {} of the start and within {} of the finish",
                s.moves,
                s.jumps.len(),
                plural(a, "move"),
                plural(b, "move"),
            ),
            None => println!(
                "fewest moves: {} ({} jumps), proven optimal (full corners and edge regions: each needs a move to begin in it)",
                s.moves,
                s.jumps.len(),
            ),
        },
        MovesOutcome::Impossible(reason) => {
            println!("impossible: {}", explain(&problem, *reason));
            if *reason == pegsol::Reason::Class {
                if let Some(instead) = crate::common::class_suggestion(&problem) {
                    println!("{instead}");
                }
            }
        }
        MovesOutcome::Undecided { budget: b, best } => {
            println!("{}", undecided_text(*b, &limits));
            match best {
                Some(s) => println!(
                    "best found: {} moves; proven lower bound: {} moves (full corners and edge regions, and the levels searched from both ends)",
                    s.moves, report.lower_bound
                ),
                None => println!("no solution found; proven lower bound: {} moves", report.lower_bound),
            }
        }
    }
    if let Some(s) = best {
        print_moves(moves);
        println!(
            "final position (replayed and checked):\n{}",
            board.draw(s.finish)
        );
    }
    println!("{} ms", report.millis);
    drawn(drawing(), code)
}

/// Seconds the search for an upper bound takes when the proof of `shortest` stops, unless
/// `--timeout` says otherwise.
const UPPER_BOUND_SECS: u64 = 60;

/// The line with the fewest moves found from the problem's starts, once the proof stopped: a
/// first line from the solver (a few starts, at most 5 s each), then the library's beam over
/// moves for the rest of `limits`' time, or [`UPPER_BOUND_SECS`] without a timeout. Every phase
/// shares the one budget: `limits.timeout` is what is left of the command's.
fn upper_bound(problem: &Problem, limits: &Limits) -> Result<Option<MeetSolution>> {
    let began = Instant::now();
    let total = limits
        .timeout
        .unwrap_or(Duration::from_secs(UPPER_BOUND_SECS));
    let left = || total.saturating_sub(began.elapsed());
    let mut best: Option<MeetSolution> = None;
    for start in problem.starts::<[u64; 4]>().into_iter().take(3) {
        if left().is_zero() {
            break;
        }
        let quick = Limits {
            timeout: Some(left().min(Duration::from_secs(5))),
            ..limits.clone()
        };
        if let Outcome::Solved { jumps, finish } =
            solve(&problem.from_start(start)?, &quick)?.outcome
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

/// `pegsol shortest`: the fewest moves from any of the starts to the finish.
pub(crate) fn shortest(
    name: &str,
    empty: Option<&str>,
    finish: Option<&str>,
    budget: &BudgetArgs,
    json: bool,
) -> Result<u8> {
    let began = Instant::now();
    let board = load_any_board(name)?;
    let starts: Vec<Pegs> = match empty {
        Some(list) => vec![board
            .holes()
            .minus(board.hole_set(list).context("--empty")?)],
        None => single_vacancies(&board),
    };
    let finish = match finish {
        None => Finish::AnyOne,
        Some(f) => finish_of(&board, starts[0], Some(f))?,
    };
    let limits = budget.limits()?;
    let problem = Problem::with_starts(board, starts, finish)?;
    let board = problem.board();
    // With a timeout the proof gets three quarters of it and the line for an upper bound the
    // rest (all that is left, when the proof stops early), so the whole command keeps to it.
    let proof_limits = Limits {
        timeout: limits.timeout.map(|t| t * 3 / 4),
        ..limits.clone()
    };
    let bar = spinner("searching from both ends by moves");
    let report = fewest_moves_meeting_with(&problem, &proof_limits, &|p| {
        if let Some(bar) = &bar {
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
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = report?;
    let (status, code, best) = match &report.outcome {
        MeetOutcome::Optimal(s) => ("solved", 0, Some(s.clone())),
        MeetOutcome::Impossible => ("impossible", IMPOSSIBLE, None),
        MeetOutcome::Undecided(_) => {
            let bar = spinner("the proof stopped; solving for an upper bound");
            let rest = Limits {
                timeout: limits.timeout.map(|t| {
                    t.saturating_sub(began.elapsed())
                        .max(Duration::from_millis(1))
                }),
                ..limits.clone()
            };
            let best = upper_bound(&problem, &rest);
            if let Some(bar) = &bar {
                bar.finish_and_clear();
            }
            ("undecided", UNDECIDED, best?)
        }
    };
    if let Some(s) = &best {
        checked_moves(board, s.start, &s.jumps, s.finish, s.moves)?;
    }
    let starts_text = match empty {
        Some(list) => format!("the start with {list} empty"),
        None => "any start with one hole empty".to_string(),
    };
    let line = best
        .as_ref()
        .map_or_else(Line::default, |s| Line::of(board, &s.jumps));
    let answer = ShortestAnswer {
        board: board.name().to_string(),
        holes: board.hole_count(),
        starts: match empty {
            Some(_) => Starts::These(
                problem
                    .starts()
                    .iter()
                    .map(|&s: &Pegs| board.labels(board.holes().minus(s)))
                    .collect(),
            ),
            None => Starts::Every("every single vacancy"),
        },
        finish: FinishView::of(board, finish),
        status,
        reason: match &report.outcome {
            MeetOutcome::Undecided(b) => Some(format!("{b} budget")),
            MeetOutcome::Impossible => Some(
                "no start can reach a finish (position classes, or both searches ran dry)"
                    .to_string(),
            ),
            MeetOutcome::Optimal(_) => None,
        },
        optimal: status == "solved",
        lower_bound: report.lower_bound,
        upper_bound: best.as_ref().map(|s| s.moves),
        empty: best
            .as_ref()
            .map(|s| board.labels(board.holes().minus(s.start))),
        last: best.as_ref().map(|s| board.labels(s.finish)),
        line,
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
    println!(
        "{} ({} holes): fewest moves from {starts_text} to finish {}",
        board.name(),
        board.hole_count(),
        finish_text(board, finish)
    );
    match (&report.outcome, &best) {
        (MeetOutcome::Optimal(s), _) => println!(
            "{} moves ({} jumps), proven optimal: no position is both within {} of a start and within {} of a finish",
            s.moves,
            s.jumps.len(),
            plural(report.depths.0, "move"),
            plural(report.depths.1, "move")
        ),
        (MeetOutcome::Impossible, _) => println!(
            "impossible: no start can reach a finish (position classes, or both searches ran dry)"
        ),
        (MeetOutcome::Undecided(b), best) => {
            println!("{}", undecided_text(*b, &proof_limits));
            let searched = report.depths.0 + report.depths.1 + 1;
            if report.lower_bound > searched {
                println!(
                    "proven lower bound: {} moves (full corners and edge regions of every start each need a move to begin in them; the search from both ends proved {searched})",
                    report.lower_bound,
                );
            } else {
                println!(
                    "proven lower bound: {} moves (no position is both within {} of a start and within {} of a finish)",
                    report.lower_bound,
                    plural(report.depths.0, "move"),
                    plural(report.depths.1, "move")
                );
            }
            match best {
                Some(b) => println!(
                    "upper bound: {} moves, by the line below (the solver's first line, then a beam over moves for what is left of --timeout, or {UPPER_BOUND_SECS} s)",
                    b.moves
                ),
                None => println!("no line found for an upper bound (the solver, then a beam over moves for what is left of --timeout, or {UPPER_BOUND_SECS} s)"),
            }
        }
    }
    if let Some(s) = &best {
        println!(
            "start: {} empty; finish: {}",
            notation::set_text(board, board.holes().minus(s.start)),
            notation::set_text(board, s.finish)
        );
        print_moves(&answer.line.move_list);
        println!(
            "final position (replayed and checked):\n{}",
            board.draw(s.finish)
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
