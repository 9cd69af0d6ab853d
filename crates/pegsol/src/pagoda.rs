//! Pagoda functions: hole weights `w` with `w(from) + w(over) >= w(to)` for every jump.
//!
//! Invariant: a jump changes the total weight of the pegs by `w(to) - w(from) - w(over) <= 0`,
//! so the total never rises, whatever the signs of the weights. A position whose total is
//! below every finish's cannot reach one; the solver cuts such positions. Weights of both
//! signs are allowed: the strong arguments use negative ones (George Bell's "resource count"
//! on the 45-hole board is a function of -1, 0 and 1).

use crate::bitset::{Bits, Hole, Word};
use crate::board::Board;
use crate::jumps::Jump;
use crate::lattice::Lattice;

/// The largest weight a [`Pagoda`] may hold. Totals of up to 2^14 holes, and their
/// differences, then fit an `i64` exactly, so no total or comparison can wrap.
pub const MAX_WEIGHT: i64 = 1 << 48;

/// Integer hole weights on one board, each at most [`MAX_WEIGHT`] in size, of either sign.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pagoda {
    weights: Vec<i64>,
}

impl Pagoda {
    /// Weights by hole index. Checked: `None` if the length is wrong, a weight is above
    /// [`MAX_WEIGHT`] in size, or some jump breaks the pagoda condition (use
    /// [`Pagoda::broken_jump`] to find which).
    #[must_use]
    pub fn new(board: &Board, weights: Vec<i64>) -> Option<Pagoda> {
        let p = Pagoda { weights };
        (p.fits(board.hole_count()) && p.broken_jump(board).is_none()).then_some(p)
    }

    /// One weight a hole for `holes` holes, each at most [`MAX_WEIGHT`] in size.
    fn fits(&self, holes: usize) -> bool {
        self.weights.len() == holes
            && self
                .weights
                .iter()
                .all(|&w| (-MAX_WEIGHT..=MAX_WEIGHT).contains(&w))
    }

    /// The least total over `finishes` (`None` when there are none): a position that totals
    /// less cannot reach any of them.
    #[must_use]
    pub fn floor<W: Word>(&self, finishes: &[Bits<W>]) -> Option<i64> {
        finishes.iter().map(|&f| self.total(f)).min()
    }

    /// The least total any position can have: the sum of the negative weights (0 for a
    /// function of non-negative weights).
    #[must_use]
    pub fn min_total(&self) -> i64 {
        self.weights.iter().filter(|&&w| w < 0).sum()
    }

    /// Whether some position totals less than the floor of `finishes`, so that the function
    /// can cut anything at all.
    #[must_use]
    pub fn can_cut<W: Word>(&self, finishes: &[Bits<W>]) -> bool {
        self.floor(finishes).is_some_and(|f| f > self.min_total())
    }

