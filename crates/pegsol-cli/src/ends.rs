//! `pegsol ends`: every hole where one last peg can end, each with a solution, and why the
//! others cannot (also the web API's `/api/ends`).

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressStyle};
use pegsol::{notation, Finish, Outcome, Problem};
use serde::Serialize;

use crate::answer::{Line, StatsView};
use crate::cli::{BudgetArgs, Setup};
use crate::common::{checked, class_line, load_setup, print_json, IMPOSSIBLE, UNDECIDED};

/// A hole where one last peg can end, with a replayed solution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct End {
    pub hole: String,
    #[serde(flatten)]
    pub line: Line,
    pub stats: StatsView,
}

/// A hole where it cannot, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct NoEnd {
    pub hole: String,
    pub reason: String,
}

/// A hole not decided within the budget.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Open {
    pub hole: String,
    pub budget: String,
}

/// The answer of `ends --json`, and of the web API's ends.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct EndsAnswer {
    pub board: String,
    pub empty: Vec<String>,
    pub class: String,
    pub ends: Vec<End>,
    pub impossible: Vec<NoEnd>,
    pub undecided: Vec<Open>,
}

impl EndsAnswer {
    /// The answer, after replaying every solution; and the exit code.
    pub(crate) fn of(problem: &Problem, result: &pegsol::Ends) -> Result<(EndsAnswer, u8)> {
        let (board, start) = (problem.board(), problem.start());
        let mut answer = EndsAnswer {
            board: board.name().to_string(),
            empty: board.labels(board.holes().minus(start)),
            class: board.classes().class_text(start),
            ends: Vec::new(),
            impossible: Vec::new(),
            undecided: Vec::new(),
        };
        for e in &result.holes {
            let hole = board.label(e.hole);
            match &e.outcome {
                Outcome::Solved { jumps, finish } => {
                    checked(board, start, jumps, *finish)?;
                    answer.ends.push(End {
                        hole,
                        line: Line::of(board, jumps),
                        stats: StatsView::from(&e.stats),
                    });
                }
                Outcome::Impossible(r) => answer.impossible.push(NoEnd {
                    hole,
                    reason: r.to_string(),
                }),
                Outcome::Undecided(b) => answer.undecided.push(Open {
                    hole,
                    budget: b.to_string(),
                }),
            }
        }
        let code = if !answer.undecided.is_empty() {
            UNDECIDED
        } else if answer.ends.is_empty() {
            IMPOSSIBLE
        } else {
            0
        };
        Ok((answer, code))
    }

    /// The answer in words, and the start drawn with the end holes marked.
    fn print(&self, problem: &Problem) {
        let (board, start) = (problem.board(), problem.start());
        println!(
            "board {} ({} holes), empty: {}",
            board.name(),
            board.hole_count(),
            notation::set_text(board, board.holes().minus(start))
        );
        println!("{}", class_line(board, start));
        let holes: Vec<&str> = self.ends.iter().map(|e| e.hole.as_str()).collect();
        println!(
            "one last peg can end on {} hole(s): {}",
            holes.len(),
            holes.join(" ")
        );
        for e in &self.ends {
            println!("  {}: {}", e.hole, e.line.move_list.join(" "));
        }
        let mut by_reason: Vec<(&str, Vec<&str>)> = Vec::new();
        for n in &self.impossible {
            match by_reason.iter_mut().find(|(reason, _)| *reason == n.reason) {
                Some((_, list)) => list.push(&n.hole),
                None => by_reason.push((&n.reason, vec![&n.hole])),
            }
        }
        for (reason, holes) in &by_reason {
            println!("impossible by {reason}: {}", holes.join(" "));
        }
        if !self.undecided.is_empty() {
            let open: Vec<String> = self
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
    let (answer, code) = EndsAnswer::of(&problem, &result)?;
    if json {
        print_json(&answer);
    } else {
        answer.print(&problem);
    }
    Ok(code)
}
