//! `pegsol._pegsol`: the Python bindings of the pegsol library, under the pure-Python package
//! `pegsol` (which wraps the answers in typed objects).
//!
//! Every question returns the library's typed answer (`pegsol::answer`) as JSON text, so the
//! Python objects have exactly the CLI's `--json` fields; counts past 2^64 stay exact (the
//! JSON numbers are written in full and Python's `json` reads them as ints). Work runs on a
//! thread of its own without the GIL, while the calling thread wakes every 50 ms to let
//! Python handle signals: Ctrl-C (KeyboardInterrupt) sets the work's cancel flag, waits for
//! the engine to stop, and raises.

mod line;
mod proofs;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pegsol::answer::{
    CountAnswer, CountUndecided, EndsAnswer, FewestAnswer, ProblemView, ReplayAnswer,
    ShortestAnswer, SolutionsAnswer, SolveAnswer,
};
use pegsol::count::{CountError, CountOptions};
use pegsol::{Finish, Limits, Pegs, Problem};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde::Serialize;

/// The default memory budget, in MB: the CLI's.
const DEFAULT_MEMORY_MB: u64 = 4096;

/// A library error as a Python exception: an internal error (a bug) is a `RuntimeError`,
/// everything else bad input, a `ValueError`; the library's message either way.
pub(crate) fn py_err(e: pegsol::Error) -> PyErr {
    match e {
        pegsol::Error::Internal(_) => PyRuntimeError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    }
}

pub(crate) fn json<T: Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// A board: its holes on a lattice, its symmetries and its position classes.
#[pyclass(frozen, module = "pegsol._pegsol")]
pub(crate) struct Board {
    pub(crate) inner: Arc<pegsol::Board>,
}

impl Board {
    /// The holes named by `labels` (a list, or one string separated by commas or spaces).
    fn set(&self, labels: &Labels) -> PyResult<Pegs> {
        self.inner.hole_set(&labels.text()).map_err(py_err)
    }

    /// The default start, or every hole when the board has none.
    fn start_or_full(&self) -> Pegs {
        self.inner.start().unwrap_or_else(|| self.inner.holes())
    }
}

/// Hole labels from Python: a list of strings or one string.
#[derive(FromPyObject)]
pub(crate) enum Labels {
    List(Vec<String>),
    Text(String),
}

impl Labels {
    fn text(&self) -> String {
        match self {
            Labels::List(v) => v.join(","),
            Labels::Text(t) => t.clone(),
        }
    }
}

#[pymethods]
impl Board {
    /// A built-in board by name (`english`, `triangle:7`, `rect:4x5`, ...), or a picture of
    /// one: rows of `o` (peg) and `.` (empty hole), a space for no hole, on the given
    /// lattice (`orthogonal` by default, `diagonal`, `triangular`).
    #[new]
    #[pyo3(signature = (spec, lattice=None, name=None))]
    fn new(spec: &str, lattice: Option<&str>, name: Option<&str>) -> PyResult<Board> {
        let picture = spec.contains('\n') || lattice.is_some();
        let board = if picture {
            let shape = pegsol::Shape::parse(name.unwrap_or("board"), spec).map_err(py_err)?;
            // The lattice given here replaces the picture's own (orthogonal unless its
            // first line says otherwise); the picture's line numbers stay the user's.
            let lattice = match lattice {
                Some(l) => l.parse().map_err(|()| {
                    PyValueError::new_err(format!(
                        "unknown lattice {l:?}; use 'orthogonal', 'diagonal' or 'triangular'"
                    ))
                })?,
                None => shape.lattice(),
            };
            pegsol::Board::new(shape.name(), lattice, shape.cells(), shape.start_empty())
        } else {
            pegsol::Board::builtin(spec.trim())
        };
        Ok(Board {
            inner: Arc::new(board.map_err(py_err)?),
        })
    }

