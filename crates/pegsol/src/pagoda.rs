//! Pagoda functions: hole weights `w` with `w(from) + w(over) >= w(to)` for every jump.
//!
//! Invariant: a jump changes the total weight of the pegs by `w(to) - w(from) - w(over) <= 0`,
//! so the total never rises. A position whose total is below the finish's cannot reach it;
//! the solver cuts such positions.

use crate::bitset::{Bits, Hole};
use crate::board::Board;
use crate::jumps::Jump;
use crate::lattice::Lattice;

/// The largest weight a [`Pagoda`] may hold. Totals of up to 2^14 holes, and their
/// differences, then fit an `i64` exactly, so no total or comparison can wrap.
pub const MAX_WEIGHT: i64 = 1 << 48;

/// Integer hole weights on one board, each at most [`MAX_WEIGHT`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pagoda {
    weights: Vec<i64>,
}

impl Pagoda {
    /// Weights by hole index. Checked: `None` if the length is wrong, a weight is negative or
    /// above [`MAX_WEIGHT`], or some jump breaks the pagoda condition (use
    /// [`Pagoda::broken_jump`] to find which).
    #[must_use]
    pub fn new(board: &Board, weights: Vec<i64>) -> Option<Pagoda> {
        let p = Pagoda { weights };
        (p.weights.len() == board.hole_count()
            && p.weights.iter().all(|&w| (0..=MAX_WEIGHT).contains(&w))
            && p.broken_jump(board).is_none())
        .then_some(p)
    }

    /// The first jump whose weights break `w(from) + w(over) >= w(to)`, if any.
    #[must_use]
    pub fn broken_jump(&self, board: &Board) -> Option<Jump> {
        Pagoda::broken_jump_of(board, &self.weights)
    }

    /// [`Pagoda::broken_jump`] for raw weights by hole index (missing ones count as 0), so that
    /// weights can be checked, and the failure named, before a `Pagoda` exists. Checked in
    /// `i128`, which no sum of two `i64` weights can overflow.
    #[must_use]
    pub fn broken_jump_of(board: &Board, weights: &[i64]) -> Option<Jump> {
        let w = |h: Hole| i128::from(weights.get(h.index()).copied().unwrap_or(0));
        board
            .jumps()
            .iter()
            .copied()
            .find(|j| w(j.from()) + w(j.over()) < w(j.to()))
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
    /// same for columns). Rows and columns are those of the board's compact grid, where jumps
    /// keep their lines, so the stock costs the holes, not the bounding box. The
    /// one-dimensional sequences used are the Fibonacci ramps `0, 1, 1, 2, 3, 5, ...` from
    /// either edge, the peaks around each line that holds a hole, and constants, all capped at
    /// `fib(30)` (the minimum of a valid non-negative sequence and a constant is valid, and
    /// the cap keeps every product below [`MAX_WEIGHT`]). Each candidate is checked on the
    /// board before use.
    #[must_use]
    pub fn stock(board: &Board) -> Vec<Pagoda> {
        if board.lattice() != Lattice::Orthogonal {
            return Vec::new();
        }
        let (rows, cols) = board.compact_lines();
        let holes: Vec<(usize, usize)> = board
            .holes()
            .iter()
            .map(|h| board.compact_coords(h))
            .collect();
        let lines_r = one_dimensional(rows.len(), |p| holes.iter().any(|h| h.0 == p));
        let lines_c = one_dimensional(cols.len(), |p| holes.iter().any(|h| h.1 == p));
        let mut out: Vec<Pagoda> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for f in &lines_r {
            for g in &lines_c {
                let weights = holes.iter().map(|&(r, c)| f[r] * g[c]).collect();
                if let Some(p) = Pagoda::new(board, weights) {
                    if p.weights.iter().any(|&w| w > 0) && seen.insert(p.clone()) {
                        out.push(p);
                    }
                }
            }
        }
        out
    }
}

impl Pagoda {
    /// Fits a pagoda function to a problem by linear programming: minimise the start's total
    /// subject to the finish totalling 1 and `w(from) + w(over) >= w(to)` for every jump
    /// (a small secondary weight on every hole keeps the off-start weights low). The LP's
    /// floating-point answer is turned into exact integer weights (continued fractions, then
    /// a common denominator) and checked exactly; `None` if that fails.
    ///
    /// If the returned function totals less on `start` than on `finish`, it proves the
    /// problem impossible. Otherwise it is the function with the least slack, the one that
    /// cuts most positions in a search for this finish.
    #[must_use]
    pub fn fit(board: &Board, start: Bits, finish: Bits) -> Option<Pagoda> {
        Pagoda::fit_any(board, start, &[finish])
    }

