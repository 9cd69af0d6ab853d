//! `pegsol solve`: a line of play to the finish, or a proof there is none (also the web API's
//! `/api/solve` and `/api/hint`).

use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use pegsol::answer::{CertificateWritten, SolveAnswer};
use pegsol::{Limits, Outcome, Stats};

use crate::cli::{BudgetArgs, Setup};
use crate::common::{
    class_line, drawn, exit_code, explain, load_any_problem, print_json, problem_line, spinner,
    undecided_text, write_svg,
};

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
    let mut answer = SolveAnswer::of(&problem, &report)?;
    let code = exit_code(answer.status);
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
        answer.certificate = Some(CertificateWritten {
            kind: c.kind(),
            file: path.display().to_string(),
            reason: pegsol::answer::reason(c),
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
            pegsol::answer::reason(c),
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
