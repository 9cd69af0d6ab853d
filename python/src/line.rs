//! `line`: one-dimensional solitaire (Moore and Eppstein): the fewest pegs a line of cells
//! reduces to, and the jumps, replayed.

use pegsol::one_dimensional as line;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde::Serialize;

use crate::bridge::json;

/// The answer of `pegsol line --json`.
#[derive(Serialize)]
struct LineAnswer {
    config_length: usize,
    pegs: usize,
    min_pegs: usize,
    solvable: bool,
    pieces: Vec<[usize; 2]>,
    jumps: Vec<String>,
}

/// A line of cells (`"11011"`, 1 a peg, 0 a hole, as `pegsol line` reads it) reduced to the
/// fewest pegs: the answer of `pegsol line --json`, every jump replayed first.
#[pyfunction]
pub(crate) fn one_dimensional(config: &str) -> PyResult<String> {
    let cells = line::parse_line(config)
        .map_err(|e| PyValueError::new_err(format!("bad configuration: {e}")))?;
    let plan = line::LinePlan::new(&cells);
    let mut replay = line::LineReplay::new(&cells);
    let mut jumps = Vec::new();
    let mut illegal = None;
    plan.jumps(&cells, |f, t| {
        if illegal.is_none() {
            illegal = replay.play(f, t).err();
        }
        jumps.push(format!("{f}-{t}"));
    });
    if let Some(e) = illegal {
        return Err(PyRuntimeError::new_err(format!("internal error: {e}")));
    }
    let min = plan.min_pegs();
    if replay.pegs() != min {
        return Err(PyRuntimeError::new_err(
            "internal error: the jumps leave another number of pegs",
        ));
    }
    json(&LineAnswer {
        config_length: cells.len(),
        pegs: cells.iter().filter(|&&c| c).count(),
        min_pegs: min,
        solvable: min == 1,
        pieces: plan.pieces().map(|(a, b)| [a, b]).collect(),
        jumps,
    })
}
