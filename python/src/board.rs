//! `Board`: a board from the library, as Python sees it, and hole labels from Python.

use std::path::PathBuf;
use std::sync::Arc;

use pegsol::Pegs;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::bridge::py_err;

/// A board: its holes on a lattice, its symmetries and its position classes.
#[pyclass(frozen, module = "pegsol._pegsol")]
pub(crate) struct Board {
    pub(crate) inner: Arc<pegsol::Board>,
}

impl Board {
    /// The holes named by `labels` (a list, or one string separated by commas or spaces).
    pub(crate) fn set(&self, labels: &Labels) -> PyResult<Pegs> {
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
    pub(crate) fn text(&self) -> String {
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
