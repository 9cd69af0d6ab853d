//! Boards of up to 256 holes: the wide board, its positions in one, two or four words, and a
//! solver for them.
//!
//! The exact engines of this crate keep a position in one `u64` and so take boards of up to
//! 64 holes. A [`WideBoard`] takes any [`Shape`] of up to [`MAX_WIDE_HOLES`] holes and
//! [`solve_wide`] decides problems on it: it picks the width of its positions once per
//! board (1, 2 or 4 words, one monomorphised copy of the search for each), so a board runs
//! on the fewest words it needs, and the 64-hole engines are untouched by it.
//!
//! ```
//! use pegsol::{solve_wide, Hole, Shape, WideBoard, WideFinish, WideLimits, WideOutcome};
//!
//! // The triangle of side 11: 66 holes, too many for one word.
//! let board = WideBoard::from_shape(&Shape::builtin("triangle:11")?)?;
//! let start = board.holes().without(Hole::at(board.hole("a1")?));
//! let report = solve_wide(&board, start, &WideFinish::Pegs(1), &WideLimits::default())?;
//! let WideOutcome::Solved { jumps, .. } = &report.outcome else { panic!("solvable") };
//! assert_eq!(jumps.len(), 64);
//! // Every solution replays by coordinates, independently of the solver's tables.
//! assert_eq!(pegsol::replay_wide(&board, start, jumps)?.count(), 1);
//! # Ok::<(), pegsol::Error>(())
//! ```

mod catalog;
mod count;
mod fewest;
mod proof;
mod solve;
mod spill;
mod tables;

use crate::bitset::{Bits, Hole};
use crate::board::{compact_grid, draw_compact, GridLine};
use crate::error::{Error, Result};
use crate::labels;
use crate::lattice::Lattice;
use crate::shape::looks_spaced;
use crate::shape::{Shape, MAX_WIDE_HOLES};

pub use catalog::{catalog_wide, ends_wide, WideCatalog, WideEntry, WideVacancy};
pub use count::{count_wide, WideCount};
pub use fewest::{
    few_moves_wide, fewest_moves_wide, wide_move_count, WideMoves, WideMovesOutcome,
    WideMovesProgress, WideMovesReport,
};
pub use proof::{refute_wide, WideCertificate};
pub use solve::{solve_wide, solve_wide_with, WideFinish, WideLimits, WideOutcome, WideReport};

/// A position of `W` words, in the wide engines' generic code.
pub(crate) type Set<const W: usize> = crate::bitset::Bits<[u64; W]>;

/// A set of holes on a wide board: up to 256.
pub type WidePegs = Bits<[u64; 4]>;

/// A jump on a wide board: the peg on `from` jumps over `over` into the empty `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WideJump {
    from: u16,
    over: u16,
    to: u16,
}

impl WideJump {
    /// The hole the jumping peg leaves.
    #[must_use]
    pub const fn from(self) -> usize {
        self.from as usize
    }

    /// The hole of the peg jumped over (removed).
    #[must_use]
    pub const fn over(self) -> usize {
        self.over as usize
    }

    /// The hole the peg lands in.
    #[must_use]
    pub const fn to(self) -> usize {
        self.to as usize
    }
}

/// A board of 1 to 256 holes on a lattice: its holes numbered row-major, its jumps, its
/// symmetries and its position classes, all derived once from the [`Shape`].
#[derive(Clone, Debug)]
pub struct WideBoard {
    name: String,
    lattice: Lattice,
    rows: usize,
    /// Sorted row-major: hole `i` is `coords[i]`.
    coords: Vec<(usize, usize)>,
    compact: Vec<(usize, usize)>,
    compact_rows: Vec<GridLine>,
    compact_cols: Vec<GridLine>,
    start: Option<WidePegs>,
    jumps: Vec<WideJump>,
    /// Each symmetry as the image of every hole; the identity first.
    symmetries: Vec<Vec<u16>>,
    /// A basis of the sets whose parity every jump keeps (the position class's coordinates).
    functionals: Vec<WidePegs>,
}

