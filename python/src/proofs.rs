//! `check`, `catalog` and `army`: proofs of impossibility, whole tables of a board, and the
//! Solitaire Army.

use std::sync::Arc;
use std::time::Instant;

use pegsol::answer::{checked, ArmyAnswer, CatalogAnswer, CertificateFile, CheckAnswer};
use pegsol::army::{smallest_army, ArmyError, ArmyOptions, Window};
use pegsol::catalog::Finishes;
use pegsol::{Lattice, Outcome};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::board::Board;
use crate::bridge::{cancellable, flag, json, py_err};
use crate::question::{limits_of, Question};

/// Why a problem is impossible, with a certificate, or its line: the answer of `pegsol check
/// --json`, the certificate file's text (`docs/certificates.md`) and its picture (SVG).
#[pyfunction]
pub(crate) fn check(
    py: Python<'_>,
    q: Question,
) -> PyResult<(String, Option<String>, Option<String>)> {
    let (problem, limits) = (q.problem()?, q.limits()?);
    let d = cancellable(py, &flag(&limits), || {
        pegsol::check::decide(&problem, &limits)
    })?
    .map_err(py_err)?;
    // Rechecked before it is shown, as the CLI does.
    if d.certificate.as_ref().is_some_and(|c| !c.verify(&problem)) {
        return Err(PyRuntimeError::new_err(
            "internal error: a certificate failed its recheck; please report it",
        ));
    }
    if let Outcome::Solved { jumps, finish } = &d.outcome {
        checked(problem.board(), problem.start(), jumps, *finish).map_err(py_err)?;
    }
    let file = match &d.certificate {
        Some(c) => Some(json(&CertificateFile::of(&problem, c))?),
        None => None,
    };
    let svg = d
        .certificate
        .as_ref()
        .map(|c| pegsol::svg::certificate(problem.board(), c));
    Ok((json(&CheckAnswer::of(&problem, &d, None))?, file, svg))
}

/// Every single vacancy against every single-peg finish (`finish="single"`) or one peg
/// anywhere (`finish="any"`), up to symmetry: the answer of `pegsol catalog --json` and its
/// picture (`--svg`).
#[pyfunction]
#[pyo3(signature = (board, finish="single", timeout=None, max_memory=None))]
pub(crate) fn catalog(
    py: Python<'_>,
    board: &Board,
    finish: &str,
    timeout: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<(String, String)> {
    let finishes = match finish.trim().to_ascii_lowercase().as_str() {
        "single" => Finishes::Single,
        "any" => Finishes::Any,
        other => {
            return Err(PyValueError::new_err(format!(
                "finish must be 'single' (every single-peg finish) or 'any' (one peg anywhere); got {other:?}"
            )))
        }
    };
    let limits = limits_of(timeout, max_memory)?;
    let b = Arc::clone(&board.inner);
    let c = cancellable(py, &flag(&limits), || {
        pegsol::catalog::catalog(&b, finishes, &limits, &|_, _| {})
    })?
    .map_err(py_err)?;
    let answer = CatalogAnswer::of(&b, &c).map_err(py_err)?;
    Ok((json(&answer)?, pegsol::svg::catalog_grid(&b, &c)))
}

/// The fewest men that reach row `row` (the Solitaire Army): the answer of `pegsol army
/// --json`.
#[pyfunction]
#[pyo3(signature = (row, lattice="orthogonal", men=None, width=None, below=None, timeout=None, max_memory=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn army(
    py: Python<'_>,
    row: u32,
    lattice: &str,
    men: Option<u32>,
    width: Option<u32>,
    below: Option<u32>,
    timeout: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<String> {
    let lattice: Lattice = lattice.parse().map_err(|()| {
        PyValueError::new_err(format!(
            "unknown lattice {lattice:?}; use 'orthogonal', 'diagonal' or 'triangular'"
        ))
    })?;
    let limits = limits_of(timeout, max_memory)?;
    let mut window = Window::default_for(lattice, row);
    if let Some(w) = width {
        window.half_width = i32::try_from(w).unwrap_or(i32::MAX);
    }
    if let Some(b) = below {
        window.below = i32::try_from(b).unwrap_or(i32::MAX);
    }
    let options = ArmyOptions {
        window: Some(window),
        timeout: limits.timeout,
        cancel: limits.cancel.clone(),
        max_memory: limits.max_memory,
        threads: None,
        men,
    };
    let began = Instant::now();
    let result = cancellable(py, &flag(&limits), || {
        smallest_army(lattice, row, &options, &|_, _| {})
    })?;
    let millis = began.elapsed().as_millis() as u64;
    match ArmyAnswer::of(lattice, row, window, &result, millis) {
        Some(answer) => json(&answer),
        None => Err(PyValueError::new_err(match result {
            Err(ArmyError::Window(why)) => format!("{why} (width=, below=)"),
            _ => "row must be at least 1".to_string(),
        })),
    }
}
