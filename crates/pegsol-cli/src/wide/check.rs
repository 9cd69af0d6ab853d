//! `check` on boards of 65 to 256 holes: the position-class or pagoda-function proof, drawn
//! and rechecked, and written as a certificate file with `--certificate` (`pegsol verify`
//! checks it); `--pagoda FILE` checks the user's weights. When neither argument refutes the
//! problem, the wide solver decides it (a refutation by exhausted search has no certificate
//! on these boards: search certificates are made by the 64-hole engines).

use std::sync::atomic::AtomicBool;

use anyhow::{bail, Result};
use pegsol::{
    refute_wide, Board, Hole, Pagoda, Pegs, WideCertificate, WideFinish, WideLimits, WideOutcome,
};
use serde::Serialize;
use serde_json::Value;

use super::{finish_view, start_and_finish, start_text};
use crate::answer::{FinishView, Line};
use crate::check::{
    fraction, fraction_text, own_report, read_weight_grid, CertificateView, ProofView,
    SeparatedView, SetView,
};
use crate::cli::{BudgetArgs, Setup};
use crate::common::{print_json, IMPOSSIBLE, UNDECIDED};

/// The answer of `check --json` on a wide board: the 64-hole answer's fields, and the line
/// when the solver finds one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct WideCheckAnswer {
    pub board: String,
    pub empty: Vec<String>,
    pub finish: FinishView,
    /// `refuted`, `solvable` or `open`.
    pub status: &'static str,
    pub reason: Option<String>,
    pub certificate: Option<CertificateView>,
    #[serde(flatten)]
    pub line: Line,
}

/// [`refute_wide`], rechecked: a proof that fails its own recheck is an error, not an answer.
pub(crate) fn proof(
    board: &Board,
    start: Pegs,
    finish: &WideFinish,
) -> Result<Option<WideCertificate>> {
    let proof = refute_wide(board, start, finish);
    if proof
        .as_ref()
        .is_some_and(|c| !c.verify(board, start, finish))
    {
        bail!("internal error: a certificate failed its recheck; please report it");
    }
    Ok(proof)
}

/// A wide proof in the 64-hole answer's shape (the web page draws either).
pub(crate) fn proof_view(board: &Board, c: &WideCertificate) -> ProofView {
    match c {
        WideCertificate::Class {
            sets,
            start_counts,
            finishes,
        } => ProofView::Class {
            sets: sets
                .iter()
                .zip(start_counts)
                .map(|(&s, &c)| SetView {
                    holes: board.labels(s),
                    start_count: c,
                })
                .collect(),
            finishes: finishes
                .iter()
                .map(|&(f, k, c)| SeparatedView {
                    finish: board.labels(f),
                    set: k,
                    count: c,
                })
                .collect(),
        },
        WideCertificate::Pagoda {
            pagoda,
            start_total,
            finish_total,
        } => ProofView::Pagoda {
            weights: weights_json(board, pagoda, 1),
            start_total: *start_total,
            finish_total: *finish_total,
        },
    }
}

/// The weights by hole label, over `den`.
fn weights_json(board: &Board, p: &Pagoda, den: i64) -> Value {
    Value::Object(
        (0..board.hole_count())
            .map(|h| (board.label(Hole::at(h)), fraction(p.weights()[h], den)))
            .collect(),
    )
}

/// What [`decide`] found.
pub(crate) struct Decided {
    pub answer: WideCheckAnswer,
    /// The exit code of `check`.
    pub code: u8,
    pub proof: Option<WideCertificate>,
    /// Whether the solver ran out of time (more time might decide it).
    pub ran_out: bool,
}

/// The class or pagoda proof, or else the wide solver's answer within `limits`.
pub(crate) fn decide(
    board: &Board,
    start: Pegs,
    finish: &WideFinish,
    limits: &WideLimits,
    stop: &AtomicBool,
) -> Result<Decided> {
    let proof = proof(board, start, finish)?;
    let mut ran_out = false;
    let (status, code, reason, line) = match &proof {
        Some(c) => (
            "refuted",
            IMPOSSIBLE,
            Some(crate::check::kind_reason(c.kind())),
            None,
        ),
        None => match pegsol::solve_wide_with(board, start, finish, limits, stop)?.outcome {
            outcome @ WideOutcome::Solved { .. } => (
                "solvable",
                0,
                None,
                super::checked_line(board, start, finish, &outcome)?,
            ),
            WideOutcome::Impossible(r) => (
                "refuted",
                IMPOSSIBLE,
                Some(format!(
                    "{r} (no certificate: search certificates take boards of up to 64 holes)"
                )),
                None,
            ),
            WideOutcome::Undecided(b) => {
                ran_out = b == pegsol::Budget::Time;
                (
                    "open",
                    UNDECIDED,
                    Some(format!("no proof within the {b} budget")),
                    None,
                )
            }
        },
    };
    let answer = WideCheckAnswer {
        board: board.name().to_string(),
        empty: board.labels(board.holes().minus(start)),
        finish: finish_view(board, finish),
        status,
        reason,
        certificate: proof.as_ref().map(|c| CertificateView {
            proof: proof_view(board, c),
            file: None,
        }),
        line: line.unwrap_or_default(),
    };
    Ok(Decided {
        answer,
        code,
        proof,
        ran_out,
    })
}

