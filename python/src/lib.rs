//! `pegsol._pegsol`: the Python bindings of the pegsol library, under the pure-Python package
//! `pegsol` (which wraps the answers in typed objects).
//!
//! Every question returns the library's typed answer (`pegsol::answer`) as JSON text, so the
//! Python objects have exactly the CLI's `--json` fields; counts past 2^64 stay exact (the
//! JSON numbers are written in full and Python's `json` reads them as ints). Work runs on a
//! thread of its own without the GIL, while the calling thread wakes every 50 ms to let
//! Python handle signals: Ctrl-C (KeyboardInterrupt) sets the work's cancel flag, waits for
//! the engine to stop, and raises.

mod board;
mod bridge;
mod line;
mod proofs;
mod question;

use std::sync::Arc;
use std::time::Instant;

use pegsol::answer::{
    CountAnswer, CountUndecided, EndsAnswer, FewestAnswer, ProblemView, ReplayAnswer,
    ShortestAnswer, SolutionsAnswer, SolveAnswer,
};
use pegsol::count::{CountError, CountOptions};
use pegsol::{Finish, Pegs, Problem};

use board::Board;
use bridge::{cancellable, flag, json, py_err};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use question::Question;

/// Solves a problem: the answer of `pegsol solve --json`, as JSON.
#[pyfunction]
fn solve(py: Python<'_>, q: Question) -> PyResult<String> {
    let (problem, limits) = (q.problem()?, q.limits()?);
    let report = cancellable(py, &flag(&limits), || pegsol::solve(&problem, &limits))?;
    json(&SolveAnswer::of(&problem, &report.map_err(py_err)?).map_err(py_err)?)
}

/// The fewest moves: the answer of `pegsol solve --fewest-moves --json`, as JSON.
#[pyfunction]
fn fewest_moves(py: Python<'_>, q: Question) -> PyResult<String> {
    let (problem, limits) = (q.problem()?, q.limits()?);
    let report = cancellable(py, &flag(&limits), || {
        pegsol::fewest::fewest_moves(&problem, &limits)
    })?;
    json(&FewestAnswer::of(&problem, &report.map_err(py_err)?).map_err(py_err)?)
}

/// The fewest moves from every single vacancy (or from `empty`): the answer of `pegsol
/// shortest --json`, as JSON.
#[pyfunction]
fn shortest(py: Python<'_>, q: Question) -> PyResult<String> {
    let board = q.board();
    let b = &board.inner;
    let starts: Vec<Pegs> = match &q.empty {
        Some(e) => vec![b.holes().minus(board.set(e)?)],
        None => pegsol::fewest::single_vacancies(b),
    };
    let finish = match &q.finish {
        None => Finish::AnyOne,
        Some(_) => q.finish(starts[0])?,
    };
    let problem = Problem::with_starts(Arc::clone(b), starts, finish).map_err(py_err)?;
    let limits = q.limits()?;
    let report = cancellable(py, &flag(&limits), || {
        pegsol::fewest::shortest(&problem, &limits, &|_| {})
    })?;
    json(
        &ShortestAnswer::of(&problem, q.empty.is_none(), &report.map_err(py_err)?)
            .map_err(py_err)?,
    )
}

/// Every hole where one last peg can end: the answer of `pegsol ends --json`, as JSON.
#[pyfunction]
fn ends(py: Python<'_>, q: Question) -> PyResult<String> {
    let (_, start) = q.start()?;
    let problem =
        Problem::new(Arc::clone(&q.board().inner), start, Finish::AnyOne).map_err(py_err)?;
    let mut limits = q.limits()?;
    // Holes are solved in parallel: they share the memory budget.
    limits.max_memory /= rayon::current_num_threads().max(1);
    let result = cancellable(py, &flag(&limits), || pegsol::ends(&problem, &limits))?;
    json(&EndsAnswer::of(&problem, &result.map_err(py_err)?).map_err(py_err)?)
}

/// A line of play replayed jump by jump: the answer of `pegsol replay --json`, as JSON.
#[pyfunction]
fn replay(q: Question, jumps: &str) -> PyResult<String> {
    let (_, start) = q.start()?;
    let board = &q.board().inner;
    let jumps = pegsol::notation::parse_jumps(board, jumps).map_err(py_err)?;
    json(&ReplayAnswer::of(board, start, &jumps).map_err(py_err)?)
}