impl WideBoard {
    /// The board of a shape of up to 256 holes.
    pub fn from_shape(shape: &Shape) -> Result<WideBoard> {
        let cells = shape.cells();
        let r0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let c0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let coords: Vec<(usize, usize)> = cells.iter().map(|&(r, c)| (r - r0, c - c0)).collect();
        if coords.is_empty() {
            return Err(Error::EmptyBoard);
        }
        debug_assert!(coords.len() <= MAX_WIDE_HOLES);
        let rows = coords.iter().map(|c| c.0).max().unwrap_or(0) + 1;
        let (compact, compact_rows, compact_cols) = compact_grid(&coords);
        let mut board = WideBoard {
            name: shape.name().to_string(),
            lattice: shape.lattice(),
            rows,
            coords,
            compact,
            compact_rows,
            compact_cols,
            start: None,
            jumps: Vec::new(),
            symmetries: Vec::new(),
            functionals: Vec::new(),
        };
        if let Some(empty) = shape.start_empty() {
            let mut start = board.holes();
            for &(r, c) in empty {
                let h = board
                    .hole_at(r as i64 - r0 as i64, c as i64 - c0 as i64)
                    .ok_or_else(|| Error::NoSuchHole {
                        label: labels::label(r, c),
                        board: board.name.clone(),
                    })?;
                start = start.without(Hole::at(h));
            }
            board.start = Some(start);
        }
        board.jumps = board.compute_jumps();
        board.symmetries = board.compute_symmetries();
        board.functionals = board.compute_functionals();
        Ok(board)
    }

    /// Reads a board picture of up to 256 holes (see [`Shape::parse`]).
    pub fn parse(name: &str, text: &str) -> Result<WideBoard> {
        WideBoard::from_shape(&Shape::parse(name, text)?)
    }

    /// A built-in board of up to 256 holes (see [`Shape::builtin`]).
    pub fn builtin(name: &str) -> Result<WideBoard> {
        WideBoard::from_shape(&Shape::builtin(name)?)
    }

    fn compute_jumps(&self) -> Vec<WideJump> {
        let mut jumps = Vec::new();
        for (i, &(r, c)) in self.coords.iter().enumerate() {
            for &(dr, dc) in self.lattice.directions() {
                let (r, c, dr, dc) = (r as i64, c as i64, i64::from(dr), i64::from(dc));
                if let (Some(over), Some(to)) = (
                    self.hole_at(r + dr, c + dc),
                    self.hole_at(r + 2 * dr, c + 2 * dc),
                ) {
                    jumps.push(WideJump {
                        from: i as u16,
                        over: over as u16,
                        to: to as u16,
                    });
                }
            }
        }
        jumps
    }

    fn compute_symmetries(&self) -> Vec<Vec<u16>> {
        let mut group = self.lattice.point_group();
        group.sort_by_key(|m| *m != [1, 0, 0, 1]);
        let mut out = Vec::new();
        for m in group {
            let image: Vec<(i64, i64)> = self
                .coords
                .iter()
                .map(|&(r, c)| {
                    let (r, c) = (r as i64, c as i64);
                    (
                        i64::from(m[0]) * r + i64::from(m[1]) * c,
                        i64::from(m[2]) * r + i64::from(m[3]) * c,
                    )
                })
                .collect();
            let r0 = image.iter().map(|p| p.0).min().unwrap_or(0);
            let c0 = image.iter().map(|p| p.1).min().unwrap_or(0);
            let perm: Option<Vec<u16>> = image
                .iter()
                .map(|&(r, c)| self.hole_at(r - r0, c - c0).map(|h| h as u16))
                .collect();
            out.extend(perm);
        }
        out
    }

