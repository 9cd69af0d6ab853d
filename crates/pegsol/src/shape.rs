//! Shapes: a board's holes, lattice and conventional start as read from a picture or a
//! built-in name: what a [`Board`](crate::Board) is built from (any shape of up to
//! [`MAX_BOARD_HOLES`] holes).

use crate::bitset::MAX_BOARD_HOLES;
use crate::error::{Error, Result};
use crate::lattice::Lattice;

/// The largest picture side the parser accepts, so that labels stay short.
pub(crate) const MAX_SIDE: usize = 4096;

/// Whether cells at `(line, column)`, in reading order, look like a picture with a space
/// between cells: all in columns of one parity, and some two in a row two apart.
pub(crate) fn looks_spaced(cells: &[(usize, usize)]) -> bool {
    let parity = cells.first().map_or(0, |c| c.1 % 2);
    cells.iter().all(|c| c.1 % 2 == parity)
        && cells
            .windows(2)
            .any(|w| w[0].0 == w[1].0 && w[1].1 == w[0].1 + 2)
}

/// The holes of a board and its conventional start, checked only for size: at least one hole,
/// at most [`MAX_BOARD_HOLES`], a picture of at most 4096 by 4096. Built by [`Shape::parse`]
/// and [`Shape::builtin`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    name: String,
    lattice: Lattice,
    cells: Vec<(usize, usize)>,
    empty: Option<Vec<(usize, usize)>>,
}

/// The lines of a board picture: a line ends at `\n` or `\r\n`. Any other `\r` is an
/// error: a picture with `\r` alone or `\r\r\n` line ends reads as one board in one
/// program and another board elsewhere (an editor, Python's universal newlines).
/// `docs/certificates.md` states the same rule for checkers in other languages.
fn picture_lines(text: &str) -> impl Iterator<Item = Result<&str>> {
    text.split('\n').enumerate().map(|(l, raw)| {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        match line.chars().position(|c| c == '\r') {
            Some(col) => Err(Error::StrayCarriageReturn {
                line: l + 1,
                column: col + 1,
            }),
            None => Ok(line),
        }
    })
}

/// The blanks that pad a picture's header lines and fill its blank lines: spaces and tabs
/// (inside the picture only a space is "no hole").
fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

