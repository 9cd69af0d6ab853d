//! Boards: a set of holes on a lattice, with everything derived from the shape once
//! (jumps, symmetry group, position classes), and positions drawn on them.

use std::fmt;

use crate::bitset::{Bits, Hole, Pegs, Word, MAX_BOARD_HOLES};
use crate::classes::Classes;
use crate::error::{Error, Result};
use crate::jumps::Jump;
use crate::labels;
use crate::lattice::Lattice;
use crate::shape::{looks_spaced, Shape, MAX_SIDE};
use crate::symmetry::Symmetries;

/// A peg solitaire board: holes at integer coordinates on a lattice.
///
/// Holes are numbered row-major (top to bottom, left to right), so hole indices, bit order and
/// reading order agree. A board is built only by [`Board::new`], [`Board::parse`] or
/// [`Board::builtin`], which check it; everything else is derived from it and immutable.
///
/// Nothing about a board costs more than its holes and jumps: holes are found by binary search
/// over their sorted coordinates, and whatever works on a grid (pagoda products, drawings)
/// uses the *compact* coordinates, in which every run of empty rows or columns is shrunk to
/// one. No jump crosses an empty row or column, so jumps keep their lines there.
#[derive(Clone)]
pub struct Board {
    name: String,
    lattice: Lattice,
    rows: usize,
    cols: usize,
    /// Sorted row-major, so that hole `i` is `coords[i]` and [`Board::hole_at`] can search.
    coords: Vec<(usize, usize)>,
    compact: Vec<(usize, usize)>,
    compact_rows: Vec<GridLine>,
    compact_cols: Vec<GridLine>,
    holes: Pegs,
    start: Option<Pegs>,
    jumps: Vec<Jump>,
    symmetries: Symmetries,
    classes: Classes,
}

/// One row or column of the compact grid: a line of the bounding box, or a run of at least
/// two empty ones shrunk to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridLine {
    /// This line of the bounding box (0-based).
    At(usize),
    /// The empty lines `first..=last` (at least two), shown as one.
    Gap {
        /// The first line of the run.
        first: usize,
        /// The last line of the run.
        last: usize,
    },
}

/// The compact lines over the lines in `used` (sorted, distinct), and where each used line
/// went: a gap of one empty line stays as it is, a longer one becomes one [`GridLine::Gap`].
fn compact_axis(used: &[usize]) -> (Vec<GridLine>, Vec<usize>) {
    let mut lines = Vec::with_capacity(2 * used.len());
    let mut place = Vec::with_capacity(used.len());
    for (i, &u) in used.iter().enumerate() {
        if i > 0 {
            let prev = used[i - 1];
            match u - prev {
                1 => {}
                2 => lines.push(GridLine::At(prev + 1)),
                _ => lines.push(GridLine::Gap {
                    first: prev + 1,
                    last: u - 1,
                }),
            }
        }
        place.push(lines.len());
        lines.push(GridLine::At(u));
    }
    (lines, place)
}

/// The compact grid of sorted, distinct cells: each cell's compact `(row, col)`, and the
/// compact rows and columns (see [`Board`]).
pub(crate) fn compact_grid(
    coords: &[(usize, usize)],
) -> (Vec<(usize, usize)>, Vec<GridLine>, Vec<GridLine>) {
    let axis = |pick: fn(&(usize, usize)) -> usize| {
        let mut used: Vec<usize> = coords.iter().map(pick).collect();
        used.sort_unstable();
        used.dedup();
        let (lines, place) = compact_axis(&used);
        (used, lines, place)
    };
    let (used_rows, compact_rows, row_place) = axis(|c| c.0);
    let (used_cols, compact_cols, col_place) = axis(|c| c.1);
    let at = |used: &[usize], place: &[usize], x: usize| {
        place[used.binary_search(&x).unwrap_or_default()]
    };
    let compact = coords
        .iter()
        .map(|&(r, c)| (at(&used_rows, &row_place, r), at(&used_cols, &col_place, c)))
        .collect();
    (compact, compact_rows, compact_cols)
}

