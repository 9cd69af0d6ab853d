//! The infinite board of each lattice, seen from the target: cells `(x, y)` with `y` the row
//! (the army starts on rows `<= 0`), the lattice's unit steps, the distance that the pagoda
//! weights are powers of, and exact arithmetic in `Z[sigma]` for the totals.

use crate::Lattice;

/// `(sqrt 5 - 1) / 2`: `sigma^2 + sigma = 1`.
pub const SIGMA: f64 = 0.618_033_988_749_894_9;

/// A cell of the infinite board: column and row, the target at `(0, N)`.
pub type Cell = (i32, i32);

/// The unit steps `(dx, dy)` of a lattice on the army's board. Rows are lattice lines on every
/// lattice: the triangular lattice's third direction is `(1, 1)`, so its rows are drawn with
/// each row shifted half a cell from the one below (`x` counts along the row).
#[must_use]
pub const fn steps(lattice: Lattice) -> &'static [(i32, i32)] {
    match lattice {
        Lattice::Orthogonal => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
        Lattice::Diagonal => &[
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ],
        Lattice::Triangular => &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)],
    }
}

/// The fewest unit steps from a cell to another `(dx, dy)` away: the lattice's own distance
/// (Manhattan, Chebyshev, hexagonal). One step changes it by at most one, which is what
/// makes `sigma^distance` a pagoda function (see [`super::impossibility`]).
#[must_use]
pub const fn distance(lattice: Lattice, dx: i32, dy: i32) -> i32 {
    let (ax, ay) = (dx.abs(), dy.abs());
    match lattice {
        Lattice::Orthogonal => ax + ay,
        Lattice::Diagonal => max(ax, ay),
        Lattice::Triangular => max(max(ax, ay), (dx - dy).abs()),
    }
}

const fn max(a: i32, b: i32) -> i32 {
    if a > b {
        a
    } else {
        b
    }
}

/// The reflection that fixes the target `(0, row)` and maps each row onto itself.
#[must_use]
pub const fn mirror(lattice: Lattice, (x, y): Cell, row: i32) -> Cell {
    match lattice {
        Lattice::Orthogonal | Lattice::Diagonal => (-x, y),
        Lattice::Triangular => (y - row - x, y),
    }
}

/// Where a cell is drawn across its row, in half cells from the target's column (the mirror
/// negates it): `2x`, and on the triangular lattice `2x - (y - row)`.
#[must_use]
pub const fn across(lattice: Lattice, (x, y): Cell, row: i32) -> i32 {
    match lattice {
        Lattice::Orthogonal | Lattice::Diagonal => 2 * x,
        Lattice::Triangular => 2 * x - (y - row),
    }
}

/// How many cells on or below the line lie at distance `k >= row` from the target `(0, row)`:
/// `a (k - row) + b row + 1`, with `(a, b)` returned here (2, 0 on the orthogonal lattice;
/// 4, 2 on the diagonal one; 3, 1 on the triangular one). No cell on or below the line is
/// nearer than `row`. The tests count them cell by cell.
#[must_use]
pub const fn ring(lattice: Lattice) -> (i64, i64) {
    match lattice {
        Lattice::Orthogonal => (2, 0),
        Lattice::Diagonal => (4, 2),
        Lattice::Triangular => (3, 1),
    }
}

/// A number `p + q sigma` with integers `p`, `q`: exact arithmetic for pagoda totals, since
/// `sigma^2 = 1 - sigma`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Golden {
    /// The rational part.
    pub p: i128,
    /// The coefficient of sigma.
    pub q: i128,
}

impl Golden {
    /// `sigma^k`, for any integer `k` (`1/sigma = 1 + sigma`).
    #[must_use]
    pub fn power(k: i32) -> Golden {
        let mut g = Golden { p: 1, q: 0 };
        for _ in 0..k.unsigned_abs() {
            g = if k > 0 {
                // (p + q s) s = q + (p - q) s
                Golden {
                    p: g.q,
                    q: g.p - g.q,
                }
            } else {
                // (p + q s)(1 + s) = (p + q) + p s
                Golden {
                    p: g.p + g.q,
                    q: g.p,
                }
            };
        }
        g
    }

