//! `/api/check` on boards of 65 to 256 holes, through the wide engines' class and pagoda
//! proofs (every other endpoint runs the one solver on any board). The answer has the fields
//! the page reads from the 64-hole answer.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use pegsol::{Board, Pegs, WideFinish, WideLimits};
use serde_json::Value;

use crate::serve::request::{labels, RequestBody};
use crate::serve::views::to_value;
use crate::serve::{Answer, MAX_MEMORY};

/// A request on a wide board, parsed and checked.
pub(crate) struct WideParsed {
    pub(super) board: Board,
    /// The position asked about (the start with the jumps played, when jumps are given).
    pub(super) start: Pegs,
    pub(super) finish: WideFinish,
    pub(super) timeout: Option<f64>,
}

/// Reads the rest of a request body once its board turned out to be wide.
pub(super) fn parse(body: &RequestBody, board: Board) -> Result<WideParsed, String> {
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
            pegsol::replay(&board, start, &jumps).map_err(|e| format!("jumps: {e}"))?
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

/// `/api/check` on a wide board, under the budget: the answer, and whether its time ran out.
pub(super) fn check(p: &WideParsed, budget: Duration, cancel: &Arc<AtomicBool>) -> Result<Answer> {
    let limits = WideLimits {
        timeout: Some(budget),
        max_memory: MAX_MEMORY,
    };
    // The class or pagoda proof (the page draws either), else the wide solver.
    let d = crate::wide::check::decide(&p.board, p.start, &p.finish, &limits, cancel)?;
    Ok((to_value(&d.answer)?, d.ran_out))
}