impl Shape {
    /// Reads a board picture (see [`Board::parse`](crate::Board::parse)) of up to
    /// [`MAX_BOARD_HOLES`] holes; the hole after that is an error naming its line and column.
    ///
    /// ```
    /// let text = "o".repeat(100) + "\n";
    /// let shape = pegsol::Shape::parse("long", &text.replacen('o', ".", 1)).unwrap();
    /// assert_eq!(shape.hole_count(), 100);
    /// assert_eq!(pegsol::Board::from_shape(&shape).unwrap().hole_count(), 100);
    /// ```
    pub fn parse(name: &str, text: &str) -> Result<Shape> {
        let mut lattice = Lattice::Orthogonal;
        let mut lattice_line: Option<usize> = None;
        // `columns: exact` (one character a column) or `spaced` (cells separated by spaces);
        // without it, the picture's look decides.
        let mut columns: Option<bool> = None;
        let mut columns_line: Option<usize> = None;
        let mut cells: Vec<(usize, usize, bool)> = Vec::new(); // line, char col, peg
        let mut seen_cells = false;
        for (l, line) in picture_lines(text).enumerate() {
            let line = line?;
            let trimmed = line.trim_matches(is_blank);
            if !seen_cells && trimmed.is_empty() {
                continue;
            }
            if !seen_cells && trimmed.contains(':') {
                let (key, value) = trimmed.split_once(':').unwrap_or_default();
                let key = key.trim_matches(is_blank);
                let earlier = match key {
                    "lattice" => lattice_line,
                    "columns" => columns_line,
                    _ => None,
                };
                if let Some(first) = earlier {
                    return Err(Error::RepeatedHeader {
                        line: l + 1,
                        first: first + 1,
                        key: key.to_string(),
                    });
                }
                let value = value.trim_matches(is_blank);
                // The lattice's name in any ASCII case, nothing else around it.
                let named = Lattice::ALL
                    .into_iter()
                    .find(|l| l.name().eq_ignore_ascii_case(value));
                match (key, named, value) {
                    ("lattice", Some(lat), _) => {
                        lattice = lat;
                        lattice_line = Some(l);
                        continue;
                    }
                    ("columns", _, "exact" | "spaced") => {
                        columns = Some(value == "spaced");
                        columns_line = Some(l);
                        continue;
                    }
                    _ => {
                        return Err(Error::BadHeader {
                            line: l + 1,
                            text: trimmed.to_string(),
                        })
                    }
                }
            }
            for (col, ch) in line.chars().enumerate() {
                let peg = match ch {
                    'o' | 'O' => true,
                    '.' => false,
                    ' ' => continue,
                    _ => {
                        return Err(Error::BadCell {
                            line: l + 1,
                            column: col + 1,
                            found: ch,
                        })
                    }
                };
                seen_cells = true;
                if cells.len() == MAX_BOARD_HOLES {
                    return Err(Error::TooManyHoles {
                        line: l + 1,
                        column: col + 1,
                        count: MAX_BOARD_HOLES + 1,
                    });
                }
                cells.push((l, col, peg));
            }
        }
        if cells.is_empty() {
            return Err(Error::EmptyBoard);
        }
        // The seed's picture puts a space between cells: all cells share a column parity and
        // some row has two cells two apart. Then halve the columns, unless a header says.
        let spaced = columns
            .unwrap_or_else(|| looks_spaced(&cells.iter().map(|c| (c.0, c.1)).collect::<Vec<_>>()));
        let mut coords: Vec<(usize, usize)> = Vec::with_capacity(cells.len());
        let mut empty = Vec::new();
        for (k, &(l, col, peg)) in cells.iter().enumerate() {
            let c = if spaced { col / 2 } else { col };
            // Halving merges two cells side by side; both were drawn, so say so.
            if k > 0 && coords[k - 1] == (l, c) {
                return Err(Error::MergedCells {
                    line: l + 1,
                    column: col + 1,
                });
            }
            coords.push((l, c));
            if !peg {
                empty.push((l, c));
            }
        }
        Shape::new(name, lattice, coords, Some(empty))
    }