    /// [`Pagoda::fit`] for several finishes at once: each must total at least 1. If the
    /// result totals less on `start` than on every finish, it refutes them all.
    #[must_use]
    pub fn fit_any(board: &Board, start: Bits, finishes: &[Bits]) -> Option<Pagoda> {
        use microlp::{ComparisonOp, OptimizationDirection, Problem};
        let n = board.hole_count();
        let mut lp = Problem::new(OptimizationDirection::Minimize);
        let vars: Vec<_> = (0..n)
            .filter_map(Hole::new)
            .map(|h| {
                let cost = if start.contains(h) { 1.0 } else { 0.0 } + 1e-3;
                lp.add_var(cost, (0.0, 64.0))
            })
            .collect();
        for j in board.jumps() {
            lp.add_constraint(
                [
                    (vars[j.from().index()], 1.0),
                    (vars[j.over().index()], 1.0),
                    (vars[j.to().index()], -1.0),
                ],
                ComparisonOp::Ge,
                0.0,
            );
        }
        for finish in finishes {
            let terms: Vec<_> = finish.iter().map(|h| (vars[h.index()], 1.0)).collect();
            lp.add_constraint(terms, ComparisonOp::Ge, 1.0);
        }
        let outcome = std::panic::catch_unwind(|| lp.solve()).ok()?.ok()?;
        let microlp::SolveOutcome::Solution(solution) = outcome else {
            return None;
        };
        let values: Vec<f64> = vars
            .iter()
            .map(|&v| solution.var_value(v).max(0.0))
            .collect();
        let fractions: Vec<(i64, i64)> = values.iter().map(|&x| rational(x, 720)).collect();
        let mut denominator = 1i64;
        for &(_, d) in &fractions {
            denominator = lcm(denominator, d)?;
        }
        let weights = fractions
            .iter()
            .map(|&(num, d)| num.checked_mul(denominator / d))
            .collect::<Option<Vec<i64>>>()?;
        Pagoda::new(board, weights)
    }
}

/// The closest fraction `p/q` to `x >= 0` with `q <= max_den`, by continued fractions.
fn rational(x: f64, max_den: i64) -> (i64, i64) {
    let (mut h0, mut h1, mut k0, mut k1) = (0i64, 1i64, 1i64, 0i64);
    let mut y = x;
    for _ in 0..32 {
        let a = y.floor();
        if a > 1e9 {
            break;
        }
        let a = a as i64;
        let (h2, k2) = (a * h1 + h0, a * k1 + k0);
        if k2 > max_den {
            break;
        }
        (h0, h1, k0, k1) = (h1, h2, k1, k2);
        let frac = y - a as f64;
        if frac < 1e-9 {
            break;
        }
        y = 1.0 / frac;
    }
    (h1, k1.max(1))
}

fn lcm(a: i64, b: i64) -> Option<i64> {
    let gcd = |mut a: i64, mut b: i64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    (a / gcd(a, b)).checked_mul(b).filter(|&l| l <= 1 << 40)
}

/// The cap on one-dimensional weights: `fib(30)`, whose square is below [`MAX_WEIGHT`].
const CAP: i64 = 832_040;

/// Valid one-dimensional weight sequences of length `n`, with peaks at the positions `peak`
/// accepts; every weight at most [`CAP`].
fn one_dimensional(n: usize, peak: impl Fn(usize) -> bool) -> Vec<Vec<i64>> {
    let fib = |k: usize| -> i64 {
        let (mut a, mut b) = (0i64, 1i64);
        for _ in 0..k {
            (a, b) = (b, (a + b).min(CAP));
        }
        a
    };
    let mut out = vec![vec![1; n]];
    // Ramps: weight fib(distance from a zero at one edge), growing to the other edge.
    out.push((0..n).map(fib).collect());
    out.push((0..n).map(|i| fib(n - 1 - i)).collect());
    // Peaks at each position: weight grows towards position p.
    for p in (0..n).filter(|&p| peak(p)) {
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
