//! `pegsol solve --fewest-moves` and `pegsol shortest`: the fewest moves, proved.

use std::path::Path;

use anyhow::{Context, Result};
use pegsol::fewest::{
    fewest_moves, fewest_moves_meeting_with, single_vacancies, MeetOutcome, MovesOutcome,
};
use pegsol::{notation, Finish, Problem};
use serde::Serialize;

use crate::answer::{FinishView, Line, ProblemView};
use crate::cli::{BudgetArgs, Setup};
use crate::common::{
    checked_moves, drawn, explain, finish_of, finish_text, load_board, load_problem, plural,
    print_json, print_moves, problem_line, spinner, undecided_text, write_svg, IMPOSSIBLE,
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
    let problem = load_problem(setup, finish)?;
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
                "fewest moves: {} ({} jumps), proven optimal (corner pegs: every one needs a move of its own)",
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
                    "best found: {} moves; proven lower bound: {} moves (corner pegs, and the levels searched from both ends)",
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

/// `pegsol shortest`: the fewest moves from any of the starts to the finish.
pub(crate) fn shortest(
    name: &str,
    empty: Option<&str>,
    finish: Option<&str>,
    budget: &BudgetArgs,
    json: bool,
) -> Result<u8> {
    let board = load_board(name)?;
    let starts = match empty {
        Some(list) => vec![board
            .holes()
            .minus(board.hole_set(list).context("--empty")?)],
        None => single_vacancies(&board),
    };
    let finish_arg = finish;
    let finish = match finish {
        None => Finish::AnyOne,
        Some(f) => finish_of(&board, starts[0], Some(f))?,
    };
    let limits = budget.limits()?;
    let problem = Problem::with_starts(board, starts.iter().map(|s| s.resize()).collect(), finish)?;
    let board = problem.board();
    let began = std::time::Instant::now();
    let bar = spinner("searching from both ends by moves");
    let report = fewest_moves_meeting_with(&problem, &limits, &|p| {
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
    })?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    // This meeting stops when one side's next level does not fit. The meeting on wide
    // positions then grows the other side alone, and ends with a beam's line as the upper
    // bound, so it proves more within the same budget (the 45-hole triangle: 9 <= a <= 17
    // moves, against a lower bound of 2 here). It gets what is left of the time.
    if report.outcome == MeetOutcome::Undecided(pegsol::Budget::Memory) {
        if !json {
            println!(
                "the 64-hole meeting stopped at its memory budget (lower bound {} moves); the meeting on wide positions goes on",
                report.lower_bound
            );
        }
        let wide = pegsol::Board::from_shape(&crate::common::load_shape(name)?)?;
        let rest = BudgetArgs {
            max_memory: budget.max_memory,
            timeout: budget
                .timeout
                .map(|t| (t - began.elapsed().as_secs_f64()).max(0.001)),
        };
        return crate::wide::shortest_wide(&wide, empty, finish_arg, &rest, json);
    }
    let (status, code, best) = match &report.outcome {
        MeetOutcome::Optimal(s) => ("solved", 0, Some(s)),
        MeetOutcome::Impossible => ("impossible", IMPOSSIBLE, None),
        MeetOutcome::Undecided(_) => ("undecided", UNDECIDED, None),
    };
    if let Some(s) = best {
        checked_moves(
            board,
            s.start.resize(),
            &s.jumps,
            s.finish.resize(),
            s.moves,
        )?;
    }
    let starts_text = match empty {
        Some(list) => format!("the start with {list} empty"),
        None => "any start with one hole empty".to_string(),
    };
    let line = best.map_or_else(Line::default, |s| Line::of(board, &s.jumps));
    if json {
        print_json(&ShortestAnswer {
            board: board.name().to_string(),
            holes: board.hole_count(),
            starts: match empty {
                Some(_) => Starts::These(
                    problem
                        .starts()
                        .iter()
                        .map(|&s: &pegsol::Pegs| board.labels(board.holes().minus(s)))
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
            optimal: best.is_some(),
            lower_bound: report.lower_bound,
            upper_bound: best.map(|s| s.moves),
            empty: best.map(|s| board.labels(board.holes().minus(s.start))),
            last: best.map(|s| board.labels(s.finish)),
            line: line.clone(),
            forward_levels: report.forward.clone(),
            backward_levels: report.backward.clone(),
            depths: [report.depths.0, report.depths.1],
            symmetries: report.symmetries,
            peak_table_mb: report.peak_bytes >> 20,
            millis: report.millis,
        });
        return Ok(code);
    }
    let moves = &line.move_list;
    println!(
        "{} ({} holes): fewest moves from {starts_text} to finish {}",
        board.name(),
        board.hole_count(),
        finish_text(board, finish)
    );
    match &report.outcome {
        MeetOutcome::Optimal(s) => {
            println!(
                "{} moves ({} jumps), proven optimal: no position is both within {} of a start and within {} of a finish",
                s.moves,
                s.jumps.len(),
                plural(report.depths.0, "move"),
                plural(report.depths.1, "move")
            );
            println!(
                "start: {} empty; finish: {}",
                notation::set_text(board, board.holes().minus(s.start)),
                notation::set_text(board, s.finish)
            );
        }
        MeetOutcome::Impossible => println!(
            "impossible: no start can reach a finish (position classes, or both searches ran dry)"
        ),
        MeetOutcome::Undecided(b) => {
            println!("{}", undecided_text(*b, &limits));
            println!(
                "proven lower bound: {} moves (no position is both within {} of a start and within {} of a finish)",
                report.lower_bound,
                plural(report.depths.0, "move"),
                plural(report.depths.1, "move")
            );
        }
    }
    if let Some(s) = best {
        print_moves(moves);
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
        report.millis,
        report.peak_bytes >> 20
    );
    Ok(code)
}
