//! The playground's endpoints on boards of 65 to 256 holes, through the wide solver: the
//! board's geometry, solve and hint, the end holes, and every jump's fate. The answers have
//! the fields the page reads from the 64-hole answers.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use pegsol::{Hole, WideBoard, WideFinish, WideLimits, WideOutcome, WidePegs};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::{json, Value};

use crate::analyse::{plain_reason, MoveFate};
use crate::answer::{FinishView, Line};
use crate::serve::request::{labels, Kind, RequestBody};
use crate::serve::views::{to_value, BoardAnswer, HoleView};
use crate::serve::{Answer, MAX_MEMORY};
use crate::wide::checked_line;

/// A request on a wide board, parsed and checked.
pub(crate) struct WideParsed {
    pub(super) board: WideBoard,
    /// The position asked about (the start with the jumps played, when jumps are given).
    pub(super) start: WidePegs,
    pub(super) finish: WideFinish,
    pub(super) timeout: Option<f64>,
}

/// Reads the rest of a request body once its board turned out to be wide.
pub(super) fn parse(body: &RequestBody, board: WideBoard) -> Result<WideParsed, String> {
    let start = match &body.empty {
        None | Some(Value::Null) => board
            .start()
            .ok_or_else(|| format!("board {} has no usual start; give \"empty\"", board.name()))?,
        Some(v) => {
            let list = labels(v, "empty")?;
            board
                .holes()
                .minus(board.hole_set(&list).map_err(|e| format!("empty: {e}"))?)
        }
    };
    let finish = match &body.finish {
        None | Some(Value::Null) => None,
        Some(v) => Some(labels(v, "finish")?),
    };
    let finish = crate::wide::finish_of(&board, start, finish.as_deref())
        .map_err(|e| format!("finish: {}", e.root_cause()))?;
    let start = match &body.jumps {
        None | Some(Value::Null) => start,
        Some(v) => {
            let text = labels(v, "jumps")?.replace(',', " ");
            let jumps = crate::wide::parse_jumps(&board, &text)
                .map_err(|e| format!("jumps: {}", e.root_cause()))?;
            pegsol::replay_wide(&board, start, &jumps).map_err(|e| format!("jumps: {e}"))?
        }
    };
    // The checks the solver makes, made now, so that a bad finish is a 400 at once.
    finish.check(&board, start).map_err(|e| e.to_string())?;
    Ok(WideParsed {
        board,
        start,
        finish,
        timeout: body.timeout,
    })
}

/// What the page needs to draw and play a wide board.
pub(super) fn geometry(p: &WideParsed) -> BoardAnswer {
    let b = &p.board;
    let sketch = crate::svg::Sketch::of_wide(b);
    let n = b.hole_count();
    let (rows, cols) = (0..n).fold((0, 0), |(r, c), h| {
        let (a, d) = b.coords(h);
        (r.max(a + 1), c.max(d + 1))
    });
    BoardAnswer {
        board: b.name().to_string(),
        lattice: b.lattice().name(),
        rows,
        cols,
        holes: (0..n)
            .map(|h| {
                let (row, col) = b.coords(h);
                let (x, y) = sketch.place(h);
                HoleView {
                    label: b.label(h),
                    row,
                    col,
                    x,
                    y,
                }
            })
            .collect(),
        jumps: b
            .jumps()
            .iter()
            .map(|j| [b.label(j.from()), b.label(j.over()), b.label(j.to())])
            .collect(),
        empty: b.labels(b.holes().minus(p.start)),
        finish: crate::wide::finish_view(b, &p.finish),
    }
}

/// The answer of `/api/solve` and `/api/hint` on a wide board.
#[derive(Serialize)]
struct WideSolveView {
    board: String,
    empty: Vec<String>,
    finish: FinishView,
    status: &'static str,
    reason: Option<String>,
    #[serde(flatten)]
    line: Line,
    #[serde(rename = "final")]
    last: Option<Vec<String>>,
    hint: Option<String>,
    engine: &'static str,
    words: usize,
}

/// The answer of `/api/analyse` on a wide board (the fields of the 64-hole answer).
#[derive(Serialize)]
struct WideAnalyseView {
    board: String,
    empty: Vec<String>,
    finish: FinishView,
    pegs: u32,
    status: &'static str,
    exact: bool,
    moves: Vec<MoveFate>,
}

fn reaches(finish: &WideFinish, p: WidePegs) -> bool {
    match finish {
        WideFinish::Exactly(f) => p == *f,
        WideFinish::Pegs(n) => p.count() as usize == *n,
    }
}

