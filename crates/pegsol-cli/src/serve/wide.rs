//! `/api/check` on boards of 65 to 256 holes, through the wide engines' class and pagoda
//! proofs (every other endpoint runs the one solver on any board). The answer has the fields
//! the page reads from the 64-hole answer.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use pegsol::{Board, Pegs, WideFinish, WideLimits};

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