    /// A board read from a picture file (its name is the file's stem).
    #[staticmethod]
    fn from_file(path: PathBuf) -> PyResult<Board> {
        let text = std::fs::read_to_string(&path).map_err(|e| {
            PyValueError::new_err(format!("cannot read board file {}: {e}", path.display()))
        })?;
        let stem = path
            .file_stem()
            .map_or("board".into(), |s| s.to_string_lossy().into_owned());
        Ok(Board {
            inner: Arc::new(pegsol::Board::parse(&stem, &text).map_err(py_err)?),
        })
    }

    /// The board's name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name().to_string()
    }

    /// The holes' labels, in the board's order.
    #[getter]
    fn holes(&self) -> Vec<String> {
        self.inner.labels(self.inner.holes::<[u64; 4]>())
    }

    /// The number of holes.
    #[getter]
    fn hole_count(&self) -> usize {
        self.inner.hole_count()
    }

    /// The lattice's name: `orthogonal`, `diagonal` or `triangular`.
    #[getter]
    fn lattice(&self) -> &'static str {
        self.inner.lattice().name()
    }

    /// The order of the board's symmetry group.
    #[getter]
    fn symmetries(&self) -> usize {
        self.inner.symmetries().len()
    }

    /// The number of position classes (a jump keeps a position's class).
    #[getter]
    fn classes(&self) -> u64 {
        self.inner.classes().count()
    }

    /// The empty holes of the board's own start, or None when it has none.
    #[getter]
    fn empty(&self) -> Option<Vec<String>> {
        let start: Pegs = self.inner.start()?;
        Some(self.inner.labels(self.inner.holes().minus(start)))
    }

    /// The position class of the position whose pegs are `pegs`.
    fn class_of(&self, pegs: Labels) -> PyResult<String> {
        Ok(self.inner.classes().class_text(self.set(&pegs)?))
    }

    /// The board drawn in text, with `pegs` (the board's start by default).
    #[pyo3(signature = (pegs=None))]
    fn draw(&self, pegs: Option<Labels>) -> PyResult<String> {
        let pegs = match pegs {
            Some(p) => self.set(&p)?,
            None => self.start_or_full(),
        };
        Ok(self.inner.draw(pegs))
    }

    /// The board as SVG, with `pegs` (the board's start by default), captioned.
    #[pyo3(signature = (pegs=None, caption=None))]
    fn svg(&self, pegs: Option<Labels>, caption: Option<&str>) -> PyResult<String> {
        let pegs = match pegs {
            Some(p) => self.set(&p)?,
            None => self.start_or_full(),
        };
        let caption = caption.map_or_else(|| self.inner.name().to_string(), str::to_string);
        Ok(pegsol::svg::position(&self.inner, pegs, &caption))
    }

    /// A line of play drawn as a strip of boards, one per move, from the start with `empty`
    /// empty (the board's start by default); the line is replayed first.
    #[pyo3(signature = (jumps, empty=None, per_row=8))]
    fn svg_line(&self, jumps: &str, empty: Option<Labels>, per_row: usize) -> PyResult<String> {
        let start = match empty {
            Some(e) => self.inner.holes().minus(self.set(&e)?),
            None => self.start_or_full(),
        };
        let jumps = pegsol::notation::parse_jumps(&self.inner, jumps).map_err(py_err)?;
        pegsol::replay(&self.inner, start, &jumps).map_err(py_err)?;
        Ok(pegsol::svg::strip(&self.inner, start, &jumps, per_row))
    }

    fn _repr_svg_(&self) -> String {
        pegsol::svg::position(&self.inner, self.start_or_full(), self.inner.name())
    }

    fn __repr__(&self) -> String {
        format!(
            "Board({:?}: {} holes, {} lattice)",
            self.inner.name(),
            self.inner.hole_count(),
            self.inner.lattice().name()
        )
    }

    fn __str__(&self) -> String {
        self.inner.draw(self.start_or_full())
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

/// A finish: hole labels, `"any"` (one peg anywhere) or `"any:N"`; by default the game's.
fn finish_of(board: &Board, game: Pegs, finish: Option<&Labels>) -> PyResult<Finish> {
    let Some(f) = finish else {
        return Ok(Problem::default_finish(&board.inner, game));
    };
    let text = f.text();
    let t = text.trim().to_ascii_lowercase();
    if t == "any" {
        return Ok(Finish::AnyOne);
    }
    if let Some(n) = t.strip_prefix("any:") {
        let n: u32 = n.trim().parse().map_err(|_| {
            PyValueError::new_err(format!(
                "finish 'any:N' needs a number of pegs, e.g. 'any:2'; got {n:?}"
            ))
        })?;
        return Ok(if n == 1 {
            Finish::AnyOne
        } else {
            Finish::Pegs(n)
        });
    }
    Ok(Finish::Holes(board.set(f)?))
}

pub(crate) fn problem_of(
    board: &Board,
    empty: Option<&Labels>,
    finish: Option<&Labels>,
    after: Option<&str>,
) -> PyResult<Problem> {
    let (game, start) = start_of(board, empty, after)?;
    let finish = finish_of(board, game, finish)?;
    Problem::new(Arc::clone(&board.inner), start, finish).map_err(py_err)
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

/// Runs `work` on a thread of its own without the GIL; every 50 ms the calling thread takes
/// the GIL back to let Python run its signal handlers. A KeyboardInterrupt (or any error a
/// handler raises) sets `cancel`, waits for the work to stop (the engines look at the flag
/// within milliseconds) and is raised.
pub(crate) fn cancellable<T: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|s| {
        let handle = s.spawn(work);
        loop {
            let finished = py.detach(|| {
                let until = Instant::now() + Duration::from_millis(50);
                while !handle.is_finished() && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(2));
                }
                handle.is_finished()
            });
            if finished {
                break;
            }
            if let Err(e) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                let _ = py.detach(|| handle.join());
                return Err(e);
            }
        }
        handle
            .join()
            .map_err(|_| PyRuntimeError::new_err("internal error: the work panicked"))
    })
}

