//! A question's board, start, finish and budget, from the keyword arguments the Python layer
//! declares once and passes as one dict.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use pegsol::{Finish, Limits, Pegs, Problem};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::board::{Board, Labels};
use crate::bridge::py_err;

/// The default memory budget, in MB: the CLI's.
const DEFAULT_MEMORY_MB: u64 = 4096;

/// What a question names: the board, the start (`empty`, the board's own by default, then
/// the jumps of `after`), the finish (`any`, `any:N` or holes; the game's by default) and the
/// budget (seconds, MB).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct Question {
    pub(crate) board: Py<Board>,
    pub(crate) empty: Option<Labels>,
    pub(crate) finish: Option<Labels>,
    pub(crate) after: Option<String>,
    pub(crate) timeout: Option<f64>,
    pub(crate) max_memory: Option<u64>,
}

impl Question {
    /// The board.
    pub(crate) fn board(&self) -> &Board {
        self.board.get()
    }

    /// The game's start (before `after`) and the position asked about.
    pub(crate) fn start(&self) -> PyResult<(Pegs, Pegs)> {
        start_of(self.board(), self.empty.as_ref(), self.after.as_deref())
    }

    /// The finish, given the game's start.
    pub(crate) fn finish(&self, game: Pegs) -> PyResult<Finish> {
        finish_of(self.board(), game, self.finish.as_ref())
    }

    /// The problem asked.
    pub(crate) fn problem(&self) -> PyResult<Problem> {
        let (game, start) = self.start()?;
        let finish = self.finish(game)?;
        Problem::new(Arc::clone(&self.board().inner), start, finish).map_err(py_err)
    }

    /// The budget, with a cancel flag.
    pub(crate) fn limits(&self) -> PyResult<Limits> {
        limits_of(self.timeout, self.max_memory)
    }
}

/// The start a question names: `empty` holes (the board's own start by default), then the
/// jumps of `after` played from it, replayed and checked. Also the game's start, before them.
fn start_of(board: &Board, empty: Option<&Labels>, after: Option<&str>) -> PyResult<(Pegs, Pegs)> {
    let b = &board.inner;
    let game = match empty {
        Some(e) => b.holes().minus(board.set(e)?),
        None => b.start().ok_or_else(|| {
            PyValueError::new_err(format!(
                "{}: give empty=, e.g. empty='a1'",
                pegsol::Error::NoStart(b.name().to_string())
            ))
        })?,
    };
    let start = match after {
        None => game,
        Some(line) => {
            let jumps = pegsol::notation::parse_jumps(b, line).map_err(py_err)?;
            pegsol::replay(b, game, &jumps).map_err(py_err)?
        }
    };
    Ok((game, start))
}

/// A finish: hole labels, `"any"` (one peg anywhere) or `"any:N"` ([`Finish::parse`]); by
/// default the game's.
pub(crate) fn finish_of(board: &Board, game: Pegs, finish: Option<&Labels>) -> PyResult<Finish> {
    match finish {
        None => Ok(Problem::default_finish(&board.inner, game)),
        Some(f) => Finish::parse(&board.inner, &f.text()).map_err(py_err),
    }
}

/// A budget from seconds and megabytes, with a cancel flag.
pub(crate) fn limits_of(timeout: Option<f64>, max_memory: Option<u64>) -> PyResult<Limits> {
    let timeout = match timeout {
        None => None,
        Some(t) if t.is_finite() && t >= 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(PyValueError::new_err(format!(
                "timeout must be a number of seconds, 0 or more; got {t}"
            )))
        }
    };
    let mb = max_memory.unwrap_or(DEFAULT_MEMORY_MB);
    if mb == 0 {
        return Err(PyValueError::new_err("max_memory must be at least 1 (MB)"));
    }
    Ok(Limits {
        max_memory: usize::try_from(mb)
            .unwrap_or(usize::MAX)
            .saturating_mul(1 << 20),
        timeout,
        cancel: Some(Arc::new(AtomicBool::new(false))),
    })
}