    /// How much room the function leaves from `start` towards `finishes`, as a share of the
    /// start's total above the least possible: `(total(start) - floor) / (total(start) -
    /// min_total)`. Smaller cuts earlier; below zero it refutes the start. For non-negative
    /// weights this is `1 - floor / total(start)`.
    #[must_use]
    pub fn room<W: Word>(&self, start: Bits<W>, finishes: &[Bits<W>]) -> f64 {
        let Some(floor) = self.floor(finishes) else {
            return f64::INFINITY;
        };
        let (total, least) = (self.total(start), self.min_total());
        if total <= least {
            return if floor > total { -1.0 } else { f64::INFINITY };
        }
        (total - floor) as f64 / (total - least) as f64
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

    /// What `jump` changes the total by: `w(to) - w(from) - w(over)`, never above 0.
    #[must_use]
    pub fn jump_change(&self, jump: Jump) -> i64 {
        self.weight(jump.to()) - self.weight(jump.from()) - self.weight(jump.over())
    }

    /// The weights by hole index.
    #[must_use]
    pub fn weights(&self) -> &[i64] {
        &self.weights
    }

    /// The total weight of the pegs, in a position of any width. Never rises along a game.
    #[must_use]
    pub fn total<W: Word>(&self, pegs: Bits<W>) -> i64 {
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
        let holes: Vec<(usize, usize)> =
            board.each_hole().map(|h| board.compact_coords(h)).collect();
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
    /// A pagoda function of any signs that refutes the problem `start` to `finishes` (its
    /// start total below every finish's), if one exists, found by linear programming.
    ///
    /// The program: weights `w` in `[-1, 1]` and a margin `z`, maximise `z` subject to
    /// `w(from) + w(over) >= w(to)` for every jump and `total(f) - total(start) >= z` for every
    /// finish `f`. It is complete for single functions: the conditions are homogeneous, so any
    /// refuting function, scaled into the box, is feasible with `z > 0`, and the optimum is
    /// positive exactly when one exists. The floating-point optimum is made exact by scaling
    /// by small denominators and rounding, and kept only if it checks in integers.
    #[must_use]
    pub fn refuting<W: Word>(
        board: &Board,
        start: Bits<W>,
        finishes: &[Bits<W>],
    ) -> Option<Pagoda> {
        let jumps: Vec<[usize; 3]> = board
            .jumps()
            .iter()
            .map(|j| [j.from().index(), j.over().index(), j.to().index()])
            .collect();
        let holes = |p: Bits<W>| p.iter().map(Hole::index).collect::<Vec<_>>();
        let lists: Vec<Vec<usize>> = finishes.iter().map(|&f| holes(f)).collect();
        let refutes = |p: &Pagoda| p.floor(finishes).is_some_and(|f| p.total(start) < f);
        refuting_weights(board.hole_count(), &jumps, &holes(start), &lists, |w| {
            Pagoda::new(board, w).filter(refutes)
        })
    }

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
    pub fn fit<W: Word>(board: &Board, start: Bits<W>, finish: Bits<W>) -> Option<Pagoda> {
        Pagoda::fit_any(board, start, &[finish])
    }

    /// [`Pagoda::fit`] for several finishes at once: each must total at least 1. If the
    /// result totals less on `start` than on every finish, it refutes them all.
    #[must_use]
    pub fn fit_any<W: Word>(board: &Board, start: Bits<W>, finishes: &[Bits<W>]) -> Option<Pagoda> {
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
        pagoda_conditions(&mut lp, board, &vars);
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

/// The first of the usual denominators, smallest first, whose scaling of `values` rounds to
/// weights that `accept` takes (given the denominator and the weights).
fn scaled(values: &[f64], accept: impl Fn(i64, Vec<i64>) -> Option<Pagoda>) -> Option<Pagoda> {
    [
        1i64, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 30, 36, 48, 60, 120, 240, 360, 720, 2520, 5040,
    ]
    .into_iter()
    .find_map(|den| {
        accept(
            den,
            values
                .iter()
                .map(|&x| (x * den as f64).round() as i64)
                .collect(),
        )
    })
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

impl Pagoda {
    /// A signed pagoda function fitted to cut a count or a search bound for `finish`: weights
    /// in `[-1, 1]` maximising the finish's total less a tenth of the sum of all weights, so
    /// that the finish totals high and the holes that rarely matter go negative; a mid-game
    /// position, about half its holes pegged, then often totals below the finish and is cut.
    /// (On the English board, finishing in the centre, it cuts 18% of the positions of the
    /// largest level a meeting keeps.) `None` where the program's optimum is no pagoda
    /// function with small denominators, or the zero function (nothing to cut).
    #[must_use]
    pub(crate) fn pruning<W: Word>(board: &Board, finish: Bits<W>) -> Option<Pagoda> {
        use microlp::{OptimizationDirection, Problem};
        let n = board.hole_count();
        let mut lp = Problem::new(OptimizationDirection::Maximize);
        let mut gain = vec![-0.1; n];
        for h in finish.iter() {
            gain[h.index()] += 1.0;
        }
        let vars: Vec<_> = gain.iter().map(|&g| lp.add_var(g, (-1.0, 1.0))).collect();
        pagoda_conditions(&mut lp, board, &vars);
        let outcome = std::panic::catch_unwind(|| lp.solve()).ok()?.ok()?;
        let microlp::SolveOutcome::Solution(solution) = outcome else {
            return None;
        };
        let values: Vec<f64> = vars.iter().map(|&v| solution.var_value(v)).collect();
        // A vertex of the program is rational: the first denominator that scales it to
        // integers exactly gives its weights (a rounding that merely passes is another
        // function, not the optimum).
        scaled(&values, |den, weights| {
            let exact = weights
                .iter()
                .zip(&values)
                .all(|(&w, &x)| (w as f64 / den as f64 - x).abs() < 1e-6);
            exact.then(|| Pagoda::new(board, weights)).flatten()
        })
        .filter(|p| p.weights.iter().any(|&w| w != 0))
    }
}

/// A pagoda function with a name and a source, for a built-in board.
#[derive(Clone, Debug)]
pub struct Named {
    /// What it is called.
    pub name: &'static str,
    /// Where it comes from.
    pub source: &'static str,
    /// The function.
    pub pagoda: Pagoda,
}

/// The named functions: (board, name, source, weights row by row, left to right).
const NAMED: &[(&str, &str, &str, &str)] = &[(
    "wiegleb",
    "resource count",
    "George Bell's resource count for the 45-hole board (his Wiegleb page)",
    "-1 0 -1 / 1 0 1 / 0 0 0 / -1 1 0 1 0 1 0 1 -1 / 0 0 0 0 0 0 0 0 0 / -1 1 0 1 0 1 0 1 -1 / 0 0 0 / 1 0 1 / -1 0 -1",
)];

impl Pagoda {
    /// Everything known for `board` before any problem is given: the [`Pagoda::stock`] and the
    /// [`Pagoda::named`] functions.
    #[must_use]
    pub fn library(board: &Board) -> Vec<Pagoda> {
        let mut all = Pagoda::stock(board);
        all.extend(Pagoda::named(board).into_iter().map(|n| n.pagoda));
        all
    }

    /// The named functions of `board`: those published for the built-in board of its name
    /// and shape (none for other boards). Each is checked to be a pagoda function.
    ///
    /// ```
    /// let b = pegsol::Board::builtin("wiegleb").unwrap();
    /// let named = pegsol::Pagoda::named(&b);
    /// assert_eq!(named[0].name, "resource count");
    /// assert!(named[0].pagoda.weights().iter().any(|&w| w < 0));
    /// ```
    #[must_use]
    pub fn named(board: &Board) -> Vec<Named> {
        let Ok(builtin) = Board::builtin(board.name()) else {
            return Vec::new();
        };
        let same = builtin.lattice() == board.lattice()
            && builtin.hole_count() == board.hole_count()
            && board
                .each_hole()
                .all(|h| builtin.coords(h) == board.coords(h));
        if !same {
            return Vec::new();
        }
        NAMED
            .iter()
            .filter(|n| n.0.eq_ignore_ascii_case(board.name()))
            .filter_map(|&(_, name, source, rows)| {
                let weights: Vec<i64> = rows
                    .split(['/', ' '])
                    .filter(|t| !t.is_empty())
                    .map(|t| t.parse().ok())
                    .collect::<Option<_>>()?;
                Some(Named {
                    name,
                    source,
                    pagoda: Pagoda::new(board, weights)?,
                })
            })
            .collect()
    }
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

/// The refuting program of [`Pagoda::refuting`] on `n` holes and these jumps (hole indices
/// `[from, over, to]`); its optimum made exact and handed to `accept`, which rechecks it in
/// integers.
pub(crate) fn refuting_weights(
    n: usize,
    jumps: &[[usize; 3]],
    start: &[usize],
    finishes: &[Vec<usize>],
    accept: impl Fn(Vec<i64>) -> Option<Pagoda>,
) -> Option<Pagoda> {
    use microlp::{ComparisonOp, OptimizationDirection, Problem};
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let vars: Vec<_> = (0..n).map(|_| lp.add_var(0.0, (-1.0, 1.0))).collect();
    let z = lp.add_var(1.0, (-2.0 * n as f64, 2.0 * n as f64));
    for &[a, b, c] in jumps {
        lp.add_constraint(
            [(vars[a], 1.0), (vars[b], 1.0), (vars[c], -1.0)],
            ComparisonOp::Ge,
            0.0,
        );
    }
    let mut in_start = vec![0.0; n];
    for &h in start {
        in_start[h] = 1.0;
    }
    if finishes.is_empty() {
        return None;
    }
    for f in finishes {
        // total(f) - total(start) - z >= 0, with the holes in both cancelling.
        let mut c: Vec<f64> = in_start.iter().map(|&x| -x).collect();
        for &h in f {
            c[h] += 1.0;
        }
        let mut terms: Vec<(microlp::Variable, f64)> = (0..n)
            .filter(|&h| c[h] != 0.0)
            .map(|h| (vars[h], c[h]))
            .collect();
        terms.push((z, -1.0));
        lp.add_constraint(terms, ComparisonOp::Ge, 0.0);
    }
    let outcome = std::panic::catch_unwind(|| lp.solve()).ok()?.ok()?;
    let microlp::SolveOutcome::Solution(solution) = outcome else {
        return None;
    };
    if solution.var_value(z) <= 1e-7 {
        return None;
    }
    let values: Vec<f64> = vars.iter().map(|&v| solution.var_value(v)).collect();
    // A vertex of the program is rational; scaled by the right denominator it rounds to
    // itself. Try the usual ones, smallest first (they give the plainest weights), then
    // each weight's own fraction by continued fractions over their least common multiple
    // (vertices with denominators such as 902 occur on irregular boards).
    scaled(&values, |_, w| accept(w)).or_else(|| {
        let fractions: Vec<(i64, i64)> = values
            .iter()
            .map(|&x| {
                let (num, den) = rational(x.abs(), 1 << 20);
                (if x < 0.0 { -num } else { num }, den)
            })
            .collect();
        let mut den = 1i64;
        for &(_, d) in &fractions {
            den = lcm(den, d)?;
        }
        accept(
            fractions
                .iter()
                .map(|&(num, d)| num.checked_mul(den / d))
                .collect::<Option<Vec<i64>>>()?,
        )
    })
}

/// Adds the pagoda condition `w(from) + w(over) >= w(to)` of every jump of `board` to a
/// linear program whose variable `vars[h]` is the weight of hole `h`.
fn pagoda_conditions(lp: &mut microlp::Problem, board: &Board, vars: &[microlp::Variable]) {
    for j in board.jumps() {
        lp.add_constraint(
            [
                (vars[j.from().index()], 1.0),
                (vars[j.over().index()], 1.0),
                (vars[j.to().index()], -1.0),
            ],
            microlp::ComparisonOp::Ge,
            0.0,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pruning function is a pagoda function (checked by `Pagoda::new`) on every board
    /// it is fitted to, and on the English board, finishing in the centre, the centre 2, the
    /// cross 1 and the arms' corners -1 (pinned: a change of the program shows here).
    #[test]
    fn pruning_functions_are_pagoda_functions() {
        let b = Board::builtin("english").unwrap();
        let centre: Bits = b.hole_set("d4").unwrap();
        let f = Pagoda::pruning(&b, centre).unwrap();
        assert_eq!(
            f.weights(),
            [
                -1, 0, -1, 1, 1, 1, -1, 1, 0, 1, 0, 1, -1, 0, 1, 1, 2, 1, 1, 0, -1, 1, 0, 1, 0, 1,
                -1, 1, 1, 1, -1, 0, -1
            ]
        );
        assert!(f.can_cut(&[centre]));
        for (name, finish) in [
            ("french", "d4"),
            ("french", "e1"),
            ("triangle6", "a1"),
            ("english-diagonal", "d4"),
            ("wiegleb", "e5"),
            ("rect:5x5", "c3"),
        ] {
            let b = Board::builtin(name).unwrap();
            let finish: Bits = b.hole_set(finish).unwrap();
            if let Some(f) = Pagoda::pruning(&b, finish) {
                assert!(f.broken_jump(&b).is_none(), "{name}");
                assert!(f.weights().iter().any(|&w| w != 0), "{name}");
            }
        }
    }

    #[test]
    fn stock_is_valid_and_total_never_rises() {
        let b = Board::builtin("english").unwrap();
        let stock = Pagoda::stock(&b);
        assert!(stock.len() > 10);
        for p in &stock {
            assert!(p.broken_jump(&b).is_none());
            for j in b.jumps() {
                let before: Bits = j.needs();
                assert_eq!(
                    p.total(j.apply(before)) - p.total(before),
                    p.jump_change(*j)
                );
                assert!(p.total(j.apply(before)) <= p.total(before));
            }
        }
    }

    #[test]
    fn the_named_functions_are_pagoda_functions() {
        let b = Board::builtin("wiegleb").unwrap();
        let named = Pagoda::named(&b);
        assert_eq!(named.len(), 1);
        assert!(named[0].pagoda.broken_jump(&b).is_none());
        assert!(Pagoda::named(&Board::builtin("english").unwrap()).is_empty());
    }

    #[test]
    fn signed_refutations_are_complete_and_exact() {
        // A 1x4 row with pegs on a1 and b1 cannot end with one peg on d1; weights 0 0 0 1
        // are no pagoda function (c1 + b1 < d1), but signed ones like -1 0 1 1 refute it.
        let b = Board::builtin("rect:1x4").unwrap();
        let start: Bits = b.hole_set("a1,b1").unwrap();
        let finish = b.hole("d1").unwrap().bit();
        let p = Pagoda::refuting(&b, start, &[finish]).unwrap();
        assert!(p.total(start) < p.total(finish));
        assert!(p.broken_jump(&b).is_none());
        // The solvable a1,b1 -> c1 is never refuted.
        let c1 = b.hole("c1").unwrap().bit();
        assert!(Pagoda::refuting(&b, start, &[c1]).is_none());
    }

    #[test]
    fn invalid_weights_are_refused() {
        let b = Board::builtin("rect:1x3").unwrap();
        assert!(Pagoda::new(&b, vec![0, 0, 1]).is_none());
        assert!(Pagoda::new(&b, vec![1, 0, 1]).is_some());
        assert!(Pagoda::new(&b, vec![1, 1]).is_none());
    }
}
