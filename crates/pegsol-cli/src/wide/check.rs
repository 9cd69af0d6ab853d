//! `check` on boards of 65 to 256 holes: the position-class refutation, with the sets that
//! prove it drawn; otherwise the wide solver decides. Certificate files (and so `verify`)
//! and pagoda proofs take boards of up to 64 holes.

use anyhow::{bail, Result};
use pegsol::{WideBoard, WideFinish, WideLimits, WideOutcome, WidePegs};
use serde::Serialize;

use super::{finish_of, finish_view, start_of, start_text};
use crate::answer::{FinishView, Line};
use crate::cli::{BudgetArgs, Setup};
use crate::common::{print_json, IMPOSSIBLE, UNDECIDED};

/// A set of holes whose parity of pegs no jump changes, with the start's pegs on it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct SetView {
    pub holes: Vec<String>,
    pub start_count: u32,
}

/// A finish, the set whose parity it gets wrong, and its pegs on that set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct FinishProof {
    pub finish: Vec<String>,
    pub set: usize,
    pub count: u32,
}

/// The class proof: as the 64-hole certificate of kind `class`, not written to a file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ClassProof {
    pub kind: &'static str,
    pub sets: Vec<SetView>,
    pub finishes: Vec<FinishProof>,
}

/// The answer of `check --json` on a wide board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct WideCheckAnswer {
    pub board: String,
    pub empty: Vec<String>,
    pub finish: FinishView,
    /// `refuted`, `solvable` or `open`.
    pub status: &'static str,
    pub reason: Option<String>,
    pub certificate: Option<ClassProof>,
    #[serde(flatten)]
    pub line: Line,
}

/// The class refutation of `finish` from `start`, when every finish position has a set whose
/// parity differs from the start's; `None` when some finish shares the start's class, or the
/// finish is any `k > 1` pegs (too many positions to list).
pub(crate) fn class_proof(
    board: &WideBoard,
    start: WidePegs,
    finish: &WideFinish,
) -> Option<ClassProof> {
    let finishes: Vec<WidePegs> = match finish {
        WideFinish::Exactly(f) => vec![*f],
        WideFinish::Pegs(1) => (0..board.hole_count()).map(WidePegs::bit).collect(),
        WideFinish::Pegs(_) => return None,
    };
    let sets = board.class_sets();
    let parity = |s: WidePegs, p: WidePegs| s.and(p).count();
    let mut used: Vec<usize> = Vec::new();
    let mut proofs = Vec::new();
    for f in finishes {
        let k = sets
            .iter()
            .position(|&s| parity(s, start) % 2 != parity(s, f) % 2)?;
        let index = used.iter().position(|&u| u == k).unwrap_or_else(|| {
            used.push(k);
            used.len() - 1
        });
        proofs.push(FinishProof {
            finish: board.labels(f),
            set: index,
            count: parity(sets[k], f),
        });
    }
    Some(ClassProof {
        kind: "class",
        sets: used
            .iter()
            .map(|&k| SetView {
                holes: board.labels(sets[k]),
                start_count: parity(sets[k], start),
            })
            .collect(),
        finishes: proofs,
    })
}

/// `check` on a wide board.
pub(crate) fn run(
    board: &WideBoard,
    setup: &Setup,
    finish: Option<&str>,
    pagoda: Option<&str>,
    certificate: Option<&std::path::Path>,
    budget: &BudgetArgs,
    json: bool,
) -> Result<u8> {
    if pagoda.is_some() || certificate.is_some() {
        bail!(
            "board {} has {} holes: --pagoda and --certificate take boards of up to 64 holes; \
             without them check gives the class proof, or the wide solver's answer",
            board.name(),
            board.hole_count()
        );
    }
    let start = start_of(board, setup)?;
    let finish = finish_of(board, start, finish)?;
    finish.check(board, start)?;
    let proof = class_proof(board, start, &finish);
    let (status, code, reason, line) = match &proof {
        Some(_) => (
            "refuted",
            IMPOSSIBLE,
            Some("position class".to_string()),
            None,
        ),
        None => {
            let narrow = budget.limits_or(std::time::Duration::from_secs(10))?;
            let limits = WideLimits {
                timeout: narrow.timeout,
                max_memory: narrow.max_memory,
            };
            let report = pegsol::solve_wide(board, start, &finish, &limits)?;
            match report.outcome {
                WideOutcome::Solved { jumps, finish: end } => {
                    if pegsol::replay_wide(board, start, &jumps)? != end {
                        return Err(
                            pegsol::Error::Internal("a wide solution replays elsewhere").into()
                        );
                    }
                    ("solvable", 0, None, Some(Line::of_wide(board, &jumps)))
                }
                WideOutcome::Impossible(r) => (
                    "refuted",
                    IMPOSSIBLE,
                    Some(format!(
                        "{r} (no certificate: search certificates take boards of up to 64 holes)"
                    )),
                    None,
                ),
                WideOutcome::Undecided(b) => (
                    "open",
                    UNDECIDED,
                    Some(format!("no proof within the {b} budget")),
                    None,
                ),
            }
        }
    };
    let answer = WideCheckAnswer {
        board: board.name().to_string(),
        empty: board.labels(board.holes().minus(start)),
        finish: finish_view(board, &finish),
        status,
        reason,
        certificate: proof,
        line: line.unwrap_or_default(),
    };
    if json {
        print_json(&answer);
        return Ok(code);
    }
    let finish_text = answer.finish.text();
    println!(
        "board {} ({} holes), {}, finish: {finish_text}",
        answer.board,
        board.hole_count(),
        start_text(board, start)
    );
    match (&answer.certificate, answer.status) {
        (Some(c), _) => {
            println!("refuted by position class.");
            println!(
                "Each set of holes marked 1 below meets every jump in 0 or 2 holes, so a jump changes the\nnumber of pegs on it by 0 or 2 and its parity never changes."
            );
            for (i, s) in c.sets.iter().enumerate() {
                let parity = if s.start_count % 2 == 0 {
                    "even"
                } else {
                    "odd"
                };
                println!(
                    "set {i}: the start has {} pegs on it ({parity})",
                    s.start_count
                );
                let holes: std::collections::HashSet<&str> =
                    s.holes.iter().map(String::as_str).collect();
                print!(
                    "{}",
                    board.draw_marks(|h| if holes.contains(board.label(h).as_str()) {
                        '1'
                    } else {
                        '0'
                    })
                );
            }
            for f in &c.finishes {
                println!(
                    "finish {}: {} pegs on set {}, of the other parity",
                    f.finish.join(","),
                    f.count,
                    f.set
                );
            }
        }
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
    Ok(code)
}