/// The whole game tree level by level (`solutions=False`, the answer of `pegsol count
/// --json`), or the solutions and winning positions alone by meeting in the middle
/// (`solutions=True`, `pegsol count --solutions --json`); a budget that stops it gives the
/// undecided answer.
#[pyfunction]
fn count(py: Python<'_>, q: Question, solutions: bool) -> PyResult<String> {
    let (problem, limits) = (q.problem()?, q.limits()?);
    let threads = rayon::current_num_threads();
    let began = Instant::now();
    let stopped = |e: CountError, levels: &[pegsol::count::Level]| -> PyResult<String> {
        match e {
            CountError::Memory { .. } | CountError::Timeout => {
                let fix = match e {
                    CountError::Memory { .. } => " (raise max_memory)",
                    CountError::Timeout => " (raise timeout)",
                    _ => "",
                };
                json(&CountUndecided::of(
                    &e,
                    format!("{e}{fix}"),
                    ProblemView::of(&problem),
                    levels,
                    began.elapsed().as_millis() as u64,
                    threads,
                ))
            }
            CountError::Internal(what) => Err(py_err(pegsol::Error::Internal(what))),
            e => Err(PyValueError::new_err(e.to_string())),
        }
    };
    if solutions {
        let result = cancellable(py, &flag(&limits), || {
            pegsol::count::count_solutions(&problem, &limits)
        })?;
        return match result {
            Ok(Some(s)) => json(&SolutionsAnswer::of(&problem, &s, threads)),
            Ok(None) => Err(PyValueError::new_err(
                "solutions=True needs a finish of one position (e.g. finish='d4'); for one peg \
                 anywhere, count with solutions=False",
            )),
            Err(e) => stopped(e, &[]),
        };
    }
    let options = CountOptions {
        max_memory: limits.max_memory,
        timeout: limits.timeout,
        cancel: limits.cancel.clone(),
        ..CountOptions::default()
    };
    let finished = std::sync::Mutex::new(Vec::new());
    let result = cancellable(py, &flag(&limits), || {
        pegsol::count::count_with(&problem, &options, &|l| {
            if let Ok(mut f) = finished.lock() {
                f.push(l.clone());
            }
        })
    })?;
    match result {
        Ok(c) => json(&CountAnswer::of(
            ProblemView::of(&problem),
            &c,
            began.elapsed().as_millis() as u64,
            threads,
            false,
        )),
        Err(e) => stopped(e, &finished.into_inner().unwrap_or_default()),
    }
}

/// The probability that uniformly random legal jumps from the position reach the finish,
/// from the winning set of the game from there; `None` when that set does not fit the
/// budget.
#[pyfunction]
fn random_win(py: Python<'_>, q: Question) -> PyResult<Option<f64>> {
    let (problem, limits) = (q.problem()?, q.limits()?);
    let set = cancellable(py, &flag(&limits), || {
        pegsol::fewest::WinningSet::of(&problem, &limits)
    })?
    .map_err(py_err)?;
    Ok(set.map(|s| s.random_win(problem.start::<[u64; 4]>())))
}

/// What every winning line from the position passes through (the CLI's `hint --forced`), as
/// JSON, from the winning set of the game from there; `None` when the set or the walk over
/// it does not fit the budget (the timeout covers both).
#[pyfunction]
fn forced(py: Python<'_>, q: Question) -> PyResult<Option<String>> {
    let (problem, limits) = (q.problem()?, q.limits()?);
    let began = std::time::Instant::now();
    let found = cancellable(py, &flag(&limits), || -> pegsol::Result<_> {
        let Some(set) = pegsol::fewest::WinningSet::of(&problem, &limits)? else {
            return Ok(None);
        };
        let rest = pegsol::Limits {
            timeout: limits.timeout.map(|t| t.saturating_sub(began.elapsed())),
            ..limits.clone()
        };
        Ok(set.forced(problem.start::<[u64; 4]>(), &rest))
    })?
    .map_err(py_err)?;
    found
        .map(|f| json(&pegsol::answer::ForcedView::of(problem.board(), &f)))
        .transpose()
}

/// The names of the built-in boards and families.
#[pyfunction]
fn builtin_boards() -> Vec<String> {
    pegsol::Board::builtins()
        .iter()
        .map(|b| b.name.to_string())
        .collect()
}

/// The Rust half of the `pegsol` package.
#[pymodule]
fn _pegsol(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(fewest_moves, m)?)?;
    m.add_function(wrap_pyfunction!(shortest, m)?)?;
    m.add_function(wrap_pyfunction!(ends, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_boards, m)?)?;
    m.add_function(wrap_pyfunction!(random_win, m)?)?;
    m.add_function(wrap_pyfunction!(forced, m)?)?;
    m.add_function(wrap_pyfunction!(proofs::check, m)?)?;
    m.add_function(wrap_pyfunction!(proofs::catalog, m)?)?;
    m.add_function(wrap_pyfunction!(proofs::army, m)?)?;
    m.add_function(wrap_pyfunction!(line::one_dimensional, m)?)?;
    Ok(())
}