    /// The null space over GF(2) of the jump vectors: sets whose parity of pegs no jump
    /// changes (a jump flips three holes; each functional meets an even number of them).
    fn compute_functionals(&self) -> Vec<WidePegs> {
        let n = self.hole_count();
        let mut rows: Vec<WidePegs> = Vec::new();
        let mut pivots: Vec<usize> = Vec::new();
        for j in &self.jumps {
            let mut v = WidePegs::EMPTY
                .with(Hole::at(j.from()))
                .with(Hole::at(j.over()))
                .with(Hole::at(j.to()));
            for (r, &p) in rows.iter().zip(&pivots) {
                if v.contains(Hole::at(p)) {
                    v = v.xor(*r);
                }
            }
            let Some(p) = v.iter().next() else { continue };
            for r in rows.iter_mut() {
                if r.contains(p) {
                    *r = r.xor(v);
                }
            }
            rows.push(v);
            pivots.push(p.index());
        }
        (0..n)
            .filter(|f| !pivots.contains(f))
            .map(|f| {
                rows.iter()
                    .zip(&pivots)
                    .filter(|(r, _)| r.contains(Hole::at(f)))
                    .fold(WidePegs::single(Hole::at(f)), |x, (_, &p)| {
                        x.with(Hole::at(p))
                    })
            })
            .collect()
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
        self.coords.len()
    }

    /// How many 64-bit words a position of this board takes in the solver: 1, 2 or 4.
    #[must_use]
    pub fn words(&self) -> usize {
        match self.hole_count() {
            0..=64 => 1,
            65..=128 => 2,
            _ => 4,
        }
    }

    /// Every hole.
    #[must_use]
    pub fn holes(&self) -> WidePegs {
        WidePegs::first(self.hole_count())
    }

    /// The conventional start, when the shape has one.
    #[must_use]
    pub const fn start(&self) -> Option<WidePegs> {
        self.start
    }

    /// Every jump of the board.
    #[must_use]
    pub fn jumps(&self) -> &[WideJump] {
        &self.jumps
    }