pub(crate) fn flag(limits: &Limits) -> Arc<AtomicBool> {
    limits.cancel.clone().unwrap_or_default()
}

/// Solves a problem: the answer of `pegsol solve --json`, as JSON.
#[pyfunction]
#[pyo3(signature = (board, empty=None, finish=None, after=None, timeout=None, max_memory=None))]
fn solve(
    py: Python<'_>,
    board: &Board,
    empty: Option<Labels>,
    finish: Option<Labels>,
    after: Option<&str>,
    timeout: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<String> {
    let problem = problem_of(board, empty.as_ref(), finish.as_ref(), after)?;
    let limits = limits_of(timeout, max_memory)?;
    let report = cancellable(py, &flag(&limits), || pegsol::solve(&problem, &limits))?;
    json(&SolveAnswer::of(&problem, &report.map_err(py_err)?).map_err(py_err)?)
}

/// The fewest moves: the answer of `pegsol solve --fewest-moves --json`, as JSON.
#[pyfunction]
#[pyo3(signature = (board, empty=None, finish=None, after=None, timeout=None, max_memory=None))]
fn fewest_moves(
    py: Python<'_>,
    board: &Board,
    empty: Option<Labels>,
    finish: Option<Labels>,
    after: Option<&str>,
    timeout: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<String> {
    let problem = problem_of(board, empty.as_ref(), finish.as_ref(), after)?;
    let limits = limits_of(timeout, max_memory)?;
    let report = cancellable(py, &flag(&limits), || {
        pegsol::fewest::fewest_moves(&problem, &limits)
    })?;
    json(&FewestAnswer::of(&problem, &report.map_err(py_err)?).map_err(py_err)?)
}

/// The fewest moves from every single vacancy (or from `empty`): the answer of `pegsol
/// shortest --json`, as JSON.
#[pyfunction]
#[pyo3(signature = (board, empty=None, finish=None, timeout=None, max_memory=None))]
fn shortest(
    py: Python<'_>,
    board: &Board,
    empty: Option<Labels>,
    finish: Option<Labels>,
    timeout: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<String> {
    let b = &board.inner;
    let starts: Vec<Pegs> = match &empty {
        Some(e) => vec![b.holes().minus(board.set(e)?)],
        None => pegsol::fewest::single_vacancies(b),
    };
    let finish = match &finish {
        None => Finish::AnyOne,
        Some(_) => finish_of(board, starts[0], finish.as_ref())?,
    };
    let problem = Problem::with_starts(Arc::clone(b), starts, finish).map_err(py_err)?;
    let limits = limits_of(timeout, max_memory)?;
    let report = cancellable(py, &flag(&limits), || {
        pegsol::fewest::shortest(&problem, &limits, &|_| {})
    })?;
    json(&ShortestAnswer::of(&problem, empty.is_none(), &report.map_err(py_err)?).map_err(py_err)?)
}

/// Every hole where one last peg can end: the answer of `pegsol ends --json`, as JSON.
#[pyfunction]
#[pyo3(signature = (board, empty=None, after=None, timeout=None, max_memory=None))]
fn ends(
    py: Python<'_>,
    board: &Board,
    empty: Option<Labels>,
    after: Option<&str>,
    timeout: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<String> {
    let (_, start) = start_of(board, empty.as_ref(), after)?;
    let problem = Problem::new(Arc::clone(&board.inner), start, Finish::AnyOne).map_err(py_err)?;
    let mut limits = limits_of(timeout, max_memory)?;
    // Holes are solved in parallel: they share the memory budget.
    limits.max_memory /= rayon::current_num_threads().max(1);
    let result = cancellable(py, &flag(&limits), || pegsol::ends(&problem, &limits))?;
    json(&EndsAnswer::of(&problem, &result.map_err(py_err)?).map_err(py_err)?)
}

/// A line of play replayed jump by jump: the answer of `pegsol replay --json`, as JSON.
#[pyfunction]
#[pyo3(signature = (board, jumps, empty=None, after=None))]
fn replay(
    board: &Board,
    jumps: &str,
    empty: Option<Labels>,
    after: Option<&str>,
) -> PyResult<String> {
    let (_, start) = start_of(board, empty.as_ref(), after)?;
    let jumps = pegsol::notation::parse_jumps(&board.inner, jumps).map_err(py_err)?;
    json(&ReplayAnswer::of(&board.inner, start, &jumps).map_err(py_err)?)
}

/// The whole game tree level by level (`solutions=False`, the answer of `pegsol count
/// --json`), or the solutions and winning positions alone by meeting in the middle
/// (`solutions=True`, `pegsol count --solutions --json`); a budget that stops it gives the
/// undecided answer.
#[pyfunction]
#[pyo3(signature = (board, empty=None, finish=None, after=None, solutions=false, timeout=None, max_memory=None))]
#[allow(clippy::too_many_arguments)]
fn count(
    py: Python<'_>,
    board: &Board,
    empty: Option<Labels>,
    finish: Option<Labels>,
    after: Option<&str>,
    solutions: bool,
    timeout: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<String> {
    let problem = problem_of(board, empty.as_ref(), finish.as_ref(), after)?;
    let limits = limits_of(timeout, max_memory)?;
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
#[pyo3(signature = (board, empty=None, finish=None, after=None, timeout=None, max_memory=None))]
fn random_win(
    py: Python<'_>,
    board: &Board,
    empty: Option<Labels>,
    finish: Option<Labels>,
    after: Option<&str>,
    timeout: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<Option<f64>> {
    let problem = problem_of(board, empty.as_ref(), finish.as_ref(), after)?;
    let limits = limits_of(timeout, max_memory)?;
    let set = cancellable(py, &flag(&limits), || {
        pegsol::fewest::WinningSet::of(&problem, &limits)
    })?
    .map_err(py_err)?;
    Ok(set.map(|s| s.random_win(problem.start::<[u64; 4]>())))
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
    m.add_function(wrap_pyfunction!(proofs::check, m)?)?;
    m.add_function(wrap_pyfunction!(proofs::catalog, m)?)?;
    m.add_function(wrap_pyfunction!(proofs::army, m)?)?;
    m.add_function(wrap_pyfunction!(line::one_dimensional, m)?)?;
    Ok(())
}