    /// A built-in board by name (see [`Board::builtin`](crate::Board::builtin)), with
    /// `rect:RxC` up to R*C = 256, `triangle:N` up to N = 22 (253 holes) and `hexagon:N` up
    /// to N = 9 (217 holes).
    ///
    /// ```
    /// let t = pegsol::Shape::builtin("triangle:11").unwrap();
    /// assert_eq!(t.hole_count(), 66);
    /// ```
    pub fn builtin(name: &str) -> Result<Shape> {
        let lower = name.trim().to_ascii_lowercase();
        let (base, lattice) = match lower.strip_suffix("-diagonal") {
            Some(base) => (base, Lattice::Diagonal),
            None => (lower.as_str(), Lattice::Orthogonal),
        };
        let cross = |side: usize, arm: usize| -> Vec<(usize, usize)> {
            let mut v = Vec::new();
            for r in 0..side {
                for c in 0..side {
                    let in_arm = |x: usize| x >= arm && x < side - arm;
                    if in_arm(r) || in_arm(c) {
                        v.push((r, c));
                    }
                }
            }
            v
        };
        let rhombus = |side: usize| -> Vec<(usize, usize)> {
            let m = side / 2;
            (0..side)
                .flat_map(|r| (0..side).map(move |c| (r, c)))
                .filter(|&(r, c)| r.abs_diff(m) + c.abs_diff(m) <= m)
                .collect()
        };
        let at = |r: usize, c: usize| Some(vec![(r, c)]);
        match base {
            "english" => Shape::new(name, lattice, cross(7, 2), at(3, 3)),
            "wiegleb" => Shape::new(name, lattice, cross(9, 3), at(4, 4)),
            "french" => {
                let cells: Vec<_> = (0..7usize)
                    .flat_map(|r| (0..7usize).map(move |c| (r, c)))
                    .filter(|&(r, c)| r.abs_diff(3) + c.abs_diff(3) <= 4)
                    .collect();
                Shape::new(name, lattice, cells, at(3, 3))
            }
            "diamond" => Shape::new(name, lattice, rhombus(9), at(4, 4)),
            _ if base.starts_with("rect:") => {
                let bad = || Error::BadRect(name.to_string());
                let (r, c) = base[5..].split_once('x').ok_or_else(bad)?;
                let r: usize = r.parse().map_err(|_| bad())?;
                let c: usize = c.parse().map_err(|_| bad())?;
                if r == 0 || c == 0 || r.saturating_mul(c) > MAX_BOARD_HOLES {
                    return Err(bad());
                }
                let cells: Vec<_> = (0..r).flat_map(|i| (0..c).map(move |j| (i, j))).collect();
                Shape::new(name, lattice, cells, at(0, 0))
            }
            _ if base.starts_with("triangle") && lattice == Lattice::Orthogonal => {
                let side = base["triangle".len()..].trim_start_matches(':');
                let n: usize = side
                    .parse()
                    .ok()
                    .filter(|n| (1..=22).contains(n))
                    .ok_or_else(|| Error::BadTriangle(name.to_string()))?;
                let cells: Vec<_> = (0..n).flat_map(|r| (0..=r).map(move |c| (r, c))).collect();
                Shape::new(name, Lattice::Triangular, cells, at(0, 0))
            }
            _ if base.starts_with("hexagon") && lattice == Lattice::Orthogonal => {
                let side = base["hexagon".len()..].trim_start_matches(':');
                let n: usize = side
                    .parse()
                    .ok()
                    .filter(|n| (1..=9).contains(n))
                    .ok_or_else(|| Error::BadHexagon(name.to_string()))?;
                // On the triangular lattice drawn as a staircase (steps along rows, columns
                // and the (1, 1) diagonal), the cells within n - 1 steps of the centre.
                let d = n - 1;
                let cells: Vec<_> = (0..2 * n - 1)
                    .flat_map(|r| (0..2 * n - 1).map(move |c| (r, c)))
                    .filter(|&(r, c)| r.abs_diff(c) <= d)
                    .collect();
                Shape::new(name, Lattice::Triangular, cells, at(d, d))
            }
            _ => Err(Error::UnknownBoard(name.to_string())),
        }
    }

    /// Checks the size: duplicates dropped, 1 to [`MAX_BOARD_HOLES`] holes, the picture within
    /// 4096 by 4096.
    fn new(
        name: &str,
        lattice: Lattice,
        mut cells: Vec<(usize, usize)>,
        empty: Option<Vec<(usize, usize)>>,
    ) -> Result<Shape> {
        cells.sort_unstable();
        cells.dedup();
        if cells.is_empty() {
            return Err(Error::EmptyBoard);
        }
        if cells.len() > MAX_BOARD_HOLES {
            let (r, c) = cells[MAX_BOARD_HOLES];
            return Err(Error::TooManyHoles {
                line: r + 1,
                column: c + 1,
                count: MAX_BOARD_HOLES + 1,
            });
        }
        let span = |pick: fn(&(usize, usize)) -> usize| {
            cells.iter().map(pick).max().unwrap_or(0) - cells.iter().map(pick).min().unwrap_or(0)
                + 1
        };
        let (rows, cols) = (span(|c| c.0), span(|c| c.1));
        if rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(Error::BoardTooLarge { rows, cols });
        }
        Ok(Shape {
            name: name.to_string(),
            lattice,
            cells,
            empty,
        })
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

