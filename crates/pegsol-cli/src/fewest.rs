//! `pegsol solve --fewest-moves` and `pegsol shortest`: the fewest moves, proved.

use std::path::Path;

use anyhow::{Context, Result};

use pegsol::answer::{FewestAnswer, ShortestAnswer};
use pegsol::fewest::{
    fewest_moves, proof_limits, single_vacancies, MeetOutcome, MovesOutcome, ShortestPhase,
    UPPER_BOUND_SECS,
};
use pegsol::{notation, Finish, Pegs, Problem};

use crate::cli::{BudgetArgs, Setup};
use crate::common::{
    drawn, exit_code, explain, finish_of, finish_text, load_any_board, load_any_problem, plural,
    print_json, print_moves, problem_line, spinner, undecided_text, write_svg,
};

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
    let answer = FewestAnswer::of(&problem, &report)?;
    let code = exit_code(answer.status);
    let best = match &report.outcome {
        MovesOutcome::Optimal(s) => Some(s),
        MovesOutcome::Impossible(_) => None,
        MovesOutcome::Undecided { best, .. } => best.as_ref(),
    };
    let drawing = || match (svg, best) {
        (Some(path), Some(s)) => write_svg(path, board, start, &s.jumps),
        _ => Ok(()),
    };
    if json {
        print_json(&answer);
        return drawn(drawing(), code);
    }
    let moves = &answer.line.move_list;
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
                "fewest moves: {} ({} jumps), proven optimal: every full Merson region (a corner, an edge pair, a hexagon) needs a move to begin in it",
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
                    "best found: {} moves; proven lower bound: {} moves (full Merson regions: corners, edge pairs, hexagons; and the levels searched from both ends)",
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
    let bar = spinner("searching from both ends by moves");
    let report = pegsol::fewest::shortest(&problem, &limits, &|phase| {
        let Some(bar) = &bar else { return };
        match phase {
            ShortestPhase::Proof(p) => bar.set_message(format!(
                "no solution within {} moves; growing the {} side to level {}: {} of {} positions; tables {} MB",
                p.lower_bound.saturating_sub(1),
                if p.growing_forward { "start" } else { "finish" },
                if p.growing_forward { p.depths.0 + 1 } else { p.depths.1 + 1 },
                p.done,
                p.frontier,
                p.table_bytes >> 20
            )),
            ShortestPhase::FirstLine => {
                bar.set_message("a first line of few moves, to bound the search");
            }
            ShortestPhase::UpperBound => {
                bar.set_message("the proof stopped; solving for an upper bound");
            }
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = report?;
    let answer = ShortestAnswer::of(&problem, empty.is_none(), &report)?;
    let code = exit_code(answer.status);
    let best = &report.best;
    let starts_text = match empty {
        Some(list) => format!("the start with {list} empty"),
        None => "any start with one hole empty".to_string(),
    };
    let report = &report.meeting;
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
        (MeetOutcome::Optimal(s), _) => {
            let (a, b) = report.depths;
            match report.pruned_to {
                _ if (a, b) == (0, 0) && s.moves > 0 => println!(
                    "{} moves ({} jumps), proven optimal: the full Merson regions (corners, edge pairs, hexagons) of every start each need a move to begin in them",
                    s.moves,
                    s.jumps.len()
                ),
                None => println!(
                    "{} moves ({} jumps), proven optimal: no position is both within {} of a start and within {} of a finish",
                    s.moves,
                    s.jumps.len(),
                    plural(a, "move"),
                    plural(b, "move")
                ),
                Some(cap) => println!(
                    "{} moves ({} jumps), proven optimal: no solution has {} or fewer (searched from both ends, {} from a start and {} from a finish, keeping only positions whose Merson regions leave room for a solution of {cap})",
                    s.moves,
                    s.jumps.len(),
                    plural(s.moves - 1, "move"),
                    plural(a, "move"),
                    plural(b, "move")
                ),
            }
        }
        (MeetOutcome::Impossible, _) => println!(
            "impossible: no start can reach a finish (position classes, or both searches ran dry)"
        ),
        (MeetOutcome::Undecided(b), best) => {
            println!("{}", undecided_text(*b, &proof_limits(&limits)));
            let searched = report.depths.0 + report.depths.1 + 1;
            if report.pruned_to.is_some() {
                println!(
                    "proven lower bound: {} moves (searches from both ends, keeping only positions whose Merson regions leave room for a shorter line than the one below, found none of {} or fewer)",
                    report.lower_bound,
                    report.lower_bound.saturating_sub(1)
                );
            } else if report.lower_bound > searched {
                println!(
                    "proven lower bound: {} moves (full Merson regions of every start, corners, edge pairs and hexagons, each need a move to begin in them; the search from both ends proved {searched})",
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
                    "upper bound: {} moves, by the line below (the solver's first line, then a beam over moves, before the proof and for what is left of --timeout after it, or {UPPER_BOUND_SECS} s)",
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
