//! Pagoda functions: hole weights `w` with `w(from) + w(over) >= w(to)` for every jump.
//!
//! Invariant: a jump changes the total weight of the pegs by `w(to) - w(from) - w(over) <= 0`,
//! so the total never rises. A position whose total is below the finish's cannot reach it;
//! the solver cuts such positions.

use crate::bitset::{Bits, Hole};
use crate::board::Board;
use crate::jumps::Jump;
use crate::lattice::Lattice;

/// Integer hole weights on one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pagoda {
    weights: Vec<i64>,
}

impl Pagoda {
    /// Weights by hole index. Checked: `None` if the length is wrong, a weight is negative or
    /// some jump breaks the pagoda condition (use [`Pagoda::broken_jump`] to find which).
    #[must_use]
    pub fn new(board: &Board, weights: Vec<i64>) -> Option<Pagoda> {
        let p = Pagoda { weights };
        (p.weights.len() == board.hole_count()
            && p.weights.iter().all(|&w| w >= 0)
            && p.broken_jump(board).is_none())
        .then_some(p)
    }

    /// The first jump whose weights break `w(from) + w(over) >= w(to)`, if any.
    #[must_use]
    pub fn broken_jump(&self, board: &Board) -> Option<Jump> {
        board
            .jumps()
            .iter()
            .copied()
            .find(|j| self.weight(j.from()) + self.weight(j.over()) < self.weight(j.to()))
    }

    /// The weight of one hole.
    #[must_use]
    pub fn weight(&self, hole: Hole) -> i64 {
        self.weights.get(hole.index()).copied().unwrap_or(0)
    }

    /// The weights by hole index.
    #[must_use]
    pub fn weights(&self) -> &[i64] {
        &self.weights
    }

    /// The total weight of the pegs. Never rises along a game.
    #[must_use]
    pub fn total(&self, pegs: Bits) -> i64 {
        pegs.iter().map(|h| self.weight(h)).sum()
    }

    /// A stock of pagoda functions for `board`, built from one-dimensional ones.
    ///
    /// On the square lattice the product `f(row) * g(col)` of two valid one-dimensional weight
    /// sequences is valid (a jump along a row scales `g`'s inequality by `f(row) >= 0`, and the
    /// same for columns). The one-dimensional sequences used are the Fibonacci ramps
    /// `0, 1, 1, 2, 3, 5, ...` from either edge, the tent `0, 1, 1, 2, 1, 1, 0`-style peaks
    /// around each line, and constants. Each candidate is checked on the board before use.
    #[must_use]
    pub fn stock(board: &Board) -> Vec<Pagoda> {
        if board.lattice() != Lattice::Orthogonal {
            return Vec::new();
        }
        let (rows, cols) = board.dimensions();
        let mut out: Vec<Pagoda> = Vec::new();
        let lines_r = one_dimensional(rows);
        let lines_c = one_dimensional(cols);
        for f in &lines_r {
            for g in &lines_c {
                let weights = (0..board.hole_count())
                    .filter_map(Hole::new)
                    .map(|h| {
                        let (r, c) = board.coords(h);
                        f[r] * g[c]
                    })
                    .collect();
                if let Some(p) = Pagoda::new(board, weights) {
                    if !out.contains(&p) && p.weights.iter().any(|&w| w > 0) {
                        out.push(p);
                    }
                }
            }
        }
        out
    }
}

/// Valid one-dimensional weight sequences of length `n`.
fn one_dimensional(n: usize) -> Vec<Vec<i64>> {
    let fib = |k: usize| -> i64 {
        let (mut a, mut b) = (0i64, 1i64);
        for _ in 0..k {
            (a, b) = (b, a + b);
        }
        a
    };
    let mut out = vec![vec![1; n]];
    // Ramps: weight fib(distance from a zero at one edge), growing to the other edge.
    out.push((0..n).map(fib).collect());
    out.push((0..n).map(|i| fib(n - 1 - i)).collect());
    // Peaks at each position: weight grows towards position p.
    for p in 0..n {
        let seq: Vec<i64> = (0..n)
            .map(|i| {
                let d = i.abs_diff(p);
                let top = p.max(n - 1 - p);
                fib(top + 1 - d.min(top))
            })
            .collect();
        out.push(seq);
    }
    out.retain(|s| valid_1d(s));
    out
}

fn valid_1d(s: &[i64]) -> bool {
    s.windows(3)
        .all(|w| w[0] + w[1] >= w[2] && w[2] + w[1] >= w[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stock_is_valid_and_total_never_rises() {
        let b = Board::builtin("english").unwrap();
        let stock = Pagoda::stock(&b);
        assert!(stock.len() > 10);
        for p in &stock {
            assert!(p.broken_jump(&b).is_none());
            for j in b.jumps() {
                let before = j.needs();
                assert!(p.total(j.apply(before)) <= p.total(before));
            }
        }
    }

    #[test]
    fn invalid_weights_are_refused() {
        let b = Board::builtin("rect:1x3").unwrap();
        assert!(Pagoda::new(&b, vec![0, 0, 1]).is_none());
        assert!(Pagoda::new(&b, vec![1, 0, 1]).is_some());
        assert!(Pagoda::new(&b, vec![1, 1]).is_none());
    }
}