/// Draws text cells on a compact grid: a header of column names, then one numbered line per
/// compact row (a run of empty lines shows as `:`). `rows` is the bounding box's height.
pub(crate) fn draw_compact(
    rows: usize,
    compact_rows: &[GridLine],
    compact_cols: &[GridLine],
    cells: impl Iterator<Item = ((usize, usize), String)>,
) -> String {
    let cols = compact_cols.len();
    let mut texts: Vec<Option<String>> = vec![None; compact_rows.len() * cols];
    for ((r, c), text) in cells {
        texts[r * cols + c] = Some(text);
    }
    let name = |line: &GridLine| match *line {
        GridLine::At(c) => labels::column_name(c),
        GridLine::Gap { .. } => ":".to_string(),
    };
    let number = |line: &GridLine| match *line {
        GridLine::At(r) => (r + 1).to_string(),
        GridLine::Gap { .. } => ":".to_string(),
    };
    let width = texts
        .iter()
        .flatten()
        .map(String::len)
        .chain(compact_cols.iter().map(|c| name(c).len()))
        .max()
        .unwrap_or(1);
    let label = rows.to_string().len();
    let mut out = " ".repeat(label + 1);
    for c in compact_cols {
        out.push_str(&format!("{:>width$} ", name(c)));
    }
    out = out.trim_end().to_string();
    out.push('\n');
    for (r, line) in compact_rows.iter().enumerate() {
        let mut text = format!("{:>label$} ", number(line));
        for t in &texts[r * cols..(r + 1) * cols] {
            text.push_str(&format!("{:>width$} ", t.as_deref().unwrap_or("")));
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

impl Board {
    /// Builds a board from hole coordinates `(row, col)` on `lattice`, with an optional
    /// conventional start given as the holes that start empty.
    ///
    /// Coordinates are shifted so the bounding box starts at `(0, 0)`; duplicates are ignored.
    pub fn new(
        name: &str,
        lattice: Lattice,
        cells: &[(usize, usize)],
        start_empty: Option<&[(usize, usize)]>,
    ) -> Result<Board> {
        let mut coords: Vec<(usize, usize)> = cells.to_vec();
        coords.sort_unstable();
        coords.dedup();
        if coords.is_empty() {
            return Err(Error::EmptyBoard);
        }
        if coords.len() > MAX_BOARD_HOLES {
            let (r, c) = coords[MAX_BOARD_HOLES];
            return Err(Error::TooManyHoles {
                line: r + 1,
                column: c + 1,
                count: MAX_BOARD_HOLES + 1,
            });
        }
        let r0 = coords.iter().map(|c| c.0).min().unwrap_or(0);
        let c0 = coords.iter().map(|c| c.1).min().unwrap_or(0);
        let rows = coords.iter().map(|c| c.0).max().unwrap_or(0) - r0 + 1;
        let cols = coords.iter().map(|c| c.1).max().unwrap_or(0) - c0 + 1;
        if rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(Error::BoardTooLarge { rows, cols });
        }
        for c in &mut coords {
            *c = (c.0 - r0, c.1 - c0);
        }
        let (compact, compact_rows, compact_cols) = compact_grid(&coords);
        let n = coords.len();
        let mut board = Board {
            name: name.to_string(),
            lattice,
            rows,
            cols,
            coords,
            compact,
            compact_rows,
            compact_cols,
            holes: Pegs::first(n),
            start: None,
            jumps: Vec::new(),
            symmetries: Symmetries::default(),
            classes: Classes::default(),
        };
        if let Some(empty) = start_empty {
            let mut start = board.holes;
            for &(r, c) in empty {
                let h = board
                    .hole_at((r as i64) - r0 as i64, (c as i64) - c0 as i64)
                    .ok_or_else(|| Error::NoSuchHole {
                        label: format!("({r}, {c})"),
                        board: name.to_string(),
                    })?;
                start = start.without(h);
            }
            board.start = Some(start);
        }
        board.jumps = board.compute_jumps();
        board.symmetries = Symmetries::of(board.lattice, &board.coords);
        board.classes = Classes::of(board.coords.len(), &board.jumps);
        Ok(board)
    }

    fn compute_jumps(&self) -> Vec<Jump> {
        let mut jumps = Vec::new();
        for (i, &(r, c)) in self.coords.iter().enumerate() {
            for &(dr, dc) in self.lattice.directions() {
                let (r, c) = (r as i64, c as i64);
                let over = self.hole_at(r + dr as i64, c + dc as i64);
                let to = self.hole_at(r + 2 * dr as i64, c + 2 * dc as i64);
                if let (Some(from), Some(over), Some(to)) = (Hole::new(i), over, to) {
                    jumps.push(Jump::new(from, over, to));
                }
            }
        }
        jumps
    }

    /// Parses a board picture: one row per line, `o` a peg, `.` an empty hole, a space for no
    /// hole. Cells may also be separated by single spaces, as in `o o o . o o o`. An optional
    /// first line `lattice: orthogonal|diagonal|triangular` picks the lattice. The picture
    /// gives the shape and the board's starting position. Lines end with `\n` or `\r\n`;
    /// any other `\r` is an error (the exact rules, which certificate checkers follow too,
    /// are in `docs/certificates.md`). A picture may have up to 256 holes.
    ///
    /// ```
    /// let b = pegsol::Board::parse("tiny", "ooo.\n").unwrap();
    /// assert_eq!(b.hole_count(), 4);
    /// let start: pegsol::Pegs = b.start().unwrap();
    /// assert_eq!(b.label(start.lowest().unwrap()), "a1");
    /// ```
    pub fn parse(name: &str, text: &str) -> Result<Board> {
        Board::from_shape(&Shape::parse(name, text)?)
    }

    /// A built-in board by name: `english`, `french`, `wiegleb`, `diamond`, `rect:RxC`,
    /// `triangle:N` (or `triangleN`), `hexagon:N` (or `hexagonN`: the hexagon of side N on
    /// the triangular lattice, 1, 7, 19, 37 or 61 holes, the centre empty), and
    /// `english-diagonal` / `french-diagonal` (same shapes, eight directions), each of up to
    /// 256 holes (see [`Shape::builtin`]).
    ///
    /// ```
    /// let english = pegsol::Board::builtin("english").unwrap();
    /// assert_eq!(english.hole_count(), 33);
    /// assert_eq!(english.label(english.hole("d4").unwrap()), "d4");
    /// ```
    pub fn builtin(name: &str) -> Result<Board> {
        Board::from_shape(&Shape::builtin(name)?)
    }

    /// The board of a shape (of up to 256 holes, as every shape is).
    pub fn from_shape(shape: &Shape) -> Result<Board> {
        Board::new(
            shape.name(),
            shape.lattice(),
            shape.cells(),
            shape.start_empty(),
        )
    }

    /// The board's name as given.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The lattice the holes lie on.
    #[must_use]
    pub const fn lattice(&self) -> Lattice {
        self.lattice
    }

    /// Number of holes.
    #[must_use]
    pub fn hole_count(&self) -> usize {
        self.coords.len()
    }

    /// All holes as a set of any width that holds them (the width is most often inferred).
    ///
    /// # Panics
    /// When the width is too narrow for the board: an engine of positions of `W` words runs
    /// only on boards of at most `64 W` holes ([`Board::fits`]).
    #[must_use]
    #[track_caller]
    pub fn holes<W: Word>(&self) -> Bits<W> {
        self.narrow(self.holes)
    }

    /// How many 64-bit words a position of this board takes in the engines: 1, 2 or 4 (the
    /// width the library's dispatcher picks).
    #[must_use]
    pub fn words(&self) -> usize {
        match self.hole_count() {
            0..=64 => 1,
            65..=128 => 2,
            _ => 4,
        }
    }

    /// Every hole, in order (the holes of [`Board::holes`], whatever the width).
    pub fn each_hole(&self) -> impl Iterator<Item = Hole> + Clone + use<'_> {
        (0..self.hole_count()).map(Hole::at)
    }

    /// Whether positions of `W` words hold this board's holes.
    #[must_use]
    pub fn fits<W: Word>(&self) -> bool {
        self.hole_count() <= Bits::<W>::CAPACITY
    }

    /// A set of this board's holes in a width that holds them all.
    #[track_caller]
    pub(crate) fn narrow<W: Word>(&self, set: Pegs) -> Bits<W> {
        assert!(
            self.fits::<W>(),
            "board {} has {} holes, past positions of {} bits",
            self.name,
            self.hole_count(),
            Bits::<W>::CAPACITY
        );
        set.resize()
    }

    /// Rows and columns of the bounding box.
    #[must_use]
    pub const fn dimensions(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// `(row, col)` of a hole, from `(0, 0)` at the top left of the bounding box.
    #[must_use]
    pub fn coords(&self, hole: Hole) -> (usize, usize) {
        self.coords[hole.index()]
    }

    /// The hole at `(row, col)`, if there is one.
    #[must_use]
    pub fn hole_at(&self, row: i64, col: i64) -> Option<Hole> {
        if row < 0 || col < 0 {
            return None;
        }
        let at = (row as usize, col as usize);
        self.coords.binary_search(&at).ok().and_then(Hole::new)
    }

    /// `(row, col)` of a hole on the compact grid (see [`Board`]): the bounding box with every
    /// run of empty rows or columns shrunk to one. The three holes of a jump lie on one lattice
    /// line there too.
    #[must_use]
    pub fn compact_coords(&self, hole: Hole) -> (usize, usize) {
        self.compact[hole.index()]
    }

    /// The rows and the columns of the compact grid, top to bottom and left to right.
    #[must_use]
    pub fn compact_lines(&self) -> (&[GridLine], &[GridLine]) {
        (&self.compact_rows, &self.compact_cols)
    }

    /// The conventional starting position (pegs), if the board has one, in a width that holds
    /// the board (see [`Board::holes`]).
    #[must_use]
    #[track_caller]
    pub fn start<W: Word>(&self) -> Option<Bits<W>> {
        self.start.map(|s| self.narrow(s))
    }

    /// Every jump on the board, in a fixed order.
    #[must_use]
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// The board's jump from `from` to `to`, if it has one (two steps apart on a line, with a
    /// hole between).
    #[must_use]
    pub fn jump_between(&self, from: Hole, to: Hole) -> Option<Jump> {
        self.jumps
            .iter()
            .copied()
            .find(|j| j.from() == from && j.to() == to)
    }

    /// The board's symmetry group.
    #[must_use]
    pub fn symmetries(&self) -> &Symmetries {
        &self.symmetries
    }

    /// The position classes of the board.
    #[must_use]
    pub fn classes(&self) -> &Classes {
        &self.classes
    }

    /// The label of a hole, e.g. `d4`.
    #[must_use]
    pub fn label(&self, hole: Hole) -> String {
        let (r, c) = self.coords(hole);
        labels::label(r, c)
    }

    /// The hole with this label.
    pub fn hole(&self, label: &str) -> Result<Hole> {
        let (r, c) = labels::parse_label(label)?;
        self.hole_at(r as i64, c as i64)
            .ok_or_else(|| Error::NoSuchHole {
                label: label.trim().to_string(),
                board: self.name.clone(),
            })
    }

    /// A set of holes from labels separated by commas or spaces, e.g. `"d4, c4"`. A hole
    /// named twice is an error (it is most likely a typo for another hole).
    ///
    /// # Panics
    /// As [`Board::holes`], when the width is too narrow for the board.
    #[track_caller]
    pub fn hole_set<W: Word>(&self, labels: &str) -> Result<Bits<W>> {
        let mut set = Pegs::EMPTY;
        for text in labels.split([',', ' ']).filter(|s| !s.is_empty()) {
            let h = self.hole(text)?;
            if set.contains(h) {
                return Err(Error::RepeatedHole(self.label(h)));
            }
            set = set.with(h);
        }
        Ok(self.narrow(set))
    }

    /// Labels of a set of holes, in hole order.
    #[must_use]
    pub fn labels<W: Word>(&self, set: Bits<W>) -> Vec<String> {
        set.iter().map(|h| self.label(h)).collect()
    }

    /// A position on this board: checked to use only the board's holes.
    pub fn position<W: Word>(&self, pegs: Bits<W>) -> Result<Position<'_>> {
        let pegs: Pegs = pegs.resize();
        match pegs.minus(self.holes).lowest() {
            None => Ok(Position { board: self, pegs }),
            Some(h) => Err(Error::NoSuchHole {
                label: format!("#{}", h.index()),
                board: self.name.clone(),
            }),
        }
    }

    /// Draws a set of holes: `o` for holes in `pegs`, `.` for the others, rows labelled.
    #[must_use]
    pub fn draw<W: Word>(&self, pegs: Bits<W>) -> String {
        self.draw_with(|h| if pegs.contains(h) { 'o' } else { '.' })
    }

    /// Draws the board with one character per hole chosen by `cell`.
    pub fn draw_with(&self, mut cell: impl FnMut(Hole) -> char) -> String {
        self.draw_cells(|h| cell(h).to_string())
    }

    /// Draws the board with a text per hole (weights, say), right-aligned in columns as wide
    /// as the widest text or column name, rows and columns labelled. The drawing is of the
    /// compact grid: a run of two or more empty rows is one row labelled `:`, and a run of
    /// empty columns one column headed `:`, so it costs the holes, not the bounding box.
    pub fn draw_cells(&self, mut cell: impl FnMut(Hole) -> String) -> String {
        draw_compact(
            self.rows,
            &self.compact_rows,
            &self.compact_cols,
            self.holes.iter().map(|h| (self.compact_coords(h), cell(h))),
        )
    }

    /// The board as a picture in its own file format (`o` pegs, `.` holes), with `pegs`.
    /// Exact, so it costs the rows of the bounding box and its filled columns. It reads back
    /// as the same board: when its look would make it read as spaced cells, it says
    /// `columns: exact`.
    #[must_use]
    pub fn to_picture<W: Word>(&self, pegs: Bits<W>) -> String {
        let mut out = String::new();
        if self.lattice != Lattice::Orthogonal {
            out.push_str(&format!("lattice: {}\n", self.lattice));
        }
        if looks_spaced(&self.coords) {
            out.push_str("columns: exact\n");
        }
        let mut holes = self.holes.iter().peekable();
        for r in 0..self.rows {
            let mut col = 0;
            while let Some(&h) = holes.peek() {
                let (hr, hc) = self.coords(h);
                if hr != r {
                    break;
                }
                out.extend(std::iter::repeat_n(' ', hc - col));
                out.push(if pegs.contains(h) { 'o' } else { '.' });
                col = hc + 1;
                holes.next();
            }
            out.push('\n');
        }
        out
    }
}

/// A problem shares its board; one made from a borrowed board gets a copy of its own.
impl From<&Board> for std::sync::Arc<Board> {
    fn from(board: &Board) -> std::sync::Arc<Board> {
        std::sync::Arc::new(board.clone())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Board {:?} ({} holes, {} lattice)",
            self.name,
            self.hole_count(),
            self.lattice
        )?;
        f.write_str(&self.draw(self.start.unwrap_or(self.holes)))
    }
}