/// `check` on a wide board.
pub(crate) fn run(
    board: &Board,
    setup: &Setup,
    finish: Option<&str>,
    pagoda: Option<&str>,
    certificate: Option<&std::path::Path>,
    budget: &BudgetArgs,
    json: bool,
) -> Result<u8> {
    let (start, finish) = start_and_finish(board, setup, finish)?;
    finish.check(board, start)?;
    if let Some(path) = pagoda {
        return own_weights(board, start, &finish, path, json);
    }
    let narrow = budget.limits_or(std::time::Duration::from_secs(10))?;
    let limits = WideLimits {
        timeout: narrow.timeout,
        max_memory: narrow.max_memory,
    };
    let Decided {
        mut answer,
        code,
        proof,
        ..
    } = decide(board, start, &finish, &limits, &AtomicBool::new(false))?;
    let file = match (certificate, &proof) {
        (Some(path), Some(c)) => {
            crate::certificate::write_wide(path, board, start, &finish, c)?;
            Some(path)
        }
        _ => None,
    };
    if let Some(view) = answer.certificate.as_mut() {
        view.file = file.map(|f| f.display().to_string());
    }
    if json {
        print_json(&answer);
        return Ok(code);
    }
    println!(
        "board {} ({} holes), {}, finish: {}",
        answer.board,
        board.hole_count(),
        start_text(board, start),
        answer.finish.text()
    );
    match (&proof, answer.status) {
        (Some(c), _) => explain(board, c),
        (None, "solvable") => println!(
            "solvable: {} jumps, {} moves (replayed and checked): {}",
            answer.line.jumps.len(),
            answer.line.moves,
            answer.line.move_list.join(" ")
        ),
        (None, _) => println!(
            "{}: {}",
            answer.status,
            answer.reason.as_deref().unwrap_or("")
        ),
    }
    if let Some(f) = file {
        println!(
            "certificate written to {} (check it with pegsol verify {})",
            f.display(),
            f.display()
        );
    } else if certificate.is_some() {
        println!("no certificate written: there is no class or pagoda proof to write");
    }
    Ok(code)
}

/// A proof in words and pictures.
fn explain(board: &Board, c: &WideCertificate) {
    match c {
        WideCertificate::Class {
            sets,
            start_counts,
            finishes,
        } => {
            println!("refuted by position class.");
            println!(
                "Each set of holes marked 1 below meets every jump in 0 or 2 holes, so a jump changes the\nnumber of pegs on it by 0 or 2 and its parity never changes."
            );
            for (i, (s, count)) in sets.iter().zip(start_counts).enumerate() {
                let parity = if count % 2 == 0 { "even" } else { "odd" };
                println!("set {i}: the start has {count} pegs on it ({parity})");
                print!(
                    "{}",
                    board.draw_with(|h| if s.contains(Hole::at(h.index())) {
                        '1'
                    } else {
                        '0'
                    })
                );
            }
            let shown = finishes.len().min(40);
            for (f, k, count) in &finishes[..shown] {
                println!(
                    "finish {}: {count} pegs on set {k}, of the other parity",
                    board.labels(*f).join(",")
                );
            }
            if finishes.len() > shown {
                println!("... and {} more finishes", finishes.len() - shown);
            }
        }
        WideCertificate::Pagoda {
            pagoda,
            start_total,
            finish_total,
        } => {
            println!("refuted by a pagoda function.");
            println!("Weights w with w(from) + w(over) >= w(to) for every jump, so the total weight of the pegs never rises:");
            print!(
                "{}",
                board.draw_cells(|h| pagoda.weights()[h.index()].to_string())
            );
            println!("start total {start_total} < finish total {finish_total}");
        }
    }
}

/// `--pagoda FILE` on a wide board: checks the user's weights and whether they refute the
/// problem.
fn own_weights(
    board: &Board,
    start: Pegs,
    finish: &WideFinish,
    path: &str,
    json: bool,
) -> Result<u8> {
    let n = board.hole_count();
    let hole_rows: Vec<usize> = (0..n).map(|h| board.coords(Hole::at(h)).0).collect();
    let rows = hole_rows.iter().max().map_or(0, |r| r + 1);
    let (weights, den) = read_weight_grid(path, rows, &hole_rows)?;
    if let Some(j) = Pagoda::broken_jump_of(board, &weights) {
        let text = |h: usize| fraction_text(weights[h], den);
        bail!(
            "not a pagoda function: jump {} breaks it: w({}) + w({}) = {} + {} is less than w({}) = {}",
            pegsol::notation::jump_text(board, j),
            board.label(j.from()),
            board.label(j.over()),
            text(j.from().index()),
            text(j.over().index()),
            board.label(j.to()),
            text(j.to().index())
        );
    }
    let p = Pagoda::new(board, weights)
        .ok_or_else(|| anyhow::anyhow!("{path}: the weights are too large"))?;
    let totals = [p.total(start), p.floor_wide(board, finish).unwrap_or(0)];
    let grid = weights_json(board, &p, den);
    Ok(own_report(&grid, board.jumps().len(), totals, den, json))
}
