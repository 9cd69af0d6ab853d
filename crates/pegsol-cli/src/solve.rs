//! `pegsol solve`: a line of play to the finish, or a proof there is none (also the web API's
//! `/api/solve` and `/api/hint`).

use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use pegsol::{Limits, Outcome, Problem, Report, Stats};
use serde::Serialize;

use crate::answer::{labels, Line, ProblemView, StatsView};
use crate::cli::{BudgetArgs, Setup};
use crate::common::{
    checked, class_line, drawn, explain, load_any_problem, print_json, problem_line, spinner,
    undecided_text, write_svg, IMPOSSIBLE, UNDECIDED,
};

/// Where a certificate went.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct CertificateFile {
    pub kind: &'static str,
    pub file: String,
    pub reason: String,
}

/// The answer of `solve --json`, and of the web API's solve and hint.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct SolveAnswer {
    #[serde(flatten)]
    pub problem: ProblemView,
    /// `solved`, `impossible` or `undecided`.
    pub status: &'static str,
    pub reason: Option<String>,
    /// The start's position class, and how many classes the board has.
    pub class: String,
    pub classes: u64,
    #[serde(flatten)]
    pub line: Line,
    #[serde(rename = "final", skip_serializing_if = "Option::is_none")]
    pub last: Option<Vec<String>>,
    pub stats: StatsView,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<CertificateFile>,
    /// The next jump of the solution (the web API's hint).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl SolveAnswer {
    /// The answer to `problem`, after the independent replay of any solution; and the exit code.
    pub(crate) fn of(problem: &Problem, report: &Report) -> Result<(SolveAnswer, u8)> {
        let board = problem.board();
        let start = problem.start();
        let (status, code, reason) = match &report.outcome {
            Outcome::Solved { jumps, finish } => {
                checked(board, start, jumps, *finish)?;
                ("solved", 0, None)
            }
            Outcome::Impossible(r) => ("impossible", IMPOSSIBLE, Some(r.to_string())),
            Outcome::Undecided(b) => ("undecided", UNDECIDED, Some(format!("{b} budget"))),
        };
        let (line, last) = match &report.outcome {
            Outcome::Solved { jumps, finish } => {
                (Line::of(board, jumps), Some(labels(board, *finish)))
            }
            _ => (Line::default(), None),
        };
        Ok((
            SolveAnswer {
                problem: ProblemView::of(problem),
                status,
                reason,
                class: board.classes().class_text(start),
                classes: board.classes().count(),
                line,
                last,
                stats: StatsView::from(&report.stats),
                certificate: None,
                hint: None,
            },
            code,
        ))
    }
}

/// `solve`; `files` are the SVG drawing and the certificate asked for.
pub(crate) fn run(
    setup: &Setup,
    finish: Option<&str>,
    budget: &BudgetArgs,
    files: (Option<&Path>, Option<&Path>),
    json: bool,
) -> Result<u8> {
    let (svg, certificate_file) = files;
    let problem = load_any_problem(setup, finish)?;
    let limits = budget.limits()?;
    let bar = spinner("solving");
    let report = pegsol::solve_with_progress(&problem, &limits, &|s: &Stats| {
        if let Some(bar) = &bar {
            bar.set_message(format!(
                "solving: {} nodes, {} dead positions",
                s.nodes, s.dead
            ));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = report?;
    let (mut answer, code) = SolveAnswer::of(&problem, &report)?;
    // An impossible answer's certificate, when asked for, with what is left of the budget.
    let certificate = match (certificate_file, &report.outcome) {
        (Some(path), Outcome::Impossible(_)) => {
            let mut rest: Limits = limits.clone();
            rest.timeout = limits
                .timeout
                .map(|t| t.saturating_sub(Duration::from_millis(report.stats.millis)));
            Some((path, crate::check::proof_of(&problem, &rest)?))
        }
        _ => None,
    };
    if let Some((path, Ok(c))) = &certificate {
        crate::certificate::write(path, &problem, c)?;
        answer.certificate = Some(CertificateFile {
            kind: c.kind(),
            file: path.display().to_string(),
            reason: crate::check::reason(c),
        });
    }
    let board = problem.board();
    // The drawing is written after the answer is printed, so a bad path costs no search.
    // Only a solution is drawn; when there is none, say on stderr that no file was written.
    let drawing = || match (svg, &report.outcome) {
        (Some(path), Outcome::Solved { jumps, .. }) => {
            write_svg(path, board, problem.start(), jumps)
        }
        (Some(path), _) => {
            eprintln!(
                "no drawing written to {}: there is no solution to draw",
                path.display()
            );
            Ok(())
        }
        (None, _) => Ok(()),
    };
    if json {
        print_json(&answer);
        return drawn(drawing(), code);
    }
    println!("{}", problem_line(&problem));
    println!("{}", class_line(board, problem.start()));
    match &report.outcome {
        Outcome::Solved { finish, .. } => {
            let line = &answer.line;
            println!(
                "solved: {} jumps, {} moves (replayed and checked)",
                line.jumps.len(),
                line.moves
            );
            for (i, j) in line.jumps.iter().enumerate() {
                print!("{:>3}. {:<8}", i + 1, j);
                if (i + 1) % 6 == 0 || i + 1 == line.jumps.len() {
                    println!();
                }
            }
            println!("moves: {}", line.move_list.join(" "));
            println!("final position:\n{}", board.draw(*finish));
        }
        Outcome::Impossible(reason) => {
            println!("impossible: {}", explain(&problem, *reason));
            if *reason == pegsol::Reason::Class {
                if let Some(instead) = crate::common::class_suggestion(&problem) {
                    println!("{instead}");
                }
            }
        }
        Outcome::Undecided(b) => println!("{}", undecided_text(*b, &limits)),
    }
    match &certificate {
        Some((path, Ok(c))) => println!(
            "certificate ({}) written to {}; check it with pegsol verify {}",
            crate::check::reason(c),
            path.display(),
            path.display()
        ),
        Some((_, Err(_))) => println!(
            "no certificate written: no checkable proof was found within the budget (the search above is the proof)"
        ),
        None if certificate_file.is_some() => {
            println!("no certificate written: the problem is not proved impossible")
        }
        None => {}
    }
    println!(
        "{} nodes, {} dead positions, {} ms",
        report.stats.nodes, report.stats.dead, report.stats.millis
    );
    drawn(drawing(), code)
}