/// A position (the set of holes holding pegs) together with its board, for display.
#[derive(Clone, Copy)]
pub struct Position<'b> {
    board: &'b Board,
    pegs: Pegs,
}

impl Position<'_> {
    /// The pegs.
    #[must_use]
    pub const fn pegs(&self) -> Pegs {
        self.pegs
    }
}

impl fmt::Display for Position<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.board.draw(self.pegs))
    }
}

impl fmt::Debug for Position<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Position on {} ({} pegs)",
            self.board.name,
            self.pegs.count()
        )?;
        f.write_str(&self.board.draw(self.pegs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_sizes() {
        for (name, n, start) in [
            ("english", 33, "d4"),
            ("french", 37, "d4"),
            ("wiegleb", 45, "e5"),
            ("diamond", 41, "e5"),
            ("rect:3x4", 12, "a1"),
            ("triangle:5", 15, "a1"),
            ("triangle5", 15, "a1"),
            ("english-diagonal", 33, "d4"),
        ] {
            let b = Board::builtin(name).unwrap();
            assert_eq!(b.hole_count(), n, "{name}");
            let vacant: Bits = b.holes().minus(b.start().unwrap());
            assert_eq!(b.labels(vacant), vec![start.to_string()], "{name}");
        }
    }

    #[test]
    fn english_labels_and_jumps() {
        let b = Board::builtin("english").unwrap();
        for l in ["d4", "d1", "a4", "g4", "d7", "c1", "e7"] {
            assert_eq!(b.label(b.hole(l).unwrap()), l);
        }
        assert!(b.hole("a1").is_err());
        assert_eq!(b.jumps().len(), 76);
    }

    #[test]
    fn seed_picture_parses_like_the_builtin() {
        let seed = "    o o o\n    o o o\no o o o o o o\no o o . o o o\no o o o o o o\n    o o o\n    o o o\n";
        let compact = "  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo\n";
        let english = Board::builtin("english").unwrap();
        for text in [seed, compact] {
            let b = Board::parse("file", text).unwrap();
            assert_eq!(b.hole_count(), 33);
            assert_eq!(b.start::<u64>(), english.start());
            assert_eq!(b.jumps(), english.jumps());
            assert_eq!(b.to_picture(b.start::<u64>().unwrap()), compact);
        }
    }

    #[test]
    fn parse_errors_name_the_place() {
        let e = Board::parse("f", "ooo\no#o\n").unwrap_err();
        assert_eq!(
            e,
            Error::BadCell {
                line: 2,
                column: 2,
                found: '#'
            }
        );
        assert_eq!(Board::parse("f", "  \n\n").unwrap_err(), Error::EmptyBoard);
        // A 65th hole is a board like any other; only a one-word engine refuses it.
        let big = "oooooooo\n".repeat(8) + "o\n";
        let big = Board::parse("f", &big).unwrap();
        assert_eq!(big.hole_count(), 65);
        assert!(!big.fits::<u64>() && big.fits::<[u64; 2]>());
        // Two pegs side by side on the first row, past one word: one jump, one move, by the
        // winning set too.
        let pair: crate::Pegs = Bits::EMPTY.with(Hole::at(0)).with(Hole::at(1));
        let problem = crate::Problem::new(&big, pair, crate::Finish::AnyOne).unwrap();
        let report =
            crate::fewest::fewest_moves_by_winning_set(&problem, &crate::Limits::default())
                .unwrap();
        assert_eq!(report.lower_bound, 1);
        let set = crate::fewest::WinningSet::of(&problem, &crate::Limits::default())
            .unwrap()
            .unwrap();
        assert!(set.wins(pair) && set.classes() == 2);
        let huge = "oooooooooooooooo\n".repeat(16) + "o\n";
        assert!(matches!(
            Board::parse("f", &huge).unwrap_err(),
            Error::TooManyHoles {
                line: 17,
                column: 1,
                count: 257
            }
        ));
        assert!(matches!(
            Board::parse("f", "shape: x\nooo").unwrap_err(),
            Error::BadHeader { line: 1, .. }
        ));
        let tri = Board::parse("t", "lattice: triangular\no\noo\n.oo\n").unwrap();
        assert_eq!(tri.lattice(), Lattice::Triangular);
    }

    #[test]
    fn pictures_that_look_spaced_read_back_as_drawn() {
        // Holes in even columns only, two apart in a row: without the header they would read
        // as the seed's spaced style, a different board.
        let b = Board::new(
            "even",
            Lattice::Orthogonal,
            &[(0, 0), (0, 2), (0, 4), (1, 2)],
            Some(&[]),
        )
        .unwrap();
        let picture = b.to_picture(b.holes::<u64>());
        assert!(picture.starts_with("columns: exact\n"), "{picture}");
        let again = Board::parse("again", &picture).unwrap();
        assert_eq!(again.jumps(), b.jumps());
        assert!(again.jumps().is_empty());
        let spaced = Board::parse("s", "columns: spaced\no o o\n").unwrap();
        assert_eq!(spaced.jumps().len(), 2);
        assert!(matches!(
            Board::parse("r", "columns: exact\ncolumns: exact\no\n").unwrap_err(),
            Error::RepeatedHeader { line: 2, .. }
        ));
    }

    #[test]
    fn wide_cells_stay_aligned() {
        let b = Board::builtin("rect:2x2").unwrap();
        let drawn = b.draw_cells(|h| (h.index() * 5).to_string());
        assert_eq!(drawn, "   a  b\n1  0  5\n2 10 15\n");
        assert_eq!(b.draw(b.holes::<u64>()), "  a b\n1 o o\n2 o o\n");
    }

    #[test]
    fn any_64_hole_shape_fits() {
        // A 64-hole line is 1x64: far past the seed's R*C <= 64 for a non-rectangular shape too.
        let line = "o".repeat(63) + ".";
        let b = Board::parse("line", &line).unwrap();
        assert_eq!(b.hole_count(), 64);
        assert_eq!(b.label(Hole::new(63).unwrap()), "bl1");
        let sparse = "o      o\n\n\n\n\n\n\n\n\n\n.      o\n";
        assert_eq!(Board::parse("s", sparse).unwrap().dimensions(), (11, 8));
    }

    /// Boards past one word draw and read back like the others: the picture of a position
    /// is the same board with that start.
    #[test]
    fn pictures_past_one_word_read_back_as_the_same_board() {
        for name in [
            "triangle:11",
            "hexagon:6",
            "rect:9x9",
            "rect:1x70",
            "rect:16x16",
        ] {
            let board = Board::builtin(name).unwrap();
            let last = Hole::at(board.hole_count() - 1);
            let pegs: Pegs = board.holes().without(Hole::at(3)).without(last);
            let back = Board::parse(name, &board.to_picture(pegs)).unwrap();
            assert_eq!(back.hole_count(), board.hole_count(), "{name}");
            assert_eq!(back.start(), Some(pegs), "{name}");
            assert_eq!(back.lattice(), board.lattice(), "{name}");
            assert_eq!(back.jumps(), board.jumps(), "{name}");
            assert!(board.each_hole().all(|h| back.coords(h) == board.coords(h)));
            assert_eq!(
                board.words(),
                board.hole_count().div_ceil(64).next_power_of_two()
            );
        }
    }
}