/// One request on a wide board, under the budget: the answer, and whether its time ran out.
pub(super) fn answer(
    kind: Kind,
    p: &WideParsed,
    budget: Duration,
    cancel: &Arc<AtomicBool>,
) -> Result<Answer> {
    let b = &p.board;
    let limits = WideLimits {
        timeout: Some(budget),
        max_memory: MAX_MEMORY,
    };
    let empty = b.labels(b.holes().minus(p.start));
    let finish = crate::wide::finish_view(b, &p.finish);
    match kind {
        Kind::Solve | Kind::Hint => {
            let report = pegsol::solve_wide_with(b, p.start, &p.finish, &limits, cancel)?;
            let (status, reason, line, last) = match &report.outcome {
                WideOutcome::Solved { finish: end, .. } => (
                    "solved",
                    None,
                    // The independent replay before anything is sent.
                    checked_line(b, p.start, &p.finish, &report.outcome)?.unwrap_or_default(),
                    Some(b.labels(*end)),
                ),
                WideOutcome::Impossible(r) => {
                    ("impossible", Some(r.to_string()), Line::default(), None)
                }
                WideOutcome::Undecided(budget) => (
                    "undecided",
                    Some(format!("{budget} budget")),
                    Line::default(),
                    None,
                ),
            };
            let hint = (kind == Kind::Hint)
                .then(|| line.jumps.first().cloned())
                .flatten();
            let view = WideSolveView {
                board: b.name().to_string(),
                empty,
                finish,
                status,
                reason,
                line,
                last,
                hint,
                engine: report.engine,
                words: report.words,
            };
            let ran_out = report.outcome == WideOutcome::Undecided(pegsol::Budget::Time);
            Ok((to_value(&view)?, ran_out))
        }
        Kind::Ends => {
            // The budget is for the whole request; ends solves one problem per class of holes.
            let limits = WideLimits {
                timeout: Some(
                    (budget / b.hole_count().max(1) as u32).max(Duration::from_millis(20)),
                ),
                ..limits
            };
            let entries = pegsol::ends_wide(b, p.start, &limits, &|_, _| {})?;
            let mut ends = Vec::new();
            let mut rows = Vec::new();
            let mut ran_out = false;
            for e in &entries {
                let like: Vec<String> = e.finish_class.iter().map(|&h| b.label(h)).collect();
                let (status, line) = match &e.outcome {
                    WideOutcome::Solved { .. } => {
                        let line = checked_line(b, p.start, &WideFinish::Pegs(1), &e.outcome)?;
                        ends.extend(like.iter().cloned());
                        ("solved", line.unwrap_or_default())
                    }
                    WideOutcome::Impossible(_) => ("impossible", Line::default()),
                    WideOutcome::Undecided(budget) => {
                        ran_out |= *budget == pegsol::Budget::Time;
                        ("undecided", Line::default())
                    }
                };
                rows.push(
                    json!({ "hole": like.first(), "like": like, "status": status, "line": line }),
                );
            }
            Ok((
                json!({ "board": b.name(), "empty": empty, "ends": ends, "rows": rows }),
                ran_out,
            ))
        }
        Kind::Check => {
            // The class or pagoda proof (the page draws either), else the wide solver.
            let d = crate::wide::check::decide(b, p.start, &p.finish, &limits, cancel)?;
            Ok((to_value(&d.answer)?, d.ran_out))
        }
        Kind::Analyse => {
            let start = p.start;
            let legal: Vec<_> = b
                .jumps()
                .iter()
                .filter(|j| {
                    start.contains(Hole::at(j.from()))
                        && start.contains(Hole::at(j.over()))
                        && !start.contains(Hole::at(j.to()))
                })
                .collect();
            let share = (budget / legal.len().max(1) as u32 * 2).max(Duration::from_millis(5));
            let fates: Vec<(MoveFate, bool)> = legal
                .par_iter()
                .map(|j| {
                    let child = start
                        .without(Hole::at(j.from()))
                        .without(Hole::at(j.over()))
                        .with(Hole::at(j.to()));
                    let limits = WideLimits {
                        timeout: Some(share.min(budget)),
                        max_memory: MAX_MEMORY / rayon::current_num_threads().max(1),
                    };
                    let (fate, why, ran_out) =
                        match pegsol::solve_wide_with(b, child, &p.finish, &limits, cancel) {
                            Ok(r) => match r.outcome {
                                WideOutcome::Solved { .. } => ("wins", None, false),
                                WideOutcome::Impossible(r) => {
                                    ("loses", Some(plain_reason(r)), false)
                                }
                                WideOutcome::Undecided(budget) => {
                                    ("unknown", None, budget == pegsol::Budget::Time)
                                }
                            },
                            // A finish with more pegs than the child has: this jump loses it.
                            Err(pegsol::Error::FinishTooLarge { .. }) => {
                                ("loses", Some("too few pegs are left for the finish"), false)
                            }
                            Err(e) => return Err(e),
                        };
                    Ok((
                        MoveFate {
                            jump: format!("{}-{}", b.label(j.from()), b.label(j.to())),
                            from: b.label(j.from()),
                            over: b.label(j.over()),
                            to: b.label(j.to()),
                            fate,
                            why,
                        },
                        ran_out,
                    ))
                })
                .collect::<pegsol::Result<_>>()?;
            let ran_out = fates.iter().any(|f| f.1) && !cancel.load(Ordering::Relaxed);
            let moves: Vec<MoveFate> = fates.into_iter().map(|f| f.0).collect();
            let status = if reaches(&p.finish, start) {
                "won"
            } else if moves.is_empty() {
                "stuck"
            } else if moves.iter().any(|m| m.fate == "wins") {
                "winnable"
            } else if moves.iter().all(|m| m.fate == "loses") {
                "lost"
            } else {
                "unknown"
            };
            let view = WideAnalyseView {
                board: b.name().to_string(),
                empty,
                finish,
                pegs: start.count(),
                status,
                exact: false,
                moves,
            };
            Ok((to_value(&view)?, ran_out))
        }
        Kind::Board => Ok((to_value(&geometry(p))?, false)),
    }
}