    /// How many symmetries the board has (the identity included).
    #[must_use]
    pub fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }

    /// The image of `pegs` under symmetry `g` (0 is the identity).
    #[must_use]
    pub fn apply_symmetry(&self, g: usize, pegs: WidePegs) -> WidePegs {
        pegs.iter().fold(WidePegs::EMPTY, |s, h| {
            s.with(Hole::at(usize::from(self.symmetries[g][h.index()])))
        })
    }

    /// `(row, col)` of hole `hole` in the bounding box.
    #[must_use]
    pub fn coords(&self, hole: usize) -> (usize, usize) {
        self.coords[hole]
    }

    /// `(row, col)` of hole `hole` on the compact grid (rows and columns without a hole
    /// closed up, as drawings use).
    #[must_use]
    pub fn compact_coords(&self, hole: usize) -> (usize, usize) {
        self.compact[hole]
    }

    /// How many rows the compact grid has.
    #[must_use]
    pub fn compact_rows(&self) -> usize {
        self.compact_rows.len()
    }

    /// The hole at `(row, col)` of the bounding box, if there is one.
    #[must_use]
    pub fn hole_at(&self, row: i64, col: i64) -> Option<usize> {
        if row < 0 || col < 0 {
            return None;
        }
        self.coords
            .binary_search(&(row as usize, col as usize))
            .ok()
    }

    /// The label of a hole, e.g. `d4`.
    #[must_use]
    pub fn label(&self, hole: usize) -> String {
        let (r, c) = self.coords[hole];
        labels::label(r, c)
    }

    /// The labels of a set of holes, in hole order.
    #[must_use]
    pub fn labels(&self, set: WidePegs) -> Vec<String> {
        set.iter().map(|h| self.label(h.index())).collect()
    }

    /// The hole with this label.
    pub fn hole(&self, label: &str) -> Result<usize> {
        let (r, c) = labels::parse_label(label)?;
        self.hole_at(r as i64, c as i64)
            .ok_or_else(|| Error::NoSuchHole {
                label: label.trim().to_string(),
                board: self.name.clone(),
            })
    }

    /// The holes of a list of labels separated by commas or spaces.
    pub fn hole_set(&self, labels: &str) -> Result<WidePegs> {
        labels
            .split([',', ' '])
            .filter(|s| !s.trim().is_empty())
            .try_fold(WidePegs::EMPTY, |s, l| Ok(s.with(Hole::at(self.hole(l)?))))
    }

    /// The position class of `pegs`: the parity of its pegs on each functional. Jumps keep
    /// it, so a finish in another class cannot be reached.
    #[must_use]
    pub fn class_of(&self, pegs: WidePegs) -> Vec<bool> {
        self.functionals
            .iter()
            .map(|f| f.intersect(pegs).count() % 2 == 1)
            .collect()
    }

    /// A basis of the sets whose parity of pegs no jump changes: each meets every jump in 0
    /// or 2 holes. The position class is the parity on each.
    #[must_use]
    pub fn class_sets(&self) -> &[WidePegs] {
        &self.functionals
    }

    /// Draws the board with `mark(hole)` in each hole, with column letters and row numbers.
    #[must_use]
    pub fn draw_marks(&self, mark: impl Fn(usize) -> char) -> String {
        self.draw_cells(|h| mark(h).to_string())
    }

    /// Draws the board with the text `cell(hole)` in each hole (weights, counts), columns
    /// as wide as their widest cell.
    #[must_use]
    pub fn draw_cells(&self, cell: impl Fn(usize) -> String) -> String {
        draw_compact(
            self.rows,
            &self.compact_rows,
            &self.compact_cols,
            (0..self.hole_count()).map(|h| (self.compact[h], cell(h))),
        )
    }

    /// How many position classes the board has (2 to the number of functionals).
    #[must_use]
    pub fn class_count(&self) -> u128 {
        1u128
            .checked_shl(self.functionals.len() as u32)
            .unwrap_or(0)
    }

    /// Draws a position: `o` a peg, `.` an empty hole, with column letters and row numbers.
    #[must_use]
    pub fn draw(&self, pegs: WidePegs) -> String {
        draw_compact(
            self.rows,
            &self.compact_rows,
            &self.compact_cols,
            (0..self.hole_count()).map(|h| {
                let c = if pegs.contains(Hole::at(h)) { "o" } else { "." };
                (self.compact[h], c.to_string())
            }),
        )
    }

    /// The board as a picture in its own file format (`o` pegs, `.` holes), with `pegs`; it
    /// reads back as the same board (see [`crate::Board::to_picture`]).
    #[must_use]
    pub fn to_picture(&self, pegs: WidePegs) -> String {
        let mut out = String::new();
        if self.lattice != Lattice::Orthogonal {
            out.push_str(&format!("lattice: {}\n", self.lattice));
        }
        if looks_spaced(&self.coords) {
            out.push_str("columns: exact\n");
        }
        let mut holes = self.coords.iter().enumerate().peekable();
        for r in 0..self.rows {
            let mut col = 0;
            while let Some(&(h, &(hr, hc))) = holes.peek() {
                if hr != r {
                    break;
                }
                out.extend(std::iter::repeat_n(' ', hc - col));
                out.push(if pegs.contains(Hole::at(h)) { 'o' } else { '.' });
                col = hc + 1;
                holes.next();
            }
            out.push('\n');
        }
        out
    }

    /// The jump from `from` to `to`, if the board has one (two steps apart on a line).
    pub fn jump_between(&self, from: usize, to: usize) -> Result<WideJump> {
        self.jumps
            .iter()
            .copied()
            .find(|j| j.from() == from && j.to() == to)
            .ok_or_else(|| Error::NotAJump {
                jump: format!("{}-{}", self.label(from), self.label(to)),
                board: self.name.clone(),
                why: "the holes are not two steps apart on a line of holes".to_string(),
            })
    }

    /// The text of a jump, e.g. `d2-d4`.
    #[must_use]
    pub fn jump_text(&self, j: WideJump) -> String {
        format!("{}-{}", self.label(j.from()), self.label(j.to()))
    }
}