    /// `self * n + other * m`.
    #[must_use]
    pub fn combine(self, n: i128, other: Golden, m: i128) -> Golden {
        Golden {
            p: self.p * n + other.p * m,
            q: self.q * n + other.q * m,
        }
    }

    /// Whether it is at most 1, exactly.
    #[must_use]
    pub fn at_most_one(self) -> bool {
        self.less_than_one() || self == Golden { p: 1, q: 0 }
    }

    /// Its value as a float (for printing only).
    #[must_use]
    pub fn approx(self) -> f64 {
        self.p as f64 + self.q as f64 * SIGMA
    }

    /// Whether it is less than 1, decided exactly: `p + q sigma < 1` with
    /// `sigma = (sqrt 5 - 1) / 2` is `q sqrt 5 < m` for `m = 2 (1 - p) + q`, compared by
    /// signs and then squares.
    #[must_use]
    pub fn less_than_one(self) -> bool {
        let m = 2 * (1 - self.p) + self.q;
        let q = self.q;
        match (q.signum(), m.signum()) {
            (0, _) => m > 0,
            (1, s) => s > 0 && 5 * q * q < m * m,
            (_, s) => s >= 0 || m * m < 5 * q * q,
        }
    }
}

impl std::fmt::Display for Golden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.p, self.q) {
            (p, 0) => write!(f, "{p}"),
            (0, q) => write!(f, "{q} sigma"),
            (p, q) if q < 0 => write!(f, "{p} - {} sigma", -q),
            (p, q) => write!(f, "{p} + {q} sigma"),
        }
    }
}

/// The total of `sigma^distance` over every cell on or below the line, for the target on
/// `row`: by `ring`, `sum over j >= 0 of (a j + b row + 1) sigma^(row + j)`, which is
/// `a sigma^(row - 3) + (b row + 1) sigma^(row - 2)` (since `sum sigma^j = sigma^-2` and
/// `sum j sigma^j = sigma^-3`).
#[must_use]
pub fn half_plane_total(lattice: Lattice, row: i32) -> Golden {
    let (a, b) = ring(lattice);
    Golden::power(row - 3).combine(
        i128::from(a),
        Golden::power(row - 2),
        i128::from(b) * i128::from(row) + 1,
    )
}

/// The fewest men on or below the line whose weights can total 1 for the target on `row`:
/// the pagoda bound on the infinite board (`None` when even the whole half plane cannot).
#[must_use]
pub fn pagoda_bound(lattice: Lattice, row: i32) -> Option<u32> {
    men_for(lattice, row, 1.0)
}

