//! `pegsol ends`: every hole where one last peg can end, each with a solution, and why the
//! others cannot (also the web API's `/api/ends`).

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressStyle};
use pegsol::answer::EndsAnswer;
use pegsol::{notation, Finish, Problem};

use crate::cli::{BudgetArgs, Setup};
use crate::common::{class_line, exit_code, load_setup, print_json};

/// The answer in words, and the start drawn with the end holes marked.
fn print(answer: &EndsAnswer, problem: &Problem) {
    let (board, start) = (problem.board(), problem.start());
    println!(
        "board {} ({} holes), empty: {}",
        board.name(),
        board.hole_count(),
        notation::set_text(board, board.holes().minus(start))
    );
    println!("{}", class_line(board, start));
    let holes: Vec<&str> = answer.ends.iter().map(|e| e.hole.as_str()).collect();
    println!(
        "one last peg can end on {} hole(s): {}",
        holes.len(),
        holes.join(" ")
    );
    for e in &answer.ends {
        println!("  {}: {}", e.hole, e.line.move_list.join(" "));
    }
    let mut by_reason: Vec<(&str, Vec<&str>)> = Vec::new();
    for n in &answer.impossible {
        match by_reason.iter_mut().find(|(reason, _)| *reason == n.reason) {
            Some((_, list)) => list.push(&n.hole),
            None => by_reason.push((&n.reason, vec![&n.hole])),
        }
    }
    for (reason, holes) in &by_reason {
        println!("impossible by {reason}: {}", holes.join(" "));
    }
    if !answer.undecided.is_empty() {
        let open: Vec<String> = answer
            .undecided
            .iter()
            .map(|u| format!("{} ({})", u.hole, u.budget))
            .collect();
        println!(
            "undecided within budget: {} (raise --timeout or --max-memory)",
            open.join(" ")
        );
    }
    let map = board.draw_with(|h| {
        if holes.contains(&board.label(h).as_str()) {
            'E'
        } else if start.contains(h) {
            'o'
        } else {
            '.'
        }
    });
    println!("start, with the end holes marked E:\n{map}");
}

pub(crate) fn run(setup: &Setup, budget: &BudgetArgs, json: bool) -> Result<u8> {
    let (board, start) = load_setup(setup)?;
    if start.is_empty() {
        bail!("the start has no pegs; leave at least one hole filled");
    }
    let problem = Problem::new(board, start.resize(), Finish::AnyOne)?;
    let board = problem.board();
    let mut limits = budget.limits()?;
    // Holes are solved in parallel; share the memory budget between the threads.
    limits.max_memory /= rayon::current_num_threads().max(1);
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(board.hole_count() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:30} {pos}/{len} holes {elapsed} {msg}")
        {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    let result = pegsol::ends_with_progress(&problem, &limits, &|done| {
        if let Some(bar) = &bar {
            bar.inc(1);
            bar.set_message(format!("last: {}", board.label(done.hole)));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let result = result?;
    let answer = EndsAnswer::of(&problem, &result)?;
    if json {
        print_json(&answer);
    } else {
        print(&answer, &problem);
    }
    Ok(exit_code(answer.status()))
}