/// Replays `jumps` from `start` and returns the final position, checking every jump from the
/// holes' coordinates alone: `from`, `over` and `to` consecutive on one line of the lattice,
/// pegs on `from` and `over`, `to` empty. It shares nothing with the solver's tables, so it
/// checks them too.
pub fn replay_wide(board: &WideBoard, start: WidePegs, jumps: &[WideJump]) -> Result<WidePegs> {
    let mut pegs = start;
    for (k, j) in jumps.iter().enumerate() {
        let n = board.hole_count();
        if j.from() >= n || j.over() >= n || j.to() >= n {
            return Err(Error::IllegalJump {
                number: k + 1,
                jump: format!("#{}-#{}", j.from(), j.to()),
                why: "no such hole".to_string(),
            });
        }
        let bad = |why: &str| Error::IllegalJump {
            number: k + 1,
            jump: board.jump_text(*j),
            why: why.to_string(),
        };
        let (a, b, c) = (
            board.coords(j.from()),
            board.coords(j.over()),
            board.coords(j.to()),
        );
        let d1 = (b.0 as i64 - a.0 as i64, b.1 as i64 - a.1 as i64);
        let d2 = (c.0 as i64 - b.0 as i64, c.1 as i64 - b.1 as i64);
        let step_ok = board
            .lattice()
            .directions()
            .iter()
            .any(|&(r, c)| (i64::from(r), i64::from(c)) == d1);
        if d1 != d2 || !step_ok {
            return Err(bad("the holes are not in a line"));
        }
        if !pegs.contains(Hole::at(j.from())) || !pegs.contains(Hole::at(j.over())) {
            return Err(bad("a peg is missing"));
        }
        if pegs.contains(Hole::at(j.to())) {
            return Err(bad("the landing hole is not empty"));
        }
        pegs = pegs
            .without(Hole::at(j.from()))
            .without(Hole::at(j.over()))
            .with(Hole::at(j.to()));
    }
    Ok(pegs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_boards_agree_with_the_narrow_ones_where_both_exist() {
        for name in [
            "english",
            "french",
            "wiegleb",
            "triangle:5",
            "hexagon:4",
            "rect:3x5",
        ] {
            let narrow = crate::Board::builtin(name).unwrap();
            let wide = WideBoard::builtin(name).unwrap();
            assert_eq!(wide.hole_count(), narrow.hole_count(), "{name}");
            assert_eq!(wide.jumps().len(), narrow.jumps().len(), "{name}");
            assert_eq!(wide.symmetry_count(), narrow.symmetries().len(), "{name}");
            assert_eq!(
                wide.class_count(),
                u128::from(narrow.classes().count()),
                "{name}"
            );
            assert_eq!(
                wide.draw(wide.start().unwrap()),
                narrow.draw(narrow.start().unwrap()),
                "{name}"
            );
            for h in 0..wide.hole_count() {
                assert_eq!(wide.label(h), narrow.label(crate::Hole::new(h).unwrap()));
            }
            let start = wide.start().unwrap();
            assert_eq!(
                wide.to_picture(start),
                narrow.to_picture(narrow.start().unwrap()),
                "{name}"
            );
        }
    }

    #[test]
    fn pictures_read_back_as_the_same_board() {
        for name in ["triangle:11", "hexagon:6", "rect:9x9", "rect:1x70"] {
            let board = WideBoard::builtin(name).unwrap();
            let pegs = board
                .holes()
                .without(Hole::at(3))
                .without(Hole::at(board.hole_count() - 1));
            let back = WideBoard::parse(name, &board.to_picture(pegs)).unwrap();
            assert_eq!(back.hole_count(), board.hole_count(), "{name}");
            assert_eq!(back.start(), Some(pegs), "{name}");
            assert_eq!(back.lattice(), board.lattice(), "{name}");
            for h in 0..board.hole_count() {
                assert_eq!(back.coords(h), board.coords(h), "{name}");
            }
        }
    }

    #[test]
    fn replay_checks_lines_pegs_and_landing_holes() {
        let board = WideBoard::builtin("rect:9x9").unwrap();
        let start = board.holes().without(Hole::at(board.hole("e5").unwrap()));
        let j = |f: &str, o: &str, t: &str| WideJump {
            from: board.hole(f).unwrap() as u16,
            over: board.hole(o).unwrap() as u16,
            to: board.hole(t).unwrap() as u16,
        };
        let after = replay_wide(&board, start, &[j("e3", "e4", "e5")]).unwrap();
        assert_eq!(after.count(), 79);
        assert!(replay_wide(&board, start, &[j("e3", "e4", "e6")]).is_err());
        assert!(replay_wide(&board, start, &[j("c5", "d5", "e5"), j("c5", "d5", "e5")]).is_err());
        assert!(replay_wide(&board, start, &[j("a1", "a2", "a3")]).is_err());
        assert!(replay_wide(&board, start, &[j("c3", "d4", "e5")]).is_err()); // no diagonals
    }
}
