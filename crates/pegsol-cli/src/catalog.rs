//! `pegsol catalog`: the whole single-vacancy table of a board, as a table, a drawing per
//! vacancy, JSON or an SVG grid.

use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use pegsol::catalog::{catalog, Catalog, Entry, Finishes};
use pegsol::{notation, Board, Hole, Limits, Outcome, Reason};
use serde_json::{json, Value};

use crate::common::{load_any_board, print_json, IMPOSSIBLE, UNDECIDED};

/// What `catalog` was asked.
pub(crate) struct Request<'a> {
    pub board: &'a str,
    pub finishes: Finishes,
    pub limits: Limits,
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
    let result = catalog(&board, r.finishes, &r.limits, &|done, total| {
        if let Some(bar) = &bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let result = result?;
    // Every solution is replayed by the library's checker; replay once more here, as every
    // printed solution is.
    for e in &result.entries {
        if let Outcome::Solved { jumps, finish } = &e.outcome {
            pegsol::answer::checked(&board, board.holes().without(e.empty), jumps, *finish)?;
        }
    }
    let summary = result.summary();
    let code = if summary.undecided > 0 {
        UNDECIDED
    } else if summary.solvable == 0 {
        IMPOSSIBLE
    } else {
        0
    };
    let drawing = || match r.svg {
        Some(path) => std::fs::write(path, pegsol::svg::catalog_grid(&board, &result))
            .with_context(|| format!("cannot write {}", path.display())),
        None => Ok(()),
    };
    if r.json {
        print_json(&value(&board, &result));
    } else {
        print_text(&board, r, &result);
    }
    crate::common::drawn(drawing(), code)
}

/// The kind of proof of an impossible entry: its certificate's, or `exhausted` for a search
/// that left none.
fn proof_kind(e: &Entry) -> &'static str {
    match (&e.certificate, &e.outcome) {
        (Some(c), _) => c.kind(),
        (None, Outcome::Impossible(Reason::Class)) => "class",
        (None, Outcome::Impossible(Reason::Pagoda)) => "pagoda",
        _ => "exhausted",
    }
}

/// The impossible pairs whose proof is of `kind`.
fn impossible_by(c: &Catalog, kind: &str) -> u64 {
    c.entries
        .iter()
        .filter(|e| matches!(e.outcome, Outcome::Impossible(_)) && proof_kind(e) == kind)
        .map(|e| e.equivalent)
        .sum()
}

fn status(o: &Outcome) -> &'static str {
    match o {
        Outcome::Solved { .. } => "solved",
        Outcome::Impossible(_) => "impossible",
        Outcome::Undecided(_) => "undecided",
    }
}

/// Why an entry is impossible or undecided: the certificate's reason where there is one.
fn reason(e: &Entry) -> Option<String> {
    match (&e.outcome, &e.certificate) {
        (Outcome::Solved { .. }, _) => None,
        (Outcome::Impossible(_), Some(c)) => Some(crate::check::reason(c)),
        (Outcome::Impossible(r), None) => Some(r.to_string()),
        (Outcome::Undecided(b), _) => Some(format!("{b} budget")),
    }
}

fn entry_value(board: &Board, e: &Entry) -> Value {
    let jumps: &[pegsol::Jump] = match &e.outcome {
        Outcome::Solved { jumps, .. } => jumps,
        _ => &[],
    };
    json!({
        "empty": [board.label(e.empty)],
        "finish": e.finish.map_or(json!("any"), |f| json!([board.label(f)])),
        "equivalent": e.equivalent,
        "status": status(&e.outcome),
        "reason": reason(e),
        "certificate": e.certificate.as_ref().map(|c| c.kind()),
        "jumps": jumps.iter().map(|&j| notation::jump_text(board, j)).collect::<Vec<_>>(),
        "moves": if jumps.is_empty() { Value::Null } else { json!(notation::move_texts(board, jumps).len()) },
        "final": match &e.outcome {
            Outcome::Solved { finish, .. } => json!(board.labels(*finish)),
            _ => Value::Null,
        },
        "millis": e.stats.millis,
    })
}

/// The catalog as JSON (one object).
fn value(board: &Board, c: &Catalog) -> Value {
    let s = c.summary();
    json!({
        "board": board.name(),
        "holes": board.hole_count(),
        "lattice": board.lattice().name(),
        "symmetries": board.symmetries().len(),
        "vacancies": c.vacancies.iter().map(|v| json!({
            "empty": board.label(v.hole),
            "members": v.members.iter().map(|&h| board.label(h)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "problems": c.entries.iter().map(|e| entry_value(board, e)).collect::<Vec<_>>(),
        "proofs": {
            "class": impossible_by(c, "class"),
            "pagoda": impossible_by(c, "pagoda"),
            "search": impossible_by(c, "search"),
            "exhausted": impossible_by(c, "exhausted"),
        },
        "summary": {
            "pairs": s.pairs,
            "solvable": s.solvable,
            "impossible": s.impossible,
            "undecided": s.undecided,
        },
    })
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

fn print_text(board: &Board, r: &Request, c: &Catalog) {
    let s = c.summary();
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
    let by = |kind| impossible_by(c, kind);
    println!(
        "{} vacancy classes, {} problems up to symmetry, {} pairs: {} solvable, {} impossible ({} by position class, {} by a pagoda function, {} by a search certificate, {} by exhausted search), {} undecided",
        c.vacancies.len(),
        c.entries.len(),
        s.pairs,
        s.solvable,
        s.impossible,
        by("class"),
        by("pagoda"),
        by("search"),
        by("exhausted"),
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
        for e in c.of(v.hole) {
            if e.outcome == Outcome::Impossible(Reason::Class) && r.finishes == Finishes::Single {
                class_only += e.finish_class.len();
                continue;
            }
            let finish = e.finish.map_or("any".to_string(), |f| board.label(f));
            let detail = match &e.outcome {
                Outcome::Solved { jumps, finish } => format!(
                    "{} jumps, {} moves, ends on {}",
                    jumps.len(),
                    notation::move_texts(board, jumps).len(),
                    notation::set_text(board, *finish),
                ),
                Outcome::Impossible(_) => reason(e).unwrap_or_default(),
                Outcome::Undecided(b) => format!("within the {b} budget"),
            };
            println!(
                "  {:<6} {:>5}  {:<10} {detail}",
                finish,
                e.equivalent,
                status(&e.outcome)
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
