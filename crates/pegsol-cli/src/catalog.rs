//! `pegsol catalog`: the whole single-vacancy table of a board, as a table, a drawing per
//! vacancy, JSON or an SVG grid.

use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use pegsol::answer::CatalogAnswer;
use pegsol::catalog::{catalog_with, Catalog, Finishes};
use pegsol::{notation, Board, Hole, Limits, Outcome, Reason};

use crate::common::{exit_code, load_any_board, print_json};

/// What `catalog` was asked.
pub(crate) struct Request<'a> {
    pub board: &'a str,
    pub finishes: Finishes,
    pub limits: Limits,
    /// The exhaustive count of what search and proof leave undecided; `None` skips it.
    pub count: Option<pegsol::count::CountOptions>,
    pub json: bool,
    pub svg: Option<&'a Path>,
}

pub(crate) fn run(r: &Request) -> Result<u8> {
    let board = std::sync::Arc::new(load_any_board(r.board)?);
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(0);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:30} {pos}/{len} problems {elapsed} {msg}")
        {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    let result = catalog_with(
        &board,
        r.finishes,
        &r.limits,
        r.count.as_ref(),
        &|done, total| {
            // Each problem's counts free what they held; handed back to the system, it is
            // not kept beside the next one's (see `main`).
            pegsol::memory::give_back_free_memory();
            if let Some(bar) = &bar {
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            }
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let result = result?;
    // Every solution is replayed by the library's checker, and once more as the answer is
    // made, as every printed solution is.
    let answer = CatalogAnswer::of(&board, &result)?;
    let code = exit_code(answer.status());
    let drawing = || match r.svg {
        Some(path) => std::fs::write(path, pegsol::svg::catalog_grid(&board, &result))
            .with_context(|| format!("cannot write {}", path.display())),
        None => Ok(()),
    };
    if r.json {
        print_json(&answer);
    } else {
        print_text(&board, r, &result, &answer);
    }
    crate::common::drawn(drawing(), code)
}

/// How one hole fares as a finish from `vacancy`: `E` a peg can end there, `.` it cannot,
/// `?` undecided.
fn fate(c: &Catalog, vacancy: Hole, hole: Hole) -> char {
    c.of(vacancy)
        .find(|e| e.finish_class.contains(&hole))
        .map_or(' ', |e| match e.outcome {
            Outcome::Solved { .. } => 'E',
            Outcome::Impossible(_) => '.',
            Outcome::Undecided(_) => '?',
        })
}

fn print_text(board: &Board, r: &Request, c: &Catalog, answer: &CatalogAnswer) {
    let s = answer.summary;
    let what = match r.finishes {
        Finishes::Single => "every single vacancy, every single-peg finish",
        Finishes::Any => "every single vacancy, one peg anywhere",
    };
    println!(
        "catalog of {} ({} holes, {} lattice, {} symmetries): {what}",
        board.name(),
        board.hole_count(),
        board.lattice(),
        board.symmetries().len()
    );
    let by = answer.proofs;
    println!(
        "{} vacancy classes, {} problems up to symmetry, {} pairs: {} solvable, {} impossible ({} by position class, {} by a pagoda function, {} by a search certificate, {} by exhausted search, {} by exhaustive count, {} by the dual problem), {} undecided",
        c.vacancies.len(),
        c.entries.len(),
        s.pairs,
        s.solvable,
        s.impossible,
        by.class,
        by.pagoda,
        by.search,
        by.exhausted,
        by.count,
        by.dual,
        s.undecided
    );
    println!(
        "(pairs: how many (vacancy, finish) pairs a row stands for; --json has the solutions)"
    );
    for v in &c.vacancies {
        let members: Vec<String> = v.members.iter().map(|&h| board.label(h)).collect();
        println!(
            "\nvacancy {} ({} like it: {})",
            board.label(v.hole),
            members.len(),
            members.join(" ")
        );
        let mut class_only = 0;
        for (e, view) in c.entries.iter().zip(&answer.problems) {
            if e.empty != v.hole {
                continue;
            }
            if e.outcome == Outcome::Impossible(Reason::Class) && r.finishes == Finishes::Single {
                class_only += e.finish_class.len();
                continue;
            }
            let finish = e.finish.map_or("any".to_string(), |f| board.label(f));
            let detail = match &e.outcome {
                Outcome::Solved { jumps, finish } => format!(
                    "{} jumps, {} moves, ends on {}{}",
                    jumps.len(),
                    notation::move_texts(board, jumps).len(),
                    notation::set_text(board, *finish),
                    match e.dual {
                        Some((v, f)) => format!(
                            " (its dual {} -> {} reversed)",
                            board.label(v),
                            board.label(f)
                        ),
                        None => String::new(),
                    }
                ),
                Outcome::Impossible(_) => view.reason.clone().unwrap_or_default(),
                Outcome::Undecided(b) => format!("within the {b} budget"),
            };
            println!(
                "  {:<6} {:>5}  {:<10} {detail}",
                finish, e.equivalent, view.status
            );
        }
        if class_only > 0 {
            println!("  and {class_only} finish holes impossible by position class");
        }
        if r.finishes == Finishes::Single {
            let drawn = board.draw_with(|h| fate(c, v.hole, h));
            for line in drawn.lines() {
                println!("  {line}");
            }
        }
    }
}