/// The fewest men on or below the line whose weights (for the target on `row`) can total
/// `total`, taking the heaviest cells first; `None` past 10,000 men.
pub(super) fn men_for(lattice: Lattice, row: i32, total: f64) -> Option<u32> {
    let (a, b) = ring(lattice);
    let mut sum = 0.0;
    let mut men = 0u32;
    for j in 0..200i64 {
        let cells = a * j + b * i64::from(row) + 1;
        let w = SIGMA.powi(row + j as i32);
        for _ in 0..cells {
            sum += w;
            men += 1;
            // A little slack keeps rounding on the safe side (a bound, never too high).
            if sum >= total - 1e-9 {
                return Some(men);
            }
            if men > 10_000 {
                return None;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_step_changes_the_distance_by_at_most_one() {
        for lattice in Lattice::ALL {
            for &(sx, sy) in steps(lattice) {
                assert_eq!(distance(lattice, sx, sy), 1);
                assert!(steps(lattice).contains(&(-sx, -sy)));
                for dx in -9..=9 {
                    for dy in -9..=9 {
                        let d = distance(lattice, dx, dy);
                        let e = distance(lattice, dx + sx, dy + sy);
                        assert!((d - e).abs() <= 1, "{lattice} {dx} {dy}");
                    }
                }
                // The mirror maps steps to steps and keeps distances to the target.
                let (mx, my) = mirror(lattice, (sx, sy + 5), 5);
                assert!(steps(lattice).contains(&(mx, my - 5)), "{lattice}");
            }
            for (x, y) in [(3, -2), (-4, 1), (0, 0), (2, 7)] {
                let m = mirror(lattice, (x, y), 5);
                assert_eq!(distance(lattice, x, y - 5), distance(lattice, m.0, m.1 - 5));
                assert_eq!(across(lattice, m, 5), -across(lattice, (x, y), 5));
                assert_eq!(mirror(lattice, m, 5), (x, y));
            }
        }
    }

    #[test]
    fn ring_sizes_match_a_cell_by_cell_count() {
        for lattice in Lattice::ALL {
            let (a, b) = ring(lattice);
            for row in 1..8 {
                let mut counts = vec![0i64; 40];
                for y in -60..=0 {
                    for x in -80..=80 {
                        let d = distance(lattice, x, y - row) as usize;
                        if d < counts.len() {
                            counts[d] += 1;
                        }
                    }
                }
                for (k, &n) in counts.iter().enumerate().take(30) {
                    let k = k as i64;
                    let expected = if k < i64::from(row) {
                        0
                    } else {
                        a * (k - i64::from(row)) + b * i64::from(row) + 1
                    };
                    assert_eq!(n, expected, "{lattice} row {row} distance {k}");
                }
            }
        }
    }

    #[test]
    fn golden_arithmetic_is_exact() {
        for k in -6..12 {
            let g = Golden::power(k);
            assert!((g.approx() - SIGMA.powi(k)).abs() < 1e-9, "{k}");
        }
        for p in -30..30 {
            for q in -30..30 {
                let g = Golden { p, q };
                let v = g.approx();
                if (v - 1.0).abs() > 1e-9 {
                    assert_eq!(g.less_than_one(), v < 1.0, "{p} + {q} sigma");
                }
            }
        }
        assert!(!Golden { p: 1, q: 0 }.less_than_one());
    }

    #[test]
    fn half_plane_totals_decide_the_last_rows() {
        // Conway: sigma^(row - 5), exactly 1 at row 5.
        for row in 1..10 {
            assert_eq!(
                half_plane_total(Lattice::Orthogonal, row),
                Golden::power(row - 5)
            );
        }
        // The last row each lattice can reach (4, 8, 7): the total is above 1 there and
        // below 1 one row further.
        for (lattice, last) in [
            (Lattice::Orthogonal, 4),
            (Lattice::Diagonal, 8),
            (Lattice::Triangular, 7),
        ] {
            assert!(!half_plane_total(lattice, last).less_than_one());
            assert!(half_plane_total(lattice, last + 1).at_most_one());
            let numeric: f64 = (-80..=0)
                .flat_map(|y| (-120..=120).map(move |x| (x, y)))
                .map(|(x, y)| SIGMA.powi(distance(lattice, x, y - last)))
                .sum();
            assert!((numeric - half_plane_total(lattice, last).approx()).abs() < 1e-6);
        }
    }

    #[test]
    fn pagoda_bounds_on_the_infinite_board() {
        let bounds = |l| (1..=8).map(|r| pagoda_bound(l, r)).collect::<Vec<_>>();
        let some = |v: &[u32]| v.iter().map(|&n| Some(n)).collect::<Vec<_>>();
        assert_eq!(
            bounds(Lattice::Diagonal),
            some(&[2, 3, 5, 7, 12, 21, 40, 97])
        );
        let hex = bounds(Lattice::Triangular);
        assert_eq!(hex[..7], some(&[2, 3, 5, 8, 15, 30, 92])[..]);
        assert_eq!(hex[7], None);
        assert_eq!(pagoda_bound(Lattice::Orthogonal, 4), Some(19));
    }
}
