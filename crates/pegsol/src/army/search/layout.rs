//! The window of the infinite board the search may use, and its geometry per cell.

use std::collections::HashMap;

use super::cells::CellSet;
use crate::army::bound::WindowPagoda;
use crate::army::geometry::{across, distance, mirror, pagoda_bound, steps, Cell, SIGMA};
use crate::Lattice;

/// The part of the infinite board the search may use: rows from the target's down to
/// `-below`, and cells at most `half_width` columns (half cells: `2 * half_width` across)
/// either side of the target's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Columns either side of the target.
    pub half_width: i32,
    /// Rows below the line the window reaches down to (`0`: the line only).
    pub below: i32,
}

impl Window {
    /// The window used when none is given: the one the orthogonal army has always used
    /// (columns -5..5, eleven rows) for rows 1 to 4, and for the other lattices the widest
    /// that fits 256 cells with rows to 4 below the line (to 3 on the triangular lattice).
    #[must_use]
    pub fn default_for(lattice: Lattice, row: u32) -> Window {
        let row = row as i32;
        match lattice {
            Lattice::Orthogonal => Window {
                half_width: 5,
                below: (10 - row).max(4),
            },
            Lattice::Diagonal | Lattice::Triangular => {
                let below = if lattice == Lattice::Diagonal { 4 } else { 3 };
                let height = row + 1 + below;
                let half_width = ((256 / height - 1) / 2).min(row + 4);
                Window { half_width, below }
            }
        }
    }

    /// The window's cells, top row first, each row left to right.
    pub(in crate::army) fn cells(self, lattice: Lattice, row: i32) -> Vec<Cell> {
        let mut cells = Vec::new();
        // Wide enough for the triangular lattice's slanted columns.
        let reach = self.half_width + row + self.below + 1;
        for y in (-self.below..=row).rev() {
            for x in -reach..=reach {
                if across(lattice, (x, y), row).abs() <= 2 * self.half_width {
                    cells.push((x, y));
                }
            }
        }
        cells
    }
}

/// The window's geometry, with everything the search looks up per cell.
pub(in crate::army) struct Layout<S> {
    pub(in crate::army) cells: Vec<Cell>,
    index: HashMap<Cell, usize>,
    pub(super) weights: Vec<f64>,
    /// The cells above the line.
    pub(super) above: S,
    /// Per row above the line, its cells and the men a lone man there needs by the pagoda
    /// bound centred on him (1 on or below the line): lineages of different men never help
    /// each other (men only block), so these add up.
    pub(super) need: Vec<(S, u32)>,
    pub(super) mirror: Vec<usize>,
    /// Undo moves per cell `c`: `(a, b)`, the jump `a` over `b` into `c`.
    pub(super) undos: Vec<Vec<(usize, usize)>>,
    /// Every jump of the window, `(a, b, c)`: `a` over `b` into `c`.
    pub(super) jumps: Vec<(usize, usize, usize)>,
    /// Per cell, whether it is on or below the line.
    pub(super) low: Vec<bool>,
    pub(super) lattice: Lattice,
    pub(super) row: i32,
}

impl<S: CellSet> Layout<S> {
    pub(in crate::army) fn new(lattice: Lattice, row: i32, window: Window) -> Option<Layout<S>> {
        let cells = window.cells(lattice, row);
        if cells.len() > S::CAPACITY || !cells.contains(&(0, row)) {
            return None;
        }
        let index: HashMap<Cell, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let mut l = Layout {
            weights: Vec::with_capacity(cells.len()),
            above: S::default(),
            need: Vec::new(),
            mirror: Vec::with_capacity(cells.len()),
            undos: Vec::with_capacity(cells.len()),
            jumps: Vec::new(),
            low: cells.iter().map(|&(_, y)| y <= 0).collect(),
            lattice,
            row,
            index: HashMap::new(),
            cells: Vec::new(),
        };
        for (i, &(x, y)) in cells.iter().enumerate() {
            l.weights.push(SIGMA.powi(distance(lattice, x, y - row)));
            if y > 0 {
                l.above = l.above.flip(i);
            }
            l.mirror.push(index[&mirror(lattice, (x, y), row)]);
            let mut undo = Vec::new();
            for &(dx, dy) in steps(lattice) {
                if let (Some(&a), Some(&b)) = (
                    index.get(&(x - 2 * dx, y - 2 * dy)),
                    index.get(&(x - dx, y - dy)),
                ) {
                    undo.push((a, b));
                    l.jumps.push((a, b, i));
                }
            }
            l.undos.push(undo);
        }
        for y in 1..=row {
            let mut mask = S::default();
            for (i, c) in cells.iter().enumerate() {
                if c.1 == y {
                    mask = mask.flip(i);
                }
            }
            let need = pagoda_bound(lattice, y).unwrap_or(u32::MAX / 1024);
            l.need.push((mask, need));
        }
        l.index = index;
        l.cells = cells;
        Some(l)
    }

    pub(in crate::army) fn index(&self, cell: Cell) -> Option<usize> {
        self.index.get(&cell).copied()
    }

    /// The best pagoda function of the window for `pegs` ([`WindowPagoda::fit`]).
    pub(in crate::army) fn fit(&self, pegs: S) -> Option<WindowPagoda> {
        let cells: Vec<usize> = pegs.members().collect();
        WindowPagoda::fit(&self.jumps, &self.low, &cells)
    }

    pub(super) fn mirror(&self, pegs: S) -> S {
        let mut out = S::default();
        let mut p = pegs;
        while let Some(i) = p.lowest() {
            p = p.flip(i);
            out = out.flip(self.mirror[i]);
        }
        out
    }

    /// The single-man bound of the row of cell `c` (above the line): `need` holds rows 1
    /// up, in order.
    pub(super) fn row_need(&self, c: usize) -> u32 {
        self.need[self.cells[c].1 as usize - 1].1
    }

    /// The men `pegs` need by their lineages: one each on or below the line (`men` less
    /// `up` of them), the single-man bound of his row for each above.
    #[inline]
    pub(super) fn lineage_bound(&self, pegs: S, men: u32, up: u32) -> u32 {
        self.need.iter().fold(men - up, |sum, &(mask, need)| {
            sum.saturating_add(pegs.and(mask).count().saturating_mul(need))
        })
    }
}