    /// How many holes.
    #[must_use]
    pub fn hole_count(&self) -> usize {
        self.cells.len()
    }

    /// The holes' `(row, column)` in the picture, sorted row-major.
    #[must_use]
    pub fn cells(&self) -> &[(usize, usize)] {
        &self.cells
    }

    /// The holes that start empty, if the shape has a conventional start.
    #[must_use]
    pub fn start_empty(&self) -> Option<&[(usize, usize)]> {
        self.empty.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hole_after_the_last_is_named_by_line_and_column() {
        let text = format!("{}\n{}\n", "o".repeat(200), "o".repeat(60));
        let e = Shape::parse("big", &text).unwrap_err();
        assert_eq!(
            e,
            Error::TooManyHoles {
                line: 2,
                column: 57,
                count: 257
            }
        );
        let fits = format!("{}\n{}\n", "o".repeat(200), "o".repeat(56));
        assert_eq!(Shape::parse("big", &fits).unwrap().hole_count(), 256);
    }

    #[test]
    fn line_ends_are_read_one_way() {
        let english = Shape::builtin("english").unwrap();
        let picture = "  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo\n";
        for end in ["\n", "\r\n"] {
            let text = picture.replace('\n', end);
            let shape = Shape::parse("e", &text).unwrap();
            assert_eq!(shape.cells(), english.cells(), "{end:?}");
            assert_eq!(shape.start_empty(), Some(&[(3, 3)][..]));
        }
        // A `\r` anywhere but before `\n` is an error naming its place.
        for (end, line, column) in [("\r", 1, 6), ("\r\r\n", 1, 6), ("\n\r", 2, 1)] {
            let text = picture.replacen('\n', end, 1);
            assert_eq!(
                Shape::parse("e", &text).unwrap_err(),
                Error::StrayCarriageReturn { line, column },
                "{end:?}"
            );
        }
        // A `\r` at the very end ends the last line: no other reading of it.
        assert_eq!(Shape::parse("e", "ooo\r").unwrap().hole_count(), 3);
        assert!(Shape::parse("e", "lattice: diagonal\r\r\nooo\n").is_err());
        // Blanks around headers are spaces and tabs, nothing else.
        assert!(Shape::parse("t", "\tlattice:\tDiagonal \n o\n").is_ok());
        assert!(Shape::parse("t", "lattice: diagonal\u{a0}\no\n").is_err());
        assert!(Shape::parse("t", "o\u{b}o\n").is_err());
        assert!(Shape::parse("t", "o\u{2028}o\n").is_err());
    }

    #[test]
    fn spaced_cells_that_overlap_are_an_error() {
        assert_eq!(
            Shape::parse("s", "columns: spaced\nooooo\n").unwrap_err(),
            Error::MergedCells { line: 2, column: 2 }
        );
        assert_eq!(
            Shape::parse("s", "columns: spaced\n.o\n").unwrap_err(),
            Error::MergedCells { line: 2, column: 2 }
        );
        let ok = Shape::parse("s", "columns: spaced\no . o\n o o\n").unwrap();
        assert_eq!(ok.cells(), [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1)]);
        assert_eq!(ok.start_empty(), Some(&[(1, 1)][..]));
    }

    #[test]
    fn built_in_sizes() {
        for (name, holes) in [
            ("english", 33),
            ("french", 37),
            ("wiegleb", 45),
            ("diamond", 41),
            ("rect:9x9", 81),
            ("rect:16x16", 256),
            ("triangle:11", 66),
            ("triangle:22", 253),
            ("hexagon:6", 91),
            ("hexagon:9", 217),
        ] {
            assert_eq!(Shape::builtin(name).unwrap().hole_count(), holes, "{name}");
        }
        for bad in ["rect:16x17", "triangle:23", "hexagon:10", "rect:0x3"] {
            assert!(Shape::builtin(bad).is_err(), "{bad}");
        }
    }
}
